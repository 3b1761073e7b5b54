// SPDX-License-Identifier: BSD-3-Clause
// Tensor<T> members: factories, queries, transfers and views, instantiated for every dtype.
// Element work goes through the expression evaluator, so it runs on the tensor's device.

#include "tessera/tensor.hpp"
#include "tessera/core/element_traits.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tessera/core/device_runtime.hpp"
#include "tessera/expr/evaluate.hpp"

namespace tessera {

namespace {

using detail::wrap_dim;

/// Reads one element that lives at `ptr` on `device`.
template <class T>
T read_element(const T* ptr, Device device) {
  if (device.is_cpu()) return *ptr;
  T value;
  detail::device_runtime::copy_to_host(&value, ptr, sizeof(T), device.index());
  return value;
}

}  // namespace

template <class T>
Tensor<T>::Tensor() : shape_{0}, strides_{1} {}

template <class T>
Tensor<T>::Tensor(Storage storage, Shape shape, Shape strides, std::int64_t offset)
    : storage_(std::move(storage)),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset) {}

template <class T>
Tensor<T> Tensor<T>::empty(const Shape& shape, Device device) {
  detail::check_shape(detail::op_or("empty"), shape, sizeof(T));
  auto storage = Storage::allocate(static_cast<std::size_t>(shape.numel()) * sizeof(T), device);
  return Tensor(std::move(storage), shape, detail::contiguous_strides(shape), 0);
}

template <class T>
Tensor<T> Tensor<T>::full(const Shape& shape, T value, Device device) {
  const detail::OpScope scope("full");
  auto out = empty(shape, device);
  detail::evaluate_into(out.view(), shape, device, detail::ScalarNode<T>(value));
  return out;
}

template <class T>
Tensor<T> Tensor<T>::zeros(const Shape& shape, Device device) {
  const detail::OpScope scope("zeros");
  return full(shape, T(0), device);
}

template <class T>
Tensor<T> Tensor<T>::ones(const Shape& shape, Device device) {
  const detail::OpScope scope("ones");
  return full(shape, T(1), device);
}

template <class T>
Tensor<T> Tensor<T>::scalar(T value, Device device) {
  const detail::OpScope scope("scalar");
  return full(Shape{}, value, device);
}

template <class T>
Tensor<T> Tensor<T>::from_vector(const std::vector<T>& values, const Shape& shape, Device device) {
  const detail::OpScope scope("from_vector");
  detail::check_shape("from_vector", shape, sizeof(T));
  if (static_cast<std::int64_t>(values.size()) != shape.numel()) {
    detail::raise<ShapeError>("from_vector", "shape ", shape, " needs ", shape.numel(),
                              " values, got ", values.size());
  }
  auto host = empty(shape, Device::cpu());
  if constexpr (std::is_same_v<T, bool>) {
    for (std::size_t i = 0; i < values.size(); ++i) host.data()[i] = values[i];
  } else if (!values.empty()) {
    std::memcpy(host.data(), values.data(), values.size() * sizeof(T));
  }
  return host.to(device);
}

template <class T>
Tensor<T> Tensor<T>::from_vector(const std::vector<T>& values, Device device) {
  return from_vector(values, Shape{static_cast<std::int64_t>(values.size())}, device);
}

template <class T>
std::int64_t Tensor<T>::size(std::int64_t d) const {
  // wrap_dim accepts 0 and -1 for a 0-d tensor (as PyTorch does for reductions), but a 0-d
  // tensor has no extent to report (torch: "tensor has no dimensions").
  if (dim() == 0) {
    detail::raise<IndexError>("size", "dimension specified as ", d,
                              " but the tensor has no dimensions");
  }
  return shape_[static_cast<std::size_t>(wrap_dim("size", d, dim()))];
}

template <class T>
Tensor<T> Tensor<T>::to(Device device) const {
  const detail::OpScope scope("to");
  if (device == this->device()) return *this;
  const Tensor source = contiguous();
  auto out = empty(shape_, device);
  const std::size_t nbytes = static_cast<std::size_t>(numel()) * sizeof(T);
  if (nbytes == 0) return out;
  if (device.is_cpu()) {
    detail::device_runtime::copy_to_host(out.data(), source.data(), nbytes,
                                         source.device().index());
  } else if (source.device().is_cpu()) {
    detail::device_runtime::copy_from_host(out.data(), source.data(), nbytes, device.index());
  } else {
    detail::device_runtime::copy_device(out.data(), device.index(), source.data(),
                                        source.device().index(), nbytes);
  }
  return out;
}

template <class T>
Tensor<T> Tensor<T>::clone() const {
  const detail::OpScope scope("clone");
  auto out = empty(shape_, device());
  detail::evaluate_into(out.view(), shape_, device(), *this);
  return out;
}

template <class T>
Tensor<T> Tensor<T>::contiguous() const {
  const detail::OpScope scope("contiguous");
  return is_contiguous() ? *this : clone();
}

template <class T>
std::vector<T> Tensor<T>::to_vector() const {
  const Tensor host = cpu().contiguous();
  const T* p = host.data();
  return std::vector<T>(p, p + host.numel());
}

template <class T>
T Tensor<T>::item() const {
  if (numel() != 1) {
    detail::raise<ValueError>("item", "a Tensor with ", numel(),
                              " elements cannot be converted to a scalar");
  }
  return read_element(data(), device());
}

template <class T>
T Tensor<T>::at(const std::vector<std::int64_t>& index) const {
  if (static_cast<std::int64_t>(index.size()) != dim()) {
    detail::raise<IndexError>("at", "expected ", dim(), " indices for a tensor of shape ", shape_,
                              ", got ", index.size());
  }
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < index.size(); ++d) {
    std::int64_t i = index[d];
    if (i < -shape_[d] || i >= shape_[d]) {
      detail::raise<IndexError>("at", "index ", i, " is out of bounds for dimension ", d,
                                " with size ", shape_[d]);
    }
    if (i < 0) i += shape_[d];
    offset += i * strides_[d];
  }
  return read_element(data() + offset, device());
}

template <class T>
T Tensor<T>::at(std::initializer_list<std::int64_t> index) const {
  return at(std::vector<std::int64_t>(index));
}

template <class T>
template <class U>
requires(!Complex<T> || Complex<U>) Tensor<U> Tensor<T>::cast()
const {
  const detail::OpScope scope("cast");
  auto out = Tensor<U>::empty(shape_, device());
  if (numel() == 0) return out;
  if (device().is_cpu()) {
    // The linear loop alone: a strided tensor is made contiguous first (the copy of its own
    // dtype, compiled once), so each of the 64 (T, U) pairs compiles one loop instead of the
    // executor's strided walk as well, which was most of this unit's build time.
    const Tensor<T> source = contiguous();
    detail::HostExecutor::run_linear(out.data(), detail::expr_bind(source, shape_), numel());
  } else {
    detail::evaluate_with(detail::UnitDeviceExecutor{device().index()}, out.view(), shape_, *this);
  }
  return out;
}

template <class T>
Tensor<T> Tensor<T>::reshape(const Shape& shape) const {
  const detail::OpScope scope("reshape");
  const Shape target = detail::infer_extents("reshape", shape, numel());
  detail::check_shape("reshape", target, sizeof(T));
  if (target.numel() != numel()) {
    detail::raise<ShapeError>("reshape", "shape ", shape, " is invalid for input of size ",
                              numel());
  }
  // A view when the strides can express the new shape (torch.reshape), a copy otherwise.
  Shape strides;
  if (detail::view_strides(shape_, strides_, target, strides)) {
    return Tensor(storage_, target, strides, offset_);
  }
  const Tensor source = clone();
  return Tensor(source.storage_, target, detail::contiguous_strides(target), source.offset_);
}

template <class T>
Tensor<T> Tensor<T>::slice(std::int64_t dim, std::int64_t start, std::int64_t stop,
                           std::int64_t step) const {
  const auto d = static_cast<std::size_t>(wrap_dim("slice", dim, this->dim()));
  if (this->dim() == 0) detail::raise<IndexError>("slice", "cannot slice a 0-d tensor");
  if (step <= 0) detail::raise<ValueError>("slice", "step must be positive, got ", step);
  const std::int64_t n = shape_[d];
  auto clamp = [n](std::int64_t i) {
    if (i < 0) i = i < -n ? 0 : i + n;
    return i > n ? n : i;
  };
  start = clamp(start);
  stop = clamp(stop);
  // Written so that no intermediate overflows, even for step = INT64_MAX.
  const std::int64_t length = stop > start ? (stop - start - 1) / step + 1 : 0;
  Shape shape = shape_;
  Shape strides = strides_;
  shape[d] = length;
  // With two or more elements step < n, so the new stride stays inside the storage; with one
  // or none the stride is never used and stride * step might not fit.
  // A view of no elements keeps its stride and offset: with another extent 0 the strides may be
  // far beyond the (empty) storage, and stride * step or start * stride need not fit int64.
  const bool none = length == 0 || shape.numel() == 0;
  strides[d] = length > 1 && !none ? strides_[d] * step : strides_[d];
  return Tensor(storage_, shape, strides, offset_ + (none ? 0 : start * strides_[d]));
}

template <class T>
Tensor<T> Tensor<T>::select(std::int64_t dim, std::int64_t index) const {
  if (this->dim() == 0) detail::raise<IndexError>("select", "cannot select on a 0-d tensor");
  const auto d = static_cast<std::size_t>(wrap_dim("select", dim, this->dim()));
  const std::int64_t n = shape_[d];
  if (index < -n || index >= n) {
    detail::raise<IndexError>("select", "index ", index, " is out of range for dimension ", d,
                              " with size ", n);
  }
  if (index < 0) index += n;
  std::vector<std::int64_t> shape(shape_.begin(), shape_.end());
  std::vector<std::int64_t> strides(strides_.begin(), strides_.end());
  shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(d));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(d));
  // No element, no address: index * stride of a zero-element tensor need not fit int64.
  return Tensor(storage_, Shape(shape), Shape(strides),
                offset_ + (numel() == 0 ? 0 : index * strides_[d]));
}

template <class T>
Tensor<T> Tensor<T>::transpose(std::int64_t dim0, std::int64_t dim1) const {
  const auto a = static_cast<std::size_t>(wrap_dim("transpose", dim0, dim()));
  const auto b = static_cast<std::size_t>(wrap_dim("transpose", dim1, dim()));
  if (dim() == 0) return *this;
  Shape shape = shape_;
  Shape strides = strides_;
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return Tensor(storage_, shape, strides, offset_);
}

namespace {
/// Finds the extents of a nested list (following first children) and checks every branch.
template <class T>
void nested_extents(const NestedList<T>& list, std::size_t depth, std::vector<std::int64_t>& dims,
                    bool& leaf_depth_known, std::size_t& leaf_depth) {
  if (list.is_leaf()) {
    if (!leaf_depth_known) {
      leaf_depth_known = true;
      leaf_depth = depth;
    } else if (leaf_depth != depth) {
      detail::raise<ShapeError>("tensor", "mixed scalars and sequences at depth ", depth);
    }
    return;
  }
  const auto n = static_cast<std::int64_t>(list.children().size());
  if (depth == dims.size()) {
    dims.push_back(n);
  } else if (dims[depth] != n) {
    detail::raise<ShapeError>("tensor", "expected sequence of length ", dims[depth], " at dim ",
                              depth, " (got ", n, ")");
  }
  if (leaf_depth_known && depth >= leaf_depth) {
    detail::raise<ShapeError>("tensor", "mixed scalars and sequences at depth ", depth);
  }
  for (const auto& child : list.children()) {
    nested_extents(child, depth + 1, dims, leaf_depth_known, leaf_depth);
  }
}

template <class T>
void nested_fill(const NestedList<T>& list, std::vector<T>& out) {
  if (list.is_leaf()) {
    out.push_back(list.value());
    return;
  }
  for (const auto& child : list.children()) nested_fill(child, out);
}
}  // namespace

template <class T>
Tensor<T> tensor(std::initializer_list<NestedList<T>> values, Device device) {
  const detail::OpScope scope("tensor");
  const NestedList<T> root(values);
  std::vector<std::int64_t> dims;
  bool leaf_depth_known = false;
  std::size_t leaf_depth = 0;
  nested_extents(root, 0, dims, leaf_depth_known, leaf_depth);
  if (leaf_depth_known && leaf_depth != dims.size()) {
    detail::raise<ShapeError>("tensor", "mixed scalars and sequences");
  }
  std::vector<T> flat;
  flat.reserve(values.size());
  nested_fill(root, flat);
  return Tensor<T>::from_vector(flat, Shape(dims), device);
}

#define TESSERA_INSTANTIATE_CAST(T, U) template Tensor<U> Tensor<T>::cast<U>() const;
#define TESSERA_INSTANTIATE_TENSOR(T) \
  template class Tensor<T>;           \
  template Tensor<T> tensor<T>(std::initializer_list<NestedList<T>>, Device);
TESSERA_FOR_EACH_ELEMENT_DTYPE(TESSERA_INSTANTIATE_TENSOR)
// Casts between every pair of real types, from each real type to each complex one, and between
// the complex types; complex -> real does not compile (Tensor<T>::cast: real, imag, abs say what
// is meant).
#define TESSERA_INSTANTIATE_REAL_CASTS(T)                  \
  TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_CAST, T) \
  TESSERA_FOR_EACH_COMPLEX_DTYPE_WITH(TESSERA_INSTANTIATE_CAST, T)
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_REAL_CASTS)
#define TESSERA_INSTANTIATE_COMPLEX_CASTS(T) \
  TESSERA_FOR_EACH_COMPLEX_DTYPE_WITH(TESSERA_INSTANTIATE_CAST, T)
TESSERA_FOR_EACH_COMPLEX_DTYPE(TESSERA_INSTANTIATE_COMPLEX_CASTS)
#undef TESSERA_INSTANTIATE_COMPLEX_CASTS
#undef TESSERA_INSTANTIATE_REAL_CASTS

}  // namespace tessera
