#pragma once
/// @file ragged_cuda.cuh
/// The CUDA kernels of ragged::range and RaggedTensor (nvcc only): row sizes with their faults,
/// a saturating inclusive scan (CUB), the row splits, and a fill with one thread per value (each
/// finds its row by binary search, so long and short rows balance alike). Everything is queued
/// on the device's legacy default stream.

#if !defined(__CUDACC__)
#error "ragged_cuda.cuh is for translation units compiled by nvcc"
#endif

#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "tessera/detail/ragged_range_kernels.hpp"
#include "tessera/expr/cuda_executor.cuh"

namespace tessera::detail {

/// a + b on non-negative sizes, stuck at INT64_MAX (associative there, so a valid scan op).
struct SaturatingPlus {
  __host__ __device__ std::int64_t operator()(std::int64_t a, std::int64_t b) const {
    return a > INT64_MAX - b ? INT64_MAX : a + b;
  }
};

/// sizes[i] = size of row i (0 for a faulty row, whose index lowers *fault_row).
template <class T>
__global__ void range_sizes_kernel(RangeOperands<T> args, std::int64_t nrows, std::int64_t* sizes,
                                   unsigned long long* fault_row) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nrows;
       i += stride) {
    RangeFault fault = RangeFault::None;
    const std::int64_t size = range_size(args.starts[i], args.limits[i], args.deltas[i], fault);
    if (size < 0) atomicMin(fault_row, static_cast<unsigned long long>(i));
    sizes[i] = size < 0 ? 0 : size;
  }
}

/// splits[0] = 0, splits[i + 1] = ends[i] (the inclusive scan of the sizes).
template <class S>
__global__ void range_splits_kernel(const std::int64_t* ends, std::int64_t nrows, S* splits) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i <= nrows; i += stride) {
    splits[i] = i == 0 ? S(0) : static_cast<S>(ends[i - 1]);
  }
}

template <class T, class S>
__global__ void range_fill_kernel(RangeOperands<T> args, const S* splits, std::int64_t nrows,
                                  T* values, std::int64_t total) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total;
       k += stride) {
    const std::int64_t row = row_of_value(splits, nrows, k);
    values[k] = range_element(args.starts[row], args.deltas[row],
                              k - static_cast<std::int64_t>(splits[row]));
  }
}

/// out[i, j, :] = row i's j-th value block of `inner` elements, or pad past the row's end.
template <class T, class S>
__global__ void ragged_to_tensor_kernel(const T* values, const S* splits, std::int64_t width,
                                        std::int64_t inner, T pad, T* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < n;
       e += stride) {
    const std::int64_t row = e / (width * inner);
    const std::int64_t rest = e % (width * inner);
    const std::int64_t j = rest / inner;
    const std::int64_t first = splits[row];
    out[e] =
        j < static_cast<std::int64_t>(splits[row + 1]) - first ? values[first * inner + rest] : pad;
  }
}

}  // namespace tessera::detail
