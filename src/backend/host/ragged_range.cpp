// SPDX-License-Identifier: BSD-3-Clause
// ragged::range on the host, in three parallel passes under the host Thrust policy: row sizes
// (with their faults and per-block sums), an exclusive scan into the row splits, and the fill
// of the values in blocks of values (so 10 rows of 1e6 values use every core as 1e6 short rows
// do). Nothing is allocated for the values before every row and the total are known valid.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "backend/host/ragged_host.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::ragged_ops {

namespace {

struct BlockSizes {
  std::int64_t sum = 0;         // saturating
  std::int64_t fault_row = -1;  // first faulty row of the block
  RangeFault fault = RangeFault::None;
};

}  // namespace

template <class T, class S>
void range_host(const RangeOperands<T>& args, std::int64_t nrows, Tensor<S>& splits_out,
                Tensor<T>& values_out) {
  constexpr auto kSplitMax = static_cast<std::int64_t>(std::numeric_limits<S>::max());
  Tensor<S> splits = Tensor<S>::empty({nrows + 1});
  S* const sp = splits.data();
  sp[0] = 0;
  const std::int64_t blocks = (nrows + kRaggedRowBlock - 1) / kRaggedRowBlock;
  std::vector<BlockSizes> per_block(static_cast<std::size_t>(blocks));
  BlockSizes* const pb = per_block.data();

  // Pass 1: sizes into splits[i + 1] (clamped to S; an oversized row fails the total check).
  host_parallel_for_dynamic(blocks, [=](std::int64_t b) {
    const std::int64_t end = std::min(nrows, (b + 1) * kRaggedRowBlock);
    std::int64_t sum = 0;
    for (std::int64_t i = b * kRaggedRowBlock; i < end; ++i) {
      RangeFault fault = RangeFault::None;
      const std::int64_t size = range_size(args.starts[i], args.limits[i], args.deltas[i], fault);
      if (size < 0) {
        pb[b].fault_row = i;
        pb[b].fault = fault;
        return;
      }
      sp[i + 1] = static_cast<S>(std::min(size, kSplitMax));
      sum = saturating_add(sum, size);
    }
    pb[b].sum = sum;
  });
  for (std::int64_t b = 0; b < blocks; ++b) {
    if (pb[b].fault_row >= 0) {
      const std::int64_t i = pb[b].fault_row;
      raise_range_fault(pb[b].fault, i, args.starts[i], args.limits[i], args.deltas[i]);
    }
  }
  // Block offsets (serial over a few hundred blocks), then the total against S.
  std::int64_t total = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t sum = pb[b].sum;
    pb[b].sum = total;
    total = saturating_add(total, sum);
  }
  if (total == INT64_MAX || total > kSplitMax) raise_range_total<S>(total, total == INT64_MAX);

  // Pass 2: each block turns its sizes into running offsets from its block offset.
  host_parallel_for_dynamic(blocks, [=](std::int64_t b) {
    const std::int64_t end = std::min(nrows, (b + 1) * kRaggedRowBlock);
    S running = static_cast<S>(pb[b].sum);
    for (std::int64_t i = b * kRaggedRowBlock; i < end; ++i) {
      running = static_cast<S>(running + sp[i + 1]);
      sp[i + 1] = running;
    }
  });

  // Pass 3: the values, in blocks of values (a long row is split between tasks). A stretch of a
  // row is written in whole groups of kRangePad elements when the block has room after it: the
  // extra elements land on later rows of the same block, which this task writes afterwards.
  Tensor<T> values = Tensor<T>::empty({total});
  T* const out = values.data();
  const std::int64_t value_blocks = (total + kRaggedValueBlock - 1) / kRaggedValueBlock;
  host_parallel_for_dynamic(value_blocks, [=](std::int64_t b) {
    const std::int64_t begin = b * kRaggedValueBlock;
    const std::int64_t end = std::min(total, begin + kRaggedValueBlock);
    std::int64_t row = row_of_value(sp, nrows, begin);
    for (std::int64_t k = begin; k < end; ++row) {
      const auto row_end = std::min<std::int64_t>(end, sp[row + 1]);
      if (row_end <= k) continue;  // an empty row
      const std::int64_t j = k - static_cast<std::int64_t>(sp[row]);
      if (row_end + kRangePad <= end) {
        range_elements_padded(args.starts[row], args.deltas[row], j, row_end - k, out + k);
      } else {
        range_elements(args.starts[row], args.deltas[row], j, row_end - k, out + k);
      }
      k = row_end;
    }
  });
  splits_out = std::move(splits);
  values_out = std::move(values);
}

#define TESSERA_INSTANTIATE_RANGE_HOST(T, S) \
  template void range_host<T, S>(const RangeOperands<T>&, std::int64_t, Tensor<S>&, Tensor<T>&);
TESSERA_FOR_EACH_RAGGED_RANGE_TYPE(TESSERA_INSTANTIATE_RANGE_HOST)
#undef TESSERA_INSTANTIATE_RANGE_HOST

}  // namespace tessera::detail::ragged_ops
