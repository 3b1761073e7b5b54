// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file host_parallel.hpp
/// The host pool: the Thrust host policy and its thread count, loops over blocks on it, and
/// `host_adaptive_for`, which runs work of a known size on the calling thread alone when a
/// parallel region would cost more than it saves.
///
/// The scheduling itself (the pool's regions, claiming parts, probing and pricing) is compiled
/// once, in the library (src/backend/host/host_parallel.cpp); the templates here only hand it the
/// work through a HostFunctionRef. Each kernel then instantiates its loop and nothing else: no
/// parallel region, no scheduler copy per expression type (docs/architecture.md, "Build cost").

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include "tessera/config.hpp"

namespace tessera::detail {

/// A non-owning reference to a callable with the signature `R(A...)`, called through one
/// function pointer: how the host scheduler, compiled once in the library, calls a kernel's
/// loop. The callable must outlive the reference (every use below passes a caller's local).
template <class Signature>
class HostFunctionRef;

template <class R, class... A>
class HostFunctionRef<R(A...)> {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, HostFunctionRef> &&
           std::is_invocable_r_v<R, const F&, A...>) HostFunctionRef(const F& f)
  noexcept  // NOLINT(google-explicit-constructor): a view of f
      : object_(static_cast<const void*>(std::addressof(f))),
        call_([](const void* object, A... args) -> R {
          return (*static_cast<const F*>(object))(static_cast<A>(args)...);
        }) {}

  R operator()(A... args) const { return call_(object_, static_cast<A>(args)...); }

 private:
  const void* object_;
  R (*call_)(const void*, A...);
};

/// Threads the host policy runs on (1 on Thrust's serial system).
std::int64_t host_thread_count();

/// Runs `f(block)` for every block in [0, blocks) on the host pool (library code).
void host_parallel_run(std::int64_t blocks, HostFunctionRef<void(std::int64_t)> f);

/// Runs `f` on the calling thread, where `f` calls a library that opens OpenMP regions of its
/// own (OpenBLAS, inside LAPACK: hundreds per routine). When the pool's threads sleep between
/// regions (OMP_WAIT_POLICY=passive), each such region pays their wake-up, so for `work` below
/// `alone_below` `f` runs inside an active region of two threads, on its first: the library
/// sees omp_in_parallel() and stays on one thread, and the other sleeps once at the region's
/// end. Otherwise (spinning threads, one thread, already in a region, another host system)
/// `f` simply runs. An exception from `f` reaches the caller.
void host_run_library_call(std::int64_t work, std::int64_t alone_below, HostFunctionRef<void()> f);

/// Runs `f(block)` for every block in [0, blocks) on the host policy (inline for one block).
template <class F>
void host_parallel_for(std::int64_t blocks, const F& f) {
  if (blocks <= 0) return;
  if (blocks == 1) {
    f(std::int64_t{0});
    return;
  }
  host_parallel_run(blocks, f);
}

/// Nanoseconds on the steady clock.
inline std::int64_t host_clock_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Runs `body(begin, end)` over [first, items) on `tasks` tasks of the host pool, each claiming
/// parts [begin, begin + size(begin)) from one cursor until none is left, so that a late or
/// descheduled thread delays the region by the part it holds, never by a fixed share; the
/// calling thread then waits for the team, so that it reaches the region's join last (a thread
/// that reaches it first may sleep there, OMP_WAIT_POLICY=passive, and must then be woken).
void host_claim_parts(std::int64_t tasks, std::int64_t first, std::int64_t items,
                      HostFunctionRef<std::int64_t(std::int64_t)> size,
                      HostFunctionRef<void(std::int64_t, std::int64_t)> body);

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

/// host_adaptive_for's scheduler, compiled once (src/backend/host/host_parallel.cpp): `records` are
/// the work's HostWorkRecord per size class.
void host_adaptive_run(std::int64_t items, const HostSplit& split, HostWorkRecord* records,
                       HostFunctionRef<void(std::int64_t, std::int64_t)> body,
                       HostRegionCost& cost);

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
  if (items <= 0) return;
  const HostFunctionRef<void(std::int64_t, std::int64_t)> ref(body);
  if (items < split.min_items) {  // the calling thread alone, no clock read, no call into the pool
    ref(std::int64_t{0}, items);
    return;
  }
  host_adaptive_run(items, split, host_work_record<Key>, ref, cost);
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
