#pragma once
/// @file cuda_runtime.hpp
/// The CUDA runtime calls tessera needs, behind plain C++ signatures so host-compiled code never
/// includes CUDA headers. Implemented by the CUDA backend, or by stubs that raise DeviceError
/// when tessera is built without it.

#include <cstddef>

namespace tessera::detail::cuda {

/// Number of usable GPUs (0 without the CUDA backend or a driver).
int device_count() noexcept;
/// Stream-ordered allocation on `device` (never managed memory). DeviceError on failure.
void* allocate(std::size_t nbytes, int device);
/// Stream-ordered free; never throws.
void deallocate(void* ptr, int device) noexcept;
/// Device → host; waits for the copy (and for all work queued before it).
void copy_to_host(void* dst, const void* src, std::size_t nbytes, int device);
/// Host → device; queued on the device's stream.
void copy_from_host(void* dst, const void* src, std::size_t nbytes, int device);
/// Device → device, possibly between GPUs.
void copy_device(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes);
/// Waits until all queued work on `device` is done.
void synchronize(int device);

}  // namespace tessera::detail::cuda
