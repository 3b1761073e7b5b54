// SPDX-License-Identifier: BSD-3-Clause
// Tensor<T> over external memory: from_blob (adopt or borrow a pointer) and span (lend the
// elements to host code), instantiated for every dtype. DLPack builds on from_blob
// (tessera/interop/dlpack.hpp).

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "tessera/tensor.hpp"

namespace tessera {

namespace {

/// Checks a layout handed to from_blob and returns the number of elements it spans from the
/// first one (largest offset + 1; 0 when empty). Kernels assume what tessera's own tensors
/// guarantee: non-negative strides and no two indices on one element (writes would race or
/// depend on order), so anything else is refused rather than half-supported.
std::int64_t checked_extent(const Shape& shape, const Shape& strides, std::size_t element_size) {
  constexpr const char* op = "from_blob";
  detail::check_shape(op, shape, element_size);
  if (strides.size() != shape.size()) {
    detail::raise<ShapeError>(op, "strides ", strides, " has ", strides.size(),
                              " entries but shape ", shape, " has ", shape.size());
  }
  if (shape.numel() == 0) return 0;
  // Dimensions that are stepped over, by increasing stride: each must start past the end of
  // the ones inside it, which proves that no two indices share an element.
  std::vector<std::size_t> order;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (strides[d] <= 0) {
      detail::raise<ValueError>(op, "strides ", strides, " for shape ", shape, ": stride ",
                                strides[d], " of dimension ", d,
                                " must be positive (tessera tensors do not overlap and never "
                                "step backwards)");
    }
    order.push_back(d);
  }
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return strides[a] < strides[b]; });
  std::int64_t span = 1;  // elements covered by the dimensions visited so far
  for (std::size_t d : order) {
    if (strides[d] < span) {
      detail::raise<ValueError>(op, "strides ", strides, " for shape ", shape,
                                " make two indices share an element (overlapping or "
                                "interleaved layouts are not supported)");
    }
    const std::int64_t last = shape[d] - 1;
    if (strides[d] > (std::numeric_limits<std::int64_t>::max() - span) / last) {
      detail::raise<ValueError>(op, "strides ", strides, " for shape ", shape,
                                " span more elements than fit in int64");
    }
    span += last * strides[d];
  }
  if (span > std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(element_size)) {
    detail::raise<ValueError>(op, "shape ", shape, " with strides ", strides,
                              " needs more bytes than fit in int64");
  }
  return span;
}

}  // namespace

template <class T>
Tensor<T> Tensor<T>::from_blob(T* data, const Shape& shape, Device device,
                               std::function<void(T*)> deleter) {
  return from_blob(data, shape, detail::contiguous_strides(shape), device, std::move(deleter));
}

template <class T>
Tensor<T> Tensor<T>::from_blob(T* data, const Shape& shape, const Shape& strides, Device device,
                               std::function<void(T*)> deleter) {
  const std::int64_t extent = checked_extent(shape, strides, sizeof(T));
  if (data == nullptr && extent > 0) {
    detail::raise<ValueError>("from_blob", "data is a null pointer but shape ", shape, " has ",
                              shape.numel(), " elements");
  }
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0) {
    detail::raise<ValueError>("from_blob", "data ", static_cast<const void*>(data),
                              " is not aligned for ", dtype_name(dtype_v<T>), " (", alignof(T),
                              " bytes)");
  }
  if (device.is_cuda() && device.index() >= cuda_device_count()) {
    detail::raise<DeviceError>("from_blob", "device ", device, " is not available (",
                               cuda_device_count(), " usable GPUs)");
  }
  std::function<void(void*)> release;
  if (deleter) {
    release = [deleter = std::move(deleter)](void* p) { deleter(static_cast<T*>(p)); };
  }
  auto storage = Storage::adopt(data, static_cast<std::size_t>(extent) * sizeof(T), device,
                                std::move(release));
  return Tensor(std::move(storage), shape, strides, 0);
}

template <class T>
std::span<T> Tensor<T>::span() const {
  if (!device().is_cpu()) {
    detail::raise<DeviceError>("span", "the tensor is on ", device(),
                               "; a span needs host memory (copy it with .cpu() first)");
  }
  if (!is_contiguous()) {
    detail::raise<ValueError>("span", "the tensor of shape ", shape_, " with strides ", strides_,
                              " is not contiguous (call .contiguous() first)");
  }
  return std::span<T>(data(), static_cast<std::size_t>(numel()));
}

#define TESSERA_INSTANTIATE_EXTERNAL(T)                                                       \
  template Tensor<T> Tensor<T>::from_blob(T*, const Shape&, Device, std::function<void(T*)>); \
  template Tensor<T> Tensor<T>::from_blob(T*, const Shape&, const Shape&, Device,             \
                                          std::function<void(T*)>);                           \
  template std::span<T> Tensor<T>::span() const;
TESSERA_FOR_EACH_ELEMENT_DTYPE(TESSERA_INSTANTIATE_EXTERNAL)
#undef TESSERA_INSTANTIATE_EXTERNAL

}  // namespace tessera
