// SPDX-License-Identifier: BSD-3-Clause
// Tensor<T>'s view ops that cut a tensor into parts or windows (unbind, split, chunk,
// unfold): views of the same storage, O(parts) shape arithmetic, no element memory.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/core/tensor_class.hpp"

namespace tessera {

namespace {
using detail::list_str;
using detail::wrap_dim;
}  // namespace

template <class T>
std::vector<Tensor<T>> Tensor<T>::unbind(std::int64_t dim) const {
  if (this->dim() == 0) {
    detail::raise<IndexError>("unbind", "dimension specified as ", dim,
                              " but the tensor has no dimensions");
  }
  const auto d = wrap_dim("unbind", dim, this->dim());
  std::vector<Tensor> parts;
  const std::int64_t n = shape_[static_cast<std::size_t>(d)];
  parts.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) parts.push_back(select(d, i));
  return parts;
}

template <class T>
std::vector<Tensor<T>> Tensor<T>::split(const std::vector<std::int64_t>& sizes,
                                        std::int64_t dim) const {
  if (this->dim() == 0) {
    detail::raise<IndexError>("split", "split expects at least a 1-dimensional tensor");
  }
  const auto d = wrap_dim("split", dim, this->dim());
  const std::int64_t n = shape_[static_cast<std::size_t>(d)];
  std::int64_t total = 0;
  for (const auto s : sizes) {
    if (s < 0) {
      detail::raise<ValueError>("split",
                                "split_with_sizes expects split_sizes have only "
                                "non-negative entries, but got split_sizes=",
                                list_str(sizes));
    }
    total = s > n - total ? n + 1 : total + s;  // saturating: no overflow for huge entries
  }
  if (total != n) {
    detail::raise<ShapeError>("split", "split_with_sizes expects split_sizes to sum exactly to ", n,
                              " (input tensor's size at dimension ", d,
                              "), but got "
                              "split_sizes=",
                              list_str(sizes));
  }
  std::vector<Tensor> parts;
  parts.reserve(sizes.size());
  std::int64_t start = 0;
  for (const auto s : sizes) {
    parts.push_back(narrow(d, start, s));
    start += s;
  }
  return parts;
}

template <class T>
std::vector<Tensor<T>> Tensor<T>::split(std::int64_t size, std::int64_t dim) const {
  if (this->dim() == 0) {
    detail::raise<IndexError>("split", "split expects at least a 1-dimensional tensor");
  }
  const auto d = wrap_dim("split", dim, this->dim());
  const std::int64_t n = shape_[static_cast<std::size_t>(d)];
  if (size < 0 || (size == 0 && n != 0)) {
    detail::raise<ValueError>("split",
                              "split_size can only be 0 if dimension size is 0, and "
                              "must be non-negative, but got split_size=",
                              size, " for dimension size ", n);
  }
  // PyTorch: at least one part, the last one shorter.
  const std::int64_t count = size == 0 ? 1 : std::max<std::int64_t>((n - 1) / size + 1, 1);
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(count), size);
  sizes.back() = n - size * (count - 1);
  return split(sizes, d);
}

template <class T>
std::vector<Tensor<T>> Tensor<T>::chunk(std::int64_t chunks, std::int64_t dim) const {
  if (this->dim() == 0) {
    detail::raise<IndexError>("chunk", "chunk expects at least a 1-dimensional tensor");
  }
  if (chunks <= 0) {
    detail::raise<ValueError>("chunk",
                              "chunk expects `chunks` to be greater than 0, got: ", chunks);
  }
  const auto d = wrap_dim("chunk", dim, this->dim());
  const std::int64_t n = shape_[static_cast<std::size_t>(d)];
  const std::int64_t size = n == 0 ? 0 : (n - 1) / chunks + 1;
  if (n == 0) {
    // PyTorch keeps the number of chunks when they are all empty.
    return split(std::vector<std::int64_t>(static_cast<std::size_t>(chunks), 0), d);
  }
  return split(size, d);
}

template <class T>
Tensor<T> Tensor<T>::unfold(std::int64_t dim, std::int64_t size, std::int64_t step) const {
  const auto d = static_cast<std::size_t>(wrap_dim("unfold", dim, this->dim()));
  const std::int64_t n = this->dim() == 0 ? 1 : shape_[d];
  const std::int64_t stride = this->dim() == 0 ? 1 : strides_[d];
  if (step <= 0) detail::raise<ValueError>("unfold", "step is ", step, " but must be > 0");
  if (size < 0) detail::raise<ValueError>("unfold", "size is ", size, " but must be >= 0");
  if (size > n) {
    detail::raise<ShapeError>("unfold", "maximum size for tensor at dimension ", d, " is ", n,
                              " but size is ", size, " (tensor shape ", shape_, ")");
  }
  std::vector<std::int64_t> shape(shape_.begin(), shape_.end());
  std::vector<std::int64_t> strides(strides_.begin(), strides_.end());
  if (this->dim() > 0) {
    shape[d] = (n - size) / step + 1;
    strides[d] = stride * step;
  }
  shape.push_back(size);
  strides.push_back(stride);
  const Shape result(shape);
  detail::check_shape("unfold", result, sizeof(T));
  return Tensor(storage_, result, Shape(strides), offset_);
}

#define TESSERA_INSTANTIATE_SPLITS(T)                                                              \
  template std::vector<Tensor<T>> Tensor<T>::unbind(std::int64_t) const;                           \
  template std::vector<Tensor<T>> Tensor<T>::split(std::int64_t, std::int64_t) const;              \
  template std::vector<Tensor<T>> Tensor<T>::split(const std::vector<std::int64_t>&, std::int64_t) \
      const;                                                                                       \
  template std::vector<Tensor<T>> Tensor<T>::chunk(std::int64_t, std::int64_t) const;              \
  template Tensor<T> Tensor<T>::unfold(std::int64_t, std::int64_t, std::int64_t) const;
TESSERA_FOR_EACH_ELEMENT_DTYPE(TESSERA_INSTANTIATE_SPLITS)
#undef TESSERA_INSTANTIATE_SPLITS

}  // namespace tessera
