// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_host_slices_in_order.hpp
/// The host tensor_scatter_nd_* schedule for slices of a cache line or more
/// (scatter_host_slices_in_order): each thread walks its output slices in order, each combined
/// with its updates in index order; the copying form writes each output slice once.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tessera/detail/scatter_host_common.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Slices of at least this many bytes take the in-order schedule (below a cache line, the
/// per-slice list head costs a large share of the copy it saves).
inline constexpr std::int64_t kScatterInOrderSliceBytes = kScatterCacheLine;
/// In place, the in-order schedule walks every slice of the output: it takes index rows of at
/// least 1/kScatterInOrderSparsity of the slices (fewer are applied where they land).
inline constexpr std::int64_t kScatterInOrderSparsity = 16;
/// How many slices ahead the in-order schedule asks for the update rows it will read.
inline constexpr std::int64_t kScatterInOrderPrefetchSlices = 8;
/// At most this many update rows of one slice are asked for ahead.
inline constexpr int kScatterInOrderPrefetchRows = 4;

/// Applies `Op` for every index row to `out`, for slices of S = g.slice_size > 1 elements
/// (numel = g.slices * S > 0); with `source`, out = source first (the copying form). Each
/// thread owns a range of slices: it walks every index row, last to first, linking the rows of
/// its slices into one list per slice (so each list runs in index order), then walks its
/// slices in order, applying each slice's rows' updates (after copying the source slice). The
/// output is read and written in order, the copying form's once, instead of at random rows (and
/// copied first: the copy, then index_add_, of the other libraries); the random reads are the
/// update rows', which the walk asks for some slices ahead. Every element sees its updates in
/// index order, bit for bit as the sequential loop. Every thread sees every row before it
/// writes: with `check`, a row that names no slice stops all writing (in place nothing is
/// written; a copying caller drops `out`); without, such rows are skipped. Returns the lowest
/// such row (`rows` if none).
template <class Op, class T, class Index, class K>
std::int64_t scatter_host_slices_in_order(T* out, const T* source, const ScatterGeometry& g,
                                          const Index* indices, std::int64_t rows, const K& updates,
                                          const Extents& extents, bool linear, bool check,
                                          std::int64_t parts) {
  const std::int64_t S = g.slice_size;
  const std::int64_t slices = g.slices;
  // next[i]: the next row (in index order) of row i's slice, or -1; each row's entry is written
  // by the thread owning its slice only.
  const auto next = std::make_unique_for_overwrite<std::int64_t[]>(static_cast<std::size_t>(rows));
  std::int64_t first_bad = rows;
  const std::int64_t slice_lines =
      (S * static_cast<std::int64_t>(sizeof(T)) + kScatterCacheLine - 1) / kScatterCacheLine;
  const std::int64_t update_lines = linear ? slice_lines : 0;  // rows of a linear read only
  host_parallel_for(parts, [&](std::int64_t part) {
    const ScatterGeometry geo = g;  // a local copy: the stores below cannot alias it
    const std::int64_t lo = slices / parts * part + std::min(part, slices % parts);
    const std::int64_t count = slices / parts + (part < slices % parts ? 1 : 0);
    const auto head =
        std::make_unique_for_overwrite<std::int64_t[]>(static_cast<std::size_t>(count));
    std::fill(head.get(), head.get() + count, std::int64_t{-1});
    // Rows of other slices link into scratch slots instead of branching on "mine" (a branch
    // mispredicts on random rows); the slots rotate so that consecutive such rows do not wait
    // on each other's store.
    constexpr std::int64_t kScratch = 16;
    std::int64_t scratch_head[kScratch];
    std::int64_t scratch_next[kScratch];
    std::fill(scratch_head, scratch_head + kScratch, std::int64_t{-1});
    std::int64_t bad = rows;
    for (std::int64_t i = rows - 1; i >= 0; --i) {
      const std::int64_t slice = geo.slice_of(indices + i * geo.k);
      if (slice < 0) bad = i;  // walking backwards: the last seen is the lowest
      const bool mine = static_cast<std::uint64_t>(slice - lo) < static_cast<std::uint64_t>(count);
      std::int64_t* const h =
          mine ? head.get() + (slice - lo) : scratch_head + (i & (kScratch - 1));
      std::int64_t* const n = mine ? next.get() + i : scratch_next + (i & (kScratch - 1));
      *n = *h;
      *h = i;
    }
    if (part == 0) first_bad = bad;  // every part sees every row
    if (check && bad < rows) return;
    std::int64_t index[kMaxDims];
    zero_dims(index);
    for (std::int64_t s = 0; s < count; ++s) {
      // Ahead of the walk: the successor links of the slice 2D ahead (the walk needs each
      // before it knows whether a slice has another row), then every update row of the slice D
      // ahead, following those links (in L1 by then).
      if (s + 2 * kScatterInOrderPrefetchSlices < count) {
        const std::int64_t far =
            head[static_cast<std::size_t>(s + 2 * kScatterInOrderPrefetchSlices)];
        if (far >= 0) scatter_prefetch_lines_for_read(next.get(), far, 1);
      }
      // In place, the output slices with rows are not a stream the hardware sees (about a third
      // of random rows' slices have none): asked for too.
      if (source == nullptr && s + kScatterInOrderPrefetchSlices < count &&
          head[static_cast<std::size_t>(s + kScatterInOrderPrefetchSlices)] >= 0) {
        scatter_prefetch_lines_for_write(out, (lo + s + kScatterInOrderPrefetchSlices) * S,
                                         slice_lines);
      }
      if constexpr (requires { updates.data; }) {
        if (update_lines > 0 && s + kScatterInOrderPrefetchSlices < count) {
          // A tensor of updates read linearly: row r's first element is data[r * S]. The first
          // few rows only: a slice with many rows has its later ones asked for as the walk
          // reaches them, through the links.
          std::int64_t r = head[static_cast<std::size_t>(s + kScatterInOrderPrefetchSlices)];
          for (int asked = 0; r >= 0 && asked < kScatterInOrderPrefetchRows; ++asked) {
            scatter_prefetch_lines_for_read(updates.data, r * S, update_lines);
            r = next[static_cast<std::size_t>(r)];
          }
        }
      }
      T* const dst = out + (lo + s) * S;
      if (source != nullptr) std::copy(source + (lo + s) * S, source + (lo + s + 1) * S, dst);
      for (std::int64_t r = head[static_cast<std::size_t>(s)]; r >= 0;
           r = next[static_cast<std::size_t>(r)]) {
        const std::int64_t base = r * S;
        if (linear) {
          for (std::int64_t e = 0; e < S; ++e) {
            dst[e] = Op::apply(dst[e], static_cast<T>(updates.linear(base + e)));
          }
        } else {
          extents.unravel(base, index);
          for (std::int64_t e = 0; e < S; ++e) {
            dst[e] = Op::apply(dst[e], static_cast<T>(updates.at(index)));
            extents.increment(index);
          }
        }
      }
    }
  });
  return first_bad;
}

}  // namespace tessera::detail
