// SPDX-License-Identifier: BSD-3-Clause
// Issue 51, items 8 and 9: the fast paths of the gather kernel and of nonzero, against reference
// loops, on every device. Item 8: slices contiguous in source and destination that an index
// picks (index_select(0, rows), x[rows], take_along_dim along rows, gather_nd of slices) are
// copied row by row, 64-byte blocks at a time, prefetched, and streamed past the caches when the
// output is large; every edge of that path (row widths off the vector width, 1-element rows,
// strided sources that must not take it, rows cut by the parallel parts, bad entries) gives the
// reference's answer and the same errors. Item 9: nonzero of 1-byte dtypes counts and skips 16
// bytes per compare; every length, tail, density and layout gives the reference's rows.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/errors.hpp"
#include "support/host_threads.hpp"
#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/stream_threshold.hpp"
#include "support/typed.hpp"
#include "tessera/expr/host_stream_stores.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::reference_nonzero;
using tessera_test::StreamThreshold;
using tessera_test::throws_with;
using tessera_test::with_host_threads;

/// Element-by-element equality (bit-exact for floats: NaN == NaN, -0.0 != 0.0).
template <class T>
void expect_values(const ts::Tensor<T>& got, const ts::Shape& shape, const std::vector<T>& want,
                   const std::string& what) {
  ASSERT_EQ(got.shape(), shape) << what;
  const auto v = got.cpu().to_vector();
  ASSERT_EQ(v.size(), want.size()) << what;
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_TRUE(tessera_test::identical_value(v[i], want[i])) << what << " at " << i;
  }
}

/// The rows `pick` of the row-major (rows, width) `values` (entries < 0 count from the end when
/// `wrap`), by definition.
template <class T>
std::vector<T> reference_rows(const std::vector<T>& values, std::int64_t rows, std::int64_t width,
                              const std::vector<std::int64_t>& pick, bool wrap) {
  std::vector<T> out;
  for (std::int64_t e : pick) {
    const std::int64_t r = wrap && e < 0 ? e + rows : e;
    for (std::int64_t k = 0; k < width; ++k)
      out.push_back(values[static_cast<std::size_t>(r * width + k)]);
  }
  return out;
}

/// `n` entries uniform in [lo, hi].
std::vector<std::int64_t> random_entries(std::int64_t n, std::int64_t lo, std::int64_t hi,
                                         std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int64_t> dist(lo, hi);
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (auto& e : v) e = dist(rng);
  return v;
}

/// Runs `body(T{})` for every dtype whose element width the gather kernel instantiates.
template <class Body>
void for_each_width(Body body) {
  body(std::int8_t{});
  body(std::int16_t{});
  body(float{});
  body(double{});
}

class GatherFastPaths : public tessera_test::OnEachDevice {};
INSTANTIATE_TEST_SUITE_P(Devices, GatherFastPaths, ::testing::ValuesIn(tessera_test::all_devices()),
                         tessera_test::device_param_name);

// Row widths off the 16-byte vector and the 64-byte block for every element width (1-element
// rows included), negative entries wrapped by x[rows], repeats, at several thread counts and
// with the output streamed or not; outputs large enough for the parallel parts to cut rows.
TEST_P(GatherFastPaths, IndexSelectContiguousRowsFastPathMatchesReference) {
  std::mt19937_64 rng(51);
  const std::int64_t rows = 3000, picks = 6000;
  for_each_width([&](auto zero) {
    using T = decltype(zero);
    for (const std::int64_t width : {1, 3, 8, 16, 17, 64, 65, 130}) {
      const auto values = tessera_test::random_values<T>(rows * width, rng);
      const auto x = ts::Tensor<T>::from_vector(values, {rows, width}, device());
      const auto pick = random_entries(picks, 0, rows - 1, rng);
      const auto negative = random_entries(picks, -rows, rows - 1, rng);
      const auto idx = ts::Tensor<std::int64_t>::from_vector(pick, {picks}, device());
      const auto neg = ts::Tensor<std::int64_t>::from_vector(negative, {picks}, device());
      const auto idx32 = idx.template cast<std::int32_t>();
      const auto want = reference_rows(values, rows, width, pick, false);
      const auto want_neg = reference_rows(values, rows, width, negative, true);
      const std::string what =
          std::string(ts::dtype_name(ts::dtype_v<T>)) + " width " + std::to_string(width);
      const auto check = [&] {
        expect_values(x.index_select(0, idx), {picks, width}, want, "index_select " + what);
        expect_values(x.index_select(0, idx32), {picks, width}, want, "int32 " + what);
        expect_values(x.index(neg), {picks, width}, want_neg, "x[rows] " + what);
      };
      if (!device().is_cpu()) {  // streaming stores and pool threads are the host's
        check();
        continue;
      }
      for (const std::int64_t threshold : {std::numeric_limits<std::int64_t>::max(), 0L}) {
        const StreamThreshold stream(threshold);
        with_host_threads({1, 3}, check);
      }
    }
  });
}

// The other gathers of contiguous slices, and the layouts around them: rows along a middle dim
// (the outer dim carries between rows), take_along_dim and gather_nd of slices, a source whose
// rows are padded (contiguous slices, row stride past the width), and sources whose slices are
// not contiguous (transposed, every other column), which must not be copied as blocks.
TEST_P(GatherFastPaths, ContiguousSlicesOfEveryGatherAndStridedSources) {
  std::mt19937_64 rng(52);
  const StreamThreshold stream(0);
  const std::int64_t rows = 700, width = 20, picks = 2500;
  const auto values = tessera_test::random_values<float>(rows * width, rng);
  const auto x = ts::Tensor<float>::from_vector(values, {rows, width}, device());
  const auto pick = random_entries(picks, 0, rows - 1, rng);
  const auto idx = ts::Tensor<std::int64_t>::from_vector(pick, {picks}, device());
  with_host_threads({1, 2}, [&] {
    // (3, rows, width) -> index_select along dim 1.
    const ts::Tensor<float> x2 = x * 2.0f, x3x = x * 3.0f;
    const auto x3 = ts::cat({x, x2, x3x}, 0).reshape({3, rows, width});
    std::vector<float> want3;
    for (float scale : {1.0f, 2.0f, 3.0f}) {
      for (float v : reference_rows(values, rows, width, pick, false)) want3.push_back(v * scale);
    }
    expect_values(x3.index_select(1, idx), {3, picks, width}, want3, "middle dim");
    const auto column = idx.reshape({picks, 1});
    const auto want = reference_rows(values, rows, width, pick, false);
    expect_values(x.take_along_dim(column, 0), {picks, width}, want, "take_along_dim");
    expect_values(x.gather_nd(column), {picks, width}, want, "gather_nd slices");
    // Padded rows: the first 16 columns of each row of 20.
    const auto padded = x.slice(1, 0, 16);
    expect_values(padded.index_select(0, idx), {picks, 16},
                  reference_rows(padded.contiguous().to_vector(), rows, 16, pick, false),
                  "padded rows");
    // Not contiguous along the row: every other column, and the transpose.
    const auto stepped = x.slice(1, 0, width, 2);
    expect_values(stepped.index_select(0, idx), {picks, width / 2},
                  reference_rows(stepped.contiguous().to_vector(), rows, width / 2, pick, false),
                  "stepped columns");
    const auto xt = ts::Tensor<float>::from_vector(values, {width, rows}, device()).transpose(0, 1);
    expect_values(xt.index_select(0, idx), {picks, width},
                  reference_rows(xt.contiguous().to_vector(), rows, width, pick, false),
                  "transposed");
  });
}

// Empty indices, bad entries on the row path (the error names the first, as before), and
// TensorFlow's Ignore mode zeroing the bad slices on it.
TEST_P(GatherFastPaths, RowPathEmptyIndexAndBadEntries) {
  std::mt19937_64 rng(53);
  const std::int64_t rows = 4000, width = 16, picks = 20000;
  const auto values = tessera_test::random_values<float>(rows * width, rng);
  const auto x = ts::Tensor<float>::from_vector(values, {rows, width}, device());
  const auto none = ts::Tensor<std::int64_t>::from_vector({}, {0}, device());
  EXPECT_EQ(x.index_select(0, none).shape(), ts::Shape({0, width}));
  auto pick = random_entries(picks, 0, rows - 1, rng);
  pick[12345] = 9000;
  pick[15000] = -9000;
  const auto bad = ts::Tensor<std::int64_t>::from_vector(pick, {picks}, device());
  auto negative = pick;
  negative[12345] = 5;
  negative[15000] = -1;
  const auto neg = ts::Tensor<std::int64_t>::from_vector(negative, {picks}, device());
  for (const std::int64_t threshold : {std::numeric_limits<std::int64_t>::max(), 0L}) {
    const StreamThreshold stream(threshold);
    with_host_threads({1, 2, 4}, [&] {
      EXPECT_TRUE(throws_with<ts::IndexError>(
          [&] { x.index_select(0, bad); },
          {"index_select", "index 9000 is out of bounds for dimension 0 with size 4000"}));
      EXPECT_TRUE(throws_with<ts::IndexError>(
          [&] { x.index_select(0, neg); },
          {"index_select", "index -1 is out of bounds for dimension 0 with size 4000"}));
      EXPECT_TRUE(throws_with<ts::IndexError>(
          [&] { x.index(bad); },
          {"index", "index 9000 is out of bounds for dimension 0 with size 4000"}));
      // TensorFlow's Ignore: both bad rows (gather_nd does not wrap -9000) become zeros.
      const auto g =
          ts::gather_nd(x, bad.reshape({picks, 1}), {.out_of_bounds = ts::OutOfBounds::Ignore});
      auto valid = pick;
      valid[12345] = valid[15000] = 0;  // any row in range: zeroed below
      auto want = reference_rows(values, rows, width, valid, false);
      for (const std::size_t r : {std::size_t{12345}, std::size_t{15000}}) {
        for (std::int64_t k = 0; k < width; ++k) want[r * width + static_cast<std::size_t>(k)] = 0;
      }
      expect_values(g, {picks, width}, want, "gather_nd Ignore");
    });
  }
}

/// `n` values of T, each nonzero with probability `density`; integers take turns among the
/// byte patterns that matter (1, the high bit alone, every bit).
template <class T>
std::vector<T> random_flags(std::int64_t n, double density, std::mt19937_64& rng) {
  std::bernoulli_distribution keep(density);
  const T patterns[] = {T(1), static_cast<T>(std::is_signed_v<T> ? -128 : 128), static_cast<T>(-1)};
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < v.size(); ++j) {
    if constexpr (std::is_same_v<T, bool>) {
      v[j] = keep(rng);
    } else {
      v[j] = keep(rng) ? patterns[j % 3] : T(0);
    }
  }
  return v;
}

class NonzeroFastPaths : public tessera_test::OnEachDevice {};
INSTANTIATE_TEST_SUITE_P(Devices, NonzeroFastPaths,
                         ::testing::ValuesIn(tessera_test::all_devices()),
                         tessera_test::device_param_name);

// 1-byte dtypes over lengths around the 16-byte vector, the 64-element chunk, the 255 rounds
// after which the byte counters are summed and the 65536-element block; all zero, all nonzero
// and in between; from an offset of one byte (unaligned) and as 2-d inputs whose rows are not
// multiples of 64, contiguous and transposed (the byte path must not read those linearly).
TEST_P(NonzeroFastPaths, CountingPassWordwiseMatchesReference) {
  std::mt19937_64 rng(91);
  const auto run = [&](auto zero) {
    using T = decltype(zero);
    for (const std::int64_t n : {0L, 1L, 15L, 16L, 17L, 63L, 64L, 65L, 4079L, 4080L, 4081L, 12257L,
                                 65535L, 65536L, 65537L, 200003L}) {
      for (const double density : {0.0, 0.001, 0.3, 1.0}) {
        const auto values = random_flags<T>(n + 1, density, rng);
        const std::string what = std::string(ts::dtype_name(ts::dtype_v<T>)) + " n " +
                                 std::to_string(n) + " density " + std::to_string(density);
        const auto base = ts::Tensor<T>::from_vector(values, {n + 1}, device());
        const auto x = base.slice(0, 1);  // starts one byte in
        const std::vector<T> tail(values.begin() + 1, values.end());
        const auto want = reference_nonzero(tail, {n});
        EXPECT_EQ(x.nonzero().to_vector(), want) << what;
        EXPECT_EQ(x.count_nonzero(), static_cast<std::int64_t>(want.size())) << what;
        EXPECT_EQ(base.nonzero().to_vector(), reference_nonzero(values, {n + 1})) << what;
      }
    }
    for (const ts::Shape& shape : {ts::Shape{37, 131}, ts::Shape{3, 65, 129}}) {
      const auto values = random_flags<T>(shape.numel(), 0.02, rng);
      const auto x = ts::Tensor<T>::from_vector(values, shape, device());
      EXPECT_EQ(x.nonzero().to_vector(), reference_nonzero(values, shape)) << shape.str();
      const auto xt = x.transpose(0, 1);
      EXPECT_EQ(xt.nonzero().to_vector(),
                reference_nonzero(xt.contiguous().cpu().to_vector(), xt.shape()))
          << shape.str() << " transposed";
    }
  };
  run(bool{});
  run(std::uint8_t{});
  run(std::int8_t{});
}

// The dtypes that keep the element-wise test: -0.0 is zero, NaN and the smallest subnormal are
// not; integers of every width with only the high bit set.
TEST_P(NonzeroFastPaths, WiderDtypesKeepExactZeroTests) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<float> f(300, 0.0f);
  f[3] = -0.0f;
  f[64] = nan;
  f[65] = -0.0f;
  f[130] = tiny;
  f[299] = -nan;
  const auto x = ts::Tensor<float>::from_vector(f, {300}, device());
  EXPECT_EQ(x.nonzero().to_vector(), (std::vector<std::int64_t>{64, 130, 299}));
  std::vector<double> d(f.begin(), f.end());
  EXPECT_EQ(ts::Tensor<double>::from_vector(d, {300}, device()).nonzero().to_vector(),
            (std::vector<std::int64_t>{64, 130, 299}));
  std::vector<std::int32_t> i(100, 0);
  i[7] = std::numeric_limits<std::int32_t>::min();
  i[99] = -1;
  EXPECT_EQ(ts::Tensor<std::int32_t>::from_vector(i, {100}, device()).nonzero().to_vector(),
            (std::vector<std::int64_t>{7, 99}));
}

}  // namespace
