#pragma once
/// @file scatter_host.hpp
/// The host tensor_scatter_nd_* kernel: deterministic and parallel without sorting or atomic
/// updates. Each output element sees its updates in index order — TensorFlow's sequential CPU
/// loop, bit for bit — and no two threads ever touch the same element. Three schedules:
/// - slices (and small inputs): the output is split into one contiguous range per thread; every
///   thread walks all index rows in order and applies only what lands in its range (reading an
///   index row is cheap next to applying a slice);
/// - many element updates: a stable counting sort into buckets of the output that fit in L2.
///   Each thread counts, then files, the (offset, value) pairs of its share of the rows; each
///   bucket then applies its pairs thread share by thread share, i.e. in index order. Every row
///   is read once, and the scattered read-modify-writes stay in cache (more than two threads);
/// - many element updates with two threads, in rounds: one thread applies a round's first rows
///   directly while the other files the rest by output half; then each thread applies one
///   half's filed rows (scatter_host_head_tail).

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
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
/// Index rows per claim in the first phase of the two-thread element schedule (a claim is one
/// atomic add on a line both threads use: a few microseconds of work amortise it).
inline constexpr std::int64_t kScatterClaimRows = std::int64_t{1} << 13;
/// Index rows per round of the two-thread element schedule: a round's lists (about 2.3 MiB of
/// filed rows) are applied while they are still in L3.
inline constexpr std::int64_t kScatterRoundRows = std::int64_t{1} << 19;
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

/// Asks for the cache line of `base[offset]` ahead of a read-modify-write (where the compiler
/// can). `offset` may name no element (a bad row): the address is formed as an integer, and a
/// prefetch never faults, so no branch is needed.
template <class T>
inline void scatter_prefetch_for_write(const T* base, std::int64_t offset) {
#if defined(__GNUC__)
  const auto address =
      reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(offset) * sizeof(T);
  __builtin_prefetch(reinterpret_cast<const void*>(address), 1);
#else
  (void)base;
  (void)offset;
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
/// order, and returns `body` (with whatever state it kept); the first row that names none goes
/// to `bad` (if `bad` is still `rows`), and with `check` it ends the walk. The walk works on a
/// local copy of `body`, whose address never escapes, so state kept in it (list ends) stays in
/// registers: state reached through references would be reloaded and stored on every row, a
/// chain through memory. What does not change along the walk is decided once, outside the loop:
/// whether the updates are read linearly, whether K = 1 (one compare per row), whether to
/// prefetch. With `prefetch_base`, each row asks for its element kScatterPrefetchRows rows
/// ahead: the read-modify-writes then overlap their cache misses instead of waiting on each.
template <class T, class Index, class K, class Body>
Body scatter_for_element_rows(const ScatterGeometry& g, const Index* indices, std::int64_t begin,
                              std::int64_t end, std::int64_t rows, const K& updates,
                              const Extents& extents, bool linear, bool check,
                              const T* prefetch_base, std::int64_t& bad, Body body) {
  const ScatterGeometry geo = g;  // a local copy: the body's stores cannot alias it
  const K kernel = updates;       // likewise
  // `slice` maps a row to its element, or to anything not below `limit` when the row names
  // none: one unsigned compare per row tells them apart.
  auto run = [&](auto slice, std::uint64_t limit, auto update, auto prefetch) {
    Body local = body;
    std::int64_t first_bad = rows;
    bool stopped = false;
    auto step = [&](std::int64_t i) {
      const std::int64_t at = slice(indices + i * geo.k);
      if (static_cast<std::uint64_t>(at) >= limit) {
        if (first_bad == rows) first_bad = i;
        stopped = check;
        return;
      }
      local(at, update(i));
    };
    std::int64_t i = begin;
    if constexpr (decltype(prefetch)::value) {
      // Rows past `end` are read for their prefetch too: the caller's next block is usually
      // the next rows, so the misses overlap across blocks as well.
      const std::int64_t stop = std::min(end, rows - kScatterPrefetchRows);
      for (; i < stop && !stopped; ++i) {
        scatter_prefetch_for_write(prefetch_base,
                                   slice(indices + (i + kScatterPrefetchRows) * geo.k));
        step(i);
      }
    }
    for (; i < end && !stopped; ++i) step(i);
    if (bad == rows) bad = first_bad;
    return local;
  };
  auto with_update = [&](auto slice, std::uint64_t limit, auto prefetch) {
    if (linear) {
      return run(
          slice, limit, [&kernel](std::int64_t i) { return static_cast<T>(kernel.linear(i)); },
          prefetch);
    }
    return run(
        slice, limit,
        [&](std::int64_t i) { return scatter_update_at<T>(kernel, extents, false, i); }, prefetch);
  };
  auto with_slice = [&](auto prefetch) {
    if (geo.k == 1) {
      // The index itself: the unsigned compare against the extent rejects negatives too.
      return with_update([](const Index* row) { return static_cast<std::int64_t>(row[0]); },
                         static_cast<std::uint64_t>(geo.extents[0]), prefetch);
    }
    // slice_of is -1 for a bad row: as unsigned, past every slice.
    return with_update([&geo](const Index* row) { return geo.slice_of(row); },
                       static_cast<std::uint64_t>(geo.slices), prefetch);
  };
  return prefetch_base != nullptr ? with_slice(std::true_type{}) : with_slice(std::false_type{});
}

/// The tail thread's body in the two-thread element schedule: appends (at, u) to the list of
/// the output half `at` falls in. The pair is written to the ends of both lists, and only the
/// list it belongs to moves on (the other's copy is overwritten by that list's next pair, so
/// each list needs one slot to spare): no branch (the half is a coin toss) and no select, which
/// files a row about 25 % faster than computing the one address to write.
template <class T>
struct ScatterHalfFiler {
  ScatterPair<T>* lower;  ///< the next slot of the lower half's list
  ScatterPair<T>* upper;  ///< and of the upper half's
  std::int64_t half;      ///< the first element of the upper half

  void operator()(std::int64_t at, T u) {
    const ScatterPair<T> pair{static_cast<std::uint32_t>(at), u};
    *lower = pair;
    *upper = pair;
    const std::int64_t up = at >= half ? 1 : 0;  // a setcc: a branch would mispredict half
    lower += 1 - up;
    upper += up;
  }
};

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
/// both to a list) costs less than one. The rows go in rounds of kScatterRoundRows, each in two
/// phases:
/// 1. the head thread applies the round's first rows directly, in order, while the tail thread
///    files its last rows into two lists, one per output half. The threads claim blocks of
///    kScatterClaimRows rows, from the front and from the back, until they meet, so both
///    finish together however fast each runs (the two vCPUs of a shared machine often do not
///    run equally fast);
/// 2. each thread applies one half's list, block by block in index order, after the head
///    (every output element still sees its updates in index order).
/// Per row filed, that is half a read-modify-write on the critical path instead of one, with no
/// sorting and one atomic add per block. Rounds keep a round's lists in L3 between filing and
/// applying: lists of all rows at once would go to memory and back. The filing loop keeps both
/// list ends in registers (ScatterHalfFiler) and picks one without a branch, so nothing in it
/// waits on memory but the row itself; the read-modify-writes prefetch their element
/// kScatterPrefetchRows rows ahead.
///
/// In place with `check` nothing may be written before every row is checked: an output small
/// next to the indices is scattered into a copy that the last round copies back (two passes
/// over the output instead of one more over the indices); otherwise all rows are checked first.
template <class Op, class T, class Index, class K>
std::int64_t scatter_host_head_tail(T* out, const T* source, std::int64_t numel,
                                    const ScatterGeometry& g, const Index* indices,
                                    std::int64_t rows, const K& updates, const Extents& extents,
                                    bool linear, bool check) {
  const std::int64_t half = numel / 2;  // phase 2: part 0 applies the rows filed below it
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
  const std::int64_t round_rows = std::min(rows, kScatterRoundRows);
  // Either list may take every row of a round (the head thread may claim nothing), plus the
  // slot the filer writes past its end.
  const std::int64_t capacity = round_rows + 1;
  // Through Storage: the lists come from the host block cache, already mapped. The lower
  // half's list is pairs[0, capacity), the upper half's pairs[capacity, 2 * capacity).
  const Storage storage = Storage::allocate(
      static_cast<std::size_t>(2 * capacity) * sizeof(ScatterPair<T>), Device::cpu());
  auto* const pairs = static_cast<ScatterPair<T>*>(storage.data());
  // filed[k]: the lengths of both lists after the tail thread's k-th block.
  const std::int64_t max_blocks = (round_rows + kScatterClaimRows - 1) / kScatterClaimRows;
  std::vector<std::array<std::int64_t, 2>> filed(static_cast<std::size_t>(max_blocks));
  // body(at, update) for rows [begin, end) that name an element; the first that does not goes
  // to `bad` (and ends the loop with `check`: the scatter is abandoned).
  auto for_rows = [&](std::int64_t begin, std::int64_t end, std::int64_t& bad, bool prefetch,
                      auto body) {
    return scatter_for_element_rows<T>(g, indices, begin, end, rows, updates, extents, linear,
                                       check, prefetch ? target : nullptr, bad, body);
  };
  // pairs[0, count) of one list, in order, prefetching ahead.
  auto apply_list = [target](const ScatterPair<T>* list, std::int64_t count) {
    for (std::int64_t p = 0; p < count; ++p) {
      if (p + kScatterPrefetchRows < count) {
        scatter_prefetch_for_write(target, list[p + kScatterPrefetchRows].offset);
      }
      T& x = target[list[p].offset];
      x = Op::apply(x, list[p].value);
    }
  };
  std::int64_t lowest_bad = rows;
  for (std::int64_t begin = 0; begin < rows; begin += round_rows) {
    const std::int64_t end = std::min(rows, begin + round_rows);
    const std::int64_t blocks = (end - begin + kScatterClaimRows - 1) / kScatterClaimRows;
    // Blocks are claimed one at a time, the head thread's from the front, the tail thread's
    // from the back, until they meet: however fast each thread runs, both finish together.
    std::atomic<std::int64_t> claimed{0};
    std::int64_t tail_blocks = 0;
    std::int64_t bad_head = rows;
    std::int64_t bad_tail = rows;
    host_parallel_for(2, [&](std::int64_t part) {
      if (part == 0) {
        if (begin == 0 && from != nullptr) std::copy(from, from + numel, target);
        for (std::int64_t j = 0; claimed.fetch_add(1, std::memory_order_relaxed) < blocks; ++j) {
          const std::int64_t lo = begin + j * kScatterClaimRows;
          for_rows(lo, std::min(end, lo + kScatterClaimRows), bad_head, true,
                   [target](std::int64_t at, T u) { target[at] = Op::apply(target[at], u); });
          if (check && bad_head < rows) break;  // abandoned
        }
        return;
      }
      ScatterHalfFiler<T> filer{pairs, pairs + capacity, half};
      std::int64_t k = 0;
      while (claimed.fetch_add(1, std::memory_order_relaxed) < blocks) {
        const std::int64_t lo = begin + (blocks - 1 - k) * kScatterClaimRows;
        std::int64_t bad = rows;
        filer = for_rows(lo, std::min(end, lo + kScatterClaimRows), bad, false, filer);
        filed[static_cast<std::size_t>(k++)] = {filer.lower - pairs,
                                                filer.upper - (pairs + capacity)};
        bad_tail = std::min(bad_tail, bad);  // later blocks are lower
        if (check && bad < rows) break;      // abandoned
      }
      tail_blocks = k;
    });
    if (lowest_bad == rows) lowest_bad = bad_head < rows ? bad_head : bad_tail;  // head first
    if (check && lowest_bad < rows) return lowest_bad;  // `target` is a copy, or dropped
    const bool last = end == rows;
    host_parallel_for(2, [&](std::int64_t part) {
      // The tail thread filed its blocks last to first: their segments go back to front.
      const auto half_index = static_cast<std::size_t>(part);
      for (std::int64_t k = tail_blocks - 1; k >= 0; --k) {
        const std::int64_t first = k == 0 ? 0 : filed[static_cast<std::size_t>(k - 1)][half_index];
        apply_list(pairs + part * capacity + first,
                   filed[static_cast<std::size_t>(k)][half_index] - first);
      }
      const std::int64_t lo = part == 0 ? 0 : half;
      if (last && via_copy) std::copy(target + lo, target + (part == 0 ? half : numel), out + lo);
    });
  }
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
