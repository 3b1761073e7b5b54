// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_host.hpp
/// The reduction engine on the host: outputs split between threads (host_adaptive_for), each
/// output folded in the engine's order (reduce_engine.hpp), so that results do not depend on
/// the thread count and equal the device's. Two layouts get loops of their own, with the same
/// order of combination: reductions over the trailing dimensions read each output's rows
/// through the kernel's row cursor (a contiguous row vectorises over the 16 lanes), and
/// reductions that keep the innermost dimension fold whole rows into 16 lane rows of
/// accumulators (vectorised across the outputs). Before either, the dimensions may be
/// reordered so that a transposed input takes one of them (reduction_order).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/reduce_engine.hpp"

namespace tessera::detail {

/// Names one kind of reduction for host_adaptive_for.
template <class Op, class K, int Path>
struct ReduceDimsWork {};

/// The kept-innermost loop's unit of work for the thread split: this many outputs of the
/// innermost dimension (a part then folds its consecutive units of one row together).
inline constexpr std::int64_t kReduceChunk = 64;

template <class K>
concept RowCursor = requires(K cursor, const std::int64_t* index) {
  cursor.seek(index);
  cursor.inner(std::int64_t{0});
  cursor.inner_unit(std::int64_t{0});
};

/// Elements j, ..., j + 15 of `read`: where `read` hands out references into a contiguous row
/// of In, a pointer into that row (read in place: the loads are whole vectors); otherwise
/// `buffer`, filled element by element. Both copies of a row GCC 12 tried were slow in one
/// clone or the other: read one by one through the cursor, it split a float sum's 16 double
/// lanes 8 + 4 + 2 + 1 + 1 with AVX-512 (9.2 elements/ns in L2 against 11.1), and a memcpy
/// into a local array became four 16-byte stores reloaded as 32-byte vectors in the AVX2 clone,
/// a store-forwarding stall per load (float sum over rows of 4000 in L2, one thread of an AVX2
/// VM: 1.0 elements/ns through the copy, 11.9 in place; amax 1.1 and 13.1).
template <class In, class Read>
inline const In* lanes_at(In* buffer, std::int64_t j, const Read& read) {
  using Got = decltype(read(j));
  if constexpr (std::is_lvalue_reference_v<Got> && std::is_same_v<std::remove_cvref_t<Got>, In>) {
    return &read(j);
  } else {
    for (int l = 0; l < kReduceLanes; ++l) buffer[l] = In(read(j + l));
    return buffer;
  }
}

/// How far ahead of the block it folds the in-place row loop asks for the row (bytes): the
/// hardware prefetcher alone left the 2 threads of an AVX2 VM short of the memory's pace (sum
/// over the rows of a 4000 x 4000 float matrix in a standalone loop: 1.73-1.89 ms without,
/// 1.30-1.52 ms with 2 KiB ahead; 1 KiB or 4 KiB ahead gained less).
inline constexpr std::size_t kRowPrefetchBytes = 2048;

/// Asks for the row kRowPrefetchBytes past `v` when `v` points into it (lanes_at read in place).
template <class In>
inline void prefetch_row(const In* v, const In* buffer) {
  if (v == buffer) return;
  // The address is computed as an integer: it may lie past the row's allocation, where pointer
  // arithmetic would be undefined (a prefetch itself never faults).
  const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(v) + kRowPrefetchBytes;
  for (std::size_t b = 0; b < sizeof(In) * kReduceLanes; b += 64) {
    __builtin_prefetch(reinterpret_cast<const void*>(ahead + b));
  }
}

/// Folds `n` elements read by `read(j)` (j = 0..n-1), the first being element r of the
/// output, into the lanes: lane r % 16 onwards, 16 at a time where aligned (vectorisable).
/// `read` may return references into one contiguous row (a tensor's inner_unit: lanes_at).
template <class Op, class Read>
inline void fold_stretch(const Op& op, typename Op::Acc* lanes, std::int64_t r, std::int64_t n,
                         const Read& read) {
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  std::int64_t j = 0;
  for (; j < n && (r & (kReduceLanes - 1)) != 0; ++j, ++r) {
    lanes[r & (kReduceLanes - 1)] = op.step(lanes[r & (kReduceLanes - 1)], In(read(j)), r);
  }
  if constexpr (requires(In v) { Op::beats(v, v); }) {
    // argmax & co.: values and positions in arrays of their own, a compare and two selects
    // per element (their value-position pairs do not vectorise).
    In values[kReduceLanes];
    std::int64_t positions[kReduceLanes];
    for (int l = 0; l < kReduceLanes; ++l) {
      values[l] = lanes[l].value;
      positions[l] = lanes[l].index;
    }
    for (; j + kReduceLanes <= n; j += kReduceLanes, r += kReduceLanes) {
      In buffer[kReduceLanes];
      const In* v = lanes_at(buffer, j, read);
      prefetch_row(v, buffer);
      for (int l = 0; l < kReduceLanes; ++l) {
        const bool take = Op::beats(v[l], values[l]);
        values[l] = take ? v[l] : values[l];
        positions[l] = take ? r + l : positions[l];
      }
    }
    for (int l = 0; l < kReduceLanes; ++l) lanes[l] = {values[l], positions[l]};
  } else {
    // A copy that only this loop indexes, and at constant positions: it stays in registers
    // (GCC split the lanes 8 + 4 + 2 + 1 + 1 when the head and tail loops index them too).
    Acc acc[kReduceLanes];
    for (int l = 0; l < kReduceLanes; ++l) acc[l] = lanes[l];
    for (; j + kReduceLanes <= n; j += kReduceLanes, r += kReduceLanes) {
      In buffer[kReduceLanes];  // loaded first: the loads then vectorise as whole vectors
      const In* v = lanes_at(buffer, j, read);
      prefetch_row(v, buffer);
      for (int l = 0; l < kReduceLanes; ++l) acc[l] = op.step(acc[l], v[l], r + l);
    }
    for (int l = 0; l < kReduceLanes; ++l) lanes[l] = acc[l];
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
      fold_stretch(op, lanes, r, width,
                   [&](std::int64_t j) -> decltype(auto) { return cursor.inner_unit(j); });
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

/// Rows of one lane folded in one sweep of the kept-innermost loop: rows r, r + 16, ...,
/// r + 16 (G - 1) of lane r % 16 are added to its accumulators in that order while they are in
/// registers, an eighth of the accumulator traffic of a row at a time (4000 x 4000 float sum
/// over dim 0, 2 threads: 12.9 ms row at a time, 2.0 ms in sweeps of 8).
inline constexpr int kLaneSweep = 8;
/// Bytes of lane accumulators a part of the kept-innermost loop holds (in L2): 16 lane rows of
/// up to this many bytes / 16 outputs.
inline constexpr std::int64_t kLaneBytes = std::int64_t{256} * 1024;

/// The input multi-index of reduced element r of the output whose first element is at `base`.
inline void reduced_index(const ReducePlan& p, const std::int64_t* base, std::int64_t r,
                          std::int64_t* index) {
  for (int d = 0; d < p.ndim; ++d) index[d] = base[d];
  for (int i = p.nred - 1; i >= 0 && r > 0; --i) {
    const int d = p.red_dims[i];
    index[d] = r % p.shape[d];
    r /= p.shape[d];
  }
}

/// A reduction that keeps the innermost dimension: outputs [w0, w0 + n) of output row `row`
/// (the other kept dimensions). Every reduced element's row folds into lane row r % 16 of
/// `lanes` (16 rows of n accumulators), in order of r within each lane, the rows of one lane
/// kLaneSweep at a time. One clone per vector extension (TESSERA_VECTOR_CLONES): the order is
/// fixed by the lanes, not by the vector width.
template <class Op, class K>
TESSERA_VECTOR_CLONES TESSERA_FLATTEN void reduce_lane_rows(const Op& op, const K& k,
                                                            const ReducePlan& p, std::int64_t row,
                                                            std::int64_t w0, std::int64_t n,
                                                            typename Op::Acc* lanes,
                                                            const ReduceStore<Op>& store) {
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  constexpr int G = kLaneSweep;
  const std::int64_t width = p.shape[p.ndim - 1];
  for (std::int64_t i = 0; i < kReduceLanes * n; ++i) lanes[i] = op.init();
  std::int64_t base[kMaxDims];
  p.base_index(row * width, base);  // innermost index 0, reduced dims at 0
  std::int64_t index[kMaxDims];
  const bool unit = k.unit();
  K cursors[G];
  for (K& cursor : cursors) cursor = k;
  std::int64_t r = 0;
  for (; r + G * kReduceLanes <= p.count; r += G * kReduceLanes) {
    for (int l = 0; l < kReduceLanes; ++l) {
      for (int g = 0; g < G; ++g) {
        reduced_index(p, base, r + l + g * kReduceLanes, index);
        cursors[g].seek(index);
      }
      Acc* lane = lanes + l * n;
      const std::int64_t first = r + l;
      if (unit) {
        for (std::int64_t w = 0; w < n; ++w) {
          Acc acc = lane[w];
          for (int g = 0; g < G; ++g) {
            acc = op.step(acc, In(cursors[g].inner_unit(w0 + w)), first + g * kReduceLanes);
          }
          lane[w] = acc;
        }
      } else {
        for (std::int64_t w = 0; w < n; ++w) {
          Acc acc = lane[w];
          for (int g = 0; g < G; ++g) {
            acc = op.step(acc, In(cursors[g].inner(w0 + w)), first + g * kReduceLanes);
          }
          lane[w] = acc;
        }
      }
    }
  }
  for (; r < p.count; ++r) {  // the last rows, one at a time (still in order within each lane)
    reduced_index(p, base, r, index);
    cursors[0].seek(index);
    Acc* lane = lanes + (r & (kReduceLanes - 1)) * n;
    if (unit) {
      for (std::int64_t w = 0; w < n; ++w) {
        lane[w] = op.step(lane[w], In(cursors[0].inner_unit(w0 + w)), r);
      }
    } else {
      for (std::int64_t w = 0; w < n; ++w) {
        lane[w] = op.step(lane[w], In(cursors[0].inner(w0 + w)), r);
      }
    }
  }
  for (std::int64_t w = 0; w < n; ++w) {
    Acc acc = op.init();
    for (int l = 0; l < kReduceLanes; ++l) acc = op.merge(acc, lanes[l * n + w]);
    store(op, row * width + w0 + w, acc, p.count);
  }
}

/// Output o of a reduction over the trailing dimensions, for outputs [first, end). One clone
/// per vector extension, as reduce_lane_rows.
template <class Op, class K>
TESSERA_VECTOR_CLONES TESSERA_FLATTEN void reduce_outputs_rows(const Op& op, const K& k,
                                                               const ReducePlan& p,
                                                               std::int64_t first, std::int64_t end,
                                                               const ReduceStore<Op>& store) {
  K cursor = k;
  for (std::int64_t o = first; o < end; ++o) {
    store(op, o, reduce_output_rows(op, cursor, p, o), p.count);
  }
}

/// Which of the two row loops suits kernel `k` over plan `p`, and the order of dimensions that
/// gives it: the reduced dimensions moved in front of the kept ones (the kept-innermost loop
/// then runs along the last kept dimension) or behind them (the row loop along the last reduced
/// one), whichever puts more operands at unit stride along the loop; neither when they tie.
/// Both orders keep the kept and the reduced dimensions each in their order, so that neither
/// the outputs nor the reduced elements are renumbered: the results are the same bits.
template <class K>
bool reduction_order(const K& k, const ReducePlan& p, int* perm) {
  if (p.nred == 0 || p.nkept == 0) return false;
  const int front = k.unit_leaves(p.kept_dims[p.nkept - 1]);
  const int back = k.unit_leaves(p.red_dims[p.nred - 1]);
  if (front == back) return false;
  int i = 0;
  const auto append = [&](const int* dims, int count) {
    for (int j = 0; j < count; ++j) perm[i++] = dims[j];
  };
  if (front > back) {
    append(p.red_dims, p.nred);
    append(p.kept_dims, p.nkept);
  } else {
    append(p.kept_dims, p.nkept);
    append(p.red_dims, p.nred);
  }
  return true;
}

/// `p` over its dimensions in the order `perm` (dimension i is the former perm[i]).
inline ReducePlan permuted_plan(const ReducePlan& p, const int* perm) {
  ReducePlan q = p;
  q.nkept = 0;
  q.nred = 0;
  for (int d = 0; d < p.ndim; ++d) {
    q.shape[d] = p.shape[perm[d]];
    q.reduced[d] = p.reduced[perm[d]];
    if (q.reduced[d]) {
      q.red_dims[q.nred++] = d;
    } else {
      q.kept_dims[q.nkept++] = d;
    }
  }
  return q;
}

template <class K>
concept PermutableCursor = RowCursor<K> && requires(K k, const int* perm) {
  k.permute(perm);
  k.unit_leaves(0);
};

/// Runs reduction `op` of kernel `k` (bound to `p.shape`) on the host along one of the row
/// loops, when the layout suits one; false when it does not (nothing ran).
template <class Op, class K>
bool host_reduce_rows(const Op& op, const K& k, const ReducePlan& p, const ReduceStore<Op>& store) {
  const std::int64_t per_output = std::max<std::int64_t>(p.count, 1);
  const int last = p.ndim - 1;
  if (p.ndim >= 1 && p.reduces_suffix()) {
    const HostSplit split{2, std::max<std::int64_t>(1, (1 << 15) / per_output), 1, true};
    host_adaptive_for<ReduceDimsWork<Op, K, 1>>(p.outputs, split,
                                                [&](std::int64_t first, std::int64_t end) {
                                                  reduce_outputs_rows(op, k, p, first, end, store);
                                                });
    return true;
  }
  if (p.ndim >= 1 && !p.reduced[last] && p.nred > 0) {
    // Items are 64-output chunks of the output rows (the probe times one); a part folds its
    // consecutive chunks of one row together, up to kLaneBytes of accumulators.
    const std::int64_t width = p.shape[last];
    const std::int64_t chunks = (width + kReduceChunk - 1) / kReduceChunk;
    const std::int64_t rows = p.outputs / width;
    const std::int64_t most = std::max<std::int64_t>(
        kReduceChunk, kLaneBytes / (kReduceLanes * std::int64_t{sizeof(typename Op::Acc)}) /
                          kReduceChunk * kReduceChunk);
    const HostSplit chunk_split{2, 1, 1, true};
    host_adaptive_for<ReduceDimsWork<Op, K, 2>>(
        rows * chunks, chunk_split, [&](std::int64_t first, std::int64_t end) {
          const std::int64_t span = std::min(most, (end - first) * kReduceChunk);
          const auto lanes =
              std::make_unique<typename Op::Acc[]>(static_cast<std::size_t>(kReduceLanes * span));
          for (std::int64_t t = first; t < end;) {
            const std::int64_t row = t / chunks;
            const std::int64_t w0 = (t % chunks) * kReduceChunk;
            const std::int64_t stop = std::min({end, (row + 1) * chunks, t + most / kReduceChunk});
            const std::int64_t w1 =
                std::min(width, (stop % chunks == 0 ? chunks : stop % chunks) * kReduceChunk);
            reduce_lane_rows(op, k, p, row, w0, w1 - w0, lanes.get(), store);
            t = stop;
          }
        });
    return true;
  }
  return false;
}

/// Runs reduction `op` of kernel `k` (bound to `p.shape`) into `store` on the host.
template <class Op, class K>
void host_reduce_dims(const Op& op, const K& k, const ReducePlan& p, const ReduceStore<Op>& store) {
  if (p.outputs == 0) return;
  if constexpr (PermutableCursor<K>) {
    int perm[kMaxDims];
    if (reduction_order(k, p, perm)) {
      K moved = k;
      moved.permute(perm);
      if (host_reduce_rows(op, moved, permuted_plan(p, perm), store)) return;
    } else if (host_reduce_rows(op, k, p, store)) {
      return;
    }
  }
  const std::int64_t per_output = std::max<std::int64_t>(p.count, 1);
  const HostSplit split{2, std::max<std::int64_t>(1, (1 << 15) / per_output), 1, true};
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
