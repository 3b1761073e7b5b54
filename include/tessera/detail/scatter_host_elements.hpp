// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_host_elements.hpp
/// The host tensor_scatter_nd_* element schedule (slice_size == 1, many rows): a head thread
/// applies rows directly while the others file rows by output part (scatter_host_filing.hpp),
/// then each thread applies one part's rows (scatter_element_schedule); and the ordered walk over
/// element rows that the schedule, its filers and the one-thread loop of scatter_host.hpp share
/// (scatter_for_element_rows).

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "tessera/core/device.hpp"
#include "tessera/core/storage.hpp"
#include "tessera/detail/scatter_host_common.hpp"
#include "tessera/detail/scatter_host_filing.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

/// Calls `body(at, update)` for the index rows [begin, end) that name an element of `g`, in
/// order, and returns `body` (with whatever state it kept); the first row that names none goes
/// to `bad` (if `bad` is still `rows`), and with `check` it ends the walk. The walk works on a
/// local copy of `body`, whose address never escapes, so state kept in it (list ends) stays in
/// registers: state reached through references would be reloaded and stored on every row, a
/// chain through memory. What does not change along the walk is decided once, outside the loop:
/// whether the updates are read linearly, whether K = 1 (one compare per row), whether to
/// prefetch. With `prefetch_base`, each row asks for its element kScatterElementPrefetchRows
/// rows ahead: the read-modify-writes then overlap their cache misses instead of waiting on each.
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
    // One row; false when the walk ends there (a bad row, with `check`). Ending by a return
    // instead of a flag tested on every row keeps the loop's state in registers.
    auto step = [&](std::int64_t i) {
      const std::int64_t at = slice(indices + i * geo.k);
      if (static_cast<std::uint64_t>(at) >= limit) [[unlikely]] {
        if (first_bad == rows) first_bad = i;
        return !check;
      }
      local(at, update(i));
      return true;
    };
    [&] {
      std::int64_t i = begin;
      if constexpr (decltype(prefetch)::value) {
        // Rows past `end` are read for their prefetch too: the caller's next block is usually
        // the next rows, so the misses overlap across blocks as well.
        const std::int64_t stop = std::min(end, rows - kScatterElementPrefetchRows);
        for (; i < stop; ++i) {
          scatter_prefetch_for_write(prefetch_base,
                                     slice(indices + (i + kScatterElementPrefetchRows) * geo.k));
          if (!step(i)) return;
        }
      }
      for (; i < end; ++i) {
        if (!step(i)) return;
      }
    }();
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

/// Progress of one round of the element schedule, shared by its threads. A thread only ever
/// waits for work another thread has claimed and is running, and the waits follow the rounds'
/// order, so the schedule finishes however many of its tasks run at once (one thread running
/// them one after another included).
struct alignas(kScatterCacheLine) ScatterRoundState {
  std::atomic<std::int64_t> tickets{0};      ///< claims granted (at most the round's blocks)
  std::atomic<std::int64_t> from_back{0};    ///< blocks the filers took, from the back
  std::atomic<std::int64_t> blocks_done{0};  ///< blocks applied or filed
  std::atomic<std::int64_t> parts_claimed{0};
  std::atomic<std::int64_t> parts_done{0};
};

/// Waits until `ready()`: spinning briefly, since what it waits for is running on another
/// thread and usually ends within microseconds, then yielding the core. Returns how long it
/// waited, in nanoseconds (0 when `ready()` held at once).
template <class Ready>
std::int64_t scatter_wait_until(const Ready& ready) {
  if (ready()) return 0;
  const std::int64_t start = host_clock_ns();
  for (int spins = 0; !ready(); ++spins) {
    if (spins < 4096) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
  return host_clock_ns() - start;
}

/// A wait this long for another thread of the element schedule means that thread is not
/// running (its core is busy with other work): a block of rows takes tens of microseconds, an
/// operating-system time slice milliseconds.
inline constexpr std::int64_t kScatterStalledNs = 150'000;

/// The stall threshold the schedule uses (kScatterStalledNs), and how many times a thread has
/// gone on alone: tests set the threshold to 0 to take that path at the first wait.
inline std::atomic<std::int64_t> scatter_stalled_ns{kScatterStalledNs};
inline std::atomic<std::int64_t> scatter_alone_count{0};

/// The steps of the element schedule that combine into the output, the only ones that depend
/// on the op. Function pointers, not template parameters: see scatter_element_schedule.
template <class T, class Index, class K>
struct ScatterElementSteps {
  /// Applies index rows [lo, hi) to `target` in order, prefetching ahead, as
  /// scatter_for_element_rows (the first bad row goes to `bad`).
  void (*apply_rows)(T* target, const ScatterGeometry& g, const Index* indices, std::int64_t lo,
                     std::int64_t hi, std::int64_t rows, const K& updates, const Extents& extents,
                     bool linear, bool check, std::int64_t& bad);
  /// Applies `count` filed pairs in order: list[0], list[1], ...
  void (*apply_pairs_up)(T* target, const ScatterPair<T>* list, std::int64_t count);
  /// Applies `count` filed pairs in order: list[0], list[-1], ... (a list written downwards).
  void (*apply_pairs_down)(T* target, const ScatterPair<T>* list, std::int64_t count);
};

/// ScatterElementSteps::apply_rows for `Op`.
template <class Op, class T, class Index, class K>
void scatter_apply_element_rows(T* target, const ScatterGeometry& g, const Index* indices,
                                std::int64_t lo, std::int64_t hi, std::int64_t rows,
                                const K& updates, const Extents& extents, bool linear, bool check,
                                std::int64_t& bad) {
  scatter_for_element_rows<T>(
      g, indices, lo, hi, rows, updates, extents, linear, check, target, bad,
      [target](std::int64_t at, T u) { target[at] = Op::apply(target[at], u); });
}

/// ScatterElementSteps::apply_pairs_up (kStep 1) and apply_pairs_down (kStep -1) for `Op`,
/// prefetching ahead.
template <class Op, class T, std::int64_t kStep>
void scatter_apply_pairs(T* target, const ScatterPair<T>* list, std::int64_t count) {
  for (std::int64_t q = 0; q < count; ++q) {
    if (q + kScatterElementPrefetchRows < count) {
      scatter_prefetch_for_write(target, list[(q + kScatterElementPrefetchRows) * kStep].offset);
    }
    const ScatterPair<T>& pair = list[q * kStep];
    T& x = target[pair.offset];
    x = Op::apply(x, pair.value);
  }
}

/// The element schedule (slice_size == 1) for outputs of < 2^32 elements, with any number of
/// host threads (one part of the output per thread).
///
/// Why it is fast: the sequential loop's cost is its read-modify-writes, which land anywhere in
/// the output, and filing an update (reading its index and value, appending both to a list)
/// costs less than one. The rows go in rounds, each in two phases:
/// 1. the *head* thread applies the round's first rows directly, in order, while the other
///    threads, the *filers*, file its last rows by output part into per-block lists. Rows are
///    claimed in blocks of kScatterClaimRows, the head's from the front, the filers' from the
///    back, until they meet, so all finish together however fast each runs (the vCPUs of a
///    shared machine often do not run equally fast);
/// 2. the threads claim the output's parts and apply each part's lists, block by block in index
///    order, after the head (every output element still sees its updates in index order).
/// Per row filed, that is 1/P of a read-modify-write on the critical path instead of one, with
/// no sorting and two atomic adds per claimed block, and in phase 2 each thread's
/// read-modify-writes stay in its part of the output (1/P of it, in its own cache). Rounds keep a
/// round's lists in the last-level cache between filing and applying. With one thread the head
/// applies every row: the sequential loop. With two parts the filer writes two lists at once
/// (ScatterTwoListFiler); with more, it stages and counts a block, then moves it (two passes
/// over a block in cache). The walk keeps its list ends in registers (it works on a local copy
/// of its body), and the read-modify-writes prefetch their element
/// kScatterElementPrefetchRows ahead.
///
/// All rounds run in one parallel region: the phases hand over through the counters of
/// ScatterRoundState instead of a region each, whose wake-up costs 30-80 us when the pool's
/// threads sleep between regions (OMP_WAIT_POLICY=passive): two per round were 1-1.5 ms of a
/// 9 ms scatter. Two pair arrays alternate between rounds, so a thread done with its part of one
/// round files the next while the others still apply theirs.
///
/// In place with `check` nothing may be written before every row is checked: an output small
/// next to the indices is scattered into a copy that the last round copies back (two passes
/// over the output instead of one more over the indices); otherwise all rows are checked first.
///
/// Only the steps that combine into the output depend on the op: they come in `steps`, one call
/// per claimed block or filed list (thousands of rows each), so the schedule is compiled once
/// per element type, index type and update reader, not once more for every op.
template <class T, class Index, class K>
TESSERA_NO_CLONE std::int64_t scatter_element_schedule(
    const ScatterElementSteps<T, Index, K>& steps, T* out, const T* source, std::int64_t numel,
    const ScatterGeometry& g, const Index* indices, std::int64_t rows, const K& updates,
    const Extents& extents, bool linear, bool check) {
  const std::int64_t workers = host_thread_count();
  const ScatterParts parts(workers, numel);
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
  // A round gives every filer several blocks to claim.
  const std::int64_t round_rows =
      std::min(rows, std::max(kScatterRoundRows, 8 * workers * kScatterClaimRows));
  const std::int64_t rounds = (rows + round_rows - 1) / round_rows;
  const std::int64_t max_blocks = (round_rows + kScatterClaimRows - 1) / kScatterClaimRows;
  // Block j of a round files its pairs into pairs[j * kRegion, ...) of the round's array: its
  // rows' worth and the free slots wide filing needs. Through Storage: large blocks come from
  // the host block cache, already mapped.
  constexpr std::int64_t kRegion = kScatterClaimRows + kScatterFilingSlack;
  const std::int64_t array_size = max_blocks * kRegion;
  const bool filing = workers > 1;
  const std::int64_t arrays = filing ? std::min<std::int64_t>(2, rounds) : 0;
  const Storage storage = filing ? Storage::allocate(static_cast<std::size_t>(arrays * array_size) *
                                                         sizeof(ScatterPair<T>),
                                                     Device::cpu())
                                 : Storage();
  auto* const pair_arrays = static_cast<ScatterPair<T>*>(storage.data());
  // lists[a][j * P + p]: part p's list in block j of a round using array a, [first, last) (two
  // parts: the upper list, written downwards, is applied from last - 1 down to first).
  const auto P = static_cast<std::size_t>(parts.count);
  std::array<std::vector<std::array<std::int64_t, 2>>, 2> lists;
  for (std::int64_t a = 0; a < arrays; ++a) {
    lists[static_cast<std::size_t>(a)].resize(static_cast<std::size_t>(max_blocks) * P);
  }
  const auto states = std::make_unique<ScatterRoundState[]>(static_cast<std::size_t>(rounds));
  // Staging and counts per filer, for more than two parts.
  const bool staged = parts.count > 2;
  const auto W = static_cast<std::size_t>(workers);
  std::vector<std::unique_ptr<ScatterPair<T>[]>> staging(staged ? W : 0);
  std::vector<std::unique_ptr<std::uint32_t[]>> counts(staged ? W : 0);
  for (std::size_t f = 0; f < staging.size(); ++f) {
    staging[f] = std::make_unique<ScatterPair<T>[]>(static_cast<std::size_t>(kScatterClaimRows));
    counts[f] = std::make_unique<std::uint32_t[]>(P);
  }
  // A thread that waited kScatterStalledNs for another at once, or a quarter of its time in all,
  // asks to go on alone (`solo_asker`): on a shared machine a thread whose core is taken stops for
  // whole time slices, and every round's hand-over makes the others wait for it (two threads with
  // one core busy: 17.5 ms for a scatter that one thread does in 13.4). At its next round that no
  // thread has claimed rows of yet, the asker takes every ticket of it, sets `solo_from` and
  // applies the remaining rows directly, in order, as the one-thread loop; the others leave at that
  // round.
  constexpr std::int64_t kAllTickets = std::numeric_limits<std::int64_t>::max() / 2;
  std::atomic<std::int64_t> solo_asker{-1};
  std::atomic<std::int64_t> solo_from{rounds};
  // Per thread: when it started and how long it has waited for others.
  struct WaitRecord {
    std::int64_t start = 0;
    std::int64_t waited = 0;
  };
  std::vector<WaitRecord> waits(static_cast<std::size_t>(workers));
  auto note_stall = [&](std::int64_t waited_ns, std::int64_t worker) {
    if (waited_ns == 0) return;
    WaitRecord& w = waits[static_cast<std::size_t>(worker)];
    w.waited += waited_ns;
    const std::int64_t stall = scatter_stalled_ns.load(std::memory_order_relaxed);
    const bool stalled =
        waited_ns >= stall || (w.waited >= stall / 2 && 4 * w.waited >= host_clock_ns() - w.start);
    std::int64_t none = -1;
    if (stalled) solo_asker.compare_exchange_strong(none, worker, std::memory_order_relaxed);
  };
  auto alone_from = [&](std::int64_t round) {
    return round >= solo_from.load(std::memory_order_acquire);
  };
  // The lowest bad row seen; with `check`, blocks wholly past it are skipped (the scatter is
  // abandoned, and they cannot hold a lower one).
  std::atomic<std::int64_t> lowest_bad{rows};
  auto note_bad = [&lowest_bad](std::int64_t bad) {
    std::int64_t seen = lowest_bad.load(std::memory_order_relaxed);
    while (bad < seen && !lowest_bad.compare_exchange_weak(seen, bad, std::memory_order_relaxed)) {
    }
  };
  // The copy of `from` into `target`, done once by whichever thread needs it first: the head
  // before its first row, or phase 2 when the head's task has not run.
  std::atomic<int> copy_stage{from != nullptr ? 0 : 2};  // 0 to do, 1 running, 2 done
  auto ensure_copied = [&] {
    int expected = 0;
    if (copy_stage.compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
      std::copy(from, from + numel, target);
      copy_stage.store(2, std::memory_order_release);
      return;
    }
    scatter_wait_until([&] { return copy_stage.load(std::memory_order_acquire) == 2; });
  };
  auto wait_parts_done = [&](std::int64_t round) -> std::int64_t {
    if (round < 0) return 0;
    const ScatterRoundState& st = states[static_cast<std::size_t>(round)];
    return scatter_wait_until(
        [&] { return st.parts_done.load(std::memory_order_acquire) == parts.count; });
  };
  // body(at, update) for rows [begin, end) that name an element; the first that does not goes
  // to `bad` (and ends the loop with `check`: the scatter is abandoned).
  auto for_rows = [&](std::int64_t begin, std::int64_t end, std::int64_t& bad, bool prefetch,
                      auto body) {
    return scatter_for_element_rows<T>(g, indices, begin, end, rows, updates, extents, linear,
                                       check, prefetch ? target : nullptr, bad, body);
  };
  // Files rows [lo, hi) of block j of a round into its part lists, in its region of `pairs`.
  auto file_block = [&](std::size_t filer, ScatterPair<T>* pairs,
                        std::array<std::int64_t, 2>* lists_of_round, std::int64_t j,
                        std::int64_t lo, std::int64_t hi, std::int64_t& bad) {
    const std::int64_t base = j * kRegion;
    ScatterPair<T>* const region = pairs + base;
    std::array<std::int64_t, 2>* const list = lists_of_round + static_cast<std::size_t>(j) * P;
    if (!staged) {
      const std::int64_t top = base + (hi - lo) + kScatterFilingSlack;  // the upper list's end
      ScatterTwoListFiler<T> start{region, pairs + top - 1,
                                   parts.bound[static_cast<std::size_t>(1)]};
      const std::int64_t from = file_two_lists_wide(indices, updates, lo, hi, g, linear, start);
      const ScatterTwoListFiler<T> end = for_rows(from, hi, bad, false, start);
      list[0] = {base, base + end.lower_count};
      list[1] = {top - end.upper_count(), top};
      return;
    }
    std::uint32_t* const count = counts[filer].get();
    std::fill(count, count + P, std::uint32_t{0});
    ScatterPair<T>* const stage = staging[filer].get();
    const ScatterStagingFiler<T> end =
        for_rows(lo, hi, bad, false, ScatterStagingFiler<T>{stage, count, parts.mult});
    std::int64_t at = base;
    for (std::size_t p = 0; p < P; ++p) {
      list[p] = {at, at};
      at += count[p];
    }
    for (const ScatterPair<T>* s = stage; s != end.next; ++s) {
      pairs[list[ScatterParts::part_of(parts.mult, s->offset)][1]++] = *s;
    }
  };
  // Task `worker` of the region; task 0 is the head. Returns false when the scatter is
  // abandoned (a bad row, with `check`).
  auto run_task = [&](std::int64_t worker) {
    waits[static_cast<std::size_t>(worker)].start = host_clock_ns();
    for (std::int64_t r = 0; r < rounds; ++r) {
      if (alone_from(r)) return;
      ScatterRoundState& st = states[static_cast<std::size_t>(r)];
      std::int64_t unclaimed = 0;
      if (solo_asker.load(std::memory_order_relaxed) == worker &&
          st.tickets.compare_exchange_strong(unclaimed, kAllTickets, std::memory_order_relaxed)) {
        solo_from.store(r, std::memory_order_release);
        scatter_alone_count.fetch_add(1, std::memory_order_relaxed);
        // Every earlier round applied (the others finish what they claimed), then the rest.
        ensure_copied();
        wait_parts_done(r - 1);
        std::int64_t bad = rows;
        steps.apply_rows(target, g, indices, r * round_rows, rows, rows, updates, extents, linear,
                         check, bad);
        if (bad < rows) note_bad(bad);
        if (via_copy && !(check && lowest_bad.load(std::memory_order_relaxed) < rows)) {
          std::copy(target, target + numel, out);
        }
        return;
      }
      const std::int64_t begin = r * round_rows;
      const std::int64_t end = std::min(rows, begin + round_rows);
      const std::int64_t blocks = (end - begin + kScatterClaimRows - 1) / kScatterClaimRows;
      const auto a = static_cast<std::size_t>(r % 2);
      ScatterPair<T>* const pairs = filing ? pair_arrays + a * array_size : nullptr;
      // Phase 1. A claim is a ticket (at most `blocks` are granted) and then a position: the
      // head's from the front, the filers' from the back.
      bool ready = false;
      for (std::int64_t mine = 0; st.tickets.fetch_add(1, std::memory_order_relaxed) < blocks;
           ++mine) {
        const std::int64_t j =
            worker == 0 ? mine : blocks - 1 - st.from_back.fetch_add(1, std::memory_order_relaxed);
        const std::int64_t lo = begin + j * kScatterClaimRows;
        const std::int64_t hi = std::min(end, lo + kScatterClaimRows);
        if (!(check && lo > lowest_bad.load(std::memory_order_relaxed))) {
          if (!ready) {
            // The head writes the output: the previous round must be applied. A filer
            // reuses the pair array of two rounds ago: that round must be applied.
            if (worker == 0) ensure_copied();
            note_stall(wait_parts_done(worker == 0 ? r - 1 : r - 2), worker);
            ready = true;
          }
          std::int64_t bad = rows;
          if (worker == 0) {
            steps.apply_rows(target, g, indices, lo, hi, rows, updates, extents, linear, check,
                             bad);
          } else {
            file_block(static_cast<std::size_t>(worker), pairs, lists[a].data(), j, lo, hi, bad);
          }
          if (bad < rows) note_bad(bad);
        }
        st.blocks_done.fetch_add(1, std::memory_order_release);
      }
      // A thread that entered this round just as another took it to go on alone got no ticket,
      // and the round is never done: it leaves.
      note_stall(scatter_wait_until([&] {
                   return st.blocks_done.load(std::memory_order_acquire) == blocks || alone_from(r);
                 }),
                 worker);
      if (alone_from(r)) return;

      if (check && lowest_bad.load(std::memory_order_relaxed) < rows) return;
      // Phase 2, after the previous round's (each part sees its rounds in order). It runs even
      // with nothing filed (one thread: the head applied every block): marking its parts done
      // is what lets the next round's head start.
      const bool last = r + 1 == rounds;
      const std::int64_t head_blocks = blocks - st.from_back.load(std::memory_order_relaxed);
      bool waited = false;
      for (std::int64_t part = st.parts_claimed.fetch_add(1, std::memory_order_relaxed);
           part < parts.count; part = st.parts_claimed.fetch_add(1, std::memory_order_relaxed)) {
        if (!waited) {
          ensure_copied();
          note_stall(wait_parts_done(r - 1), worker);
          waited = true;
        }
        const auto p = static_cast<std::size_t>(part);
        // The upper list of two parts was written downwards: it is applied backwards.
        const bool downwards = !staged && part == 1;
        for (std::int64_t j = head_blocks; j < blocks; ++j) {
          const auto& list = lists[a][static_cast<std::size_t>(j) * P + p];
          if (downwards) {
            steps.apply_pairs_down(target, pairs + list[1] - 1, list[1] - list[0]);
          } else {
            steps.apply_pairs_up(target, pairs + list[0], list[1] - list[0]);
          }
        }
        if (last && via_copy) {
          std::copy(target + parts.bound[p], target + parts.bound[p + 1], out + parts.bound[p]);
        }
        st.parts_done.fetch_add(1, std::memory_order_release);
      }
    }
  };
  host_parallel_for(workers, run_task);
  return lowest_bad.load(std::memory_order_relaxed);
}

/// The element schedule for `Op` (scatter_element_schedule with the op's steps).
template <class Op, class T, class Index, class K>
std::int64_t scatter_host_elements(T* out, const T* source, std::int64_t numel,
                                   const ScatterGeometry& g, const Index* indices,
                                   std::int64_t rows, const K& updates, const Extents& extents,
                                   bool linear, bool check) {
  static constexpr ScatterElementSteps<T, Index, K> steps{
      &scatter_apply_element_rows<Op, T, Index, K>, &scatter_apply_pairs<Op, T, 1>,
      &scatter_apply_pairs<Op, T, -1>};
  return scatter_element_schedule(steps, out, source, numel, g, indices, rows, updates, extents,
                                  linear, check);
}

}  // namespace tessera::detail
