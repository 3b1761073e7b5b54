#pragma once
/// @file scatter_host.hpp
/// The host tensor_scatter_nd_* kernel: deterministic and parallel without sorting. The output
/// is split into one contiguous range per thread; every thread walks all index rows in order
/// and applies only the update elements that land in its range. Each output element thus sees
/// its updates in index order — TensorFlow's sequential CPU loop, bit for bit — while the
/// threads never touch the same element. Every thread reads all indices (cheap next to the
/// scattered read-modify-writes, which each thread keeps within its own cache-sized range).

#include <algorithm>
#include <cstdint>
#include <memory>

#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Index rows per task of the bounds check.
inline constexpr std::int64_t kScatterCheckBlock = std::int64_t{1} << 16;
/// Work (update elements + copied elements) below which one thread does everything.
inline constexpr std::int64_t kScatterSerialWork = std::int64_t{1} << 15;

/// The lowest position of an index row that names no slice of `g`, or `rows` when all do.
template <class Index>
std::int64_t scatter_first_bad_row_host(const ScatterGeometry& g, const Index* indices,
                                        std::int64_t rows) {
  const std::int64_t blocks = (rows + kScatterCheckBlock - 1) / kScatterCheckBlock;
  if (blocks == 0) return rows;
  const auto firsts = std::make_unique<std::int64_t[]>(static_cast<std::size_t>(blocks));
  std::int64_t* const slots = firsts.get();
  host_parallel_for(blocks, [&g, indices, rows, slots](std::int64_t b) {
    const std::int64_t begin = b * kScatterCheckBlock;
    const std::int64_t end = std::min(rows, begin + kScatterCheckBlock);
    std::int64_t first = rows;
    for (std::int64_t i = begin; i < end; ++i) {
      if (g.slice_of(indices + i * g.k) < 0) {
        first = i;
        break;
      }
    }
    slots[b] = first;
  });
  // The first block with a bad row holds the lowest one: the message does not depend on timing.
  for (std::int64_t b = 0; b < blocks; ++b) {
    if (slots[b] != rows) return slots[b];
  }
  return rows;
}

/// Applies `Op` for every index row to `out` (contiguous, `numel` elements), reading update
/// element p (row-major over the updates' shape `extents`) as T(updates.linear(p)) when
/// `linear`, else through `updates.at`. When `source` is given, each thread first copies its
/// range of the output from it (the out-of-place form fuses its copy into the scatter).
/// Rows that name no slice are skipped; the lowest such position is returned (`rows` if none).
template <class Op, class T, class Index, class K>
std::int64_t scatter_host(T* out, const T* source, std::int64_t numel, const ScatterGeometry& g,
                          const Index* indices, std::int64_t rows, const K& updates,
                          const Extents& extents, bool linear, int threads) {
  const std::int64_t S = g.slice_size;
  const std::int64_t work = rows * S + (source != nullptr ? numel : 0);
  const std::int64_t parts =
      std::max<std::int64_t>(1, std::min<std::int64_t>(threads, work / kScatterSerialWork));
  std::int64_t first_bad = rows;
  host_parallel_for(parts, [&](std::int64_t part) {
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
        const std::int64_t at = g.slice_of(indices + i * g.k);
        if (at < 0 && bad == rows) bad = i;
        const bool mine = static_cast<std::uint64_t>(at - lo) < span;
        T* const dst = mine ? out + at : &scratch;
        T u;
        if (linear) {
          u = static_cast<T>(updates.linear(i));
        } else {
          std::int64_t index[kMaxDims] = {};
          extents.unravel(i, index);
          u = static_cast<T>(updates.at(index));
        }
        *dst = Op::apply(*dst, u);
      }
    } else {
      std::int64_t index[kMaxDims] = {};
      for (std::int64_t i = 0; i < rows; ++i) {
        const std::int64_t slice = g.slice_of(indices + i * g.k);
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
