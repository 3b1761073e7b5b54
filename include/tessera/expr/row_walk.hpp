// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file row_walk.hpp
/// The iteration space of an elementwise kernel (Extents) and the walks over it that the host
/// executor and the host reductions share: a block of elements as stretches of rows
/// (for_each_row_segment), or as runs of whole rows (for_each_row_run), with one seek per
/// stretch at most.

#include <algorithm>
#include <cstdint>

#include "tessera/core/extent_product.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/tensor_view.hpp"

namespace tessera::detail {

/// Extents of an iteration space (the output shape of an elementwise kernel).
struct Extents {
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};

  static Extents of(const Shape& s) {
    Extents e;
    e.ndim = static_cast<int>(s.size());
    copy_dims(e.shape, s.data(), e.ndim);  // all entries: the zeroing of the default is dropped
    return e;
  }
  /// The shape of a tensor view.
  template <class T>
  static Extents of_view(const TensorView<T>& v) {
    Extents e;
    e.ndim = v.ndim;
    copy_dims(e.shape, v.shape, e.ndim);
    return e;
  }
  TESSERA_HD std::int64_t numel() const { return extent_product(shape, ndim); }
  /// Row-major multi-index of linear position i.
  TESSERA_HD void unravel(std::int64_t i, std::int64_t* index) const {
    for (int d = ndim - 1; d >= 0; --d) {
      if (i == 0) {  // the rest are 0: no divisions (every small tensor's one block starts at 0)
        index[d] = 0;
        continue;
      }
      index[d] = i % shape[d];
      i /= shape[d];
    }
  }
  /// Advances a multi-index by one (row-major); returns the innermost dimension that changed.
  TESSERA_HD int increment(std::int64_t* index) const {
    for (int d = ndim - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) return d;
      index[d] = 0;
    }
    return 0;
  }
};

/// The walk of for_each_row_segment (Runs = false: `walk(index, first, stop, next)` per
/// stretch) and for_each_row_run (Runs = true: `walk(index, first, stop, next, rows)` per run).
template <bool Runs, class Walk>
void walk_row_stretches(const Extents& extents, std::int64_t begin, std::int64_t end, Walk&& walk) {
  const int last = extents.ndim - 1;
  const std::int64_t inner = extents.shape[last];
  std::int64_t index[kMaxDims];
  zero_dims(index);
  extents.unravel(begin, index);
  bool next = false;
  for (std::int64_t i = begin; i < end;) {
    const std::int64_t first = index[last];
    const std::int64_t stop = std::min(inner, first + (end - i));
    if constexpr (Runs) {
      std::int64_t rows = 1;
      if (last >= 1 && first == 0 && stop == inner) {
        rows = std::min((end - i) / inner, extents.shape[last - 1] - index[last - 1]);
      }
      walk(static_cast<const std::int64_t*>(index), first, stop, next, rows);
      i += (rows - 1) * inner;
      if (last >= 1) index[last - 1] += rows - 1;  // the run's last row
    } else {
      walk(static_cast<const std::int64_t*>(index), first, stop, next);
    }
    i += stop - first;
    index[last] = inner - 1;  // the next increment starts the next row
    next = extents.increment(index) == last - 1;
  }
}

/// Calls `segment(index, first, stop, next)` for each stretch of a row of `extents` among its
/// elements [begin, end) in row-major order: elements first..stop-1 along the innermost
/// dimension, with `index` the multi-index of the stretch's row (its innermost entry is
/// `first`). `next` is true when the row is the previous stretch's row plus one along the
/// second-innermost dimension and nothing else (a cursor may then step instead of seeking).
/// How the row-wise executor and reductions walk a block: one seek per stretch at most, not
/// per element.
template <class Segment>
void for_each_row_segment(const Extents& extents, std::int64_t begin, std::int64_t end,
                          Segment&& segment) {
  walk_row_stretches<false>(extents, begin, end, segment);
}

/// for_each_row_segment with runs of whole rows: calls `run(index, first, stop, next, rows)`
/// where `rows` >= 1 stretches [first, stop) follow each other along the second-innermost
/// dimension from the row at `index` (rows > 1 only for whole rows, first = 0 and stop = the
/// row's length), so that the executor can walk them in one call instead of one per row
/// (100x100 `a.T + b`: a call, a seek-or-step and a mask test per 100-element row were a fifth
/// of its time).
template <class Run>
void for_each_row_run(const Extents& extents, std::int64_t begin, std::int64_t end, Run&& run) {
  walk_row_stretches<true>(extents, begin, end, run);
}

}  // namespace tessera::detail
