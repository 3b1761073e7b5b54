#pragma once
/// @file scatter_host.hpp
/// The host tensor_scatter_nd_* kernel: deterministic and parallel without sorting or atomics.
/// Each output element sees its updates in index order — TensorFlow's sequential CPU loop, bit
/// for bit — and no two threads ever touch the same element. Three schedules:
/// - slices (and small inputs): the output is split into one contiguous range per thread; every
///   thread walks all index rows in order and applies only what lands in its range (reading an
///   index row is cheap next to applying a slice);
/// - many element updates: a stable counting sort into buckets of the output that fit in L2.
///   Each thread counts, then files, the (offset, value) pairs of its share of the rows; each
///   bucket then applies its pairs thread share by thread share, i.e. in index order. Every row
///   is read once, and the scattered read-modify-writes stay in cache (more than two threads);
/// - many element updates with two threads: one thread applies the first rows directly while
///   the other files the rest by output half; then each thread applies one half's filed rows
///   (scatter_host_head_tail).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "tessera/core/device.hpp"
#include "tessera/core/storage.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Index rows per task of the bounds check.
inline constexpr std::int64_t kScatterCheckBlock = std::int64_t{1} << 16;
/// Work (update elements + copied elements) below which one thread does everything.
inline constexpr std::int64_t kScatterSerialWork = std::int64_t{1} << 15;
/// log2 of the output elements per bucket of the element schedule (128 KiB of float: L2).
inline constexpr int kScatterBucketBits = 15;
/// Of every 16 index rows, how many the head thread of the two-thread element schedule applies
/// directly (the rest are filed by the other thread, then applied by both): it balances a
/// read-modify-write against filing a row (about 1.2 : 1 as measured) over the two phases.
inline constexpr std::int64_t kScatterHeadSixteenths = 6;
/// How many rows ahead the head thread of the two-thread element schedule prefetches.
inline constexpr std::int64_t kScatterPrefetchRows = 16;
/// Element updates from which the bucketed and head/tail schedules pay for their extra pass.
inline constexpr std::int64_t kScatterBucketedRows = std::int64_t{1} << 16;
/// Index rows filed per task of the bucketed schedule (their indices stay in L2 between the
/// counting and the filing loop).
inline constexpr std::int64_t kScatterFileBlock = std::int64_t{1} << 15;

template <class T>
struct ScatterPair {
  std::uint32_t offset;  ///< within the bucket
  T value;
};

/// Asks for the cache line of `p` ahead of a read-modify-write (where the compiler can).
template <class T>
inline void scatter_prefetch_for_write(T* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p, 1);
#else
  (void)p;
#endif
}

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

/// Calls `body(at, update)` for the index rows [begin, end) that name an element of `g`, in
/// order; the first row that names none goes to `bad` (if `bad` is still `rows`), and with
/// `check` it ends the walk. Whether the updates are read linearly is decided once, outside the
/// loop. With `prefetch_base`, each row asks for its element kScatterPrefetchRows rows ahead:
/// the read-modify-writes then overlap their cache misses instead of waiting on each.
template <class T, class Index, class K, class Body>
void scatter_for_element_rows(const ScatterGeometry& g, const Index* indices, std::int64_t begin,
                              std::int64_t end, std::int64_t rows, const K& updates,
                              const Extents& extents, bool linear, bool check,
                              const T* prefetch_base, std::int64_t& bad, Body&& body) {
  const ScatterGeometry geo = g;  // a local copy: the body's stores cannot alias it
  auto run = [&](auto update) {
    for (std::int64_t i = begin; i < end; ++i) {
      if (prefetch_base != nullptr && i + kScatterPrefetchRows < end) {
        const std::int64_t ahead = geo.slice_of(indices + (i + kScatterPrefetchRows) * geo.k);
        if (ahead >= 0) scatter_prefetch_for_write(prefetch_base + ahead);
      }
      const std::int64_t at = geo.slice_of(indices + i * geo.k);
      if (at < 0) {
        if (bad == rows) bad = i;
        if (check) return;
        continue;
      }
      body(at, update(i));
    }
  };
  if (linear) {
    run([&updates](std::int64_t i) { return static_cast<T>(updates.linear(i)); });
  } else {
    run([&](std::int64_t i) { return scatter_update_at<T>(updates, extents, false, i); });
  }
}

/// The element schedule (slice_size == 1) with buckets; see the file comment. Rows are filed
/// block by block (a block's indices are read twice, the second time from cache): block j's
/// pairs occupy rows [j * kScatterFileBlock, ...) of the pair array, bucket by bucket. With
/// `check`, a bad row stops it before anything is written.
template <class Op, class T, class Index, class K>
std::int64_t scatter_host_bucketed(T* out, const T* source, std::int64_t numel,
                                   const ScatterGeometry& g, const Index* indices,
                                   std::int64_t rows, const K& updates, const Extents& extents,
                                   bool linear, bool check) {
  const std::int64_t buckets = ((numel - 1) >> kScatterBucketBits) + 1;
  const std::int64_t blocks = (rows + kScatterFileBlock - 1) / kScatterFileBlock;
  // starts[j * (buckets + 1) + b]: first pair of bucket b in block j (absolute position).
  const auto table =
      std::make_unique<std::int64_t[]>(static_cast<std::size_t>(blocks * (buckets + 1)));
  const auto first_bad = std::make_unique<std::int64_t[]>(static_cast<std::size_t>(blocks));
  // Through Storage: large blocks come from the host block cache, already mapped.
  const Storage storage =
      Storage::allocate(static_cast<std::size_t>(rows) * sizeof(ScatterPair<T>), Device::cpu());
  auto* const pairs = static_cast<ScatterPair<T>*>(storage.data());
  std::int64_t* const starts = table.get();
  std::int64_t* const bad = first_bad.get();
  constexpr std::int64_t kMask = (std::int64_t{1} << kScatterBucketBits) - 1;
  host_parallel_for(blocks, [&](std::int64_t j) {
    const ScatterGeometry geo = g;  // a local copy: the stores below cannot alias it
    const std::int64_t begin = j * kScatterFileBlock;
    const std::int64_t end = std::min(rows, begin + kScatterFileBlock);
    std::int64_t* const start = starts + j * (buckets + 1);
    std::fill(start, start + buckets + 1, std::int64_t{0});
    bad[j] = rows;
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int64_t at = geo.slice_of(indices + i * geo.k);
      if (at < 0) {
        if (bad[j] == rows) bad[j] = i;
        continue;
      }
      ++start[(at >> kScatterBucketBits) + 1];
    }
    if (check && bad[j] != rows) return;  // nothing will be written
    start[0] = begin;
    for (std::int64_t b = 1; b <= buckets; ++b) start[b] += start[b - 1];
    std::vector<std::int64_t> cursor(start, start + buckets);
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int64_t at = geo.slice_of(indices + i * geo.k);
      if (at < 0) continue;
      pairs[cursor[static_cast<std::size_t>(at >> kScatterBucketBits)]++] = {
          static_cast<std::uint32_t>(at & kMask),
          scatter_update_at<T>(updates, extents, linear, i)};
    }
  });
  std::int64_t lowest_bad = rows;
  for (std::int64_t j = 0; j < blocks && lowest_bad == rows; ++j) lowest_bad = bad[j];
  if (check && lowest_bad < rows) return lowest_bad;
  // Each bucket applies its pairs block by block: in index order.
  host_parallel_for(buckets, [&](std::int64_t b) {
    const std::int64_t lo = b << kScatterBucketBits;
    const std::int64_t hi = std::min(numel, lo + kMask + 1);
    if (source != nullptr) std::copy(source + lo, source + hi, out + lo);
    T* const base = out + lo;
    for (std::int64_t j = 0; j < blocks; ++j) {
      const std::int64_t* const start = starts + j * (buckets + 1);
      for (std::int64_t p = start[b]; p < start[b + 1]; ++p) {
        T& x = base[pairs[p].offset];
        x = Op::apply(x, pairs[p].value);
      }
    }
  });
  return lowest_bad;
}

/// The element schedule (slice_size == 1) for two threads, for outputs of < 2^32 elements.
///
/// Why it is fast: the sequential loop's cost is its read-modify-writes, which land anywhere in
/// the output (L3 for 4 MiB), and filing an update (reading its index and value, appending
/// both to a list) costs less than one. So while the head thread applies the first 6/16 of the
/// rows directly, in order, the tail thread files the other 10/16 into two lists, one per output
/// half, in about the same time; then each thread applies one half's list, in order, after the
/// head (every output element still sees its updates in index order). Per 16 rows that is 6 +
/// 10/2 read-modify-writes on the critical path instead of 16, with no atomics, no sorting and
/// two parallel regions. The filing loop keeps both list ends in registers (the lower list grows
/// from the front of one buffer, the upper one from the back) and picks one without a branch,
/// so nothing in it waits on memory but the row itself; the read-modify-writes prefetch their
/// element kScatterPrefetchRows rows ahead.
///
/// In place with `check` nothing may be written before every row is checked: an output small
/// next to the indices is scattered into a copy that the second phase copies back (two passes
/// over the output instead of one more over the indices); otherwise all rows are checked first.
template <class Op, class T, class Index, class K>
std::int64_t scatter_host_head_tail(T* out, const T* source, std::int64_t numel,
                                    const ScatterGeometry& g, const Index* indices,
                                    std::int64_t rows, const K& updates, const Extents& extents,
                                    bool linear, bool check) {
  const std::int64_t head = rows / 16 * kScatterHeadSixteenths;
  const std::int64_t tail = rows - head;
  const std::int64_t half = numel / 2;  // the head thread's half of the second phase: [0, half)
  const bool in_place_check = check && source == nullptr;
  const bool via_copy = in_place_check && numel * static_cast<std::int64_t>(sizeof(T)) * 4 <=
                                              rows * g.k * static_cast<std::int64_t>(sizeof(Index));
  if (in_place_check && !via_copy) {
    const std::int64_t bad = scatter_first_bad_row_host(g, indices, rows);
    if (bad < rows) return bad;
  }
  Storage copy;
  T* target = out;
  const T* from = source;
  if (via_copy) {
    copy = Storage::allocate(static_cast<std::size_t>(numel) * sizeof(T), Device::cpu());
    target = static_cast<T*>(copy.data());
    from = out;
  }
  // Through Storage: the lists come from the host block cache, already mapped.
  const Storage storage =
      Storage::allocate(static_cast<std::size_t>(tail) * sizeof(ScatterPair<T>), Device::cpu());
  auto* const pairs = static_cast<ScatterPair<T>*>(storage.data());
  std::int64_t lower_end = 0;       // the lower half's list: pairs[0, lower_end), in order
  std::int64_t upper_begin = tail;  // the upper half's: pairs[upper_begin, tail), reversed
  std::int64_t bad_head = rows;
  std::int64_t bad_tail = rows;
  // body(at, update) for rows [begin, end) that name an element; the first that does not goes
  // to `bad` (and ends the loop with `check`: the scatter is abandoned).
  auto for_rows = [&](std::int64_t begin, std::int64_t end, std::int64_t& bad, bool prefetch,
                      auto&& body) {
    scatter_for_element_rows<T>(g, indices, begin, end, rows, updates, extents, linear, check,
                                prefetch ? target : nullptr, bad, body);
  };
  host_parallel_for(2, [&](std::int64_t part) {
    if (part == 0) {
      if (from != nullptr) std::copy(from, from + numel, target);
      for_rows(0, head, bad_head, true,
               [target](std::int64_t at, T u) { target[at] = Op::apply(target[at], u); });
      return;
    }
    std::int64_t lower = 0;
    std::int64_t upper = tail;
    for_rows(head, rows, bad_tail, false, [&lower, &upper, half, pairs](std::int64_t at, T u) {
      // Arithmetic, not a branch (compilers turn `? :` into one): the half is a coin toss.
      const std::int64_t up = at >= half ? 1 : 0;
      pairs[lower + ((upper - 1 - lower) & -up)] = {static_cast<std::uint32_t>(at), u};
      lower += 1 - up;
      upper -= up;
    });
    lower_end = lower;
    upper_begin = upper;
  });
  const std::int64_t lowest_bad = bad_head < rows ? bad_head : bad_tail;  // head rows come first
  if (check && lowest_bad < rows) return lowest_bad;  // `target` is a copy, or dropped
  // pairs[p] for p = begin, begin + step, ... (`count` of them), prefetching ahead.
  auto apply_list = [target, pairs](std::int64_t begin, std::int64_t count, std::int64_t step) {
    for (std::int64_t n = 0; n < count; ++n) {
      const std::int64_t p = begin + n * step;
      if (n + kScatterPrefetchRows < count) {
        scatter_prefetch_for_write(target + pairs[p + kScatterPrefetchRows * step].offset);
      }
      T& x = target[pairs[p].offset];
      x = Op::apply(x, pairs[p].value);
    }
  };
  host_parallel_for(2, [&](std::int64_t part) {
    if (part == 0) {
      apply_list(0, lower_end, 1);
      if (via_copy) std::copy(target, target + half, out);
    } else {
      apply_list(tail - 1, tail - upper_begin, -1);
      if (via_copy) std::copy(target + half, target + numel, out + half);
    }
  });
  return lowest_bad;
}

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
                          const Extents& extents, bool linear, bool check, int threads) {
  const std::int64_t S = g.slice_size;
  if (S == 1 && threads == 2 && rows >= kScatterBucketedRows && numel <= std::int64_t{UINT32_MAX}) {
    return scatter_host_head_tail<Op>(out, source, numel, g, indices, rows, updates, extents,
                                      linear, check);
  }
  if (S == 1 && threads > 2 && rows >= kScatterBucketedRows &&
      numel > (std::int64_t{1} << kScatterBucketBits)) {
    return scatter_host_bucketed<Op>(out, source, numel, g, indices, rows, updates, extents, linear,
                                     check);
  }
  if (check && source == nullptr) {
    const std::int64_t bad = scatter_first_bad_row_host(g, indices, rows);
    if (bad < rows) return bad;
  }
  const std::int64_t work = rows * S + (source != nullptr ? numel : 0);
  const std::int64_t parts =
      std::max<std::int64_t>(1, std::min<std::int64_t>(threads, work / kScatterSerialWork));
  if (S == 1 && parts == 1) {
    // One thread, element updates: the sequential loop itself, with its misses overlapped.
    if (source != nullptr) std::copy(source, source + numel, out);
    std::int64_t bad = rows;
    // With a source and `check`, a bad row abandons `out` (the caller drops it).
    scatter_for_element_rows<T>(g, indices, 0, rows, rows, updates, extents, linear,
                                check && source != nullptr, out, bad,
                                [out](std::int64_t at, T u) { out[at] = Op::apply(out[at], u); });
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
      std::int64_t index[kMaxDims] = {};
      for (std::int64_t i = 0; i < rows; ++i) {
        const std::int64_t slice = geo.slice_of(indices + i * geo.k);
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
