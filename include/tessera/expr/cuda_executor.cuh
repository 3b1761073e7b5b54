#pragma once
/// @file cuda_executor.cuh
/// Runs kernel functors on a GPU with Thrust's CUDA system (nvcc translation units only).
/// Work is queued on the device's legacy default stream, so it is ordered with every other
/// tessera operation on that device; nothing here waits for the GPU except a reduction result.

#if !defined(__CUDACC__)
#error "cuda_executor.cuh is for translation units compiled by nvcc"
#endif

#include <cstdint>

#include <cuda_runtime_api.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform_reduce.h>

#include "tessera/core/error.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
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

template <class Out, class K, bool Linear>
struct ElementwiseFunctor {
  TensorView<Out> out;
  K k;
  Extents extents;
  __device__ void operator()(std::int64_t i) const {
    if constexpr (Linear) {
      out.data[i] = static_cast<Out>(k.linear(i));
    } else {
      std::int64_t index[kMaxDims];
      extents.unravel(i, index);
      std::int64_t offset = 0;
      for (int d = 0; d < extents.ndim; ++d) offset += index[d] * out.strides[d];
      out.data[offset] = static_cast<Out>(k.at(index));
    }
  }
};

template <class Acc, class K>
struct ReduceInputFunctor {
  K k;
  Extents extents;
  bool linear;
  __device__ Acc operator()(std::int64_t i) const {
    if (linear) return static_cast<Acc>(k.linear(i));
    std::int64_t index[kMaxDims];
    extents.unravel(i, index);
    return static_cast<Acc>(k.at(index));
  }
};

struct CudaExecutor {
  int device = 0;

  static auto policy() { return thrust::cuda::par_nosync.on(cudaStreamLegacy); }

  template <class Out, class K>
  void run(const TensorView<Out>& out, const K& k, bool linear) const {
    const std::int64_t n = out.numel();
    if (n == 0) return;
    CudaDeviceGuard guard(device);
    Extents extents;
    extents.ndim = out.ndim;
    for (int d = 0; d < out.ndim; ++d) extents.shape[d] = out.shape[d];
    auto first = thrust::counting_iterator<std::int64_t>(0);
    if (linear) {
      thrust::for_each_n(policy(), first, n, ElementwiseFunctor<Out, K, true>{out, k, extents});
    } else {
      thrust::for_each_n(policy(), first, n, ElementwiseFunctor<Out, K, false>{out, k, extents});
    }
    check_cuda(cudaGetLastError(), "tessera CUDA kernel launch");
  }

  /// Needs the result on the host, so this waits for the GPU (one sync).
  template <class Acc, class K, class Combine>
  Acc reduce(const Extents& extents, const K& k, bool linear, Acc init, Combine combine) const {
    const std::int64_t n = extents.numel();
    if (n == 0) return init;
    CudaDeviceGuard guard(device);
    return thrust::transform_reduce(thrust::cuda::par.on(cudaStreamLegacy),
                                    thrust::counting_iterator<std::int64_t>(0),
                                    thrust::counting_iterator<std::int64_t>(n),
                                    ReduceInputFunctor<Acc, K>{k, extents, linear}, init, combine);
  }
};

}  // namespace tessera::detail
