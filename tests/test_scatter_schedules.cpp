// SPDX-License-Identifier: BSD-3-Clause
// The host scatter's slice schedules (ranges per thread; slices in output order) against the
// sequential loop, bit for bit: float sums in index order whatever the thread count, duplicates
// across every schedule's seams, bad rows late in a schedule, strided updates (the reference
// loop is tests/support/scatter_reference.hpp). The element schedule's tests are in
// test_scatter_element_schedule.cpp.

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

template <class C>
class ScatterFloat : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ScatterFloat, tessera_test::FloatCases, tessera_test::CaseName);

TYPED_TEST(ScatterFloat, ParallelEqualsSequentialLoopBitForBit) {
  using T = typename TypeParam::value_type;
  const auto device = this->device();
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal;
  // 1 << 17 elements: several buckets of the element schedule; rows of 33: range split. A
  // device's deterministic path (a stable sort by index, then segments) has no schedule that
  // depends on the size or the run: fewer rows and runs there.
  const bool host = device.is_cpu();
  for (const ts::Shape& shape : {ts::Shape{1 << 17}, ts::Shape{1024, 33}}) {
    const std::int64_t rows = shape.size() == 1 ? (host ? 1 << 20 : 1 << 17) : 20000;
    std::vector<std::int64_t> idx;
    for (std::int64_t i = 0; i < rows; ++i) {
      idx.push_back(std::uniform_int_distribution<std::int64_t>(0, shape[0] - 1)(rng));
    }
    const std::int64_t slice = shape.numel() / shape[0];
    std::vector<T> values(static_cast<std::size_t>(shape.numel()));
    std::vector<T> updates(static_cast<std::size_t>(rows * slice));
    for (auto& v : values) v = static_cast<T>(normal(rng));
    for (auto& v : updates) v = static_cast<T>(normal(rng));
    const auto t = Tensor<T>::from_vector(values, shape, device);
    const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1}, device);
    ts::Shape ushape{rows};
    if (shape.size() == 2) ushape = ts::Shape{rows, shape[1]};
    const auto u = Tensor<T>::from_vector(updates, ushape, device);
    const ts::ScatterOptions options{.deterministic = true};
    for (Op op : {Op::Sub, Op::Add, Op::Update, Op::Max}) {
      const auto expected = reference_scatter(op, values, shape, idx, 1, updates);
      for (int run = 0; run < (host ? 5 : 2); ++run) {
        EXPECT_TRUE(same_bits(call(op, t, indices, u, options).to_vector(), expected))
            << op_name(op) << " run " << run << " shape " << shape.str();
      }
      auto in_place = t.clone();
      call_(op, in_place, indices, u, options);
      EXPECT_TRUE(same_bits(in_place.to_vector(), expected)) << op_name(op);
    }
    // Ignore: every 1000th row out of bounds (negative or past the end) is skipped.
    auto bad_idx = idx;
    for (std::size_t r = 999; r < bad_idx.size(); r += 1000) {
      bad_idx[r] = r % 2000 == 999 ? -1 - bad_idx[r] : shape[0] + bad_idx[r];
    }
    const auto bad_indices = Tensor<std::int64_t>::from_vector(bad_idx, {rows, 1}, device);
    const auto skipped = reference_scatter(Op::Sub, values, shape, bad_idx, 1, updates);
    const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore,
                                    .deterministic = true};
    EXPECT_TRUE(same_bits(t.tensor_scatter_nd_sub(bad_indices, u, ignore).to_vector(), skipped));
    auto in_place = t.clone();
    in_place.scatter_nd_sub_(bad_indices, u, ignore);
    EXPECT_TRUE(same_bits(in_place.to_vector(), skipped));
    EXPECT_THROW(in_place.scatter_nd_sub_(bad_indices, u), ts::IndexError);
    EXPECT_TRUE(same_bits(in_place.to_vector(), skipped));
  }
}

using tessera_test::with_host_threads;

// The slice schedule at 1 to 4 host threads (as many output ranges, split by elements, so slices
// of 33 straddle the ranges' edges), which asks for each row's slice some rows ahead: random
// rows with duplicates, runs of consecutive slices (which it does not ask for) with repeats,
// the first and last slices, strided updates, and bad rows (skipped with Ignore, raised and
// nothing written otherwise) keep the sequential loop's bits.
template <class T>
void expect_slice_schedule_keeps_index_order() {
  std::mt19937_64 rng(31);
  std::normal_distribution<double> normal;
  const std::int64_t slices = 3001;
  const std::int64_t width = 33;
  const std::int64_t rows = 20011;
  std::vector<std::int64_t> idx;
  while (static_cast<std::int64_t>(idx.size()) < rows) {
    if (rng() % 4 == 0) {  // a run of consecutive slices, sometimes one repeated
      std::int64_t at = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(slices));
      for (int r = 0; r < 40 && at < slices; ++r) {
        idx.push_back(at);
        at += rng() % 8 == 0 ? 0 : 1;
      }
    } else {
      idx.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(slices)));
    }
  }
  idx.resize(static_cast<std::size_t>(rows));
  idx[0] = 0;
  idx[1] = slices - 1;
  const ts::Shape shape{slices, width};
  std::vector<T> values(static_cast<std::size_t>(slices * width));
  for (auto& v : values) v = static_cast<T>(normal(rng));
  // The updates are the transpose of a (width, rows) tensor: read through their strides.
  std::vector<T> columns(static_cast<std::size_t>(width * rows));
  for (auto& v : columns) v = static_cast<T>(normal(rng));
  std::vector<T> updates(static_cast<std::size_t>(rows * width));
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t e = 0; e < width; ++e) {
      updates[static_cast<std::size_t>(r * width + e)] =
          columns[static_cast<std::size_t>(e * rows + r)];
    }
  }
  const auto t = Tensor<T>::from_vector(values, shape);
  const auto indices = Tensor<std::int64_t>::from_vector(idx, {rows, 1});
  const auto contiguous = Tensor<T>::from_vector(updates, {rows, width});
  const auto strided = Tensor<T>::from_vector(columns, {width, rows}).transpose(0, 1);
  auto bad_idx = idx;
  for (std::size_t r = 17; r < bad_idx.size(); r += 997) bad_idx[r] = r % 2 ? -1 : slices;
  const auto bad_indices = Tensor<std::int64_t>::from_vector(bad_idx, {rows, 1});
  const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore};
  with_host_threads({1, 2, 3, 4}, [&] {
    for (Op op : {Op::Add, Op::Update, Op::Max}) {
      const auto expected = reference_scatter(op, values, shape, idx, 1, updates);
      for (const auto* u : {&contiguous, &strided}) {
        EXPECT_TRUE(same_bits(call(op, t, indices, *u, {}).to_vector(), expected))
            << op_name(op) << (u == &strided ? " strided" : "");
        auto in_place = t.clone();
        call_(op, in_place, indices, *u, {});
        EXPECT_TRUE(same_bits(in_place.to_vector(), expected)) << op_name(op);
      }
    }
    const auto skipped = reference_scatter(Op::Sub, values, shape, bad_idx, 1, updates);
    EXPECT_TRUE(
        same_bits(t.tensor_scatter_nd_sub(bad_indices, strided, ignore).to_vector(), skipped));
    auto in_place = t.clone();
    EXPECT_THROW(in_place.scatter_nd_sub_(bad_indices, contiguous), ts::IndexError);
    EXPECT_TRUE(same_bits(in_place.to_vector(), values));
    in_place.scatter_nd_sub_(bad_indices, contiguous, ignore);
    EXPECT_TRUE(same_bits(in_place.to_vector(), skipped));
  });
}

TEST(ScatterHost, SliceScheduleKeepsIndexOrderAtEveryThreadCount) {
  expect_slice_schedule_keeps_index_order<float>();
  expect_slice_schedule_keeps_index_order<double>();
}

// Slices of a cache line or more, copying or in place with enough rows, take the in-order
// schedule: each thread links its slices' rows and walks its output slices in order
// (detail/scatter_host_slices_in_order.hpp). At 1 to 4 host threads: two-level indices, slices
// of exactly 64 bytes and just under, long chains of rows into a few slices (more than the walk
// asks for ahead), fewer slices than threads, few rows into many slices (in place: the range
// schedule), wrapping int32 sums, and bad rows: skipped with Ignore, the lowest named
// otherwise, nothing written in place. The sequential loop's bits throughout.
template <class T>
void expect_in_order_slices_keep_index_order(std::int64_t width) {
  std::mt19937_64 rng(43 + static_cast<std::uint64_t>(width));
  const auto value = [&rng] {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(rng());  // sums wrap
    } else {
      return static_cast<T>(std::normal_distribution<double>()(rng));
    }
  };
  struct Layout {
    std::int64_t a, b, rows;  // output (a, b, width), indices (rows, 2)
  };
  for (const Layout l :
       {Layout{97, 31, 9001}, Layout{3, 1, 5003}, Layout{1, 1, 700}, Layout{997, 31, 1500}}) {
    const ts::Shape shape{l.a, l.b, width};
    std::vector<std::int64_t> idx(static_cast<std::size_t>(l.rows * 2));
    for (std::size_t r = 0; r < idx.size(); r += 2) {
      idx[r] = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(l.a));
      idx[r + 1] = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(l.b));
    }
    std::vector<T> values(static_cast<std::size_t>(l.a * l.b * width));
    std::vector<T> updates(static_cast<std::size_t>(l.rows * width));
    for (auto& v : values) v = value();
    for (auto& v : updates) v = value();
    const auto t = Tensor<T>::from_vector(values, shape);
    const auto indices = Tensor<std::int64_t>::from_vector(idx, {l.rows, 2});
    const auto u = Tensor<T>::from_vector(updates, {l.rows, width});
    auto bad_idx = idx;
    const std::int64_t lowest_bad = l.rows / 3;
    bad_idx[static_cast<std::size_t>(2 * lowest_bad + 1)] =
        l.b;  // the second level past its extent
    bad_idx[static_cast<std::size_t>(2 * (l.rows - 1))] = -1;
    const auto bad_indices = Tensor<std::int64_t>::from_vector(bad_idx, {l.rows, 2});
    const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore};
    with_host_threads({1, 2, 3, 4}, [&] {
      for (Op op : {Op::Add, Op::Update}) {
        const auto expected = reference_scatter(op, values, shape, idx, 2, updates);
        EXPECT_TRUE(same_bits(call(op, t, indices, u, {}).to_vector(), expected))
            << op_name(op) << " width " << width << " slices " << l.a * l.b;
        auto in_place = t.clone();
        call_(op, in_place, indices, u, {});
        EXPECT_TRUE(same_bits(in_place.to_vector(), expected))
            << op_name(op) << " in place, width " << width << " slices " << l.a * l.b;
      }
      const auto skipped = reference_scatter(Op::Add, values, shape, bad_idx, 2, updates);
      auto in_place = t.clone();
      EXPECT_THROW(in_place.scatter_nd_add_(bad_indices, u), ts::IndexError);
      EXPECT_TRUE(same_bits(in_place.to_vector(), values)) << "width " << width;
      in_place.scatter_nd_add_(bad_indices, u, ignore);
      EXPECT_TRUE(same_bits(in_place.to_vector(), skipped)) << "width " << width;
      EXPECT_TRUE(same_bits(t.tensor_scatter_nd_add(bad_indices, u, ignore).to_vector(),
                            reference_scatter(Op::Add, values, shape, bad_idx, 2, updates)))
          << "width " << width << " slices " << l.a * l.b;
      try {
        (void)t.tensor_scatter_nd_add(bad_indices, u);
        ADD_FAILURE() << "no IndexError for the lowest bad row " << lowest_bad;
      } catch (const ts::IndexError& e) {
        EXPECT_NE(std::string(e.what()).find("indices[" + std::to_string(lowest_bad) + "]"),
                  std::string::npos)
            << e.what();
      }
    });
  }
}

TEST(ScatterHost, InOrderSliceScheduleKeepsIndexOrder) {
  expect_in_order_slices_keep_index_order<float>(16);  // 64 bytes: the in-order schedule
  expect_in_order_slices_keep_index_order<float>(15);  // 60 bytes: the ranges of the slice one
  expect_in_order_slices_keep_index_order<double>(9);
  expect_in_order_slices_keep_index_order<std::int32_t>(40);
}

}  // namespace
