// SPDX-License-Identifier: BSD-3-Clause
// The host pool's scheduling, compiled once: the parallel regions, the claiming of parts and
// host_adaptive_for's pricing. Kernels reach it through HostFunctionRef (host_parallel.hpp), so
// no expression type instantiates a region of its own.

#include "tessera/expr/host_parallel.hpp"

#include <thrust/for_each.h>

#include <thrust/iterator/counting_iterator.h>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <string>

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

namespace {

/// The Thrust execution policy of host kernels.
auto host_policy() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return thrust::omp::par;
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
  return thrust::tbb::par;
#else
  return thrust::cpp::par;
#endif
}

/// Called by every task of a region of `tasks` tasks once its own work is done: on the
/// calling thread, waits until `done` counts every task (spinning, for kHostJoinSpinNs at
/// most), so that the calling thread reaches the region's join last. A thread that reaches it
/// first may sleep there (OMP_WAIT_POLICY=passive) and must then be woken: 16 us rather than
/// 40 us after the last part, on the 2-core Xeon VM (2026-12-05); the pool's threads may sleep
/// at no cost to the caller. Only where every task runs on a thread of its own (OpenMP's team):
/// a task run after this one on the same thread (a nested region, a serial host system) would
/// be waited for in vain.
constexpr std::int64_t kHostJoinSpinNs = 200'000;
void host_wait_for_team([[maybe_unused]] const std::atomic<std::int64_t>& done,
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

/// True when the OpenMP pool's threads sleep as soon as a parallel region ends
/// (OMP_WAIT_POLICY=passive, read once): the scheduler is the one reader of OpenMP's settings.
[[maybe_unused]] bool host_pool_threads_sleep() {
  static const bool passive = [] {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    if (policy == nullptr) return false;
    std::string value(policy);
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return value == "passive";
  }();
  return passive;
}

}  // namespace

void host_run_library_call(std::int64_t work, std::int64_t alone_below, HostFunctionRef<void()> f) {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  if (work < alone_below && host_thread_count() >= 2 && !omp_in_parallel() &&
      host_pool_threads_sleep()) {
    std::exception_ptr error;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) {
        try {
          f();
        } catch (...) {
          error = std::current_exception();
        }
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
#endif
  (void)work;
  (void)alone_below;
  f();
}

std::int64_t host_thread_count() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return std::max(1, omp_get_max_threads());
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
  return std::max(1, tbb::this_task_arena::max_concurrency());
#else
  return 1;
#endif
}

void host_parallel_run(std::int64_t blocks, HostFunctionRef<void(std::int64_t)> f) {
  if (blocks <= 0) return;
  thrust::for_each_n(host_policy(), thrust::counting_iterator<std::int64_t>(0), blocks, f);
}

void host_claim_parts(std::int64_t tasks, std::int64_t first, std::int64_t items,
                      HostFunctionRef<std::int64_t(std::int64_t)> size,
                      HostFunctionRef<void(std::int64_t, std::int64_t)> body) {
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

void host_adaptive_run(std::int64_t items, const HostSplit& split, HostWorkRecord* records,
                       HostFunctionRef<void(std::int64_t, std::int64_t)> body,
                       HostRegionCost& cost) {
  constexpr std::uint32_t kReprobe = 16;  // calls shared without a probe, then one probed
  // Work that takes this many region costs is always shared: whatever the record says of
  // parts slowed by shared bandwidth, a region then costs little, and staying alone on a
  // stale or disturbed record would cost up to (threads - 1) / threads of the time. Its time
  // is the larger of two measures, alone by the probe and each thread's share in a region: a
  // probe can flatter the work (3162x3162 `a.T + b`: 0.3 ns per element over the first rows,
  // 1.7 over the whole alone, on the 2-core Xeon VM), and the region's measure keeps it
  // shared then.
  constexpr double kAlwaysShare = 16.0;
  // The smallest claim of a shared region: 1/kClaimsPerThread of one thread's share, and at
  // least kMinClaimNs of work by the record. Each claim costs a compare-and-swap on a line
  // both threads write, two clock reads and an add to a shared counter; with a spinning pool,
  // where a region itself costs about 0.5 us, 1/32 of 10^4 elements (about 0.1 us of work per
  // claim) spent a third of the region's time on claims.
  constexpr std::int64_t kClaimsPerThread = 16;
  constexpr double kMinClaimNs = 1000.0;
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
  HostWorkRecord& work = records[host_work_size_class(items)];
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
  const auto share = [&](std::int64_t first, double per_item_ns) {
    const std::int64_t tasks = std::min(threads, parts_from(first));
    const auto worth_a_claim =
        per_item_ns > 0.0 ? static_cast<std::int64_t>(kMinClaimNs / per_item_ns) : 0;
    const std::int64_t grain =
        round_up(std::max(worth_a_claim, (items - first + threads * kClaimsPerThread - 1) /
                                             (threads * kClaimsPerThread)));
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
        const float shared_per_item = work.shared_ns.load(std::memory_order_relaxed);
        share(0, shared_per_item >= 0.0f ? shared_per_item : known);
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
  share(probe, alone_per_item);
}

}  // namespace tessera::detail
