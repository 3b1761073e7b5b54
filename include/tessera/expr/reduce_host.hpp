#pragma once
/// @file reduce_host.hpp
/// The reduction engine on the host: outputs split between threads (host_adaptive_for), each
/// output folded in the engine's order (reduce_engine.hpp), so that results do not depend on
/// the thread count and equal the device's. Two layouts get loops of their own, with the same
/// order of combination: reductions over the trailing dimensions read each output's rows
/// through the kernel's row cursor (a contiguous row vectorises over the 16 lanes), and
/// reductions that keep the innermost dimension fold whole rows into 16 lane rows of
/// accumulators (vectorised across the outputs).

#include <algorithm>
#include <cstdint>

#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/reduce_engine.hpp"

namespace tessera::detail {

/// Names one kind of reduction for host_adaptive_for.
template <class Op, class K, int Path>
struct ReduceDimsWork {};

/// Outputs of the innermost dimension folded together by the kept-innermost loop.
inline constexpr std::int64_t kReduceChunk = 64;

template <class K>
concept RowCursor = requires(K cursor, const std::int64_t* index) {
  cursor.seek(index);
  cursor.inner(std::int64_t{0});
  cursor.inner_unit(std::int64_t{0});
};

/// Folds `n` elements read by `read(j)` (j = 0..n-1), the first being element r of the
/// output, into the lanes: lane r % 16 onwards, 16 at a time where aligned (vectorisable).
template <class Op, class Read>
inline void fold_stretch(const Op& op, typename Op::Acc* lanes, std::int64_t r, std::int64_t n,
                         const Read& read) {
  using In = typename Op::In;
  std::int64_t j = 0;
  for (; j < n && (r & (kReduceLanes - 1)) != 0; ++j, ++r) {
    lanes[r & (kReduceLanes - 1)] = op.step(lanes[r & (kReduceLanes - 1)], In(read(j)), r);
  }
  for (; j + kReduceLanes <= n; j += kReduceLanes, r += kReduceLanes) {
    for (int l = 0; l < kReduceLanes; ++l) lanes[l] = op.step(lanes[l], In(read(j + l)), r + l);
  }
  for (; j < n; ++j, ++r) {
    lanes[r & (kReduceLanes - 1)] = op.step(lanes[r & (kReduceLanes - 1)], In(read(j)), r);
  }
}

/// Output o of a reduction over the trailing dimensions: its rows through the row cursor.
template <class Op, class K>
typename Op::Acc reduce_output_rows(const Op& op, K& cursor, const ReducePlan& p, std::int64_t o) {
  using Acc = typename Op::Acc;
  Acc lanes[kReduceLanes];
  for (Acc& lane : lanes) lane = op.init();
  const int last = p.ndim - 1;
  const std::int64_t width = p.shape[last];
  std::int64_t index[kMaxDims];
  p.base_index(o, index);
  const bool unit = cursor.unit();
  for (std::int64_t r = 0; r < p.count; r += width) {
    cursor.seek(index);
    if (unit) {
      fold_stretch(op, lanes, r, width, [&](std::int64_t j) { return cursor.inner_unit(j); });
    } else {
      fold_stretch(op, lanes, r, width, [&](std::int64_t j) { return cursor.inner(j); });
    }
    index[last] = width - 1;
    p.next_reduced(index);  // the next row (the innermost index wraps to 0)
  }
  Acc acc = op.init();
  for (const Acc& lane : lanes) acc = op.merge(acc, lane);
  return acc;
}

/// A reduction that keeps the innermost dimension: outputs [w0, w1) of output row `row` (the
/// other kept dimensions), every reduced element's row folded into lane row r % 16.
template <class Op, class K>
void reduce_chunk_rows(const Op& op, K& cursor, const ReducePlan& p, std::int64_t row,
                       std::int64_t w0, std::int64_t w1, const ReduceStore<Op>& store) {
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  const int last = p.ndim - 1;
  const std::int64_t width = p.shape[last];
  const std::int64_t n = w1 - w0;
  Acc lanes[kReduceLanes][kReduceChunk];
  for (auto& lane : lanes) {
    for (std::int64_t w = 0; w < n; ++w) lane[w] = op.init();
  }
  std::int64_t index[kMaxDims];
  p.base_index(row * width, index);  // innermost index 0, reduced dims at 0
  const bool unit = cursor.unit();
  for (std::int64_t r = 0; r < p.count; ++r) {
    cursor.seek(index);
    Acc* lane = lanes[r & (kReduceLanes - 1)];
    if (unit) {
      for (std::int64_t w = 0; w < n; ++w) {
        lane[w] = op.step(lane[w], In(cursor.inner_unit(w0 + w)), r);
      }
    } else {
      for (std::int64_t w = 0; w < n; ++w) lane[w] = op.step(lane[w], In(cursor.inner(w0 + w)), r);
    }
    p.next_reduced(index);
  }
  for (std::int64_t w = 0; w < n; ++w) {
    Acc acc = op.init();
    for (auto& lane : lanes) acc = op.merge(acc, lane[w]);
    store(op, row * width + w0 + w, acc, p.count);
  }
}

/// Runs reduction `op` of kernel `k` (bound to `p.shape`) into `store` on the host.
template <class Op, class K>
void host_reduce_dims(const Op& op, const K& k, const ReducePlan& p, const ReduceStore<Op>& store) {
  if (p.outputs == 0) return;
  const std::int64_t per_output = std::max<std::int64_t>(p.count, 1);
  const HostSplit split{2, std::max<std::int64_t>(1, (1 << 15) / per_output), 1, true};
  const int last = p.ndim - 1;
  if constexpr (RowCursor<K>) {
    if (p.ndim >= 1 && p.reduces_suffix()) {
      host_adaptive_for<ReduceDimsWork<Op, K, 1>>(
          p.outputs, split, [&](std::int64_t first, std::int64_t end) {
            K cursor = k;
            for (std::int64_t o = first; o < end; ++o) {
              store(op, o, reduce_output_rows(op, cursor, p, o), p.count);
            }
          });
      return;
    }
    if (p.ndim >= 1 && !p.reduced[last] && p.nred > 0) {
      const std::int64_t width = p.shape[last];
      const std::int64_t chunks = (width + kReduceChunk - 1) / kReduceChunk;
      const std::int64_t rows = p.outputs / width;
      const HostSplit chunk_split{2, 1, 1, true};
      host_adaptive_for<ReduceDimsWork<Op, K, 2>>(
          rows * chunks, chunk_split, [&](std::int64_t first, std::int64_t end) {
            K cursor = k;
            for (std::int64_t t = first; t < end; ++t) {
              const std::int64_t w0 = (t % chunks) * kReduceChunk;
              reduce_chunk_rows(op, cursor, p, t / chunks, w0, std::min(width, w0 + kReduceChunk),
                                store);
            }
          });
      return;
    }
  }
  host_adaptive_for<ReduceDimsWork<Op, K, 0>>(p.outputs, split,
                                              [&](std::int64_t first, std::int64_t end) {
                                                for (std::int64_t o = first; o < end; ++o) {
                                                  store(op, o, reduce_output(op, k, p, o), p.count);
                                                }
                                              });
}

/// Runs scan `op` of kernel `k` along the plan's one reduced dimension, line by line.
template <class Op, class K>
void host_scan_dim(const Op& op, const K& k, const ReducePlan& p, const ReduceStore<Op>& store) {
  if (p.outputs == 0 || p.count == 0) return;
  const ScanLine<Op, K> line{op, k, p, store};
  const HostSplit split{2, std::max<std::int64_t>(1, (1 << 15) / p.count), 1, true};
  host_adaptive_for<ReduceDimsWork<Op, K, 3>>(p.outputs, split,
                                              [&](std::int64_t first, std::int64_t end) {
                                                for (std::int64_t l = first; l < end; ++l) line(l);
                                              });
}

}  // namespace tessera::detail
