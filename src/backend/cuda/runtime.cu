// SPDX-License-Identifier: BSD-3-Clause
// The device runtime interface on the CUDA runtime. All work goes to the legacy default stream
// of each device, so tessera operations are ordered with each other without syncs.

#include <cuda_runtime_api.h>

#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::device_runtime {

namespace {
void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
    raise<DeviceError>(what, cudaGetErrorString(status));
  }
}

/// Makes `device` current for the scope, restoring the previous one.
class Guard {
 public:
  explicit Guard(int device) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) check_cuda(cudaSetDevice(device), "cudaSetDevice");
  }
  ~Guard() { cudaSetDevice(previous_); }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;

 private:
  int previous_ = 0;
};
}  // namespace

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver / no device" error
    return 0;
  }
  return count;
}

const char* backend_name() noexcept { return "CUDA"; }

void* allocate(std::size_t nbytes, int device) {
  Guard guard(device);
  void* ptr = nullptr;
  const cudaError_t status = cudaMallocAsync(&ptr, nbytes, cudaStreamLegacy);
  if (status != cudaSuccess) {
    cudaGetLastError();
    raise<Error>("Storage::allocate", "cannot allocate ", nbytes, " bytes on cuda:", device, ": ",
                 cudaGetErrorString(status));
  }
  return ptr;
}

void deallocate(void* ptr, int device) noexcept {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) return;  // runtime already torn down
  cudaSetDevice(device);
  cudaFreeAsync(ptr, cudaStreamLegacy);
  cudaSetDevice(previous);
}

void copy_to_host(void* dst, const void* src, std::size_t nbytes, int device) {
  Guard guard(device);
  check_cuda(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, cudaStreamLegacy),
             "copy to host");
  check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "copy to host");
}

void copy_from_host(void* dst, const void* src, std::size_t nbytes, int device) {
  Guard guard(device);
  // Pageable source memory: cudaMemcpyAsync returns once the source has been staged, so the
  // caller may free it afterwards.
  check_cuda(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, cudaStreamLegacy),
             "copy to device");
}

void copy_device(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes) {
  Guard guard(dst_device);
  check_cuda(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, cudaStreamLegacy),
             "copy between devices");
}

void fill_bytes(void* dst, unsigned char byte, std::size_t nbytes, int device) {
  Guard guard(device);
  check_cuda(cudaMemsetAsync(dst, byte, nbytes, cudaStreamLegacy), "fill");
}

void synchronize(int device) {
  Guard guard(device);
  check_cuda(cudaDeviceSynchronize(), "synchronize");
}

DeviceScope::DeviceScope(int device) {
  check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
  if (previous_ != device) check_cuda(cudaSetDevice(device), "cudaSetDevice");
}

DeviceScope::~DeviceScope() { cudaSetDevice(previous_); }

}  // namespace tessera::detail::device_runtime
