// SPDX-License-Identifier: BSD-3-Clause
// searchsorted and bucketize against PyTorch's own answers (tests/data/searchsorted_golden.json,
// written by tools/golden/gen_searchsorted.py) and against a plain counting loop over random
// shapes, dtypes, layouts and devices. The error rules are in test_searchsorted_errors.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "support/layouts.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using nlohmann::json;
using ts::Tensor;

const json& golden() { return tessera_test::golden("searchsorted_golden.json"); }
using tessera_test::decode;

using tessera_test::decode_all;
using tessera_test::shape_of;

/// The answer for v in one row, straight from the definition. A row that is sorted (NaNs only
/// at the end) answers "how many elements come before v" — a count, no search. A row that ends
/// in NaN is not monotone under PyTorch's test, so there PyTorch's own bisection is the
/// definition (docs/ops/searchsorted.md: `mid = start + (end - start) / 2`).
template <class C>
std::int64_t reference_search(const std::vector<C>& row, C v, bool right) {
  const auto before = [&](C x) { return right ? !(x > v) : !(x >= v); };
  const bool nan_end = !row.empty() && std::isnan(static_cast<double>(row.back()));
  if (!nan_end) {
    return std::count_if(row.begin(), row.end(), before);
  }
  std::int64_t lo = 0;
  std::int64_t hi = static_cast<std::int64_t>(row.size());
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (before(row[static_cast<std::size_t>(mid)])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// Reference searchsorted over row-major data (sequence rows of `length`, values rows of
/// `per_row`; a 1-d sequence serves every value).
template <class C, class S, class V>
std::vector<std::int64_t> reference_searchsorted(const std::vector<S>& seq,
                                                 const ts::Shape& seq_shape,
                                                 const std::vector<V>& values,
                                                 const ts::Shape& values_shape, bool right) {
  const std::int64_t length = seq_shape.back();
  const std::int64_t per_row = values_shape.empty() ? 1 : values_shape.back();
  std::int64_t row_count = 1;
  for (std::size_t d = 0; d + 1 < seq_shape.size(); ++d) row_count *= seq_shape[d];
  std::vector<std::vector<C>> rows(static_cast<std::size_t>(row_count));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::int64_t j = 0; j < length; ++j) {
      rows[r].push_back(
          static_cast<C>(seq[r * static_cast<std::size_t>(length) + static_cast<std::size_t>(j)]));
    }
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t r = seq_shape.size() == 1
                              ? 0
                              : i / static_cast<std::size_t>(std::max<std::int64_t>(per_row, 1));
    out.push_back(reference_search(rows[r], static_cast<C>(values[i]), right));
  }
  return out;
}

template <class Index>
std::vector<std::int64_t> widen(const Tensor<Index>& t) {
  const auto v = t.to_vector();
  return std::vector<std::int64_t>(v.begin(), v.end());
}

// ---- PyTorch's answers ------------------------------------------------------------------

/// The (sequence, values) dtype pairs of the golden file: every dtype with itself, and the
/// mixed pairs (compared in their common type).
using GoldenPairs =
    std::tuple<std::pair<std::uint8_t, std::uint8_t>, std::pair<std::int8_t, std::int8_t>,
               std::pair<std::int16_t, std::int16_t>, std::pair<std::int32_t, std::int32_t>,
               std::pair<std::int64_t, std::int64_t>, std::pair<float, float>,
               std::pair<double, double>, std::pair<std::int32_t, float>,
               std::pair<std::int64_t, double>, std::pair<std::uint8_t, std::int8_t>,
               std::pair<float, std::int64_t>, std::pair<std::int16_t, std::int32_t>,
               std::pair<float, double>>;

template <class S, class V>
int check_golden_case(const json& c, ts::Device device) {
  const auto expected = c["expected"]["data"].get<std::vector<std::int64_t>>();
  const ts::Shape expected_shape = shape_of(c["expected"]);
  const bool right = c["right"].get<bool>();
  const bool int32 = c["out_int32"].get<bool>();
  ts::SearchSortedOptions options;
  options.right = right;
  if (c["side"].is_string()) {
    options.side = c["side"] == "right" ? ts::Side::Right : ts::Side::Left;
  }
  if (c.contains("sorter")) {
    options.sorter = Tensor<std::int64_t>::from_vector(
        c["sorter"]["data"].get<std::vector<std::int64_t>>(), shape_of(c["sorter"]), device);
  }
  const auto seq_values = decode_all<S>(c["seq"]);
  const ts::Shape seq_shape = shape_of(c["seq"]);
  int checked = 0;
  for (const auto& seq : tessera_test::all_layouts(seq_values, seq_shape, device)) {
    SCOPED_TRACE("sequence " + seq.name);
    if (c.contains("scalar")) {
      const auto v = decode<V>(c["scalar"]);
      const auto got = seq.view.searchsorted(v, options);
      EXPECT_EQ(got.shape(), ts::Shape{});
      EXPECT_EQ(widen(got), expected);
      ++checked;
      continue;
    }
    const auto values = decode_all<V>(c["values"]);
    for (const auto& v : tessera_test::all_layouts(values, shape_of(c["values"]), device)) {
      SCOPED_TRACE("values " + v.name);
      if (int32) {
        const auto got = seq.view.template searchsorted<std::int32_t>(v.view, options);
        EXPECT_EQ(got.shape(), expected_shape);
        EXPECT_EQ(widen(got), expected);
      } else {
        const auto got = seq.view.searchsorted(v.view, options);
        EXPECT_EQ(got.shape(), expected_shape);
        EXPECT_EQ(got.device(), device);
        EXPECT_EQ(got.to_vector(), expected);
      }
      if (c.contains("bucketize")) {
        const auto buckets = c["bucketize"]["data"].get<std::vector<std::int64_t>>();
        EXPECT_EQ(widen(v.view.template bucketize<std::int32_t>(seq.view, right)), buckets);
        EXPECT_EQ(ts::bucketize(v.view, seq.view, right).to_vector(), buckets);
      }
      ++checked;
    }
  }
  return checked;
}

class SearchsortedGolden : public tessera_test::OnEachDevice {};

TEST_P(SearchsortedGolden, MatchesTorchInEveryLayout) {
  int cases = 0;
  int runs = 0;
  for (const auto& c : golden()["cases"]) {
    const std::string seq_dtype = c["seq"]["dtype"];
    const std::string values_dtype =
        c.contains("values") ? c["values"]["dtype"].get<std::string>() : seq_dtype;
    SCOPED_TRACE(c["name"].get<std::string>());
    bool matched = false;
    std::apply(
        [&](auto... pairs) {
          const auto try_pair = [&](auto pair) {
            using S = typename decltype(pair)::first_type;
            using V = typename decltype(pair)::second_type;
            if (matched || ts::dtype_name(ts::dtype_v<S>) != seq_dtype ||
                ts::dtype_name(ts::dtype_v<V>) != values_dtype) {
              return;
            }
            matched = true;
            runs += check_golden_case<S, V>(c, device());
          };
          (try_pair(pairs), ...);
        },
        GoldenPairs{});
    EXPECT_TRUE(matched) << "no dtype pair for " << seq_dtype << " / " << values_dtype;
    ++cases;
  }
  EXPECT_GT(cases, 150);
  EXPECT_GT(runs, 1000);
}
TESSERA_INSTANTIATE_ON_EACH_DEVICE(SearchsortedGolden);

TEST(SearchsortedDocs, ReferencePageExamplesVerbatim) {
  const auto sorted_sequence = ts::tensor<std::int64_t>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  const auto values = ts::tensor<std::int64_t>({{3, 6, 9}, {3, 6, 9}});
  EXPECT_EQ(ts::searchsorted(sorted_sequence, values).to_vector(),
            (std::vector<std::int64_t>{1, 3, 4, 1, 2, 4}));
  EXPECT_EQ(ts::searchsorted(sorted_sequence, values, {.side = ts::Side::Right}).to_vector(),
            (std::vector<std::int64_t>{2, 3, 5, 1, 3, 4}));
  const auto sorted_sequence_1d = ts::tensor<std::int64_t>({1, 3, 5, 7, 9});
  EXPECT_EQ(ts::searchsorted(sorted_sequence_1d, values).to_vector(),
            (std::vector<std::int64_t>{1, 3, 4, 1, 3, 4}));
  const auto boundaries = ts::tensor<std::int64_t>({1, 3, 5, 7, 9});
  const auto v = ts::tensor<std::int64_t>({{3, 6, 9}, {3, 6, 9}});
  EXPECT_EQ(ts::bucketize(v, boundaries).to_vector(),
            (std::vector<std::int64_t>{1, 3, 4, 1, 3, 4}));
  EXPECT_EQ(v.bucketize(boundaries, /*right=*/true).to_vector(),
            (std::vector<std::int64_t>{2, 3, 5, 2, 3, 5}));
  EXPECT_EQ(v.bucketize(boundaries, true).shape(), (ts::Shape{2, 3}));
}

TEST(SearchsortedDocs, SpecNanRowExamples) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(ts::tensor<float>({1, 2, nan}).searchsorted(0.5f).item(), 0);
  EXPECT_EQ(ts::tensor<float>({1, nan, nan, nan, nan}).searchsorted(0.5f).item(), 5);
  // A NaN value lands at the row length on both sides; +inf at the length, -inf at 0.
  const auto row = ts::tensor<float>({1, 2, 3});
  EXPECT_EQ(row.searchsorted(nan).item(), 3);
  EXPECT_EQ(row.searchsorted(nan, {.right = true}).item(), 3);
  EXPECT_EQ(row.searchsorted(std::numeric_limits<float>::infinity()).item(), 3);
  EXPECT_EQ(row.searchsorted(-std::numeric_limits<float>::infinity()).item(), 0);
}

// ---- property tests against the reference loop -------------------------------------------

template <class C>
class SearchsortedProperty : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(SearchsortedProperty, tessera_test::NumericCases, tessera_test::CaseName);

/// Sorted rows with duplicates (and, for floats, -inf/+inf inside and NaNs at some row ends).
template <class T>
std::vector<T> sorted_rows(std::int64_t rows, std::int64_t length, std::mt19937_64& rng,
                           bool nan_ends) {
  auto v = tessera_test::random_values<T>(rows * length, rng);
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto first = v.begin() + r * length;
    std::sort(first, first + length);
    if constexpr (std::is_floating_point_v<T>) {
      if (length > 2 && r % 3 == 1) {
        *first = -std::numeric_limits<T>::infinity();
        *(first + length - 1) = std::numeric_limits<T>::infinity();
      }
      if (nan_ends && length > 1 && r % 4 == 2) {
        const auto nans = 1 + (r / 4) % length;
        std::fill(first + (length - nans), first + length, std::numeric_limits<T>::quiet_NaN());
      }
    }
  }
  return v;
}

TYPED_TEST(SearchsortedProperty, RandomShapesLayoutsAndSidesMatchReference) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(1234);
  for (int trial = 0; trial < 40; ++trial) {
    const int lead = std::uniform_int_distribution<int>(0, 2)(rng);
    std::vector<std::int64_t> seq_dims;
    std::vector<std::int64_t> values_dims;
    for (int d = 0; d < lead; ++d) {
      const auto e = std::uniform_int_distribution<std::int64_t>(1, 3)(rng);
      seq_dims.push_back(e);
      values_dims.push_back(e);
    }
    seq_dims.push_back(std::uniform_int_distribution<std::int64_t>(0, 40)(rng));
    values_dims.push_back(std::uniform_int_distribution<std::int64_t>(0, 30)(rng));
    if (lead == 0 && trial % 5 == 0) values_dims.insert(values_dims.begin(), 2);  // n-d values
    const ts::Shape seq_shape(seq_dims);
    const ts::Shape values_shape(values_dims);
    const auto rows = seq_shape.numel() / std::max<std::int64_t>(seq_shape.back(), 1);
    const auto seq_values = sorted_rows<T>(rows, seq_shape.back(), rng, true);
    auto values = tessera_test::random_values<T>(values_shape.numel(), rng);
    if (trial % 4 == 0) std::sort(values.begin(), values.end());  // sorted runs merge
    for (const bool right : {false, true}) {
      const auto expected =
          reference_searchsorted<T>(seq_values, seq_shape, values, values_shape, right);
      const auto seq = tessera_test::make_strided(
          seq_values, seq_shape, tessera_test::random_layout(seq_shape.size(), rng), this->device(),
          tessera_test::sentinel_value<T>());
      const auto v = tessera_test::make_strided(
          values, values_shape, tessera_test::random_layout(values_shape.size(), rng),
          this->device(), tessera_test::sentinel_value<T>());
      SCOPED_TRACE(seq_shape.str() + " " + values_shape.str() + " " + seq.name + "/" + v.name +
                   (right ? " right" : " left"));
      const auto got = seq.view.searchsorted(v.view, {.right = right});
      EXPECT_EQ(got.shape(), values_shape);
      EXPECT_EQ(got.to_vector(), expected);
      if (seq_shape.size() == 1) {
        EXPECT_EQ(v.view.bucketize(seq.view, right).to_vector(), expected);
      }
    }
  }
}

TYPED_TEST(SearchsortedProperty, LargeInputsCrossEveryBlockAndSearchPath) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(99);
  // Several blocks of values; rows long enough for many search steps; sorted, reversed and
  // random value orders (the merge, the interleaved groups and the tails).
  for (const std::int64_t length : {1, 3, 100, 5000}) {
    const auto seq_values = sorted_rows<T>(1, length, rng, false);
    const auto seq = Tensor<T>::from_vector(seq_values, {length}, this->device());
    auto values = tessera_test::random_values<T>(10000, rng);
    for (int order = 0; order < 3; ++order) {
      if (order == 1) std::sort(values.begin(), values.end());
      if (order == 2) std::reverse(values.begin(), values.end());
      const auto v = Tensor<T>::from_vector(values, {10000}, this->device());
      for (const bool right : {false, true}) {
        SCOPED_TRACE(std::to_string(length) + " order " + std::to_string(order));
        EXPECT_EQ(seq.searchsorted(v, {.right = right}).to_vector(),
                  (reference_searchsorted<T>(seq_values, {length}, values, {10000}, right)));
      }
    }
  }
}

TYPED_TEST(SearchsortedProperty, SorterGivesTheSortedOrderIndex) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(5);
  const ts::Shape shape{3, 17};
  const auto raw = tessera_test::random_values<T>(shape.numel(), rng);
  std::vector<std::int64_t> order;
  std::vector<T> sorted;
  for (std::int64_t r = 0; r < 3; ++r) {
    std::vector<std::int64_t> idx(17);
    for (std::int64_t j = 0; j < 17; ++j) idx[static_cast<std::size_t>(j)] = j;
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
      return raw[static_cast<std::size_t>(r * 17 + a)] < raw[static_cast<std::size_t>(r * 17 + b)];
    });
    for (const auto j : idx) {
      order.push_back(j);
      sorted.push_back(raw[static_cast<std::size_t>(r * 17 + j)]);
    }
  }
  const auto values = tessera_test::random_values<T>(3 * 9, rng);
  const auto v = Tensor<T>::from_vector(values, {3, 9}, this->device());
  for (const auto& seq : tessera_test::all_layouts(raw, shape, this->device())) {
    for (const auto& sorter : tessera_test::all_layouts(order, shape, this->device())) {
      for (const bool right : {false, true}) {
        SCOPED_TRACE(seq.name + " / sorter " + sorter.name);
        EXPECT_EQ(seq.view.searchsorted(v, {.right = right, .sorter = sorter.view}).to_vector(),
                  (reference_searchsorted<T>(sorted, shape, values, {3, 9}, right)));
      }
    }
  }
}

class SearchsortedOnDevice : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(SearchsortedOnDevice);

TEST_P(SearchsortedOnDevice, ExpressionValuesEqualEvaluatedValues) {
  std::mt19937_64 rng(3);
  const auto seq_values = sorted_rows<float>(1, 200, rng, false);
  const auto seq = Tensor<float>::from_vector(seq_values, {200}, device());
  const auto x = Tensor<float>::from_vector(tessera_test::random_values<float>(5000, rng),
                                            {50, 100}, device());
  const auto xi = Tensor<std::int32_t>::from_vector(
      tessera_test::random_values<std::int32_t>(5000, rng), {50, 100}, device());
  EXPECT_EQ(seq.searchsorted(x * 2.0f - 1.0f).to_vector(),
            seq.searchsorted(ts::eval(x * 2.0f - 1.0f)).to_vector());
  EXPECT_EQ(seq.searchsorted(x.transpose(0, 1) * 0.5f, {.right = true}).to_vector(),
            seq.searchsorted(ts::eval(x.transpose(0, 1) * 0.5f), {.right = true}).to_vector());
  EXPECT_EQ((x + 1.0f).bucketize(seq).to_vector(), ts::eval(x + 1.0f).bucketize(seq).to_vector());
  // A sequence expression, and int32 values compared as float (the common type).
  EXPECT_EQ((seq * 1.0f).searchsorted(xi).to_vector(),
            seq.searchsorted(xi.cast<float>()).to_vector());
  EXPECT_EQ(ts::bucketize(xi, seq).to_vector(), ts::bucketize(xi.cast<float>(), seq).to_vector());
}

TEST_P(SearchsortedOnDevice, OutIsResizedOrWrittenThroughItsStrides) {
  const auto seq = ts::tensor<double>({{0, 1, 2, 3}, {10, 20, 30, 40}}).to(device());
  const auto values = ts::tensor<double>({{-1, 1.5, 3, 9}, {15, 40, 41, 0}}).to(device());
  const std::vector<std::int64_t> left{0, 2, 3, 4, 1, 3, 4, 0};
  const std::vector<std::int64_t> right{0, 2, 4, 4, 1, 4, 4, 0};
  // Wrong shape: resized.
  auto out = Tensor<std::int64_t>::full({3}, 7, device());
  seq.searchsorted_out(values, out);
  EXPECT_EQ(out.shape(), (ts::Shape{2, 4}));
  EXPECT_EQ(out.to_vector(), left);
  // Right shape but transposed memory: written through the strides, same storage.
  auto base = Tensor<std::int32_t>::full({4, 2}, -1, device());
  auto strided = base.transpose(0, 1);
  const void* storage = strided.storage().data();
  ts::searchsorted_out(seq, values, strided, {.side = ts::Side::Right});
  EXPECT_EQ(strided.storage().data(), storage);
  EXPECT_EQ(strided.strides(), (ts::Shape{1, 2}));
  EXPECT_EQ(widen(strided), right);
  EXPECT_EQ(widen(base), (std::vector<std::int64_t>{0, 1, 2, 4, 4, 4, 4, 0}));
  // bucketize_out with a 1-d boundary row.
  auto buckets = Tensor<std::int64_t>::zeros({2, 4}, device());
  values.bucketize_out(ts::tensor<double>({0, 1, 2, 3}).to(device()), buckets, true);
  EXPECT_EQ(buckets.to_vector(), (std::vector<std::int64_t>{0, 2, 4, 4, 4, 4, 4, 1}));
  // out that aliases the values: the answers are still the answers to the old values.
  auto self = ts::tensor<std::int64_t>({5, 0, 9, 2}).to(device());
  ts::searchsorted_out(ts::tensor<std::int64_t>({1, 2, 3, 4, 5, 6, 7, 8}).to(device()), self, self);
  EXPECT_EQ(self.to_vector(), (std::vector<std::int64_t>{4, 0, 8, 1}));
}

TEST_P(SearchsortedOnDevice, EmptyInputsAndScalars) {
  const auto seq = ts::tensor<float>({1, 2, 3}).to(device());
  EXPECT_EQ(seq.searchsorted(Tensor<float>::zeros({0}, device())).shape(), (ts::Shape{0}));
  EXPECT_EQ(seq.searchsorted(Tensor<float>::zeros({2, 0}, device())).shape(), (ts::Shape{2, 0}));
  const auto empty = Tensor<float>::zeros({0}, device());
  EXPECT_EQ(empty.searchsorted(ts::tensor<float>({-1, 0, 5}).to(device())).to_vector(),
            (std::vector<std::int64_t>{0, 0, 0}));
  const auto s = seq.searchsorted(2.0f);
  EXPECT_EQ(s.shape(), ts::Shape{});
  EXPECT_EQ(s.item(), 1);
  EXPECT_EQ(seq.searchsorted(Tensor<float>::scalar(2.0f, device()), {.right = true}).item(), 2);
  EXPECT_EQ(seq.searchsorted<std::int32_t>(2.5).item(), 2);  // double scalar: compared as float
  EXPECT_EQ(ts::tensor<std::int32_t>({1, 2, 3}).to(device()).searchsorted(2.5).item(), 2);
  EXPECT_EQ(ts::bucketize(2.0f, seq).item(), 1);
}

}  // namespace
