// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file device_work.cuh
/// How device kernels run (device-compiled units only): a `DeviceWork` makes a device current
/// for one operation and hands out the Thrust execution policy its algorithms run on. This is
/// the one place where the CUDA build and the emulated device differ:
/// - CUDA: `thrust::cuda::par_nosync` on the device's legacy default stream (ordered with every
///   other tessera operation, no sync unless an algorithm returns a value to the host), with
///   temporaries from the stream-ordered pool (`cudaMallocAsync`, which caches freed blocks);
/// - emulated: Thrust's OpenMP system, temporaries from the emulated device's memory, and device
///   memory open to the algorithms for the scope of the DeviceWork;
/// - no device: Thrust's serial system; the kernels are compiled so that every build has the same
///   entry points, but no device tensor can exist to reach them.
/// Every device kernel is written once against `work.policy()`.

#include "tessera/core/macros.hpp"

#if !TESSERA_DEVICE_CODE
#error "device_work.cuh is for device-compiled units (nvcc, or TESSERA_EMULATED_DEVICE_CODE)"
#endif

#include <cstddef>
#include <cstdint>
#include <utility>

#include <thrust/system_error.h>

#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

#include "tessera/config.hpp"

#if defined(__CUDACC__)
#include <cuda_runtime_api.h>

#include <thrust/system/cuda/execution_policy.h>
#elif TESSERA_DEVICE_EMULATED
#include <thrust/system/omp/execution_policy.h>
#else
#include <thrust/system/cpp/execution_policy.h>
#endif

namespace tessera::detail {

/// Thrust's temporary storage on the device, through the device runtime.
struct DeviceTemporaryAllocator {
  using value_type = char;
  int device = 0;
  char* allocate(std::ptrdiff_t n) {
    return static_cast<char*>(device_runtime::allocate(static_cast<std::size_t>(n), device));
  }
  void deallocate(char* p, std::size_t) noexcept { device_runtime::deallocate(p, device); }
};

/// The device algorithms of one operation on one device.
class DeviceWork {
 public:
  explicit DeviceWork(int device) : scope_(device), allocator_{device} {}
  DeviceWork(const DeviceWork&) = delete;
  DeviceWork& operator=(const DeviceWork&) = delete;

  /// The execution policy of this work's Thrust algorithms.
  auto policy() {
#if defined(__CUDACC__)
    return thrust::cuda::par_nosync(allocator_).on(cudaStreamLegacy);
#elif TESSERA_DEVICE_EMULATED
    return thrust::omp::par(allocator_);
#else
    return thrust::cpp::par(allocator_);  // a build without a device: compiled, never run
#endif
  }
  int device() const noexcept { return allocator_.device; }

 private:
  device_runtime::DeviceScope scope_;
  DeviceTemporaryAllocator allocator_;
};

/// Runs the device algorithms of operation `op` on `device`, reporting a failure Thrust raises
/// (a CUDA error from a launch, or from an algorithm that waits) as the DeviceError every other
/// device failure is. The conversion happens here, in device-compiled code, because Thrust's
/// types live in an ABI namespace that differs between nvcc and host-compiler units.
template <class F>
decltype(auto) device_call(const char* op, int device, F&& algorithms) {
  try {
    return std::forward<F>(algorithms)();
  } catch (const thrust::system_error& e) {
    raise<DeviceError>(op, "the device algorithm failed on cuda:", device, ": ", e.what());
  }
}

/// A scratch array of `count` T on a device, freed (stream-ordered) at the end of the scope.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer(std::int64_t count, int device)
      : data_(static_cast<T*>(device_runtime::allocate(
            static_cast<std::size_t>(count > 0 ? count : 1) * sizeof(T), device))),
        device_(device) {}
  ~DeviceBuffer() { device_runtime::deallocate(data_, device_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* data() const noexcept { return data_; }

 private:
  T* data_;
  int device_;
};

}  // namespace tessera::detail
