#pragma once
/// @file cuda_executor.cuh
/// Runs kernel functors on a GPU (nvcc translation units only). Work is queued on the device's
/// legacy default stream, so it is ordered with every other tessera operation on that device;
/// nothing here waits for the GPU except a reduction, whose result the host needs.
///
/// The launchers are small grid-stride kernels rather than thrust::for_each/transform_reduce:
/// the same speed for elementwise work, and a fraction of the compile time per instantiation
/// (every dtype and dtype pair instantiates one).

#if !defined(__CUDACC__)
#error "cuda_executor.cuh is for translation units compiled by nvcc"
#endif

#include <algorithm>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "tessera/core/error.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
    raise<DeviceError>(what, cudaGetErrorString(status));
  }
}

/// Makes `device` current for the scope, restoring the previous one.
class CudaDeviceGuard {
 public:
  explicit CudaDeviceGuard(int device) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) check_cuda(cudaSetDevice(device), "cudaSetDevice");
  }
  ~CudaDeviceGuard() { cudaSetDevice(previous_); }
  CudaDeviceGuard(const CudaDeviceGuard&) = delete;
  CudaDeviceGuard& operator=(const CudaDeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

inline constexpr int kCudaThreads = 256;
// Enough resident blocks to fill any current GPU; grid-stride loops cover the rest.
inline constexpr std::int64_t kCudaMaxBlocks = 65536;

inline int cuda_blocks(std::int64_t n) {
  return static_cast<int>(
      std::min<std::int64_t>((n + kCudaThreads - 1) / kCudaThreads, kCudaMaxBlocks));
}

/// out[i] = Out(k(i)); `linear` selects the contiguous fast path (uniform branch).
template <class Out, class K>
__global__ void elementwise_kernel(TensorView<Out> out, K k, Extents extents, bool linear,
                                   std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if (linear) {
      out.data[i] = static_cast<Out>(k.linear(i));
    } else {
      std::int64_t index[kMaxDims];
      extents.unravel(i, index);
      std::int64_t offset = 0;
      for (int d = 0; d < extents.ndim; ++d) offset += index[d] * out.strides[d];
      out.data[offset] = static_cast<Out>(k.at(index));
    }
  }
}

template <class Acc, class K>
__device__ Acc reduce_input(const K& k, const Extents& extents, bool linear, std::int64_t i) {
  if (linear) return static_cast<Acc>(k.linear(i));
  std::int64_t index[kMaxDims];
  extents.unravel(i, index);
  return static_cast<Acc>(k.at(index));
}

/// Block-wide combine of one value per thread; thread 0 gets the result.
template <class Acc, class Combine>
__device__ Acc block_combine(Acc value, Combine combine) {
  __shared__ Acc shared[kCudaThreads];
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int width = kCudaThreads / 2; width > 0; width /= 2) {
    if (static_cast<int>(threadIdx.x) < width) {
      shared[threadIdx.x] = combine(shared[threadIdx.x], shared[threadIdx.x + width]);
    }
    __syncthreads();
  }
  return shared[0];
}

/// First pass: each block combines a grid-stride share of the input into partials[block].
template <class Acc, class K, class Combine>
__global__ void reduce_kernel(K k, Extents extents, bool linear, std::int64_t n, Acc init,
                              Combine combine, Acc* partials) {
  Acc acc = init;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    acc = combine(acc, reduce_input<Acc>(k, extents, linear, i));
  }
  acc = block_combine(acc, combine);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

/// Second pass: one block combines the partials in a fixed order (deterministic results).
template <class Acc, class Combine>
__global__ void reduce_partials_kernel(Acc* partials, int count, Acc init, Combine combine) {
  Acc acc = init;
  for (int i = threadIdx.x; i < count; i += blockDim.x) acc = combine(acc, partials[i]);
  acc = block_combine(acc, combine);
  if (threadIdx.x == 0) partials[0] = acc;
}

struct CudaExecutor {
  int device = 0;

  template <class Out, class K>
  void run(const TensorView<Out>& out, const K& k, bool linear) const {
    const std::int64_t n = out.numel();
    if (n == 0) return;
    CudaDeviceGuard guard(device);
    Extents extents;
    extents.ndim = out.ndim;
    for (int d = 0; d < out.ndim; ++d) extents.shape[d] = out.shape[d];
    elementwise_kernel<<<cuda_blocks(n), kCudaThreads, 0, cudaStreamLegacy>>>(out, k, extents,
                                                                              linear, n);
    check_cuda(cudaGetLastError(), "tessera elementwise kernel launch");
  }

  /// Needs the result on the host, so this waits for the GPU (one sync).
  template <class Acc, class K, class Combine>
  Acc reduce(const Extents& extents, const K& k, bool linear, Acc init, Combine combine) const {
    const std::int64_t n = extents.numel();
    if (n == 0) return init;
    CudaDeviceGuard guard(device);
    const int blocks = std::min(cuda_blocks(n), 1024);
    Acc* partials = nullptr;
    check_cuda(cudaMallocAsync(reinterpret_cast<void**>(&partials), sizeof(Acc) * blocks,
                               cudaStreamLegacy),
               "reduction scratch allocation");
    reduce_kernel<<<blocks, kCudaThreads, 0, cudaStreamLegacy>>>(k, extents, linear, n, init,
                                                                 combine, partials);
    reduce_partials_kernel<<<1, kCudaThreads, 0, cudaStreamLegacy>>>(partials, blocks, init,
                                                                     combine);
    Acc result = init;
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t copied =
        cudaMemcpyAsync(&result, partials, sizeof(Acc), cudaMemcpyDeviceToHost, cudaStreamLegacy);
    cudaFreeAsync(partials, cudaStreamLegacy);
    check_cuda(launched, "tessera reduction kernel launch");
    check_cuda(copied, "reduction result copy");
    check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "reduction");
    return result;
  }
};

}  // namespace tessera::detail
