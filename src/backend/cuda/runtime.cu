// CUDA runtime calls behind tessera/core/cuda_runtime.hpp. All work goes to the legacy default
// stream of each device, so tessera operations are ordered with each other without syncs.

#include <cuda_runtime_api.h>

#include "tessera/core/cuda_runtime.hpp"
#include "tessera/expr/cuda_executor.cuh"

namespace tessera::detail::cuda {

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver / no device" error
    return 0;
  }
  return count;
}

void* allocate(std::size_t nbytes, int device) {
  CudaDeviceGuard guard(device);
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
  CudaDeviceGuard guard(device);
  check_cuda(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, cudaStreamLegacy),
             "copy to host");
  check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "copy to host");
}

void copy_from_host(void* dst, const void* src, std::size_t nbytes, int device) {
  CudaDeviceGuard guard(device);
  // Pageable source memory: cudaMemcpyAsync returns once the source has been staged, so the
  // caller may free it afterwards.
  check_cuda(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, cudaStreamLegacy),
             "copy to device");
}

void copy_device(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes) {
  CudaDeviceGuard guard(dst_device);
  check_cuda(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, cudaStreamLegacy),
             "copy between devices");
}

void synchronize(int device) {
  CudaDeviceGuard guard(device);
  check_cuda(cudaDeviceSynchronize(), "synchronize");
}

}  // namespace tessera::detail::cuda
