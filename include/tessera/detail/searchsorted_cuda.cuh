#pragma once
/// @file searchsorted_cuda.cuh
/// The CUDA searchsorted kernel (nvcc only): one thread per value, PyTorch's probe order (the
/// exact answer on every row, NaN-ended ones included). Queued on the legacy default stream;
/// nothing waits for the GPU.

#if !defined(__CUDACC__)
#error "searchsorted_cuda.cuh is for translation units compiled by nvcc"
#endif

#include <cstdint>

#include "tessera/detail/search_kernels.hpp"
#include "tessera/expr/cuda_executor.cuh"

namespace tessera::detail {

template <bool Right, class C, class S, class K, class Index>
__global__ void searchsorted_kernel(SearchRows<S> rows, K values, Extents extents, bool linear,
                                    std::int64_t per_row, TensorView<Index> out, bool out_linear,
                                    std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    std::int64_t index[kMaxDims];
    C v;
    if (linear) {
      v = static_cast<C>(values.linear(i));
    } else {
      extents.unravel(i, index);
      v = static_cast<C>(values.at(index));
    }
    const std::int64_t r = rows.lead_ndim == 0 ? 0 : i / per_row;
    const auto answer = static_cast<Index>(search_row<Right, C>(rows, r, v));
    if (out_linear) {
      out.data[i] = answer;
    } else {
      if (linear) extents.unravel(i, index);
      std::int64_t offset = 0;
      for (int d = 0; d < extents.ndim; ++d) offset += index[d] * out.strides[d];
      out.data[offset] = answer;
    }
  }
}

/// out[i] = searchsorted(rows, C(values(i))) for every element of `extents` (the values' shape).
template <class C, class S, class K, class Index>
void searchsorted_cuda(int device, const SearchRows<S>& rows, const K& values,
                       const Extents& extents, bool linear, std::int64_t per_row, bool right,
                       const TensorView<Index>& out) {
  const std::int64_t n = extents.numel();
  if (n == 0) return;
  CudaDeviceGuard guard(device);
  const bool out_linear = out.is_contiguous();
  if (right) {
    searchsorted_kernel<true, C><<<cuda_blocks(n), kCudaThreads, 0, cudaStreamLegacy>>>(
        rows, values, extents, linear, per_row, out, out_linear, n);
  } else {
    searchsorted_kernel<false, C><<<cuda_blocks(n), kCudaThreads, 0, cudaStreamLegacy>>>(
        rows, values, extents, linear, per_row, out, out_linear, n);
  }
  check_cuda(cudaGetLastError(), "searchsorted kernel launch");
}

}  // namespace tessera::detail
