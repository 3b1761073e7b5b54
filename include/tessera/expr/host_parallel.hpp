#pragma once
/// @file host_parallel.hpp
/// The host pool: the Thrust host policy and its thread count, loops over blocks on it, and
/// `host_adaptive_for`, which runs work of a known size on the calling thread alone when a
/// parallel region would cost more than it saves.

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "tessera/config.hpp"

#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
#include <omp.h>
#include <thrust/system/omp/execution_policy.h>
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
#include <tbb/task_arena.h>
#include <thrust/system/tbb/execution_policy.h>
#else
#include <thrust/system/cpp/execution_policy.h>
#endif

namespace tessera::detail {

/// The Thrust execution policy of host kernels.
inline auto host_policy() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return thrust::omp::par;
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
  return thrust::tbb::par;
#else
  return thrust::cpp::par;
#endif
}

/// Threads the host policy runs on (1 on Thrust's serial system).
inline std::int64_t host_thread_count() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return std::max(1, omp_get_max_threads());
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
  return std::max(1, tbb::this_task_arena::max_concurrency());
#else
  return 1;
#endif
}

/// Runs `f(block)` for every block in [0, blocks) on the host policy (inline for one block).
template <class F>
void host_parallel_for(std::int64_t blocks, const F& f) {
  if (blocks <= 0) return;
  if (blocks == 1) {
    f(std::int64_t{0});
    return;
  }
  thrust::for_each_n(host_policy(), thrust::counting_iterator<std::int64_t>(0), blocks, f);
}

/// Nanoseconds on the steady clock.
inline std::int64_t host_clock_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Called by every task of a region of `tasks` tasks once its own work is done: on the
/// calling thread, waits until `done` counts every task (spinning, for kHostJoinSpinNs at
/// most), so that the calling thread reaches the region's join last. A thread that reaches it
/// first may sleep there (OMP_WAIT_POLICY=passive) and must then be woken: 16 us rather than
/// 40 us after the last part, on the 2-core Xeon VM (2026-12-05); the pool's threads may sleep
/// at no cost to the caller. Only where every task runs on a thread of its own (OpenMP's team):
/// a task run after this one on the same thread (a nested region, a serial host system) would
/// be waited for in vain.
inline constexpr std::int64_t kHostJoinSpinNs = 200'000;
inline void host_wait_for_team([[maybe_unused]] const std::atomic<std::int64_t>& done,
                               [[maybe_unused]] std::int64_t tasks) noexcept {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  if (omp_get_thread_num() != 0 || omp_get_num_threads() < tasks ||
      done.load(std::memory_order_acquire) >= tasks) {
    return;
  }
  const std::int64_t until = host_clock_ns() + kHostJoinSpinNs;
  while (done.load(std::memory_order_acquire) < tasks && host_clock_ns() < until) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
#endif
}

/// Runs `body(begin, end)` over [first, items) on `tasks` tasks of the host pool, each claiming
/// parts [begin, begin + size(begin)) from one cursor until none is left, so that a late or
/// descheduled thread delays the region by the part it holds, never by a fixed share; the
/// calling thread then waits for the team (host_wait_for_team).
template <class Size, class Body>
void host_claim_parts(std::int64_t tasks, std::int64_t first, std::int64_t items, const Size& size,
                      const Body& body) {
  std::atomic<std::int64_t> next{first};
  std::atomic<std::int64_t> done{0};
  host_parallel_for(tasks, [&](std::int64_t) {
    std::int64_t begin = next.load(std::memory_order_relaxed);
    while (begin < items) {
      const std::int64_t count = size(begin);
      if (!next.compare_exchange_weak(begin, begin + count, std::memory_order_relaxed)) {
        continue;  // another thread claimed first: `begin` is the cursor now
      }
      body(begin, std::min(items, begin + count));
      begin = next.load(std::memory_order_relaxed);
    }
    done.fetch_add(1, std::memory_order_release);
    host_wait_for_team(done, tasks);
  });
}

/// What a parallel region of the host pool costs beyond its work: the time its threads spend
/// idle in it, on average, waking and joining the pool (how slow items get when the threads
/// share memory bandwidth is the work's own, HostWorkRecord). Learned from the regions
/// `host_adaptive_for` runs, because it depends on the machine and on how the pool waits: on
/// the 2-core VM of docs/benchmarks.md an empty OpenMP region took 0.45 us with the default
/// (spinning) wait policy and 31-84 us with OMP_WAIT_POLICY=passive, where the sleeping thread
/// must be woken. Shared by every caller; the racy updates lose a sample at worst.
class HostRegionCost {
 public:
  constexpr HostRegionCost() noexcept = default;
  /// Starts from `estimate_ns` instead of 0 (tests, and callers that know their machine).
  constexpr explicit HostRegionCost(std::int64_t estimate_ns) noexcept : ns_(estimate_ns) {}
  HostRegionCost(const HostRegionCost&) = delete;
  HostRegionCost& operator=(const HostRegionCost&) = delete;

  /// The expected cost of the next region, in ns (0 before any region ran).
  [[nodiscard]] std::int64_t estimate() const noexcept {
    return ns_.load(std::memory_order_relaxed);
  }

  /// One region's measured cost. A moving average, each sample capped at a few times the
  /// estimate (1 us at first): one region stretched by preemption, or the first one, which
  /// starts the pool's threads (7 ms seen), must not keep medium work serial for long.
  void record(std::int64_t sample) noexcept {
    sample = std::max<std::int64_t>(0, sample);
    const std::int64_t old = ns_.load(std::memory_order_relaxed);
    const std::int64_t capped = std::min(sample, 4 * old + kSampleFloorNs);
    ns_.store(old + (capped - old) / 4, std::memory_order_relaxed);
  }

  /// A region was declined that could have saved up to `gain_ns` and, by the estimates,
  /// would have cost `price_ns` more than the calling thread alone. Returns true when it should
  /// run anyway, to measure again: once the gains declined since the last retry add up to
  /// kRetryRegions times the price (or the region cost, if more), so that estimates made stale
  /// by a quietened machine or a pool that spins again are retried, at a price bounded by
  /// 1/kRetryRegions of what the declined regions could have saved.
  bool retry_after_decline(double gain_ns, double price_ns) noexcept {
    const double declined = declined_ns_.load(std::memory_order_relaxed) + gain_ns;
    const double bar =
        static_cast<double>(kRetryRegions) * std::max(price_ns, static_cast<double>(estimate()));
    if (declined < bar) {
      declined_ns_.store(declined, std::memory_order_relaxed);
      return false;
    }
    declined_ns_.store(0.0, std::memory_order_relaxed);
    return true;
  }

  /// What reading host_clock_ns() twice costs (ns), taken off a probe's time (measured once).
  [[nodiscard]] std::int64_t clock_cost() noexcept {
    std::int64_t cost = clock_ns_.load(std::memory_order_relaxed);
    if (cost >= 0) return cost;
    cost = std::numeric_limits<std::int64_t>::max();
    for (int i = 0; i < 8; ++i) {
      const std::int64_t t0 = host_clock_ns();
      cost = std::min(cost, host_clock_ns() - t0);
    }
    clock_ns_.store(cost, std::memory_order_relaxed);
    return cost;
  }

 private:
  static constexpr std::int64_t kSampleFloorNs = 1000;
  static constexpr std::int64_t kRetryRegions = 32;
  std::atomic<std::int64_t> ns_{0};
  std::atomic<double> declined_ns_{0.0};
  std::atomic<std::int64_t> clock_ns_{-1};
};

/// The process's region cost (one per binary that instantiates the host kernels).
inline constinit HostRegionCost host_region_cost{};

/// What host_adaptive_for remembers of one kind of work (times per item in ns; negative:
/// not measured yet).
struct HostWorkRecord {
  std::atomic<float> alone_ns{-1.0f};      ///< on the calling thread alone (the last probe)
  std::atomic<float> shared_ns{-1.0f};     ///< on one thread while every thread claims items
                                           ///< (memory bandwidth shared): regions' moving average
  std::atomic<std::uint32_t> unprobed{0};  ///< regions run without a probe
};

/// Records per kind of work: one per size class, items in [8^c, 8^(c+1)), since the time per
/// item of one kernel depends on where its data sits: `a.T + b` took 0.26 ns per element
/// alone at 100x100 (in L1) and 1 ns in parts at 3162x3162 (DRAM). With one record for both,
/// the small case's probes priced the large one as 2.6 ms alone against 5 ms shared, and the
/// large case ran alone in some calls (2 threads, the benchmark binary's interleaved
/// repetitions: 5.1 or 9.9 ms).
inline constexpr int kHostWorkSizeClasses = 21;  // floor(log8(2^63 - 1)) = 20

/// The size class of work over `items` items (items >= 1): floor(log8(items)).
constexpr int host_work_size_class(std::int64_t items) noexcept {
  return (static_cast<int>(std::bit_width(static_cast<std::uint64_t>(items))) - 1) / 3;
}

/// The records of the work named `Key`, one per size class (host_work_size_class).
template <class Key>
inline constinit HostWorkRecord host_work_record[kHostWorkSizeClasses]{};

/// How host_adaptive_for may split its items.
struct HostSplit {
  std::int64_t min_items;  ///< below this, always the calling thread alone (no clock read)
  std::int64_t probe;      ///< items the calling thread runs first, timed, to price the rest
  std::int64_t align;      ///< parts start at multiples of this (the output's cache lines)
  /// The cost per item depends on the data, not only on the kind of work (nonzero's density,
  /// searchsorted's sequence length): every call probes, and prices the rest by its own probe
  /// alone, since a record of other data would mislead in either direction.
  bool fresh = false;
};

/// Runs `body(begin, end)` over [0, items) in contiguous parts, on the calling thread alone
/// when a parallel region would take longer than that. The work named `Key` is priced from
/// what it took before (HostWorkRecord): per item alone, and per item on one thread while the
/// other threads run theirs (slower when they share memory bandwidth); a region adds its
/// fixed cost (HostRegionCost). Unknown or stale times are measured by a probe: the calling
/// thread runs the first `split.probe` items and times them. The rest then stays on it when
/// sharing would not be faster, and otherwise every thread claims aligned parts of it from a
/// shared cursor, each a share of what remains, until none is left. Work that
/// plainly pays is shared at once, without a probe, but for one call in kReprobe; work that
/// plainly does not runs whole (no clock read), but now and then a declined region runs
/// anyway, to measure again (HostRegionCost::retry_after_decline). The work must not depend
/// on how [0, items) is cut, so that no result changes with the choice. `cost`: what regions
/// cost (the process's estimate unless a test brings its own).
template <class Key, class Body>
void host_adaptive_for(std::int64_t items, const HostSplit& split, const Body& body,
                       HostRegionCost& cost = host_region_cost) {
  constexpr std::uint32_t kReprobe = 16;  // calls shared without a probe, then one probed
  // Work that takes this many region costs is always shared: whatever the record says of
  // parts slowed by shared bandwidth, a region then costs little, and staying alone on a
  // stale or disturbed record would cost up to (threads - 1) / threads of the time. Its time
  // is the larger of two measures, alone by the probe and each thread's share in a region: a
  // probe can flatter the work (3162x3162 `a.T + b`: 0.3 ns per element over the first rows,
  // 1.7 over the whole alone, on the 2-core Xeon VM), and the region's measure keeps it
  // shared then.
  constexpr double kAlwaysShare = 16.0;
  // The smallest claim of a shared region: 1/kClaimsPerThread of one thread's share.
  constexpr std::int64_t kClaimsPerThread = 16;
  if (items <= 0) return;
  const std::int64_t threads = host_thread_count();
  if (threads <= 1 || items < split.min_items) {
    body(std::int64_t{0}, items);
    return;
  }
  const auto round_up = [&split](std::int64_t v) {
    return (v + split.align - 1) / split.align * split.align;
  };
  const auto part_of = [&](std::int64_t first) {  // items per part from `first` on
    return round_up((items - first + threads - 1) / threads);
  };
  const auto parts_from = [&](std::int64_t first) {
    if (first >= items) return std::int64_t{0};
    const std::int64_t part = part_of(first);
    return (items - first + part - 1) / part;
  };
  HostWorkRecord& work = host_work_record<Key>[host_work_size_class(items)];
  const auto region_ns = static_cast<double>(cost.estimate());
  // Time of [first, items) shared, by the record: each thread's share of the work (`alone` per
  // item until a region has said how slow items get while the threads share memory bandwidth)
  // and the time a region leaves each thread idle (waking the pool, joining it).
  const auto shared_time = [&](std::int64_t first, double alone) {
    const float shared = split.fresh ? -1.0f : work.shared_ns.load(std::memory_order_relaxed);
    const double per_item = shared >= 0.0f ? static_cast<double>(shared) : alone;
    const auto tasks = static_cast<double>(std::min(threads, parts_from(first)));
    return per_item * static_cast<double>(items - first) / tasks + region_ns;
  };
  // Whether work taking `alone` ns on the calling thread and `shared` ns in a region stays on
  // the calling thread: sharing is not faster, the work is too small to share regardless, and
  // no retry is due (HostRegionCost::retry_after_decline).
  const auto large = [&](double alone, double shared) {
    return std::max(alone, shared - region_ns) > kAlwaysShare * region_ns;
  };
  const auto stays_alone = [&](double alone, double shared) {
    return shared >= alone && !large(alone, shared) &&
           !cost.retry_after_decline(alone - alone / static_cast<double>(threads), shared - alone);
  };
  // Runs [first, items) on every thread, each claiming aligned stretches from a shared cursor
  // until none is left (guided: a claim takes 1/(2 * threads) of what remains, at least
  // 1/(kClaimsPerThread * threads) of the whole), so that the calling thread works while the
  // pool wakes and a thread that is late or descheduled delays the region by one stretch
  // at most, never by a fixed share. Then learns the time per item while sharing (the
  // threads' busy time over the items) and the region's cost: its wall time beyond the
  // threads' mean busy time (waking the pool, joining it).
  const auto share = [&](std::int64_t first) {
    const std::int64_t tasks = std::min(threads, parts_from(first));
    const std::int64_t grain =
        round_up((items - first + threads * kClaimsPerThread - 1) / (threads * kClaimsPerThread));
    std::atomic<std::int64_t> busy_ns{0};
    const std::int64_t start = host_clock_ns();
    host_claim_parts(
        tasks, first, items,
        [&](std::int64_t begin) {
          return std::max(grain, round_up((items - begin) / (2 * tasks)));
        },
        [&body, &busy_ns](std::int64_t begin, std::int64_t end) {
          const std::int64_t t0 = host_clock_ns();
          body(begin, end);
          busy_ns.fetch_add(host_clock_ns() - t0, std::memory_order_relaxed);
        });
    const std::int64_t wall = host_clock_ns() - start;
    const std::int64_t busy = busy_ns.load(std::memory_order_relaxed);
    cost.record(wall - busy / tasks);
    // A moving average: one region with a preempted thread must not keep the work alone.
    const double sample = static_cast<double>(busy) / static_cast<double>(items - first);
    const float before = work.shared_ns.load(std::memory_order_relaxed);
    work.shared_ns.store(
        static_cast<float>(before < 0.0f ? sample : before + (sample - before) / 4.0),
        std::memory_order_relaxed);
  };
  const float known = split.fresh ? -1.0f : work.alone_ns.load(std::memory_order_relaxed);
  bool retry = false;  // a region runs whatever the probe says, to measure again
  if (known >= 0.0f && parts_from(0) >= 2) {
    const double alone = static_cast<double>(known) * static_cast<double>(items);
    const double shared = shared_time(0, known);
    if (shared >= alone && !large(alone, shared)) {
      if (stays_alone(alone, shared)) {
        body(std::int64_t{0}, items);
        return;
      }
      retry = true;
    } else if (large(alone, shared) || alone - shared > region_ns) {
      const std::uint32_t unprobed = work.unprobed.load(std::memory_order_relaxed);
      work.unprobed.store(unprobed + 1, std::memory_order_relaxed);
      if (unprobed % kReprobe != kReprobe - 1) {
        share(0);
        return;
      }
    }
  }
  const std::int64_t probe = std::min(items, round_up(std::max<std::int64_t>(1, split.probe)));
  const std::int64_t clock = cost.clock_cost();
  const std::int64_t start = host_clock_ns();
  body(std::int64_t{0}, probe);
  const std::int64_t probed = host_clock_ns();
  const double alone_per_item =
      static_cast<double>(std::max<std::int64_t>(0, probed - start - clock)) /
      static_cast<double>(probe);
  work.alone_ns.store(static_cast<float>(alone_per_item), std::memory_order_relaxed);
  if (parts_from(probe) < 2) {
    if (probe < items) body(probe, items);
    return;
  }
  const double alone = alone_per_item * static_cast<double>(items - probe);
  if (!retry && stays_alone(alone, shared_time(probe, alone_per_item))) {
    body(probe, items);
    return;
  }
  share(probe);
}

/// Runs `f(block)` for every block in [0, blocks) through host_adaptive_for: on the calling
/// thread alone while a parallel region would cost more than it saves (the first block times
/// the work when its record is stale), otherwise one contiguous range of blocks per thread. For
/// block-structured kernels (reductions, nonzero's passes, searchsorted), whose results do not
/// depend on which thread runs a block. `Key` names the work (its HostWorkRecord); `Fresh`:
/// its cost per block depends on the data (HostSplit::fresh).
template <class Key, bool Fresh = false, class F>
void host_adaptive_blocks(std::int64_t blocks, const F& f) {
  host_adaptive_for<Key>(blocks, HostSplit{2, 1, 1, Fresh},
                         [&f](std::int64_t first, std::int64_t last) {
                           for (std::int64_t b = first; b < last; ++b) f(b);
                         });
}

}  // namespace tessera::detail
