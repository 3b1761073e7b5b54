// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ragged_host.hpp
/// Host building blocks of the ragged kernels (library units only): a parallel walk over the
/// values of a row partition, in blocks of values rather than rows, so that a few very long rows
/// are still split between threads and a million short ones are not one task each.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>

#include "tessera/detail/ragged_range_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Values per task of the ragged host kernels: large enough that the per-block binary search and
/// task overhead vanish, small enough for a few hundred tasks on 1e7 values.
inline constexpr std::int64_t kRaggedValueBlock = std::int64_t{1} << 15;
/// Rows per task of the per-row passes (sizes, scan).
inline constexpr std::int64_t kRaggedRowBlock = std::int64_t{1} << 14;

/// Runs `f(block)` for every block in [0, blocks) on the host policy, handing blocks out one at
/// a time from a shared cursor (host_claim_parts; one task per hardware thread): on a machine
/// shared with other processes a descheduled thread then delays only the block it holds, where
/// a static split (Thrust's OpenMP for_each) makes every other thread wait for its whole share.
template <class F>
void host_parallel_for_dynamic(std::int64_t blocks, const F& f) {
  if (blocks <= 1) return host_parallel_for(blocks, f);
  const auto threads = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  host_claim_parts(
      std::min(blocks, threads), 0, blocks, [](std::int64_t) { return std::int64_t{1}; },
      [&f](std::int64_t block, std::int64_t) { f(block); });
}

/// Calls `run(row, first, last, j)` for every stretch [first, last) of values that lies in one
/// row, j being the position of `first` inside its row; stretches of one block come in order.
/// `splits` (nrows + 1 entries, host memory) must be a valid partition of `nvalues` values.
template <class S, class F>
void ragged_for_each_run(const S* splits, std::int64_t nrows, std::int64_t nvalues, const F& run) {
  const std::int64_t blocks = (nvalues + kRaggedValueBlock - 1) / kRaggedValueBlock;
  host_parallel_for_dynamic(blocks, [=, &run](std::int64_t b) {
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

/// a + b for non-negative a, b, stuck at INT64_MAX instead of overflowing (associative on
/// non-negative numbers, so block sums may be combined in any grouping).
inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

}  // namespace tessera::detail
