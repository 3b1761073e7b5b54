// ragged::range and RaggedTensor::to_tensor on a GPU, instantiated per (T, S) for host-compiled
// callers. range waits for the GPU once: the total size (and any faulty row) must reach the
// host to raise errors before the values are allocated, and to allocate them.

// tensor.hpp first, in its own block: it pulls in the expression machinery in dependency order.
#include "tessera/tensor.hpp"

#include <cstdint>
#include <limits>

#include "tessera/detail/ragged_cuda.cuh"
#include "tessera/ragged/range.hpp"

namespace tessera::detail::ragged_ops {

namespace {
/// The value of one argument at `row`, read from the device when it lives there.
template <class T>
T operand_at(const RangeOperand<T>& op, std::int64_t row) {
  if (op.data == nullptr) return op.value;
  T value;
  check_cuda(cudaMemcpy(&value, op.data + row * op.stride, sizeof(T), cudaMemcpyDeviceToHost),
             "ragged::range: reading a faulty row");
  return value;
}
}  // namespace

template <class T, class S>
void range_cuda(int device, const RangeOperands<T>& args, std::int64_t nrows, Tensor<S>& splits_out,
                Tensor<T>& values_out) {
  const Device dev = Device::cuda(device);
  CudaDeviceGuard guard(device);
  // ends: the sizes, then their inclusive scan; one extra slot holds the faulty row.
  Tensor<std::int64_t> ends = Tensor<std::int64_t>::empty({nrows + 1}, dev);
  std::int64_t* const e = ends.data();
  auto* const fault_row = reinterpret_cast<unsigned long long*>(e + nrows);
  check_cuda(cudaMemsetAsync(fault_row, 0xff, sizeof(*fault_row), cudaStreamLegacy),
             "ragged::range: fault flag");
  if (nrows > 0) {
    range_sizes_kernel<T>
        <<<cuda_blocks(nrows), kCudaThreads, 0, cudaStreamLegacy>>>(args, nrows, e, fault_row);
    check_cuda(cudaGetLastError(), "ragged::range: sizes kernel launch");
    std::size_t scratch_bytes = 0;
    check_cuda(cub::DeviceScan::InclusiveScan(nullptr, scratch_bytes, e, e, SaturatingPlus{}, nrows,
                                              cudaStreamLegacy),
               "ragged::range: scan scratch size");
    void* scratch = nullptr;
    check_cuda(cudaMallocAsync(&scratch, scratch_bytes, cudaStreamLegacy),
               "ragged::range: scan scratch");
    const cudaError_t status = cub::DeviceScan::InclusiveScan(
        scratch, scratch_bytes, e, e, SaturatingPlus{}, nrows, cudaStreamLegacy);
    cudaFreeAsync(scratch, cudaStreamLegacy);
    check_cuda(status, "ragged::range: scan");
  }
  // The one wait: the faulty row and the total, copied together.
  std::int64_t tail[2] = {0, -1};  // total, fault row
  if (nrows > 0) {
    check_cuda(cudaMemcpyAsync(tail, e + nrows - 1, 2 * sizeof(std::int64_t),
                               cudaMemcpyDeviceToHost, cudaStreamLegacy),
               "ragged::range: total");
    check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "ragged::range: total");
  }
  const std::int64_t total = tail[0];
  if (tail[1] >= 0) {
    const std::int64_t row = tail[1];
    const T start = operand_at(args.starts, row);
    const T limit = operand_at(args.limits, row);
    const T delta = operand_at(args.deltas, row);
    RangeFault fault = RangeFault::None;
    range_size(start, limit, delta, fault);
    raise_range_fault(fault, row, start, limit, delta);
  }
  if (total == INT64_MAX || total > static_cast<std::int64_t>(std::numeric_limits<S>::max())) {
    raise_range_total<S>(total, total == INT64_MAX);
  }
  Tensor<S> splits = Tensor<S>::empty({nrows + 1}, dev);
  range_splits_kernel<S>
      <<<cuda_blocks(nrows + 1), kCudaThreads, 0, cudaStreamLegacy>>>(e, nrows, splits.data());
  check_cuda(cudaGetLastError(), "ragged::range: splits kernel launch");
  Tensor<T> values = Tensor<T>::empty({total}, dev);
  if (total > 0) {
    range_fill_kernel<T, S><<<cuda_blocks(total), kCudaThreads, 0, cudaStreamLegacy>>>(
        args, splits.data(), nrows, values.data(), total);
    check_cuda(cudaGetLastError(), "ragged::range: fill kernel launch");
  }
  splits_out = std::move(splits);
  values_out = std::move(values);
}

#define TESSERA_INSTANTIATE_RANGE_CUDA(T, S)                                             \
  template void range_cuda<T, S>(int, const RangeOperands<T>&, std::int64_t, Tensor<S>&, \
                                 Tensor<T>&);
TESSERA_FOR_EACH_RAGGED_RANGE_TYPE(TESSERA_INSTANTIATE_RANGE_CUDA)
#undef TESSERA_INSTANTIATE_RANGE_CUDA

template <class T, class S>
void to_tensor_cuda(int device, const T* values, const S* splits, std::int64_t nrows,
                    std::int64_t width, std::int64_t inner, T pad, T* out) {
  const std::int64_t n = nrows * width * inner;
  if (n == 0) return;
  CudaDeviceGuard guard(device);
  ragged_to_tensor_kernel<T, S><<<cuda_blocks(n), kCudaThreads, 0, cudaStreamLegacy>>>(
      values, splits, width, inner, pad, out, n);
  check_cuda(cudaGetLastError(), "RaggedTensor::to_tensor kernel launch");
}

#define TESSERA_INSTANTIATE_TO_TENSOR_CUDA(S, T)                                          \
  template void to_tensor_cuda<T, S>(int, const T*, const S*, std::int64_t, std::int64_t, \
                                     std::int64_t, T, T*);
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_TO_TENSOR_CUDA, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_TO_TENSOR_CUDA, int64_t)
#undef TESSERA_INSTANTIATE_TO_TENSOR_CUDA

}  // namespace tessera::detail::ragged_ops
