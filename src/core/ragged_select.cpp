// RaggedTensors built by selecting from others (TensorFlow semantics): rows picked by index
// (`tf.gather`), a dense batch cut back into rows (`from_tensor` with lengths or padding), and
// the masked entries of each row (`tf.ragged.boolean_mask`). The partition is computed on the
// host from host copies of the small inputs; the values are copied row block by row block. On
// a CUDA device the inputs come to the host and the result goes back (one round trip each way)
// until these selections run on the gather kernel.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/extent_product.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace {

/// Elements per entry of `shape` past its first `lead` dims.
std::int64_t inner_of(const Shape& shape, int lead) {
  return detail::extent_product(shape.data() + lead, static_cast<int>(shape.size()) - lead);
}

/// The shape (total, shape[lead:]...) of values gathered from entries of `shape`.
Shape values_shape(std::int64_t total, const Shape& shape, int lead) {
  std::vector<std::int64_t> dims{total};
  for (auto d = static_cast<std::size_t>(lead); d < shape.size(); ++d) dims.push_back(shape[d]);
  return Shape(dims.begin(), dims.end());
}

/// Copies entries [first, first + count) of `src` (entries of `inner` elements) to `dst`.
template <class T>
void copy_entries(const T* src, std::int64_t first, std::int64_t count, std::int64_t inner,
                  T* dst) {
  std::copy(src + first * inner, src + (first + count) * inner, dst);
}

/// ShapeError unless a dense batch has rows and columns.
void check_dense(const char* op, const Shape& dense) {
  if (dense.size() < 2) {
    detail::raise<ShapeError>(op, "dense must have at least 2 dims (rows, columns), got shape ",
                              dense);
  }
}

void check_same_device(const char* op, const char* what, Device got, Device expected) {
  if (got != expected) {
    detail::raise<DeviceError>(op, what, " is on ", got, ", the tensor on ", expected);
  }
}

}  // namespace

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor(const Tensor<T>& dense,
                                                   const Tensor<S>& lengths) {
  constexpr const char* op = "RaggedTensor::from_tensor";
  const detail::OpScope scope(op);
  check_dense(op, dense.shape());
  const std::int64_t nrows = dense.size(0);
  const std::int64_t width = dense.size(1);
  if (lengths.dim() != 1 || lengths.size(0) != nrows) {
    detail::raise<ShapeError>(op, "lengths must have shape (", nrows, "), one per row of dense ",
                              dense.shape(), ", got ", lengths.shape());
  }
  check_same_device(op, "lengths", lengths.device(), dense.device());
  const std::vector<S> len = lengths.to_vector();
  std::vector<S> splits(static_cast<std::size_t>(nrows) + 1, S(0));
  for (std::size_t i = 0; i < len.size(); ++i) {
    if (len[i] < 0 || static_cast<std::int64_t>(len[i]) > width) {
      detail::raise<ValueError>(op, "lengths[", i, "] = ", static_cast<std::int64_t>(len[i]),
                                " is not in [0, ", width, "] (the width of dense)");
    }
    splits[i + 1] = static_cast<S>(splits[i] + len[i]);
  }
  const std::int64_t inner = inner_of(dense.shape(), 2);
  const Tensor<T> src = dense.contiguous().cpu();
  Tensor<T> values = Tensor<T>::empty(values_shape(splits.back(), dense.shape(), 2));
  T* out = values.data();
  for (std::int64_t i = 0; i < nrows; ++i) {
    const auto n = static_cast<std::int64_t>(len[static_cast<std::size_t>(i)]);
    copy_entries(src.data(), i * width, n, inner,
                 out + splits[static_cast<std::size_t>(i)] * inner);
  }
  return RaggedTensor(values.to(dense.device()), Tensor<S>::from_vector(splits, dense.device()));
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor_padded(const Tensor<T>& dense, T pad) {
  constexpr const char* op = "RaggedTensor::from_tensor";
  const detail::OpScope scope(op);
  check_dense(op, dense.shape());
  const std::int64_t nrows = dense.size(0);
  const std::int64_t width = dense.size(1);
  const std::int64_t inner = inner_of(dense.shape(), 2);
  const Tensor<T> src = dense.contiguous().cpu();
  const T* data = src.data();
  std::vector<S> lengths(static_cast<std::size_t>(nrows));
  for (std::int64_t i = 0; i < nrows; ++i) {
    std::int64_t n = width;
    const auto is_pad = [&](std::int64_t j) {
      const T* entry = data + (i * width + j) * inner;
      return std::all_of(entry, entry + inner, [&](T v) { return v == pad; });
    };
    while (n > 0 && is_pad(n - 1)) --n;
    lengths[static_cast<std::size_t>(i)] = static_cast<S>(n);
  }
  return from_tensor(dense, Tensor<S>::from_vector(lengths, dense.device()));
}

template <class T, class S>
template <class I>
RaggedTensor<T, S> RaggedTensor<T, S>::gather_rows(const Tensor<I>& rows) const {
  constexpr const char* op = "RaggedTensor::gather";
  const detail::OpScope scope(op);
  if (rows.dim() != 1) {
    detail::raise<ShapeError>(op, "rows must be 1-d, got shape ", rows.shape());
  }
  check_same_device(op, "rows", rows.device(), device());
  const std::vector<I> picked = rows.to_vector();
  const std::vector<S> splits = row_splits_.to_vector();
  const std::int64_t n = nrows();
  std::vector<S> out_splits{S(0)};
  out_splits.reserve(picked.size() + 1);
  for (std::size_t k = 0; k < picked.size(); ++k) {
    const auto row = static_cast<std::int64_t>(picked[k]);
    if (row < 0 || row >= n) {
      detail::raise<IndexError>(op, "rows[", k, "] = ", row, " is not in [0, ", n, ")");
    }
    const auto r = static_cast<std::size_t>(row);
    out_splits.push_back(static_cast<S>(out_splits.back() + (splits[r + 1] - splits[r])));
  }
  const std::int64_t inner = inner_of(values_.shape(), 1);
  const Tensor<T> src = values_.contiguous().cpu();
  Tensor<T> values = Tensor<T>::empty(values_shape(out_splits.back(), values_.shape(), 1));
  for (std::size_t k = 0; k < picked.size(); ++k) {
    const auto r = static_cast<std::size_t>(picked[k]);
    copy_entries(src.data(), splits[r], splits[r + 1] - splits[r], inner,
                 values.data() + out_splits[k] * inner);
  }
  return RaggedTensor(values.to(device()), Tensor<S>::from_vector(out_splits, device()));
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int64_t>& rows) const {
  return gather_rows(rows);
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int32_t>& rows) const {
  return gather_rows(rows);
}

namespace ragged {

template <class T>
RaggedTensor<T> boolean_mask(const Tensor<T>& x, const Tensor<bool>& mask) {
  constexpr const char* op = "ragged::boolean_mask";
  const tessera::detail::OpScope scope(op);
  if (mask.dim() != 2 || x.dim() < 2 || x.size(0) != mask.size(0) || x.size(1) != mask.size(1)) {
    tessera::detail::raise<ShapeError>(op,
                                       "mask must be 2-d with the shape of x's first two dims: x ",
                                       x.shape(), ", mask ", mask.shape());
  }
  check_same_device(op, "mask", mask.device(), x.device());
  const std::int64_t nrows = x.size(0);
  const std::int64_t width = x.size(1);
  const std::int64_t inner = inner_of(x.shape(), 2);
  const std::vector<bool> keep = mask.to_vector();
  std::vector<std::int64_t> splits{0};
  splits.reserve(static_cast<std::size_t>(nrows) + 1);
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < nrows; ++i) {
    for (std::int64_t j = 0; j < width; ++j) total += keep[static_cast<std::size_t>(i * width + j)];
    splits.push_back(total);
  }
  const Tensor<T> src = x.contiguous().cpu();
  Tensor<T> values = Tensor<T>::empty(values_shape(total, x.shape(), 2));
  std::int64_t at = 0;
  for (std::int64_t e = 0; e < nrows * width; ++e) {
    if (keep[static_cast<std::size_t>(e)])
      copy_entries(src.data(), e, 1, inner, values.data() + at++ * inner);
  }
  return RaggedTensor<T>::from_row_splits(
      values.to(x.device()), Tensor<std::int64_t>::from_vector(splits, x.device()), false);
}

#define TESSERA_INSTANTIATE_BOOLEAN_MASK(T) \
  template RaggedTensor<T> boolean_mask<T>(const Tensor<T>&, const Tensor<bool>&);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_BOOLEAN_MASK)
#undef TESSERA_INSTANTIATE_BOOLEAN_MASK

}  // namespace ragged

#define TESSERA_INSTANTIATE_RAGGED_SELECT(S, T)                                                    \
  template RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor(const Tensor<T>&, const Tensor<S>&); \
  template RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor_padded(const Tensor<T>&, T);         \
  template RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int64_t>&) const;       \
  template RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int32_t>&) const;
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED_SELECT, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED_SELECT, int64_t)
#undef TESSERA_INSTANTIATE_RAGGED_SELECT

}  // namespace tessera
