// SPDX-License-Identifier: BSD-3-Clause
// Tensor<T>'s view ops that keep the elements in one piece (PyTorch's list; unbind, split,
// chunk and unfold are in tensor_splits.cpp): each computes a new shape, strides and offset over
// the same storage in O(dim) work and allocates no element memory. flatten() is the one that may
// copy, through reshape, as torch.flatten. No expression evaluator here: this unit is shape
// arithmetic only.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "tessera/core/tensor_class.hpp"

namespace tessera {

namespace {

using detail::infer_extents;
using detail::list_str;
using detail::wrap_dim;

/// Wraps `d` for an op that inserts a dimension: [-(ndim + 1), ndim].
std::int64_t wrap_insert_dim(const char* op, std::int64_t d, std::int64_t ndim) {
  return wrap_dim(op, d, ndim + 1);
}

/// `values` with `value` inserted before entry `d`.
Shape insert_at(const Shape& values, std::size_t d, std::int64_t value) {
  std::vector<std::int64_t> v(values.begin(), values.end());
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(d), value);
  return Shape(v);
}

}  // namespace

template <class T>
Tensor<T> Tensor<T>::view(const Shape& shape) const {
  const Shape target = infer_extents("view", shape, numel());
  detail::check_shape("view", target, sizeof(T));
  if (target.numel() != numel()) {
    detail::raise<ShapeError>("view", "shape ", shape, " is invalid for input of size ", numel());
  }
  Shape strides;
  if (!detail::view_strides(shape_, strides_, target, strides)) {
    detail::raise<ShapeError>(
        "view", "view size ", target, " is not compatible with input tensor's size ", shape_,
        " and stride ", strides_,
        " (at least one dimension spans across two contiguous subspaces); use reshape() instead");
  }
  return Tensor(storage_, target, strides, offset_);
}

template <class T>
Tensor<T> Tensor<T>::permute(const std::vector<std::int64_t>& dims) const {
  const std::int64_t n = dim();
  if (static_cast<std::int64_t>(dims.size()) != n) {
    detail::raise<ShapeError>(
        "permute",
        "number of dimensions in the tensor input does not match "
        "the length of the desired ordering of dimensions i.e. input.dim() = ",
        n, " is not equal to len(dims) = ", dims.size());
  }
  Shape shape = shape_;
  Shape strides = strides_;
  std::vector<bool> seen(dims.size(), false);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const auto d = static_cast<std::size_t>(wrap_dim("permute", dims[i], n));
    if (seen[d]) {
      detail::raise<ValueError>("permute",
                                "duplicate dims are not allowed: dims = ", list_str(dims));
    }
    seen[d] = true;
    shape[i] = shape_[d];
    strides[i] = strides_[d];
  }
  return Tensor(storage_, shape, strides, offset_);
}

template <class T>
Tensor<T> Tensor<T>::movedim(const std::vector<std::int64_t>& source,
                             const std::vector<std::int64_t>& destination) const {
  const std::int64_t n = dim();
  if (source.size() != destination.size()) {
    detail::raise<ShapeError>("movedim", "Invalid source or destination dims: source (",
                              list_str(source),
                              " dims) should contain the same number of dims as "
                              "destination (",
                              list_str(destination), " dims)");
  }
  const auto count = static_cast<std::size_t>(std::max<std::int64_t>(n, 0));
  std::vector<std::int64_t> order(count, -1);  // order[destination] = source
  std::vector<bool> used_src(count, false);
  for (std::size_t i = 0; i < source.size(); ++i) {
    const auto s = static_cast<std::size_t>(wrap_dim("movedim", source[i], n));
    const auto d = static_cast<std::size_t>(wrap_dim("movedim", destination[i], n));
    if (n == 0) continue;
    if (used_src[s]) {
      detail::raise<ValueError>("movedim", "repeated dim in `source` (", list_str(source), ")");
    }
    if (order[d] != -1) {
      detail::raise<ValueError>("movedim", "repeated dim in `destination` (", list_str(destination),
                                ")");
    }
    used_src[s] = true;
    order[d] = static_cast<std::int64_t>(s);
  }
  if (n == 0) return *this;
  // The dims not moved keep their order in the free destination slots.
  std::size_t next = 0;
  for (std::size_t d = 0; d < count; ++d) {
    if (order[d] != -1) continue;
    while (used_src[next]) ++next;
    order[d] = static_cast<std::int64_t>(next++);
  }
  return permute(order);
}

template <class T>
Tensor<T> Tensor<T>::movedim(std::int64_t source, std::int64_t destination) const {
  return movedim(std::vector<std::int64_t>{source}, std::vector<std::int64_t>{destination});
}

template <class T>
Tensor<T> Tensor<T>::unsqueeze(std::int64_t dim) const {
  const auto d = static_cast<std::size_t>(wrap_insert_dim("unsqueeze", dim, this->dim()));
  const Shape shape = insert_at(shape_, d, 1);
  detail::check_shape("unsqueeze", shape, sizeof(T));
  // The new dim's stride: what a contiguous layout would give it (any value is valid).
  const std::int64_t stride = d < shape_.size() ? shape_[d] * strides_[d] : std::int64_t{1};
  return Tensor(storage_, shape, insert_at(strides_, d, stride), offset_);
}

template <class T>
Tensor<T> Tensor<T>::squeeze() const {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    if (shape_[d] == 1) continue;
    shape.push_back(shape_[d]);
    strides.push_back(strides_[d]);
  }
  return Tensor(storage_, Shape(shape), Shape(strides), offset_);
}

template <class T>
Tensor<T> Tensor<T>::squeeze(std::int64_t dim) const {
  return squeeze(std::vector<std::int64_t>{dim});
}

template <class T>
Tensor<T> Tensor<T>::squeeze(const std::vector<std::int64_t>& dims) const {
  std::vector<bool> drop(shape_.size(), false);
  for (const auto dim : dims) {
    const auto d = static_cast<std::size_t>(wrap_dim("squeeze", dim, this->dim()));
    if (d < shape_.size() && shape_[d] == 1) drop[d] = true;
  }
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    if (drop[d]) continue;
    shape.push_back(shape_[d]);
    strides.push_back(strides_[d]);
  }
  return Tensor(storage_, Shape(shape), Shape(strides), offset_);
}

template <class T>
Tensor<T> Tensor<T>::flatten(std::int64_t start_dim, std::int64_t end_dim) const {
  const auto start = wrap_dim("flatten", start_dim, dim());
  const auto end = wrap_dim("flatten", end_dim, dim());
  if (start > end) {
    detail::raise<IndexError>("flatten", "start_dim (", start_dim, ") cannot come after end_dim (",
                              end_dim, ")");
  }
  if (dim() == 0) return reshape(Shape{1});
  if (start == end) return *this;
  std::vector<std::int64_t> dims;
  std::int64_t merged = 1;
  for (std::int64_t d = 0; d < dim(); ++d) {
    const std::int64_t e = shape_[static_cast<std::size_t>(d)];
    if (d < start || d > end) {
      dims.push_back(e);
    } else {
      merged *= e;
      if (d == end) dims.push_back(merged);
    }
  }
  return reshape(Shape(dims));
}

template <class T>
Tensor<T> Tensor<T>::unflatten(std::int64_t dim, const Shape& sizes) const {
  if (this->dim() == 0) {
    detail::raise<IndexError>("unflatten", "dimension specified as ", dim,
                              " but the tensor has no dimensions");
  }
  const auto d = static_cast<std::size_t>(wrap_dim("unflatten", dim, this->dim()));
  if (sizes.empty()) detail::raise<ShapeError>("unflatten", "sizes must be non-empty");
  const Shape split = infer_extents("unflatten", sizes, shape_[d]);
  if (split.numel() != shape_[d]) {
    detail::raise<ShapeError>("unflatten", "provided sizes ", sizes,
                              " don't multiply up to the size of dim ", dim, " (", shape_[d],
                              ") in the input tensor of shape ", shape_);
  }
  std::vector<std::int64_t> shape(shape_.begin(), shape_.begin() + static_cast<std::ptrdiff_t>(d));
  std::vector<std::int64_t> strides(strides_.begin(),
                                    strides_.begin() + static_cast<std::ptrdiff_t>(d));
  std::vector<std::int64_t> inner(split.size());
  std::int64_t stride = strides_[d];
  for (std::size_t i = split.size(); i-- > 0;) {
    inner[i] = stride;
    stride *= std::max<std::int64_t>(split[i], 1);
  }
  shape.insert(shape.end(), split.begin(), split.end());
  strides.insert(strides.end(), inner.begin(), inner.end());
  for (std::size_t e = d + 1; e < shape_.size(); ++e) {
    shape.push_back(shape_[e]);
    strides.push_back(strides_[e]);
  }
  const Shape result(shape);
  detail::check_shape("unflatten", result, sizeof(T));
  return Tensor(storage_, result, Shape(strides), offset_);
}

template <class T>
Tensor<T> Tensor<T>::expand(const Shape& shape) const {
  const auto n = static_cast<std::int64_t>(shape.size());
  if (n < dim()) {
    detail::raise<ShapeError>("expand", "the number of sizes provided (", n,
                              ") must be greater or equal to the number of dimensions in the "
                              "tensor (",
                              dim(), "); target ", shape, ", tensor ", shape_);
  }
  std::vector<std::int64_t> extents(shape.begin(), shape.end());
  std::vector<std::int64_t> strides(shape.size(), 0);
  const std::int64_t lead = n - dim();
  for (std::int64_t i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const std::int64_t want = shape[u];
    if (i < lead) {
      if (want < 0) {
        detail::raise<ShapeError>("expand", "the expanded size of the tensor (", want,
                                  ") isn't allowed in a leading, non-existing dimension ", i,
                                  "; target ", shape, ", tensor ", shape_);
      }
      strides[u] = 0;
      continue;
    }
    const auto src = static_cast<std::size_t>(i - lead);
    const std::int64_t have = shape_[src];
    if (want == -1 || want == have) {
      extents[u] = have;
      strides[u] = strides_[src];
    } else if (have == 1 && want >= 0) {
      strides[u] = 0;
    } else {
      detail::raise<ShapeError>("expand", "the expanded size of the tensor (", want,
                                ") must match the existing size (", have,
                                ") at non-singleton dimension ", i, ".  Target sizes: ", shape,
                                ".  Tensor sizes: ", shape_);
    }
  }
  const Shape result(extents);
  detail::check_shape("expand", result, sizeof(T));
  return Tensor(storage_, result, Shape(strides), offset_);
}

template <class T>
Tensor<T> Tensor<T>::narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const {
  if (this->dim() == 0) {
    detail::raise<IndexError>("narrow", "narrow() cannot be applied to a 0-dim tensor");
  }
  const auto d = static_cast<std::size_t>(wrap_dim("narrow", dim, this->dim()));
  const std::int64_t n = shape_[d];
  if (length < 0) {
    detail::raise<ValueError>("narrow", "length must be non-negative, got ", length);
  }
  if (start < -n || start > n) {
    detail::raise<IndexError>("narrow", "start out of range (expected to be in range of [", -n,
                              ", ", n, "], but got ", start, ")");
  }
  if (start < 0) start += n;
  if (start > n - length) {
    detail::raise<ShapeError>("narrow", "start (", start, ") + length (", length,
                              ") exceeds dimension size (", n, ")");
  }
  return slice(static_cast<std::int64_t>(d), start, start + length);
}

template <class T>
Tensor<T> Tensor<T>::t() const {
  if (dim() > 2) {
    detail::raise<ShapeError>("t", "t() expects a tensor with <= 2 dimensions, but self is ", dim(),
                              "D");
  }
  return dim() < 2 ? *this : transpose(0, 1);
}

template <class T>
Tensor<T> Tensor<T>::mT() const {
  if (dim() < 2) {
    detail::raise<ShapeError>("mT",
                              "tensor.mT is only supported on matrices or batches of "
                              "matrices. Got ",
                              dim(), "-D tensor.");
  }
  return transpose(-2, -1);
}

template <class T>
Tensor<T> Tensor<T>::diagonal(std::int64_t offset, std::int64_t dim1, std::int64_t dim2) const {
  // Fewer than 2 dimensions: dim1 or dim2 is out of range (IndexError, as torch).
  const auto a = static_cast<std::size_t>(wrap_dim("diagonal", dim1, dim()));
  const auto b = static_cast<std::size_t>(wrap_dim("diagonal", dim2, dim()));
  if (a == b) {
    detail::raise<ValueError>("diagonal", "diagonal dimensions cannot be identical ", dim1, ", ",
                              dim2);
  }
  // Unsigned-free arithmetic: |offset| may be near int64's limits.
  std::int64_t length = 0;
  std::int64_t start = 0;
  if (offset >= 0) {
    if (offset < shape_[b]) {
      length = std::min(shape_[a], shape_[b] - offset);
      start = offset * strides_[b];
    }
  } else if (offset > -shape_[a]) {
    length = std::min(shape_[a] + offset, shape_[b]);
    start = -offset * strides_[a];
  }
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    if (d == a || d == b) continue;
    shape.push_back(shape_[d]);
    strides.push_back(strides_[d]);
  }
  shape.push_back(length);
  strides.push_back(strides_[a] + strides_[b]);
  const Shape result(shape);
  return Tensor(storage_, result, Shape(strides), offset_ + (result.numel() == 0 ? 0 : start));
}

template <class T>
Tensor<part_t<T>> Tensor<T>::real() const {
  if constexpr (Complex<T>) {
    return view_as_real(*this).select(-1, 0);
  } else {
    return *this;
  }
}

template <class T>
Tensor<part_t<T>> Tensor<T>::imag() const requires Complex<T> {
  return view_as_real(*this).select(-1, 1);
}

template <Complex T>
Tensor<part_t<T>> view_as_real(const Tensor<T>& z) {
  std::vector<std::int64_t> shape = z.shape().vec();
  std::vector<std::int64_t> strides = z.strides().vec();
  for (auto& s : strides) s *= 2;
  shape.push_back(2);
  strides.push_back(1);
  return Tensor<part_t<T>>(z.storage(), Shape(shape), Shape(strides), z.storage_offset() * 2);
}

template <Floating F>
Tensor<std::complex<F>> view_as_complex(const Tensor<F>& r) {
  const detail::OpScope scope("view_as_complex");
  if (r.dim() == 0) {
    detail::raise<ShapeError>("view_as_complex",
                              "Input tensor must have one or more dimensions (got shape ",
                              r.shape(), ")");
  }
  if (r.size(-1) != 2) {
    detail::raise<ShapeError>("view_as_complex",
                              "Tensor must have a last dimension of size 2 (got shape ", r.shape(),
                              ")");
  }
  if (r.strides().back() != 1) {
    detail::raise<ShapeError>("view_as_complex",
                              "Tensor must have a last dimension with stride 1 (got strides ",
                              r.strides(), ")");
  }
  const Shape shape(r.shape().begin(), r.shape().end() - 1);
  std::vector<std::int64_t> strides(r.strides().begin(), r.strides().end() - 1);
  for (auto& s : strides) {
    if (s % 2 != 0) {
      detail::raise<ShapeError>(
          "view_as_complex",
          "Tensor must have a stride divisible by 2 for all but last dimension (got strides ",
          r.strides(), ")");
    }
    s /= 2;
  }
  if (r.storage_offset() % 2 != 0) {
    detail::raise<ShapeError>("view_as_complex",
                              "Tensor must have a storage_offset divisible by 2 (got ",
                              r.storage_offset(), ")");
  }
  return Tensor<std::complex<F>>(r.storage(), shape, Shape(strides), r.storage_offset() / 2);
}

#define TESSERA_INSTANTIATE_PART_VIEWS(T)                       \
  template Tensor<part_t<T>> Tensor<T>::imag() const;           \
  template Tensor<part_t<T>> view_as_real<T>(const Tensor<T>&); \
  template Tensor<T> view_as_complex<part_t<T>>(const Tensor<part_t<T>>&);
TESSERA_FOR_EACH_COMPLEX_DTYPE(TESSERA_INSTANTIATE_PART_VIEWS)
#undef TESSERA_INSTANTIATE_PART_VIEWS

#define TESSERA_INSTANTIATE_VIEWS(T)                                                      \
  template Tensor<T> Tensor<T>::view(const Shape&) const;                                 \
  template Tensor<T> Tensor<T>::permute(const std::vector<std::int64_t>&) const;          \
  template Tensor<T> Tensor<T>::movedim(std::int64_t, std::int64_t) const;                \
  template Tensor<T> Tensor<T>::movedim(const std::vector<std::int64_t>&,                 \
                                        const std::vector<std::int64_t>&) const;          \
  template Tensor<T> Tensor<T>::unsqueeze(std::int64_t) const;                            \
  template Tensor<T> Tensor<T>::squeeze() const;                                          \
  template Tensor<T> Tensor<T>::squeeze(std::int64_t) const;                              \
  template Tensor<T> Tensor<T>::squeeze(const std::vector<std::int64_t>&) const;          \
  template Tensor<T> Tensor<T>::flatten(std::int64_t, std::int64_t) const;                \
  template Tensor<T> Tensor<T>::unflatten(std::int64_t, const Shape&) const;              \
  template Tensor<T> Tensor<T>::expand(const Shape&) const;                               \
  template Tensor<T> Tensor<T>::narrow(std::int64_t, std::int64_t, std::int64_t) const;   \
  template Tensor<T> Tensor<T>::t() const;                                                \
  template Tensor<T> Tensor<T>::mT() const;                                               \
  template Tensor<T> Tensor<T>::diagonal(std::int64_t, std::int64_t, std::int64_t) const; \
  template Tensor<part_t<T>> Tensor<T>::real() const;
TESSERA_FOR_EACH_ELEMENT_DTYPE(TESSERA_INSTANTIATE_VIEWS)
#undef TESSERA_INSTANTIATE_VIEWS

}  // namespace tessera
