// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file device_runtime.hpp
/// The device runtime interface: everything tessera asks of the memory behind `cuda:N`
/// tensors, with plain C++ signatures so host-compiled code never includes CUDA headers.
///
/// Three implementations define these symbols (one per build, `TESSERA_CUDA`):
/// - the CUDA runtime (`src/backend/cuda/runtime.cu`): stream-ordered allocations on each GPU's
///   legacy default stream, `cudaMemcpyAsync`, `cudaMemsetAsync`;
/// - the emulated device (`src/backend/emulated/runtime.cpp`, `TESSERA_CUDA=EMULATED`): two
///   devices whose memory is host memory that host code cannot touch: each allocation is its own
///   mapping, readable only while a device algorithm or a runtime copy runs (a stray host read
///   is a segmentation fault, not a silent success);
/// - no device (`src/backend/none/runtime.cpp`, `TESSERA_CUDA=OFF`): zero devices.

#include <cstddef>

namespace tessera::detail {
struct GemmCall;
struct SolverCall;
}  // namespace tessera::detail

namespace tessera::detail::device_runtime {

/// Number of usable devices (0 without a device backend or a driver).
int device_count() noexcept;
/// "CUDA", "emulated" or "none": what backs `cuda:N` tensors in this build.
const char* backend_name() noexcept;
/// Stream-ordered allocation on `device` (never managed memory). Error when out of memory.
void* allocate(std::size_t nbytes, int device);
/// Stream-ordered free; never throws.
void deallocate(void* ptr, int device) noexcept;
/// Device → host; waits for the copy (and for all work queued before it).
void copy_to_host(void* dst, const void* src, std::size_t nbytes, int device);
/// Host → device; queued on the device's stream (the source may be reused on return).
void copy_from_host(void* dst, const void* src, std::size_t nbytes, int device);
/// Device → device, possibly between two devices.
void copy_device(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes);
/// Sets `nbytes` bytes at `dst` to `byte`; queued on the device's stream.
void fill_bytes(void* dst, unsigned char byte, std::size_t nbytes, int device);
/// A float or double batched matrix product on `device` (every pointer of `call` there):
/// cuBLAS on a GPU, the host's OpenBLAS on the emulated device. Queued on the device's stream.
void gemm(const GemmCall& call, int device);
/// One LAPACK routine over a batch of column-major float or double matrices on `device`
/// (src/backend/solver_call.hpp): cuSOLVER on a GPU, the host's LAPACK on the emulated device.
/// Waits for the device: each matrix's status is in `call.info` on return.
void lapack(const SolverCall& call, int device);
/// Waits until all queued work on `device` is done.
void synchronize(int device);

/// Brackets the device algorithms of one operation on `device`: makes it the current device
/// (restoring the previous one on exit) and, on the emulated device, opens device memory to the
/// algorithms for the scope. Device kernels run only inside one.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace tessera::detail::device_runtime
