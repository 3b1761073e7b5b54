// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file storage.hpp
/// `Storage`: a reference-counted block of memory on one device. Tensors share it.

#include <cstddef>
#include <functional>
#include <memory>

#include "tessera/core/device.hpp"

namespace tessera {

/// Shared ownership of one allocation. Host memory is 64-byte aligned; CUDA memory comes from
/// the stream-ordered allocator (`cudaMallocAsync`), never managed memory. The last owner frees
/// it through a deleter that knows its device.
class Storage {
 public:
  Storage() = default;
  /// Allocates `nbytes` on `device`. DeviceError when the device is unusable; Error when the
  /// memory is not available.
  static Storage allocate(std::size_t nbytes, Device device);
  /// Memory tessera did not allocate (`Tensor<T>::from_blob`, DLPack): `nbytes` at `data` on
  /// `device`. With a `deleter`, the last owner calls it once with `data`; without one the
  /// caller keeps ownership and must keep the memory alive while any owner exists. Not counted
  /// by memory_stats (tessera did not allocate it). The deleter must not throw.
  static Storage adopt(void* data, std::size_t nbytes, Device device,
                       std::function<void(void*)> deleter);

  /// The first byte (a device pointer for CUDA memory; null when empty).
  void* data() const noexcept { return data_.get(); }
  /// Size of the allocation in bytes.
  std::size_t nbytes() const noexcept { return nbytes_; }
  /// Where the memory lives.
  Device device() const noexcept { return device_; }
  /// Number of owners (tensors, views, expressions) sharing this memory.
  long use_count() const noexcept { return data_.use_count(); }
  /// True for memory tessera did not allocate (adopt: `from_blob`, `from_dlpack`), which
  /// something outside tessera may still read or write: such memory is never taken over by
  /// an rvalue's `tensor_scatter_nd_*` (docs/ops/scatter.md, "Storage reuse").
  bool is_external() const noexcept { return external_; }

 private:
  Storage(std::shared_ptr<void> data, std::size_t nbytes, Device device, bool external)
      : data_(std::move(data)), nbytes_(nbytes), device_(device), external_(external) {}
  std::shared_ptr<void> data_;
  std::size_t nbytes_ = 0;
  Device device_ = Device::cpu();
  bool external_ = false;
};

/// Bytes of tensor memory tessera holds on one device.
struct MemoryStats {
  std::size_t current_bytes = 0;  ///< allocated now
  std::size_t peak_bytes = 0;     ///< most allocated at once since the last reset
};

/// Tensor memory held on `device` (as `torch.cuda.memory_allocated` / `max_memory_allocated`,
/// for the host too). Counts what Storage allocates, not allocator overheads.
MemoryStats memory_stats(Device device);

/// Restarts peak tracking on `device` from the current allocation.
void reset_peak_memory_stats(Device device);

/// Freed host blocks of 1 MiB or more are kept (up to TESSERA_HOST_CACHE_BYTES, 1 GiB by
/// default) and reused by later allocations of the same rounded size, so loops over same-sized
/// tensors do not fault in fresh pages every time (as PyTorch's CUDA caching allocator).
/// empty_cache() returns them to the system and reports the bytes released (as
/// `torch.cuda.empty_cache()`); an allocation that fails empties the cache and retries first.
std::size_t empty_cache();
/// Bytes of host memory held in that cache now (not counted by memory_stats).
std::size_t cached_memory();

}  // namespace tessera
