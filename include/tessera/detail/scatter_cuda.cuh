#pragma once
/// @file scatter_cuda.cuh
/// The CUDA tensor_scatter_nd_* kernels (nvcc only).
/// - Bounds: one pass over the index rows keeps the lowest bad position (atomicMin); reading it
///   back is the one device → host sync of the Error policy (Ignore needs none).
/// - Default: one thread per update element, combined with atomics (hardware atomicAdd /
///   atomicMin / atomicMax where they exist, a compare-and-swap loop on the enclosing 32- or
///   64-bit word otherwise). Float sums then depend on the arrival order.
/// - deterministic: a stable radix sort of the rows by destination slice, then one thread per
///   destination element applies its updates in index order — the host's loop, bit for bit.

#if !defined(__CUDACC__)
#error "scatter_cuda.cuh is for translation units compiled by nvcc"
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>

#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/cuda_executor.cuh"

namespace tessera::detail {

template <class To, class From>
__device__ To scatter_bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To y;
  memcpy(&y, &x, sizeof(To));
  return y;
}

/// *address = Op(*address, u) atomically, through compare-and-swap on the enclosing word.
template <class Op, class T>
__device__ void scatter_atomic_cas(T* address, T u) {
  if constexpr (sizeof(T) == 8 || sizeof(T) == 4) {
    using Word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
    Word* const word = reinterpret_cast<Word*>(address);
    Word old = *word;
    while (true) {
      const T x = scatter_bit_cast<T>(old);
      const Word desired = scatter_bit_cast<Word>(Op::apply(x, u));
      if (desired == old) return;
      const Word seen = atomicCAS(word, old, desired);
      if (seen == old) return;
      old = seen;
    }
  } else {
    // 1- and 2-byte elements: the aligned 32-bit word that holds them.
    const auto raw = reinterpret_cast<std::uintptr_t>(address);
    unsigned int* const word = reinterpret_cast<unsigned int*>(raw & ~std::uintptr_t{3});
    const unsigned int shift = static_cast<unsigned int>(raw & 3u) * 8u;
    constexpr unsigned int kMask = sizeof(T) == 1 ? 0xffu : 0xffffu;
    using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t>;
    unsigned int old = *word;
    while (true) {
      const T x = scatter_bit_cast<T>(static_cast<Bits>((old >> shift) & kMask));
      const auto bits = static_cast<unsigned int>(scatter_bit_cast<Bits>(Op::apply(x, u)));
      const unsigned int desired = (old & ~(kMask << shift)) | (bits << shift);
      if (desired == old) return;
      const unsigned int seen = atomicCAS(word, old, desired);
      if (seen == old) return;
      old = seen;
    }
  }
}

/// *address = Op(*address, u) atomically, with the hardware's own atomics where they exist.
template <class Op, class T>
__device__ void scatter_atomic(T* address, T u) {
  constexpr bool sub = std::is_same_v<Op, scatter_ops::Sub>;
  if constexpr (std::is_same_v<Op, scatter_ops::Update>) {
    *address = u;  // duplicates: one of them wins (TensorFlow's GPU kernel does the same)
  } else if constexpr ((sub || std::is_same_v<Op, scatter_ops::Add>)&&std::is_floating_point_v<T>) {
    atomicAdd(address, sub ? -u : u);  // x - u is x + (-u) exactly in IEEE arithmetic
  } else if constexpr ((sub || std::is_same_v<Op, scatter_ops::Add>)&&std::is_integral_v<T> &&
                       (sizeof(T) == 4 || sizeof(T) == 8)) {
    // Two's complement: adding the wrapped negation subtracts, in unsigned words.
    using Word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
    const auto w = static_cast<Word>(u);
    atomicAdd(reinterpret_cast<Word*>(address), sub ? Word{0} - w : w);
  } else if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>) {
    using Word = std::conditional_t<sizeof(T) == 8, long long, int>;
    if constexpr (std::is_same_v<Op, scatter_ops::Min>) {
      atomicMin(reinterpret_cast<Word*>(address), static_cast<Word>(u));
    } else {
      atomicMax(reinterpret_cast<Word*>(address), static_cast<Word>(u));
    }
  } else {
    scatter_atomic_cas<Op>(address, u);
  }
}

template <class Index>
__global__ void scatter_first_bad_kernel(ScatterGeometry g, const Index* indices, std::int64_t rows,
                                         unsigned long long* first) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < rows;
       i += stride) {
    if (g.slice_of(indices + i * g.k) < 0) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

template <class Op, class T, class Index, class K>
__global__ void scatter_atomic_kernel(T* out, ScatterGeometry g, const Index* indices, K updates,
                                      Extents extents, bool linear, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t S = g.slice_size;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < n;
       p += stride) {
    const std::int64_t i = p / S;
    const std::int64_t slice = g.slice_of(indices + i * g.k);
    if (slice < 0) continue;
    scatter_atomic<Op>(out + slice * S + (p - i * S),
                       scatter_update_at<T>(updates, extents, linear, p));
  }
}

/// key[i] = the slice row i names (g.slices when none: sorts last, applies nowhere).
template <class Index>
__global__ void scatter_keys_kernel(ScatterGeometry g, const Index* indices, std::int64_t rows,
                                    std::int64_t* keys, std::int64_t* order) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < rows;
       i += stride) {
    const std::int64_t slice = g.slice_of(indices + i * g.k);
    keys[i] = slice < 0 ? g.slices : slice;
    order[i] = i;
  }
}

/// One thread per (first row of a destination, element of the slice): applies that
/// destination's rows in index order (the sort was stable).
template <class Op, class T, class K>
__global__ void scatter_ordered_kernel(T* out, std::int64_t slices, std::int64_t S,
                                       const std::int64_t* keys, const std::int64_t* order,
                                       std::int64_t rows, K updates, Extents extents, bool linear) {
  const std::int64_t n = rows * S;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < n;
       p += stride) {
    const std::int64_t s = p / S;
    const std::int64_t e = p - s * S;
    const std::int64_t key = keys[s];
    if (key >= slices || (s > 0 && keys[s - 1] == key)) continue;
    T* const dst = out + key * S + e;
    T x = *dst;
    for (std::int64_t t = s; t < rows && keys[t] == key; ++t) {
      x = Op::apply(x, scatter_update_at<T>(updates, extents, linear, order[t] * S + e));
    }
    *dst = x;
  }
}

/// The lowest position of a row outside `g`, or `rows` (waits for the GPU).
template <class Index>
std::int64_t scatter_first_bad_cuda(int device, const ScatterGeometry& g, const Index* indices,
                                    std::int64_t rows) {
  if (rows == 0) return rows;
  CudaDeviceGuard guard(device);
  unsigned long long first = static_cast<unsigned long long>(rows);
  unsigned long long* slot = nullptr;
  check_cuda(cudaMallocAsync(reinterpret_cast<void**>(&slot), sizeof(first), cudaStreamLegacy),
             "tensor_scatter_nd bounds allocation");
  cudaError_t status =
      cudaMemcpyAsync(slot, &first, sizeof(first), cudaMemcpyHostToDevice, cudaStreamLegacy);
  if (status == cudaSuccess) {
    scatter_first_bad_kernel<<<cuda_blocks(rows), kCudaThreads, 0, cudaStreamLegacy>>>(g, indices,
                                                                                       rows, slot);
    status = cudaGetLastError();
  }
  if (status == cudaSuccess) {
    status = cudaMemcpyAsync(&first, slot, sizeof(first), cudaMemcpyDeviceToHost, cudaStreamLegacy);
  }
  cudaFreeAsync(slot, cudaStreamLegacy);
  if (status == cudaSuccess) status = cudaStreamSynchronize(cudaStreamLegacy);
  check_cuda(status, "tensor_scatter_nd bounds check");
  return static_cast<std::int64_t>(first);
}

/// Applies Op for every row to the contiguous `out`, skipping rows outside `g`; queued on the
/// legacy default stream, nothing waits.
template <class Op, class T, class Index, class K>
void scatter_cuda(int device, T* out, const ScatterGeometry& g, const Index* indices,
                  std::int64_t rows, const K& updates, const Extents& extents, bool linear,
                  bool deterministic) {
  const std::int64_t n = rows * g.slice_size;
  if (n == 0) return;
  CudaDeviceGuard guard(device);
  if (!deterministic) {
    scatter_atomic_kernel<Op, T><<<cuda_blocks(n), kCudaThreads, 0, cudaStreamLegacy>>>(
        out, g, indices, updates, extents, linear, n);
    check_cuda(cudaGetLastError(), "tensor_scatter_nd kernel launch");
    return;
  }
  // Keys only need the bits of g.slices (the largest key).
  int end_bit = 1;
  while (end_bit < 63 && (std::int64_t{1} << end_bit) <= g.slices) ++end_bit;
  const auto count = static_cast<std::size_t>(rows);
  std::size_t sort_bytes = 0;
  check_cuda(cub::DeviceRadixSort::SortPairs(
                 nullptr, sort_bytes, static_cast<const std::int64_t*>(nullptr),
                 static_cast<std::int64_t*>(nullptr), static_cast<const std::int64_t*>(nullptr),
                 static_cast<std::int64_t*>(nullptr), rows, 0, end_bit, cudaStreamLegacy),
             "tensor_scatter_nd sort size");
  // One allocation: keys and row order (in and out), then CUB's scratch (256-byte aligned).
  const std::size_t arrays = (4 * count * sizeof(std::int64_t) + 255) / 256 * 256;
  void* scratch = nullptr;
  check_cuda(cudaMallocAsync(&scratch, arrays + sort_bytes, cudaStreamLegacy),
             "tensor_scatter_nd scratch allocation");
  auto* const keys_in = static_cast<std::int64_t*>(scratch);
  auto* const order_in = keys_in + count;
  auto* const keys = order_in + count;
  auto* const order = keys + count;
  scatter_keys_kernel<<<cuda_blocks(rows), kCudaThreads, 0, cudaStreamLegacy>>>(g, indices, rows,
                                                                                keys_in, order_in);
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) {
    status =
        cub::DeviceRadixSort::SortPairs(static_cast<char*>(scratch) + arrays, sort_bytes, keys_in,
                                        keys, order_in, order, rows, 0, end_bit, cudaStreamLegacy);
  }
  if (status == cudaSuccess) {
    scatter_ordered_kernel<Op, T><<<cuda_blocks(n), kCudaThreads, 0, cudaStreamLegacy>>>(
        out, g.slices, g.slice_size, keys, order, rows, updates, extents, linear);
    status = cudaGetLastError();
  }
  cudaFreeAsync(scratch, cudaStreamLegacy);
  check_cuda(status, "tensor_scatter_nd deterministic scatter");
}

}  // namespace tessera::detail
