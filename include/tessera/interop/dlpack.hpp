// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file dlpack.hpp
/// DLPack (https://dmlc.github.io/dlpack/): exchange tensors with PyTorch, JAX, CuPy, ... without
/// copying. `t.to_dlpack()` lends a Tensor's memory as a `DLManagedTensor*`;
/// `from_dlpack<T>(m)` adopts one. Both keep the pointer, the shape, the strides and the device;
/// the exporter's deleter runs exactly once, when the importer no longer needs the memory.
/// Needs `dlpack/dlpack.h` (Debian: libdlpack-dev, DLPack 0.6); not part of the umbrella header.
///
/// Element types: the seven numeric dtypes map to DLPack's int / uint / float codes. DLPack 0.6
/// has no bool code, so Tensor<bool> is exported as 8-bit unsigned integers holding 0 or 1 (as
/// PyTorch exports and imports byte-sized bools), and from_dlpack<bool> accepts that code (and
/// DLPack 0.8's kDLBool, 6) after checking that every byte is 0 or 1.
/// Devices: `kDLCPU` (and pinned `kDLCUDAHost` memory) is `Device::cpu()`, `kDLCUDA` device i
/// is `Device::cuda(i)` — in an emulated build too, whose device pointers are not CUDA memory,
/// so hand them only to code of the same process that reaches them through tessera.

#include <dlpack/dlpack.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/operators.hpp"
#include "tessera/expr/reduce.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace detail::dlpack {

/// DLPack's type of T (bool: 8-bit unsigned, see the file comment).
template <class T>
constexpr DLDataType dl_dtype() {
  const auto bits = static_cast<std::uint8_t>(8 * sizeof(T));
  if constexpr (Floating<T>) return {kDLFloat, bits, 1};
  if constexpr (Complex<T>) return {kDLComplex, bits, 1};  // complex64: 64 bits, as torch
  if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return {kDLUInt, bits, 1};
  return {kDLInt, bits, 1};
}

/// "float32", or the raw code for a type tessera has no name for.
inline std::string describe(DLDataType t) {
  std::ostringstream s;
  const char* kind = t.code == kDLInt       ? "int"
                     : t.code == kDLUInt    ? "uint"
                     : t.code == kDLFloat   ? "float"
                     : t.code == kDLComplex ? "complex"
                     : t.code == 6          ? "bool"
                                            : nullptr;
  if (kind != nullptr && t.lanes == 1) {
    s << kind;
    if (t.code != 6) s << int(t.bits);
  } else {
    s << "(code " << int(t.code) << ", " << int(t.bits) << " bits, " << t.lanes << " lanes)";
  }
  return s.str();
}

template <class T>
bool accepts(DLDataType t) {
  const DLDataType want = dl_dtype<T>();
  if (t.lanes != 1 || t.bits != want.bits) return false;
  if constexpr (std::is_same_v<T, bool>) return t.code == kDLUInt || t.code == 6;  // 6: kDLBool
  return t.code == want.code;
}

/// What an exported capsule owns: a handle to the tensor (keeping its memory alive) and the
/// shape and strides arrays the DLTensor points into.
template <class T>
struct Exported {
  Tensor<T> tensor;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  DLManagedTensor managed{};
};

/// Runs the capsule's deleter at most once, whoever asks first: the imported tensor's last
/// handle, or from_dlpack when it fails after taking the capsule.
class Release {
 public:
  explicit Release(DLManagedTensor* m) : m_(m) {}
  void operator()() noexcept {
    if (!done_.exchange(true) && m_->deleter != nullptr) m_->deleter(m_);
  }

 private:
  DLManagedTensor* m_;
  std::atomic<bool> done_{false};
};

}  // namespace detail::dlpack

template <class T>
DLManagedTensor* Tensor<T>::to_dlpack() const {
  auto holder = std::make_unique<detail::dlpack::Exported<T>>();
  holder->tensor = *this;
  holder->shape = shape_.vec();
  holder->strides = strides_.vec();
  DLTensor& dl = holder->managed.dl_tensor;
  // The first element itself, byte_offset 0, as PyTorch exports (its 1.13 importer ignores
  // byte_offset).
  dl.data = data();
  dl.device = device().is_cpu() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, device().index()};
  dl.ndim = static_cast<int>(shape_.size());
  dl.dtype = detail::dlpack::dl_dtype<T>();
  dl.shape = holder->shape.data();
  dl.strides = holder->strides.data();
  dl.byte_offset = 0;
  holder->managed.manager_ctx = holder.get();
  holder->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<detail::dlpack::Exported<T>*>(self->manager_ctx);
  };
  return &holder.release()->managed;
}

/// Adopts a DLPack tensor without copying: the result views `m`'s memory with its shape,
/// strides and byte_offset, and its last handle calls `m->deleter(m)` (once). `from_dlpack`
/// owns `m` from the call on: when it raises (ValueError for another dtype, a negative rank, a
/// missing shape, a bool byte other than 0/1 or a layout from_blob refuses; ShapeError for more
/// than 8 dimensions; DeviceError for a device tessera does not have), it has called the
/// deleter before.
///
///     DLManagedTensor* m = at::toDLPack(torch_tensor);   // or any DLPack producer
///     auto t = tessera::from_dlpack<float>(m);            // same memory, no copy
template <class T>
Tensor<T> from_dlpack(DLManagedTensor* m) {
  constexpr const char* op = "from_dlpack";
  // from_blob's checks then read as from_dlpack's ("from_dlpack: from_blob: ...").
  const detail::OpScope scope(op);
  if (m == nullptr) detail::raise<ValueError>(op, "the DLManagedTensor pointer is null");
  auto release = std::make_shared<detail::dlpack::Release>(m);
  try {
    const DLTensor& dl = m->dl_tensor;
    if (!detail::dlpack::accepts<T>(dl.dtype)) {
      detail::raise<ValueError>(op, "the DLPack tensor holds ", detail::dlpack::describe(dl.dtype),
                                " elements, not ", dtype_name(dtype_v<T>), " (",
                                detail::dlpack::describe(detail::dlpack::dl_dtype<T>()), ")");
    }
    Device device = Device::cpu();
    if (dl.device.device_type == kDLCUDA) {
      device = Device::cuda(dl.device.device_id);
    } else if (dl.device.device_type != kDLCPU && dl.device.device_type != kDLCUDAHost) {
      detail::raise<DeviceError>(op, "DLPack device type ", int(dl.device.device_type), " (id ",
                                 dl.device.device_id,
                                 ") is not supported: tessera has kDLCPU (1), kDLCUDAHost (3) "
                                 "and kDLCUDA (2) memory");
    }
    if (dl.ndim < 0 || (dl.ndim > 0 && dl.shape == nullptr)) {
      detail::raise<ValueError>(op, "ndim = ", dl.ndim, " with shape ",
                                static_cast<const void*>(dl.shape), " is not a valid tensor");
    }
    const Shape shape(dl.shape, dl.shape + dl.ndim);
    T* first = reinterpret_cast<T*>(static_cast<char*>(dl.data) + dl.byte_offset);
    auto deleter = [release](T*) { (*release)(); };
    Tensor<T> t = dl.strides == nullptr  // DLPack: compact row-major
                      ? Tensor<T>::from_blob(first, shape, device, deleter)
                      : Tensor<T>::from_blob(first, shape, Shape(dl.strides, dl.strides + dl.ndim),
                                             device, deleter);
    if constexpr (std::is_same_v<T, bool>) {
      // Reading a byte other than 0 or 1 as a C++ bool is undefined: look at the bytes as uint8
      // first (on the tensor's device; a CUDA device is waited for once).
      const auto bytes = Tensor<std::uint8_t>::from_blob(reinterpret_cast<std::uint8_t*>(first),
                                                         shape, t.strides(), device);
      if (t.numel() > 0 && any(bytes > std::uint8_t{1})) {
        detail::raise<ValueError>(op, "the DLPack tensor of ", detail::dlpack::describe(dl.dtype),
                                  " elements holds bytes other than 0 and 1; they are not bools");
      }
    }
    return t;
  } catch (...) {
    (*release)();  // no-op when the tensor made above has released it already
    throw;
  }
}

/// A RaggedTensor as two DLPack tensors: its values and its row splits (as TensorFlow's
/// `tf.RaggedTensor.from_row_splits(values, row_splits)` takes them back). Each has its own
/// deleter; call both.
struct RaggedDLPack {
  DLManagedTensor* values = nullptr;      ///< the concatenated rows
  DLManagedTensor* row_splits = nullptr;  ///< 1-d, nrows + 1 entries
};

/// Exports a RaggedTensor's values and row splits, zero-copy.
///
///     auto [values, splits] = tessera::to_dlpack(ragged);
template <class T, class S>
RaggedDLPack to_dlpack(const RaggedTensor<T, S>& r) {
  RaggedDLPack out;
  out.values = r.values().to_dlpack();
  out.row_splits = r.row_splits().to_dlpack();
  return out;
}

/// Adopts a values tensor and a row-splits tensor (int64 by default, or int32) as a RaggedTensor,
/// zero-copy, validated as `RaggedTensor::from_row_splits` validates (ValueError). Owns both
/// capsules from the call on, as from_dlpack does: on an error both deleters have run.
template <class T, class S = std::int64_t>
RaggedTensor<T, S> from_dlpack(DLManagedTensor* values, DLManagedTensor* row_splits) {
  Tensor<S> splits;
  try {
    splits = from_dlpack<S>(row_splits);
  } catch (...) {
    if (values != nullptr && values->deleter != nullptr) values->deleter(values);
    throw;
  }
  return RaggedTensor<T, S>::from_row_splits(from_dlpack<T>(values), splits);
}

}  // namespace tessera
