// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_host.hpp
/// The host tensor_scatter_nd_* kernel: deterministic and parallel without sorting or atomic
/// updates. Each output element sees its updates in index order — TensorFlow's sequential CPU
/// loop, bit for bit — and no two threads ever touch the same element. Three schedules, each the
/// same for any number of threads:
/// - many element updates: a head thread applies rows directly while the others file rows by
///   output part, then each thread applies one part's rows (scatter_host_elements);
/// - slices of a cache line or more (copying, or in place with rows for 1/16 of the slices or
///   more): each thread links its slices' rows and walks its output slices in order
///   (scatter_host_slices_in_order);
/// - slices (and small inputs): the output is split into one contiguous range per thread; every
///   thread walks all index rows in order and applies only what lands in its range (reading an
///   index row is cheap next to applying a slice), asking for its slices some rows ahead.

#include <algorithm>
#include <cstdint>

#include "tessera/detail/scatter_host_common.hpp"
#include "tessera/detail/scatter_host_elements.hpp"
#include "tessera/detail/scatter_host_slices_in_order.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Applies `Op` for every index row to `out` (contiguous, `numel` elements), reading update
/// element p (row-major over the updates' shape `extents`) as T(updates.linear(p)) when
/// `linear`, else through `updates.at`. When `source` is given, each thread first copies its
/// range of the output from it (the out-of-place form fuses its copy into the scatter).
/// Rows that name no slice are skipped; the lowest such position is returned (`rows` if none).
/// With `check`, a bad row leaves the memory of `out` that the caller can see untouched: in
/// place (no `source`) nothing is written; with a source, `out` may be partly written (the
/// caller drops it).
template <class Op, class T, class Index, class K>
std::int64_t scatter_host(T* out, const T* source, std::int64_t numel, const ScatterGeometry& g,
                          const Index* indices, std::int64_t rows, const K& updates,
                          const Extents& extents, bool linear, bool check) {
  const std::int64_t S = g.slice_size;
  if (S == 1 && rows >= kScatterElementRows && numel > 0 && numel <= std::int64_t{UINT32_MAX}) {
    return scatter_host_elements<Op>(out, source, numel, g, indices, rows, updates, extents, linear,
                                     check);
  }
  const std::int64_t work = rows * S + (source != nullptr ? numel : 0);
  const std::int64_t parts =
      std::max<std::int64_t>(1, std::min(host_thread_count(), work / kScatterSerialWork));
  if (S > 1 && numel > 0 && S * static_cast<std::int64_t>(sizeof(T)) >= kScatterInOrderSliceBytes &&
      (source != nullptr || rows * kScatterInOrderSparsity >= g.slices)) {
    return scatter_host_slices_in_order<Op>(out, source, g, indices, rows, updates, extents, linear,
                                            check, parts);
  }
  if (check && source == nullptr) {
    const std::int64_t bad = scatter_first_bad_row_host(g, indices, rows);
    if (bad < rows) return bad;
  }
  if (S == 1 && parts == 1) {
    // One thread, element updates: the sequential loop itself, with its misses overlapped.
    if (source != nullptr) std::copy(source, source + numel, out);
    std::int64_t bad = rows;
    // With a source and `check`, a bad row abandons `out` (the caller drops it). The element
    // schedule's head step, the same loop (compiled once for both).
    scatter_apply_element_rows<Op, T, Index, K>(out, g, indices, 0, rows, rows, updates, extents,
                                                linear, check && source != nullptr, bad);
    return bad;
  }
  std::int64_t first_bad = rows;
  host_parallel_for(parts, [&](std::int64_t part) {
    const ScatterGeometry geo = g;  // a local copy: the stores below cannot alias it
    const std::int64_t lo = numel / parts * part + std::min(part, numel % parts);
    const std::int64_t hi = lo + numel / parts + (part < numel % parts ? 1 : 0);
    if (source != nullptr) std::copy(source + lo, source + hi, out + lo);
    std::int64_t bad = rows;
    if (S == 1) {
      // Element updates: a branch on "mine" would mispredict on every other row with two
      // threads, so rows of other ranges combine into a scratch element instead.
      T scratch{};
      const auto span = static_cast<std::uint64_t>(hi - lo);
      for (std::int64_t i = 0; i < rows; ++i) {
        const std::int64_t at = geo.slice_of(indices + i * geo.k);
        if (at < 0 && bad == rows) bad = i;
        const bool mine = static_cast<std::uint64_t>(at - lo) < span;
        T* const dst = mine ? out + at : &scratch;
        *dst = Op::apply(*dst, scatter_update_at<T>(updates, extents, linear, i));
      }
    } else {
      std::int64_t index[kMaxDims];
      zero_dims(index);
      // Each row asks for its slice kScatterPrefetchRows rows ahead, so that the misses of
      // random rows overlap: the slices of the rows in between wait in a ring. A slice right
      // after the one before it is a stream the hardware fetches already: not asked for. One
      // in another part asks for this part's first line instead: a select, not a branch, which
      // with P parts would mispredict on random rows.
      constexpr std::int64_t kAhead = kScatterPrefetchRows;
      static_assert((kAhead & (kAhead - 1)) == 0, "the ring is indexed by a mask");
      const std::int64_t lines =
          S * static_cast<std::int64_t>(sizeof(T)) <= kScatterPrefetchSliceBytes
              ? (S * static_cast<std::int64_t>(sizeof(T)) + kScatterCacheLine - 1) /
                        kScatterCacheLine +
                    1
              : 0;
      std::int64_t ring[kAhead];
      for (std::int64_t i = 0; i < std::min(rows, kAhead); ++i) {
        ring[i] = geo.slice_of(indices + i * geo.k);
      }
      std::int64_t before = -2;  // the slice of the row before the one asked for
      for (std::int64_t i = 0; i < rows; ++i) {
        const std::int64_t slice = ring[i & (kAhead - 1)];
        if (i + kAhead < rows) {
          const std::int64_t ahead = geo.slice_of(indices + (i + kAhead) * geo.k);
          ring[i & (kAhead - 1)] = ahead;
          if (ahead != before + 1) {
            const std::int64_t first = std::max(ahead * S, lo);
            const bool mine = (ahead >= 0) & (first < std::min(ahead * S + S, hi));
            scatter_prefetch_lines_for_write(out, mine ? first : lo, lines);
          }
          before = ahead;
        }
        if (slice < 0) {
          if (bad == rows) bad = i;
          continue;
        }
        const std::int64_t begin = std::max(slice * S, lo);
        const std::int64_t end = std::min(slice * S + S, hi);
        if (begin >= end) continue;
        T* const dst = out + slice * S;
        const std::int64_t base = i * S;  // update element of the slice's first element
        if (linear) {
          for (std::int64_t e = begin - slice * S; e < end - slice * S; ++e) {
            dst[e] = Op::apply(dst[e], static_cast<T>(updates.linear(base + e)));
          }
        } else {
          extents.unravel(base + begin - slice * S, index);
          for (std::int64_t e = begin - slice * S; e < end - slice * S; ++e) {
            dst[e] = Op::apply(dst[e], static_cast<T>(updates.at(index)));
            extents.increment(index);
          }
        }
      }
    }
    if (part == 0) first_bad = bad;  // every part sees every row
  });
  return first_bad;
}

}  // namespace tessera::detail
