// SPDX-License-Identifier: BSD-3-Clause
// The host pool's adaptive split (host_adaptive_for, HostRegionCost): every item once, in
// aligned contiguous parts, on one thread or on all of them; the cost estimate's rules; and
// that no elementwise result or reduction changes with the thread count or the choice (the
// reduction's lanes fix its order, whatever vector width the loader picked).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "support/host_threads.hpp"
#include "tessera/expr/host_parallel.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using ts::detail::host_adaptive_for;
using ts::detail::HostRegionCost;
using ts::detail::HostSplit;

using tessera_test::with_host_threads;

int thread_number() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

bool in_parallel() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return omp_in_parallel() != 0;
#else
  return false;
#endif
}

// Busy work of about `ns` nanoseconds, so that a region pays (or plainly does not).
void spin_for(std::int64_t ns) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
  while (std::chrono::steady_clock::now() < until) {
  }
}

struct Part {
  std::int64_t begin;
  std::int64_t end;
  int thread;
  bool parallel;
};

// The parts host_adaptive_for hands out, checked to cover [0, items) once each.
template <class Key>
std::vector<Part> parts_of(std::int64_t items, const HostSplit& split, HostRegionCost& cost,
                           std::int64_t ns_per_item) {
  std::mutex mutex;
  std::vector<Part> parts;
  host_adaptive_for<Key>(
      items, split,
      [&](std::int64_t begin, std::int64_t end) {
        spin_for((end - begin) * ns_per_item);
        const std::lock_guard<std::mutex> lock(mutex);
        parts.push_back({begin, end, thread_number(), in_parallel()});
      },
      cost);
  std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return a.begin < b.begin; });
  std::int64_t next = 0;
  for (const Part& part : parts) {
    EXPECT_EQ(part.begin, next) << "parts must tile [0, " << items << ") in order";
    EXPECT_LT(part.begin, part.end) << "no empty part";
    EXPECT_EQ(part.begin % split.align, 0) << "part at " << part.begin << " is not aligned";
    next = part.end;
  }
  EXPECT_EQ(next, items);
  return parts;
}

struct CoverKey {};
struct CostlyKey {};
struct CheapKey {};
struct SmallKey {};

TEST(HostAdaptiveFor, CoversEveryItemOnceInAlignedPartsWhateverItChooses) {
  with_host_threads({1, 2, 3, 4}, [](int) {
    for (const std::int64_t items : {0, 1, 63, 64, 65, 1000, 8191, 8192, 10000, 100003}) {
      for (const HostSplit split : {HostSplit{1, 1, 1}, HostSplit{8192, 512, 64}}) {
        SCOPED_TRACE("items " + std::to_string(items));
        HostRegionCost free_regions(0);              // any measurable gain pays
        HostRegionCost dear_regions(1'000'000'000);  // nothing here pays
        parts_of<CoverKey>(items, split, free_regions, 1);
        parts_of<CoverKey>(items, split, dear_regions, 1);
      }
    }
  });
}

// The threads that ran parallel parts (every part of a region is parallel; the probe is not).
std::set<int> sharing_threads(const std::vector<Part>& parts) {
  std::set<int> seen;
  for (const Part& part : parts) {
    if (part.parallel) seen.insert(part.thread);
  }
  return seen;
}

// Shared work is claimed from a cursor by whichever thread is free, so which threads get parts
// depends on when each is scheduled: with more threads than this machine's two cores, one may
// not run before the work is gone. So the tests below ask for two threads at least, over tens
// of milliseconds of work, which any scheduler gives every runnable thread a share of.
TEST(HostAdaptiveFor, SharesCostlyWorkAmongThreads) {
#if TESSERA_HOST_SYSTEM != TESSERA_HOST_SYSTEM_OMP
  GTEST_SKIP() << "the host system is not OpenMP: its thread count is not set here";
#else
  with_host_threads({2, 3, 4}, [](int threads) {
    HostRegionCost cost(0);
    // 20 ms of work in 2000 items: far above any region's cost. The first call may probe
    // (unless an earlier thread count left this work's time per item); the second knows the
    // work pays and shares it at once.
    for (int call = 0; call < 2; ++call) {
      SCOPED_TRACE("call " + std::to_string(call));
      const auto parts = parts_of<CostlyKey>(2000, HostSplit{2, 10, 1}, cost, 10'000);
      const auto seen = sharing_threads(parts);
      EXPECT_GE(seen.size(), 2U) << "the work is shared";
      EXPECT_LE(seen.size(), static_cast<std::size_t>(threads));
      EXPECT_GE(parts.size(), static_cast<std::size_t>(threads)) << "parts enough for all";
      // Claims of at least 1/16 of a thread's share: a bounded number of calls.
      EXPECT_LE(parts.size(), static_cast<std::size_t>(16 * threads + 1));
      const bool probed = !parts.front().parallel;
      if (call == 1) {
        EXPECT_FALSE(probed) << "priced by the first call, shared at once";
      }
      for (std::size_t i = probed ? 1 : 0; i < parts.size(); ++i) {
        EXPECT_TRUE(parts[i].parallel) << "only the probe runs outside the region";
      }
    }
  });
#endif
}

struct LateKey {};

// A thread that stalls in its part delays the region by that part only: the calling thread
// claims the rest meanwhile. With one equal part per thread it would wait for the stalled
// thread's whole share instead. 2000 items of 5 us (10 ms), and a 30 ms stall in the first
// part another thread runs; the calling thread must end up with most of the items.
TEST(HostAdaptiveFor, AStalledThreadDelaysOnlyItsOwnPart) {
#if TESSERA_HOST_SYSTEM != TESSERA_HOST_SYSTEM_OMP
  GTEST_SKIP() << "the host system is not OpenMP: its thread count is not set here";
#else
  with_host_threads({2}, [](int) {
    HostRegionCost cost(0);
    std::mutex mutex;
    std::atomic<bool> stalled{false};
    std::int64_t caller_items = 0;
    host_adaptive_for<LateKey>(
        2000, HostSplit{2, 10, 1},
        [&](std::int64_t begin, std::int64_t end) {
          if (in_parallel() && thread_number() != 0 && !stalled.exchange(true)) {
            spin_for(30'000'000);
          }
          spin_for((end - begin) * 5'000);
          const std::lock_guard<std::mutex> lock(mutex);
          if (thread_number() == 0) caller_items += end - begin;
        },
        cost);
    // One equal part per thread would leave it 1005 (the probe and half the rest); claims of a
    // quarter of what remains leave the stalled thread 498 at most.
    EXPECT_GE(caller_items, 1400) << "the calling thread claimed the stalled thread's share";
  });
#endif
}

struct FlatteredKey {};

// A probe can flatter the work (the first rows of a transposed operand, in cache): work that
// a region has measured as large (16 region costs per thread or more) stays shared however
// cheap a later probe prices it. 10000 items of 2 us (20 ms); from the second call on, the
// first 100 items (the probe's) are free. Calls 2-16 share at once; call 17 probes again (one
// call in 16) and sees 0 ns per item; it and call 18 must still share. By the probe alone
// they would stay on one thread. The region cost is learned from the calls' own regions: on a
// machine too busy to run the second thread promptly it can grow past 1/16 of the work, and
// then the rule does not apply, so it is checked against the records as they stand.
TEST(HostAdaptiveFor, WorkARegionMeasuredAsLargeStaysSharedAfterAFlatteringProbe) {
#if TESSERA_HOST_SYSTEM != TESSERA_HOST_SYSTEM_OMP
  GTEST_SKIP() << "the host system is not OpenMP: its thread count is not set here";
#else
  with_host_threads({2}, [](int) {
    constexpr std::int64_t kItems = 10'000;
    const auto& record =
        ts::detail::host_work_record<FlatteredKey>[ts::detail::host_work_size_class(kItems)];
    HostRegionCost cost(100'000);  // 100 us
    int checked = 0;
    for (int call = 1; call <= 18; ++call) {
      // The rule's premise: each thread's share, by the region's record, is large.
      const double share_ns = static_cast<double>(record.shared_ns.load()) * kItems / 2.0;
      const bool large = share_ns > 16.0 * static_cast<double>(cost.estimate());
      std::atomic<bool> shared{false};
      host_adaptive_for<FlatteredKey>(
          kItems, HostSplit{2, 100, 1},
          [&](std::int64_t begin, std::int64_t end) {
            if (in_parallel()) shared = true;
            const std::int64_t free_end = call > 1 ? std::min<std::int64_t>(end, 100) : begin;
            spin_for((end - std::max(begin, free_end)) * 2'000);
          },
          cost);
      if (call >= 17 && large) {
        ++checked;
        EXPECT_TRUE(shared) << "call " << call << ": " << share_ns << " ns per thread, region "
                            << cost.estimate() << " ns";
      }
    }
    RecordProperty("calls_checked", checked);
  });
#endif
}

TEST(HostAdaptiveFor, KeepsWorkCheaperThanARegionOnTheCallingThread) {
  with_host_threads({2, 4}, [](int) {
    HostRegionCost cost(1'000'000'000);     // a region costs 1 s
    for (int call = 0; call < 3; ++call) {  // probed on the first call, then priced from it
      const auto parts = parts_of<CheapKey>(100000, HostSplit{2, 1000, 1}, cost, 0);
      for (const Part& part : parts) {
        EXPECT_FALSE(part.parallel);
        EXPECT_EQ(part.thread, 0);
      }
      EXPECT_LE(parts.size(), 2U) << "a probe and the rest at most";
    }
  });
}

TEST(HostAdaptiveFor, BelowTheMinimumRunsWholeWithoutAProbe) {
  with_host_threads({2}, [](int) {
    HostRegionCost cost(0);
    const auto parts = parts_of<SmallKey>(8191, HostSplit{8192, 512, 64}, cost, 10);
    ASSERT_EQ(parts.size(), 1U);
    EXPECT_FALSE(parts[0].parallel);
    EXPECT_EQ(cost.estimate(), 0) << "no region ran, nothing learned";
  });
}

struct FreshKey {};

// Work whose cost depends on its data (HostSplit::fresh): each call is priced by its own probe,
// so costly data after cheap data is shared, and cheap data after costly stays alone. Priced
// from the record of the earlier call instead, the costly call would stay on one thread.
// The margins are wide, so that a sanitizer's slower bookkeeping or a busy machine cannot
// flip the choice: the cheap probe (100 items of bookkeeping only) stays alone unless it
// takes over 250 us; the costly call saves 15 ms on two threads against a 5 ms region.
TEST(HostAdaptiveFor, FreshWorkIsPricedByItsOwnProbe) {
#if TESSERA_HOST_SYSTEM != TESSERA_HOST_SYSTEM_OMP
  GTEST_SKIP() << "the host system is not OpenMP: its thread count is not set here";
#else
  with_host_threads({2, 4}, [](int threads) {
    const HostSplit split{2, 100, 1, true};  // probes of 100 items
    for (int round = 0; round < 2; ++round) {
      HostRegionCost cost(5'000'000);  // a region costs 5 ms
      const auto cheap = parts_of<FreshKey>(4000, split, cost, 0);
      for (const Part& part : cheap) EXPECT_FALSE(part.parallel) << "cheap data, round " << round;
      // 4000 items of 10 us: 40 ms alone, 20 ms on each of two threads.
      const auto costly = parts_of<FreshKey>(4000, split, cost, 10'000);
      ASSERT_GE(costly.size(), 3U) << "a probe, then parts";
      EXPECT_FALSE(costly.front().parallel) << "the probe runs on the calling thread first";
      const auto seen = sharing_threads(costly);
      EXPECT_GE(seen.size(), 2U) << "costly data, round " << round << ", " << threads << " threads";
    }
  });
#endif
}

TEST(HostAdaptiveFor, SizeClassesAreEighthPowers) {
  using ts::detail::host_work_size_class;
  EXPECT_EQ(host_work_size_class(1), 0);
  EXPECT_EQ(host_work_size_class(7), 0);
  EXPECT_EQ(host_work_size_class(8), 1);
  EXPECT_EQ(host_work_size_class(63), 1);
  EXPECT_EQ(host_work_size_class(64), 2);
  EXPECT_EQ(host_work_size_class(10'000), 4);
  EXPECT_EQ(host_work_size_class(10'000'000), 7);
  EXPECT_EQ(host_work_size_class(std::numeric_limits<std::int64_t>::max()),
            ts::detail::kHostWorkSizeClasses - 1);
}

struct SizedKey {};

// One kind of work keeps a record per size class: a small call's cheap probe (its data in
// cache) does not price a large call of the same work, which probes for itself and shares.
// Priced from the small call's record, the large one would stay on one thread (nearly free by
// that record, against a 5 ms region). Wide margins, as in FreshWorkIsPricedByItsOwnProbe:
// 40 ms alone, 20 ms per part on two threads.
TEST(HostAdaptiveFor, SmallCallsDoNotPriceLargeOnes) {
#if TESSERA_HOST_SYSTEM != TESSERA_HOST_SYSTEM_OMP
  GTEST_SKIP() << "the host system is not OpenMP: its thread count is not set here";
#else
  with_host_threads({2, 4}, [](int threads) {
    const HostSplit split{2, 100, 1};
    HostRegionCost cost(5'000'000);  // a region costs 5 ms
    for (int call = 0; call < 2; ++call) {
      const auto small = parts_of<SizedKey>(200, split, cost, 0);
      for (const Part& part : small) EXPECT_FALSE(part.parallel) << "small, call " << call;
    }
    const auto large = parts_of<SizedKey>(40'000, split, cost, 1'000);
    EXPECT_GE(sharing_threads(large).size(), 2U)
        << "the large call is shared, " << threads << " threads";
  });
#endif
}

TEST(HostRegionCost, SamplesMoveTheEstimateAQuarterAndAreCapped) {
  HostRegionCost cost;
  EXPECT_EQ(cost.estimate(), 0);
  cost.record(1'000'000'000);  // capped at 4 * 0 + 1 us: the pool's start-up is not its cost
  EXPECT_EQ(cost.estimate(), 250);
  cost.record(250 + 400);
  EXPECT_EQ(cost.estimate(), 350);
  cost.record(-5);  // a region faster than its estimate: 0
  EXPECT_EQ(cost.estimate(), 350 - 350 / 4);
  HostRegionCost known(40'000);
  known.record(1'000'000);  // capped at 4 * 40 us + 1 us
  EXPECT_EQ(known.estimate(), 40'000 + (161'000 - 40'000) / 4);
}

TEST(HostRegionCost, RetriesOnceDeclinedGainsAddUpToThirtyTwoPrices) {
  HostRegionCost cost(1000);
  int declines = 0;
  while (!cost.retry_after_decline(10.0, 0.0)) ++declines;  // the price: the region cost
  EXPECT_EQ(declines, 32 * 1000 / 10 - 1);
  EXPECT_FALSE(cost.retry_after_decline(10.0, 0.0)) << "the sum starts again after a retry";
  HostRegionCost same(1000);
  declines = 0;
  while (!same.retry_after_decline(10.0, 5000.0)) ++declines;  // a dearer retry: rarer
  EXPECT_EQ(declines, 32 * 5000 / 10 - 1);
}

// ---- results do not depend on the split ----------------------------------------------------

std::vector<float> random_floats(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = dist(rng);
  return v;
}

TEST(HostAdaptiveFor, ElementwiseResultsAreTheSameBitsAtEveryThreadCount) {
  for (const std::int64_t n : {8191, 8192, 10000, 65600, 1000003}) {
    const auto a = random_floats(n, 1);
    const auto b = random_floats(n, 2);
    std::vector<float> expected(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      expected[i] = a[i] * b[i] + 2.0f * a[i] - std::sqrt(std::fabs(b[i]));
    }
    const auto ta = ts::Tensor<float>::from_vector(a, {n});
    const auto tb = ts::Tensor<float>::from_vector(b, {n});
    with_host_threads({1, 2, 3, 4}, [&](int) {
      for (int call = 0; call < 3; ++call) {  // the probe's call and the priced ones
        const ts::Tensor<float> c = ta * tb + 2.0f * ta - ts::sqrt(ts::abs(tb));
        const auto got = c.to_vector();
        ASSERT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)), 0)
            << "n " << n;
        // Strided: the row walk, over a transposed view of the same values.
        const std::int64_t rows = n / 100;
        const auto x = ts::Tensor<float>::from_vector(
            std::vector<float>(a.begin(), a.begin() + rows * 100), {100, rows});
        const ts::Tensor<float> t = x.transpose(0, 1) * 3.0f;
        const auto tv = t.to_vector();
        for (std::int64_t i = 0; i < rows; ++i) {
          for (std::int64_t j = 0; j < 100; ++j) {
            ASSERT_EQ(tv[static_cast<std::size_t>(i * 100 + j)],
                      a[static_cast<std::size_t>(j * rows + i)] * 3.0f);
          }
        }
      }
    });
  }
}

template <class T>
std::vector<T> random_values(std::int64_t n, unsigned seed) {
  const auto floats = random_floats(n, seed);
  return std::vector<T>(floats.begin(), floats.end());
}

// Elementwise loops are built per vector extension (TESSERA_ELEMENTWISE_CLONES); each element
// must still be the separately rounded a * b + c (volatile here), never a fused multiply-add,
// which an FMA-capable clone would allow. Contiguous operands (write_span<ReadLinear>), a row
// broadcast over unit-step rows (write_span<ReadUnitRow>) and a transposed operand
// (write_masked_row).
template <class T>
void expect_rounded_multiply_add() {
  const std::int64_t rows = 37;
  const std::int64_t cols = 1000;
  const std::int64_t n = rows * cols;
  const auto a = random_values<T>(n, 5);
  auto b = random_values<T>(n, 6);
  for (auto& x : b) x *= static_cast<T>(1.0 + 1e-6);  // products with every bit in play
  const auto c = random_values<T>(cols, 7);
  const auto at = [&](std::int64_t i, std::int64_t j) {  // a read transposed: (cols, rows)
    return a[static_cast<std::size_t>(j * rows + i)];
  };
  const auto ta = ts::Tensor<T>::from_vector(a, {n});
  const auto tb = ts::Tensor<T>::from_vector(b, {n});
  const auto tc = ts::Tensor<T>::from_vector(c, {cols});
  const auto a2 = ta.reshape({rows, cols});
  const auto b2 = tb.reshape({rows, cols});
  const auto aT = ta.reshape({cols, rows}).transpose(0, 1);
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  with_host_threads({1, 2}, [&](int) {
    const auto linear = ts::Tensor<T>(ta * tb + ta).to_vector();
    const auto unit_rows = ts::Tensor<T>(a2 * b2 + tc).to_vector();
    const auto masked_rows = ts::Tensor<T>(aT * b2 + b2).to_vector();
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) {
        const auto k = static_cast<std::size_t>(i * cols + j);
        const volatile T product = a[k] * b[k];
        const volatile T transposed_product = at(i, j) * b[k];
        ASSERT_EQ(std::bit_cast<Bits>(linear[k]), std::bit_cast<Bits>(T(product + a[k])))
            << "contiguous, element " << k;
        ASSERT_EQ(std::bit_cast<Bits>(unit_rows[k]),
                  std::bit_cast<Bits>(T(product + c[static_cast<std::size_t>(j)])))
            << "row broadcast, element " << k;
        ASSERT_EQ(std::bit_cast<Bits>(masked_rows[k]),
                  std::bit_cast<Bits>(T(transposed_product + b[k])))
            << "transposed operand, element " << k;
      }
    }
  });
}

TEST(HostExecutor, ElementwiseLoopsRoundEveryOperationAsWritten) {
  expect_rounded_multiply_add<float>();
  expect_rounded_multiply_add<double>();
}

// nonzero and searchsorted run their blocks through host_adaptive_blocks, alone or shared
// call by call: whatever each call chose, at 1-4 threads, every answer is the reference loop's.
TEST(HostAdaptiveBlocks, NonzeroAndSearchsortedAnswersDoNotDependOnTheSplit) {
  const std::int64_t n = 5 * 65536 + 7;  // five nonzero blocks and a partial one
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = uniform(rng);
  const auto tx = ts::Tensor<float>::from_vector(x, {n});
  std::vector<float> values(20011);
  for (auto& v : values) v = uniform(rng);
  const auto tv =
      ts::Tensor<float>::from_vector(values, {static_cast<std::int64_t>(values.size())});
  with_host_threads({1, 2, 3, 4}, [&](int threads) {
    for (const float density : {0.001f, 0.5f, 0.99f}) {
      std::vector<std::int64_t> expected;
      for (std::int64_t i = 0; i < n; ++i) {
        if (x[static_cast<std::size_t>(i)] < density) expected.push_back(i);
      }
      for (int call = 0; call < 3; ++call) {
        const auto got = ts::eval(tx < density).nonzero();
        ASSERT_EQ(got.shape(), ts::Shape({static_cast<std::int64_t>(expected.size()), 1}))
            << threads << " threads, density " << density;
        ASSERT_EQ(got.to_vector(), expected) << threads << " threads, density " << density;
      }
    }
    for (const std::int64_t length : {10, 100000}) {
      std::vector<float> sequence(static_cast<std::size_t>(length));
      for (auto& v : sequence) v = uniform(rng);
      std::sort(sequence.begin(), sequence.end());
      const auto ts_sequence = ts::Tensor<float>::from_vector(sequence, {length});
      for (const bool right : {false, true}) {
        std::vector<std::int64_t> expected;
        for (const float v : values) {
          const auto at = right ? std::upper_bound(sequence.begin(), sequence.end(), v)
                                : std::lower_bound(sequence.begin(), sequence.end(), v);
          expected.push_back(at - sequence.begin());
        }
        for (int call = 0; call < 3; ++call) {
          ASSERT_EQ(ts_sequence.searchsorted(tv, {.right = right}).to_vector(), expected)
              << threads << " threads, length " << length << (right ? ", right" : ", left");
        }
      }
    }
  });
}

// The host reduction's order, spelled out: 16 lanes per block of 32768 elements (element i of
// a block to lane i % 16), the lanes folded in lane order, the blocks' partials in block order.
// Each product is rounded before it is added (volatile), as the kernel must: a fused
// multiply-add, which AVX-512 would allow, gives other bits.
template <class T>
double lane_order_sum(const std::vector<T>& a, const std::vector<T>& b) {
  constexpr std::size_t kBlock = 32768;
  constexpr std::size_t kLanes = 16;
  double total = 0.0;
  for (std::size_t begin = 0; begin < a.size(); begin += kBlock) {
    const std::size_t end = std::min(a.size(), begin + kBlock);
    double lanes[kLanes] = {};
    for (std::size_t i = begin; i < end; ++i) {
      const volatile T product = a[i] * b[i];
      lanes[(i - begin) % kLanes] += static_cast<double>(product);
    }
    double block = 0.0;
    for (const double lane : lanes) block += lane;
    total += block;
  }
  return total;
}

template <class T>
void expect_lane_order(std::int64_t n) {
  const auto a = random_values<T>(n, 3);
  auto b = random_values<T>(n, 4);
  if constexpr (std::is_same_v<T, double>) {
    for (auto& x : b) x *= 1.0 + 1e-9;  // products with every bit of a double in play
  }
  const T expected = static_cast<T>(lane_order_sum(a, b));
  const auto ta = ts::Tensor<T>::from_vector(a, {n});
  const auto tb = ts::Tensor<T>::from_vector(b, {n});
  with_host_threads({1, 2, 3, 4}, [&](int) {
    for (int call = 0; call < 3; ++call) {
      const T got = ts::sum(ta * tb);
      using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
      EXPECT_EQ(std::bit_cast<Bits>(got), std::bit_cast<Bits>(expected))
          << "n " << n << ": " << got << " against " << expected;
    }
  });
}

TEST(HostAdaptiveFor, ReductionsKeepTheLaneOrderAtEveryThreadCount) {
  for (const std::int64_t n : {1000, 32768, 3 * 32768 + 5, 1000003}) {
    expect_lane_order<float>(n);
    expect_lane_order<double>(n);  // double sums show any other order in their last bits
  }
}

}  // namespace
