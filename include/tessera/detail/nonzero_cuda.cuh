#pragma once
/// @file nonzero_cuda.cuh
/// The CUDA nonzero kernels (nvcc only): a fused count (the single device → host sync of
/// nonzero) and a CUB stream compaction that writes each selected element's multi-index
/// straight into its output row — no index or mask temporaries beyond CUB's scratch.

#if !defined(__CUDACC__)
#error "nonzero_cuda.cuh is for translation units compiled by nvcc"
#endif

#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <cub/device/device_select.cuh>

#include "tessera/expr/cuda_executor.cuh"

namespace tessera::detail {

template <class K>
struct NonzeroFlag {
  K k;
  Extents extents;
  bool linear;
  __device__ bool operator()(std::int64_t i) const {
    if (linear) return k.linear(i) != 0;
    std::int64_t index[kMaxDims];
    extents.unravel(i, index);
    return k.at(index) != 0;
  }
};

template <class K>
struct NonzeroCountInput {
  using value_type = std::int64_t;
  NonzeroFlag<K> flag;
  __device__ std::int64_t at(const std::int64_t* index) const { return flag.k.at(index) != 0; }
  __device__ std::int64_t linear(std::int64_t i) const { return flag.k.linear(i) != 0; }
};

/// Writes row `row` of the output from the selected linear position; drops rows past the limit.
struct NonzeroRowWriter {
  TensorView<std::int64_t> out;
  Extents extents;
  std::int64_t row_limit;
  __device__ void operator()(std::int64_t row, std::int64_t position) const {
    if (row >= row_limit) return;
    std::int64_t index[kMaxDims];
    extents.unravel(position, index);
    const std::int64_t col_stride = out.ndim > 1 ? out.strides[1] : 0;
    std::int64_t* dst = out.data + row * out.strides[0];
    for (int d = 0; d < extents.ndim; ++d) dst[d * col_stride] = index[d];
  }
};

// Not reduce.hpp's PlusCombine: this header can be reached while reduce.hpp is still being
// included (include cycles through evaluate.hpp), so it depends on nothing defined there.
struct NonzeroCountPlus {
  TESSERA_HD std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};

template <class K>
std::int64_t nonzero_count_cuda(int device, const K& k, const Extents& extents, bool linear) {
  return CudaExecutor{device}.reduce<std::int64_t>(extents,
                                                   NonzeroCountInput<K>{{k, extents, linear}},
                                                   linear, std::int64_t{0}, NonzeroCountPlus{});
}

/// Queues the compaction on the device's stream; does not wait for it.
template <class K>
void nonzero_write_cuda(int device, const K& k, const Extents& extents, bool linear,
                        const TensorView<std::int64_t>& out, std::int64_t row_limit) {
  const std::int64_t n = extents.numel();
  if (n == 0 || row_limit == 0) return;
  CudaDeviceGuard guard(device);
  auto positions = thrust::counting_iterator<std::int64_t>(0);
  auto rows = thrust::make_tabulate_output_iterator(NonzeroRowWriter{out, extents, row_limit});
  const NonzeroFlag<K> flag{k, extents, linear};
  // One allocation holds the selected-count CUB insists on writing and CUB's scratch (at a
  // 256-byte offset, CUB's alignment).
  constexpr std::size_t kScratchOffset = 256;
  std::size_t scratch_bytes = 0;
  check_cuda(cub::DeviceSelect::If(nullptr, scratch_bytes, positions, rows,
                                   static_cast<std::int64_t*>(nullptr), n, flag, cudaStreamLegacy),
             "nonzero scratch size");
  void* scratch = nullptr;
  check_cuda(cudaMallocAsync(&scratch, kScratchOffset + scratch_bytes, cudaStreamLegacy),
             "nonzero scratch allocation");
  const cudaError_t status =
      cub::DeviceSelect::If(static_cast<char*>(scratch) + kScratchOffset, scratch_bytes, positions,
                            rows, static_cast<std::int64_t*>(scratch), n, flag, cudaStreamLegacy);
  cudaFreeAsync(scratch, cudaStreamLegacy);
  check_cuda(status, "nonzero compaction");
}

}  // namespace tessera::detail
