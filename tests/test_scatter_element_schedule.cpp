// SPDX-License-Identifier: BSD-3-Clause
// The host scatter's element schedule (a head and filers per round, every round in one parallel
// region; detail/scatter_host_elements.hpp) against the sequential loop, bit for bit: float sums
// in index order whatever the thread count, duplicates across the output parts' edges, bad rows
// wherever the threads meet them, outputs of every size, and nested parallel regions (the
// reference loop is tests/support/scatter_reference.hpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/scatter_reference.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using ts::Tensor;
using namespace tessera_test::scatter;
using tessera_test::with_host_threads;

template <class C>
class ScatterFloat : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ScatterFloat, tessera_test::FloatCases, tessera_test::CaseName);

// The element schedule for many rows, at 1 to 4 host threads (as many output parts): rows that
// are no multiple of anything, duplicates on both sides of power-of-two edges and of the
// middle of the output (the edge of two parts), and bad rows late in the filers' blocks keep
// the sequential loop's bits and the untouched-on-error rule.
TYPED_TEST(ScatterFloat, ManyElementRowsKeepIndexOrder) {
  using T = typename TypeParam::value_type;
  const auto device = this->device();
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  const std::int64_t n = (std::int64_t{1} << 17) + 5;  // 4 buckets of 2^15 and a partial one
  const std::int64_t rows =
      (std::int64_t{1} << 18) + 77;  // 8 blocks of 2^15 rows and a partial one
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  for (auto& i : idx) {
    const auto edge = std::uniform_int_distribution<std::int64_t>(0, 5)(rng) << 15;
    i = rng() % 2 == 0
            ? std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng)
            : std::clamp<std::int64_t>(edge - 1 + static_cast<std::int64_t>(rng() % 2), 0, n - 1);
  }
  std::vector<T> values(static_cast<std::size_t>(n));
  std::vector<T> updates(static_cast<std::size_t>(rows));
  for (auto& v : values) v = static_cast<T>(normal(rng));
  for (auto& v : updates) v = static_cast<T>(normal(rng));
  idx[5] = n / 2 - 1;  // the two parts of two threads
  idx[7] = n / 3;      // and the edges of three
  idx[6] = n / 2;
  const ts::Shape shape{n};
  const auto t = Tensor<T>::from_vector(values, shape, device);
  const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1}, device);
  const auto u = Tensor<T>::from_vector(updates, {rows}, device);
  with_host_threads({1, 2, 3, 4}, [&] {
    const ts::ScatterOptions options{.deterministic = true};
    for (Op op : {Op::Sub, Op::Update}) {
      const auto expected = reference_scatter(op, values, shape, idx, 1, updates);
      EXPECT_TRUE(same_bits(call(op, t, indices, u, options).to_vector(), expected)) << op_name(op);
      auto in_place = t.clone();
      call_(op, in_place, indices, u, options);
      EXPECT_TRUE(same_bits(in_place.to_vector(), expected)) << op_name(op);
    }
    // One bad row near the end: in place nothing is written, the copying form raises too.
    auto late_bad = idx;
    late_bad[static_cast<std::size_t>(rows - 3)] = n;
    const auto late_indices = Tensor<std::int64_t>::from_vector(late_bad, {rows, 1}, device);
    auto in_place = t.clone();
    EXPECT_THROW(in_place.scatter_nd_sub_(late_indices, u, options), ts::IndexError);
    EXPECT_TRUE(same_bits(in_place.to_vector(), values));
    EXPECT_THROW((void)t.tensor_scatter_nd_sub(late_indices, u, options), ts::IndexError);
    // Ignore: bad rows all over the head and the tail are skipped.
    auto bad_idx = idx;
    for (std::size_t r = 63; r < bad_idx.size(); r += 4099) bad_idx[r] = r % 2 ? -1 : n + 7;
    const auto bad_indices = Tensor<std::int64_t>::from_vector(bad_idx, {rows, 1}, device);
    const auto skipped = reference_scatter(Op::Sub, values, shape, bad_idx, 1, updates);
    const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore,
                                    .deterministic = true};
    EXPECT_TRUE(same_bits(t.tensor_scatter_nd_sub(bad_indices, u, ignore).to_vector(), skipped));
    in_place.scatter_nd_sub_(bad_indices, u, ignore);
    EXPECT_TRUE(same_bits(in_place.to_vector(), skipped));
    // An output large next to its indices (checked before, not scattered into a copy).
    const std::int64_t few = (std::int64_t{1} << 16) + 9;
    std::vector<std::int64_t> wide_idx(idx.begin(), idx.begin() + few);
    for (auto& i : wide_idx) i *= 8;
    const ts::Shape wide{n * 8};
    std::vector<T> wide_values(static_cast<std::size_t>(n * 8), T(1));
    const std::vector<T> few_updates(updates.begin(), updates.begin() + few);
    auto wide_t = Tensor<T>::from_vector(wide_values, wide, device);
    const auto few_u = Tensor<T>::from_vector(few_updates, {few}, device);
    // Deterministic: a device's default atomics may round duplicate float sums differently.
    wide_t.scatter_nd_add_(Tensor<std::int64_t>::from_vector(wide_idx, {few, 1}, device), few_u,
                           options);
    EXPECT_TRUE(same_bits(wide_t.to_vector(),
                          reference_scatter(Op::Add, wide_values, wide, wide_idx, 1, few_updates)));
    wide_idx[static_cast<std::size_t>(few - 2)] = -1;
    const auto wide_before = wide_t.to_vector();
    EXPECT_THROW(wide_t.scatter_nd_add_(
                     Tensor<std::int64_t>::from_vector(wide_idx, {few, 1}, device), few_u),
                 ts::IndexError);
    EXPECT_TRUE(same_bits(wide_t.to_vector(), wide_before));
  });
}

// The element schedule (at 2, 3 and 4 host threads: as many output parts) on a 78 MB output with
// 1M rows, half of them into its last few elements, with strided updates (read through the
// updates' extents, not linearly) and wrapping uint8 sums: the sequential loop's result, and
// nothing written when a bad row is late in the last rows.
TEST(ScatterHost, ElementSchedulesOnLargeOutputsWithStridedUpdates) {
  std::mt19937_64 rng(21);
  const std::int64_t n = (std::int64_t{300} << 18) + 3;  // 2400 buckets of 2^15, a partial one
  const std::int64_t rows = (std::int64_t{1} << 20) + 1001;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  for (auto& i : idx) {
    // Half near the last element (the partial last bucket), half anywhere.
    i = rng() % 2 ? n - 1 - static_cast<std::int64_t>(rng() % 8)
                  : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
  }
  std::vector<std::uint8_t> values(static_cast<std::size_t>(n));
  for (auto& v : values) v = static_cast<std::uint8_t>(rng());
  std::vector<std::uint8_t> both(static_cast<std::size_t>(rows * 2));
  for (auto& v : both) v = static_cast<std::uint8_t>(rng());
  std::vector<std::uint8_t> updates(static_cast<std::size_t>(rows));  // column 1 of `both`
  for (std::int64_t r = 0; r < rows; ++r) {
    updates[static_cast<std::size_t>(r)] = both[static_cast<std::size_t>(r * 2 + 1)];
  }
  const ts::Shape shape{n};
  const auto u = Tensor<std::uint8_t>::from_vector(both, {rows, 2}).select(1, 1);
  ASSERT_FALSE(u.is_contiguous());
  const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1});
  const auto expected = reference_scatter(Op::Add, values, shape, idx, 1, updates);
  with_host_threads({2, 3, 4}, [&] {
    auto t = Tensor<std::uint8_t>::from_vector(values, shape);
    EXPECT_TRUE(same_bits(t.tensor_scatter_nd_add(indices, u).to_vector(), expected));
    t.scatter_nd_add_(indices, u);
    EXPECT_TRUE(same_bits(t.to_vector(), expected));
    auto late_bad = idx;
    late_bad[static_cast<std::size_t>(rows - 2)] = n;
    EXPECT_THROW(t.scatter_nd_add_(Tensor<std::int64_t>::from_vector(late_bad, {rows, 1}), u),
                 ts::IndexError);
    EXPECT_TRUE(same_bits(t.to_vector(), expected));
  });
}

// A float tensor of n normal values and n rows of normal updates (host), for the element-schedule
// tests: the values, the updates and both as tensors.
struct NormalFloatInputs {
  std::vector<float> values;
  std::vector<float> updates;
  Tensor<float> t;
  Tensor<float> u;
};

NormalFloatInputs normal_float_inputs(std::mt19937_64& rng, std::int64_t n, std::int64_t rows) {
  NormalFloatInputs in;
  in.values.resize(static_cast<std::size_t>(n));
  in.updates.resize(static_cast<std::size_t>(rows));
  std::normal_distribution<float> normal;
  for (auto& v : in.values) v = normal(rng);
  for (auto& v : in.updates) v = normal(rng);
  in.t = Tensor<float>::from_vector(in.values, {n});
  in.u = Tensor<float>::from_vector(in.updates, {rows});
  return in;
}

// Host threads scatter many element rows in rounds, the head claiming blocks of rows from the
// front of each round and the filers from the back, so which thread meets a bad row depends on
// timing (one thread: the head alone, round after round). Whatever the timing, the
// error names the lowest bad row (bad rows at the front, the middle and the back of a round;
// several in the back, which the filers walk last block first), nothing is written in
// place, and with Ignore every other row still lands in index order.
TEST(ScatterHost, ElementScheduleNamesTheLowestBadRowWhereverTheThreadsMeet) {
  std::mt19937_64 rng(5);
  const std::int64_t n = (std::int64_t{1} << 17) + 3;
  const std::int64_t round = std::int64_t{1} << 19;
  const std::int64_t rows = 2 * round + 333;  // two full rounds and a partial one
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  for (auto& i : idx) i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
  const auto in = normal_float_inputs(rng, n, rows);
  const ts::Shape shape{n};
  // Each case: bad positions; the first is the lowest.
  const std::vector<std::vector<std::int64_t>> cases = {
      {round + 17, round + round / 2, 2 * round - 5},  // front, middle and back of round 1
      {round + round / 2 + 1, 2 * round - 9000, 2 * round - 100},  // middle and back
      {2 * round - 20000, 2 * round - 9000, 2 * round - 3},        // back only, three blocks
      {rows - 7, rows - 2},                                        // the partial last round
  };
  with_host_threads({1, 2, 3, 4}, [&] {
    for (const auto& bad : cases) {
      auto bad_idx = idx;
      for (std::size_t b = 0; b < bad.size(); ++b) {
        bad_idx[static_cast<std::size_t>(bad[b])] = b % 2 ? -1 : n;
      }
      const std::string expected = "indices[" + std::to_string(bad[0]) + "] = [" +
                                   std::to_string(n) + "] does not index into shape [" +
                                   std::to_string(n) + "]";
      const auto bad_indices = Tensor<std::int64_t>::from_vector(bad_idx, {rows, 1});
      for (int repeat = 0; repeat < 3; ++repeat) {  // other timings, other meeting points
        auto in_place = in.t.clone();
        try {
          in_place.scatter_nd_sub_(bad_indices, in.u);
          ADD_FAILURE() << "no IndexError for the lowest bad row " << bad[0];
        } catch (const ts::IndexError& e) {
          EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
        EXPECT_TRUE(same_bits(in_place.to_vector(), in.values));
        try {
          (void)in.t.tensor_scatter_nd_sub(bad_indices, in.u);
          ADD_FAILURE() << "no IndexError for the lowest bad row " << bad[0];
        } catch (const ts::IndexError& e) {
          EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
      }
      const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore};
      EXPECT_TRUE(same_bits(in.t.tensor_scatter_nd_sub(bad_indices, in.u, ignore).to_vector(),
                            reference_scatter(Op::Sub, in.values, shape, bad_idx, 1, in.updates)));
    }
  });
}

#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
// The element schedule's rounds hand over between its tasks without a region each, so a task
// may wait for another's work. Called from the threads of an outer parallel region, its tasks
// run one after another on one thread (nested regions off) or on more threads than cores
// (nested regions on): the sums, the lowest bad row and the untouched-on-error rule hold, and
// nothing waits forever (a hang here is a deadlock).
TEST(ScatterHost, ElementScheduleInsideAnOuterParallelRegion) {
  std::mt19937_64 rng(17);
  const std::int64_t n = (std::int64_t{1} << 15) + 1;
  const std::int64_t rows = 3 * (std::int64_t{1} << 19) + 11;  // three full rounds and a bit
  const auto in = normal_float_inputs(rng, n, rows);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  for (auto& i : idx) i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
  auto bad_idx = idx;
  const std::int64_t bad_row = 2 * (std::int64_t{1} << 19) + 4321;  // in the third round
  bad_idx[static_cast<std::size_t>(bad_row)] = n;
  bad_idx[static_cast<std::size_t>(rows - 2)] = -1;
  const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1});
  const auto bad_indices = Tensor<std::int64_t>::from_vector(bad_idx, {rows, 1});
  const auto expected = reference_scatter(Op::Add, in.values, {n}, idx, 1, in.updates);
  const int levels_before = omp_get_max_active_levels();
  for (const int levels : {1, 2}) {
    omp_set_max_active_levels(levels);
    SCOPED_TRACE("active levels " + std::to_string(levels));
    std::vector<int> sums_ok(2, 0);
    std::vector<int> lowest_named(2, 0);
    std::vector<int> untouched(2, 0);
#pragma omp parallel num_threads(2)
    {
      const auto me = static_cast<std::size_t>(omp_get_thread_num());
      omp_set_num_threads(2);  // the inner pool of this thread
      sums_ok[me] = same_bits(in.t.tensor_scatter_nd_add(indices, in.u).to_vector(), expected);
      auto in_place = in.t.clone();
      try {
        in_place.scatter_nd_add_(bad_indices, in.u);
      } catch (const ts::IndexError& e) {
        lowest_named[me] = std::string(e.what()).find("indices[" + std::to_string(bad_row) + "]") !=
                           std::string::npos;
      }
      untouched[me] = same_bits(in_place.to_vector(), in.values);
    }
    for (std::size_t t = 0; t < 2; ++t) {
      EXPECT_TRUE(sums_ok[t]) << "outer thread " << t;
      EXPECT_TRUE(lowest_named[t]) << "outer thread " << t;
      EXPECT_TRUE(untouched[t]) << "outer thread " << t;
    }
  }
  omp_set_max_active_levels(levels_before);
}
#endif

// Every row of the element schedule in the first or the last output part: one list of each
// block takes every filed row (up to the whole round, when the filers claim it all) and the
// others none; the sums keep index order.
TEST(ScatterHost, ElementScheduleWithEveryRowInOnePart) {
  std::mt19937_64 rng(8);
  const std::int64_t n = std::int64_t{1} << 16;
  const std::int64_t rows = (std::int64_t{1} << 19) + 4097;  // a full round and a partial one
  const auto in = normal_float_inputs(rng, n, rows);
  const ts::Shape shape{n};
  with_host_threads({1, 2, 3, 4}, [&] {
    for (const bool upper : {false, true}) {
      std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
      for (auto& i : idx) {
        const auto near = static_cast<std::int64_t>(rng() % 4);
        i = upper ? n - 1 - near : near;
      }
      const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1});
      const auto expected = reference_scatter(Op::Add, in.values, shape, idx, 1, in.updates);
      EXPECT_TRUE(same_bits(in.t.tensor_scatter_nd_add(indices, in.u).to_vector(), expected))
          << upper;
      auto in_place = in.t.clone();
      in_place.scatter_nd_add_(indices, in.u);
      EXPECT_TRUE(same_bits(in_place.to_vector(), expected)) << upper;
    }
  });
}

// Many element rows into outputs smaller than the thread count (parts without elements): the
// reference loop's sums; an output without elements never reaches the schedule.
TEST(ScatterHost, ElementScheduleOnTinyAndEmptyOutputs) {
  std::mt19937_64 rng(31);
  const std::int64_t rows = (std::int64_t{1} << 16) + 3;
  with_host_threads({1, 2, 4}, [&] {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{3}}) {
      const auto in = normal_float_inputs(rng, n, rows);
      std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
      for (auto& i : idx) i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
      const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1});
      const auto expected = reference_scatter(Op::Add, in.values, {n}, idx, 1, in.updates);
      EXPECT_TRUE(same_bits(in.t.tensor_scatter_nd_add(indices, in.u).to_vector(), expected)) << n;
      auto in_place = in.t.clone();
      in_place.scatter_nd_add_(indices, in.u);
      EXPECT_TRUE(same_bits(in_place.to_vector(), expected)) << n;
    }
    // No element at all: refused before any schedule runs, as TensorFlow refuses it, even
    // with Ignore.
    const auto empty = Tensor<float>::zeros({0});
    const auto zeros = Tensor<std::int64_t>::zeros({rows, 1});
    const auto u = Tensor<float>::ones({rows});
    const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore};
    EXPECT_THROW((void)empty.tensor_scatter_nd_add(zeros, u), ts::ShapeError);
    EXPECT_THROW((void)empty.tensor_scatter_nd_add(zeros, u, ignore), ts::ShapeError);
    auto target = empty.clone();
    EXPECT_THROW(target.scatter_nd_add_(zeros, u, ignore), ts::ShapeError);
  });
}

// A thread that waits too long for another (its core taken by other work) goes on alone from
// the next round nobody has started: with the threshold at 0 every run takes that path at its
// first wait, and the bits stay the sequential loop's, for outputs scattered into a copy and in
// place, with a bad row after the hand-over.
TEST(ScatterHost, ElementScheduleGoingOnAloneKeepsIndexOrder) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  const std::int64_t rows = 3 * (std::int64_t{1} << 19) + 11;  // four rounds
  struct Restore {
    ~Restore() { ts::detail::scatter_stalled_ns = ts::detail::kScatterStalledNs; }
  } restore;
  ts::detail::scatter_stalled_ns = 0;
  const std::int64_t alone_before = ts::detail::scatter_alone_count.load();
  for (const std::int64_t n : {(std::int64_t{1} << 16) + 3, std::int64_t{1} << 21}) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
    for (auto& i : idx) i = std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng);
    std::vector<float> values(static_cast<std::size_t>(n));
    std::vector<float> updates(static_cast<std::size_t>(rows));
    for (auto& v : values) v = static_cast<float>(normal(rng));
    for (auto& v : updates) v = static_cast<float>(normal(rng));
    const ts::Shape shape{n};
    const auto t = Tensor<float>::from_vector(values, shape);
    const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1});
    const auto u = Tensor<float>::from_vector(updates, {rows});
    const auto expected = reference_scatter(Op::Sub, values, shape, idx, 1, updates);
    auto late_bad = idx;
    late_bad[static_cast<std::size_t>(rows - 5)] = -1;
    const auto late_indices = Tensor<std::int64_t>::from_vector(late_bad, {rows, 1});
    with_host_threads({2, 3}, [&] {
      for (int run = 0; run < 3; ++run) {
        EXPECT_TRUE(same_bits(t.tensor_scatter_nd_sub(indices, u).to_vector(), expected)) << n;
        auto in_place = t.clone();
        in_place.scatter_nd_sub_(indices, u);
        EXPECT_TRUE(same_bits(in_place.to_vector(), expected)) << n;
        auto untouched = t.clone();
        EXPECT_THROW(untouched.scatter_nd_sub_(late_indices, u), ts::IndexError);
        EXPECT_TRUE(same_bits(untouched.to_vector(), values)) << n;
      }
    });
  }
  EXPECT_GT(ts::detail::scatter_alone_count.load(), alone_before);
}

}  // namespace
