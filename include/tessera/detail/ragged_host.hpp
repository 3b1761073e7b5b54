#pragma once
/// @file ragged_host.hpp
/// Host building blocks of the ragged kernels (library units only): a parallel walk over the
/// values of a row partition, in blocks of values rather than rows, so that a few very long rows
/// are still split between threads and a million short ones are not one task each.

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tessera/detail/ragged_range_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Values per task of the ragged host kernels: large enough that the per-block binary search and
/// task overhead vanish, small enough for a few hundred tasks on 1e7 values.
inline constexpr std::int64_t kRaggedValueBlock = std::int64_t{1} << 15;
/// Rows per task of the per-row passes (sizes, scan).
inline constexpr std::int64_t kRaggedRowBlock = std::int64_t{1} << 14;

/// Calls `run(row, first, last, j)` for every stretch [first, last) of values that lies in one
/// row, j being the position of `first` inside its row; stretches of one block come in order.
/// `splits` (nrows + 1 entries, host memory) must be a valid partition of `nvalues` values.
template <class S, class F>
void ragged_for_each_run(const S* splits, std::int64_t nrows, std::int64_t nvalues, const F& run) {
  const std::int64_t blocks = (nvalues + kRaggedValueBlock - 1) / kRaggedValueBlock;
  host_parallel_for(blocks, [=, &run](std::int64_t b) {
    const std::int64_t begin = b * kRaggedValueBlock;
    const std::int64_t end = std::min(nvalues, begin + kRaggedValueBlock);
    std::int64_t row = row_of_value(splits, nrows, begin);
    for (std::int64_t k = begin; k < end; ++row) {
      const std::int64_t row_end = std::min<std::int64_t>(end, splits[row + 1]);
      if (row_end > k) {
        run(row, k, row_end, k - static_cast<std::int64_t>(splits[row]));
        k = row_end;
      }
    }
  });
}

/// Elements of the staging buffer a ragged host kernel generates into before streaming them out.
inline constexpr std::int64_t kRaggedStageBytes = 4096;

/// Copies `bytes` from `src` to `dst` (16-byte aligned) with non-temporal stores: a large output
/// goes to memory without first being read into the cache (a plain store reads every line it
/// writes, so streaming halves the memory traffic of a write-only kernel). Callers end their
/// task with stream_fence().
inline void stream_copy(void* dst, const void* src, std::size_t bytes) {
#if defined(__SSE2__)
  auto* d = static_cast<__m128i*>(dst);
  const auto* s = static_cast<const __m128i*>(src);
  const std::size_t vectors = bytes / 16;
  for (std::size_t i = 0; i < vectors; ++i) _mm_stream_si128(d + i, _mm_load_si128(s + i));
  std::memcpy(d + vectors, s + vectors, bytes % 16);
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Orders this thread's streaming stores before whatever follows (the end of a parallel task).
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

/// a + b for non-negative a, b, stuck at INT64_MAX instead of overflowing (associative on
/// non-negative numbers, so block sums may be combined in any grouping).
inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

}  // namespace tessera::detail
