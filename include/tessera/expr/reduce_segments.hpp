// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_segments.hpp
/// The reduction engine over segments of a contiguous values array cut by row splits (a
/// RaggedTensor's rows): per row (axis 1) or per column position over the rows that reach it
/// (axis 0). The same op structs, lanes and order of combination as reductions over dimensions
/// (reduce_engine.hpp): the k-th element folded into an output goes to lane k % 16, lanes merge
/// in order. Only the lanes a segment reaches are merged: every op's identity is a neutral
/// element of its merge, so skipping untouched lanes changes no bit, and short rows (the common
/// ragged case) cost their length, not 32 lane steps. Host and device run the one functor here,
/// hence the same bits.

#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/expr/reduce_engine.hpp"

namespace tessera::detail {

/// What a segment reduction folds: `rows` segments given by `splits` (rows + 1 entries) over
/// values of (splits[rows], inner) elements; output (segment, c) for c < inner.
struct SegmentPlan {
  std::int64_t rows = 0;      ///< number of rows
  std::int64_t inner = 1;     ///< elements per value (product of the values' trailing extents)
  bool by_column = false;     ///< axis 0: output j folds position j of every row reaching it
  std::int64_t segments = 0;  ///< outputs per inner element: rows, or the longest row (axis 0)
  /// Outputs in all (segments x inner).
  TESSERA_HD std::int64_t outputs() const { return segments * inner; }
};

/// One output of a segment reduction, end to end (host loop body and device functor alike).
template <class Op, class T, class S>
struct SegmentOutput {
  Op op;
  const T* values;
  const S* splits;
  SegmentPlan plan;
  ReduceStore<Op> store;

  TESSERA_HD void operator()(std::int64_t o) const {
    using Acc = typename Op::Acc;
    using In = typename Op::In;
    // 1-d values (the common case) need no 64-bit division per output.
    const std::int64_t segment = plan.inner == 1 ? o : o / plan.inner;
    const std::int64_t c = plan.inner == 1 ? 0 : o % plan.inner;
    Acc lanes[kReduceLanes];
    std::int64_t count = 0;
    // Folds value position p as the count-th element of this output.
    const auto fold = [&](std::int64_t p) {
      const int lane = static_cast<int>(count & (kReduceLanes - 1));
      if (count < kReduceLanes) lanes[lane] = op.init();
      lanes[lane] = op.step(lanes[lane], static_cast<In>(values[p * plan.inner + c]), count);
      ++count;
    };
    if (!plan.by_column) {
      const auto begin = static_cast<std::int64_t>(splits[segment]);
      const auto end = static_cast<std::int64_t>(splits[segment + 1]);
      if (end - begin <= kReduceLanes) {
        // A row that gives each element a lane of its own: the lane fold's operations in its
        // order (step from init, then merge in lane order), without the lane array, whose
        // stores, reloads and branches cost more than the fold itself in rows this short.
        Acc acc = op.init();
        for (std::int64_t p = begin; p < end; ++p) {
          acc = op.merge(
              acc, op.step(op.init(), static_cast<In>(values[p * plan.inner + c]), p - begin));
        }
        store(op, o, acc, end - begin);
        return;
      }
      for (std::int64_t p = begin; p < end; ++p) fold(p);
    } else {
      for (std::int64_t row = 0; row < plan.rows; ++row) {
        const auto first = static_cast<std::int64_t>(splits[row]);
        if (static_cast<std::int64_t>(splits[row + 1]) - first > segment) fold(first + segment);
      }
    }
    Acc acc = op.init();
    const std::int64_t used = count < kReduceLanes ? count : kReduceLanes;
    for (std::int64_t l = 0; l < used; ++l) acc = op.merge(acc, lanes[l]);
    store(op, o, acc, count);
  }
};

}  // namespace tessera::detail
