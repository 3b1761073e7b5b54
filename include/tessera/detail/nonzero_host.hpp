#pragma once
/// @file nonzero_host.hpp
/// The host nonzero kernel: a parallel two-pass compaction over blocks of the input (count the
/// nonzeros of each block, scan the counts, write each block's indices at its offset). The
/// output order is the serial C order; nothing but the output is allocated, and the predicate
/// (`x > 0.5`) is evaluated inside both passes instead of through a mask tensor.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Per-block row offsets of the output: block b writes rows [offsets[b], offsets[b + 1]).
struct NonzeroPlan {
  std::int64_t block = 0;
  std::vector<std::int64_t> offsets;
  std::int64_t total() const { return offsets.empty() ? 0 : offsets.back(); }
};

// Blocks of 64Ki elements: a few hundred tasks for a 4000x4000 input keep both cores busy,
// while the per-block state (counts, offsets) stays negligible next to the output.
inline constexpr std::int64_t kNonzeroBlock = std::int64_t{1} << 16;

template <class K>
std::int64_t nonzero_count_range(const K& k, const Extents& extents, bool linear,
                                 std::int64_t begin, std::int64_t end) {
  std::int64_t count = 0;
  if (linear) {
    for (std::int64_t i = begin; i < end; ++i) count += (k.linear(i) != 0);
  } else {
    std::int64_t index[kMaxDims] = {};
    extents.unravel(begin, index);
    for (std::int64_t i = begin; i < end; ++i) {
      count += (k.at(index) != 0);
      extents.increment(index);
    }
  }
  return count;
}

/// Pass 1: counts per block and their exclusive scan.
template <class K>
NonzeroPlan nonzero_plan_host(const K& k, const Extents& extents, bool linear) {
  NonzeroPlan plan;
  const std::int64_t n = extents.numel();
  plan.block = kNonzeroBlock;
  const std::int64_t blocks = (n + plan.block - 1) / plan.block;
  plan.offsets.assign(static_cast<std::size_t>(blocks) + 1, 0);
  std::int64_t* counts = plan.offsets.data() + 1;
  const std::int64_t block = plan.block;
  host_parallel_for(blocks, [&k, &extents, linear, counts, block, n](std::int64_t b) {
    const std::int64_t begin = b * block;
    counts[b] = nonzero_count_range(k, extents, linear, begin, std::min(n, begin + block));
  });
  for (std::int64_t b = 0; b < blocks; ++b) plan.offsets[b + 1] += plan.offsets[b];
  return plan;
}

/// Pass 2: block b writes the multi-indices of its nonzeros at rows offsets[b]...; rows at or
/// beyond `row_limit` are skipped (nonzero_static). `out` is (rows, ndim) with any strides.
///
/// The block is walked one innermost-dimension run at a time, so the outer indices are fixed
/// within a run. Dense blocks write every element's index unconditionally and advance the row
/// only past nonzeros (no data-dependent branch); sparse blocks branch, which predicts well.
template <class K>
void nonzero_write_host(const K& k, const Extents& extents, bool linear, const NonzeroPlan& plan,
                        const TensorView<std::int64_t>& out, std::int64_t row_limit) {
  const std::int64_t n = extents.numel();
  const auto blocks = static_cast<std::int64_t>(plan.offsets.size()) - 1;
  const std::int64_t* offsets = plan.offsets.data();
  const std::int64_t block = plan.block;
  const int ndim = extents.ndim;
  if (ndim == 0) return;  // a 0-d input's rows have no columns to write
  const int last = ndim - 1;
  const std::int64_t inner = extents.shape[last];
  const std::int64_t row_stride = out.strides[0];
  const std::int64_t col_stride = out.ndim > 1 ? out.strides[1] : 0;
  std::int64_t* const data = out.data;
  host_parallel_for(blocks, [&](std::int64_t b) {
    std::int64_t row = offsets[b];
    const std::int64_t row_end = std::min(offsets[b + 1], row_limit);
    if (row >= row_end) return;
    // Dense enough that a branch per element would mispredict often.
    const bool dense = (offsets[b + 1] - offsets[b]) * 16 > block;
    const std::int64_t begin = b * block;
    const std::int64_t end = std::min(n, begin + block);
    std::int64_t index[kMaxDims] = {};
    extents.unravel(begin, index);
    std::int64_t i = begin;
    while (i < end && row < row_end) {
      const std::int64_t run_end = std::min(end, i + (inner - index[last]));
      std::int64_t j = index[last];
      auto value = [&](std::int64_t position, std::int64_t column) {
        if (linear) return k.linear(position) != 0;
        index[last] = column;
        return k.at(index) != 0;
      };
      auto write = [&](std::int64_t r, std::int64_t column) {
        std::int64_t* dst = data + r * row_stride;
        for (int d = 0; d < last; ++d) dst[d * col_stride] = index[d];
        dst[last * col_stride] = column;
      };
      if (dense) {
        for (; i < run_end && row < row_end; ++i, ++j) {
          const bool nonzero = value(i, j);
          write(row, j);
          row += nonzero;
        }
      } else {
        for (; i < run_end && row < row_end; ++i, ++j) {
          if (value(i, j)) write(row++, j);
        }
      }
      // Next run: the innermost index wraps, the outer ones carry.
      index[last] = inner - 1;
      extents.increment(index);
    }
  });
}

}  // namespace tessera::detail
