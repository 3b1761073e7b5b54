// SPDX-License-Identifier: BSD-3-Clause
// Ragged reductions (ts::ragged::reduce_*) and unsorted segment reductions: TensorFlow 2.21's
// answers (tests/data/ragged_reduce_golden.json, tools/golden/gen_ragged_reduce.py) on every
// device, reference loops over random partitions (many short rows, one long row, empty rows),
// float results bit-identical across devices, thread counts and runs, and every error.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/ragged_golden.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::golden;
using tessera_test::golden_tensor;
using tessera_test::with_dtype;

const nlohmann::json& cases(const char* key) { return golden("ragged_reduce_golden.json")[key]; }

/// Every value of `got` equals the golden tensor `want` (dtype, shape, values): integers and
/// extremes exactly, float sums, products and means within `rel` of the magnitude (TensorFlow
/// adds in another order), NaN where NaN.
template <class R>
void expect_golden(const ts::Tensor<R>& got, const nlohmann::json& want, const std::string& what,
                   bool exact) {
  ASSERT_EQ(std::string(ts::dtype_name(ts::dtype_v<R>)), want["dtype"].get<std::string>()) << what;
  ASSERT_EQ(got.shape(), tessera_test::shape_of(want)) << what;
  const std::vector<R> g = got.cpu().to_vector();
  const auto w = tessera_test::decode_all<R>(want);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if constexpr (std::is_floating_point_v<R>) {
      if (std::isnan(w[i])) {
        EXPECT_TRUE(std::isnan(g[i])) << what << " [" << i << "]";
        continue;
      }
      if (exact || std::isinf(w[i])) {
        EXPECT_EQ(g[i], w[i]) << what << " [" << i << "]";
      } else {
        EXPECT_NEAR(g[i], w[i], 1e-5 * std::max<double>(1.0, std::fabs(w[i])))
            << what << " [" << i << "]";
      }
    } else {
      EXPECT_EQ(g[i], w[i]) << what << " [" << i << "]";
    }
  }
}

/// reduce_any / reduce_all of bool rows by name.
template <class R>
ts::Tensor<bool> run_logical(const std::string& fn, const R& r, std::int64_t axis) {
  using T = typename R::value_type;
  if constexpr (std::is_same_v<T, bool>) {
    if (fn == "reduce_any") return ts::ragged::reduce_any(r, axis);
    return ts::ragged::reduce_all(r, axis);
  } else {
    (void)r;
    throw std::runtime_error("unreachable");
  }
}

class RaggedReduce : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(RaggedReduce);

// ---- the API contract spellings ----------------------------------------------------

TEST(RaggedReduceContract, CompilesAsWritten) {
  const auto r = ts::RaggedTensor<float>::from_row_splits(ts::tensor<float>({1, 2, 3, 4}),
                                                          ts::tensor<int64_t>({0, 3, 3, 4}));
  ts::Tensor<float> rs = ts::ragged::reduce_sum(r);
  auto cols = ts::ragged::reduce_max(r, /*axis*/ 0);
  ts::ragged::reduce_prod(r);
  ts::ragged::reduce_min(r);
  ts::ragged::reduce_mean(r);
  const auto rb = ts::RaggedTensor<bool>::from_row_splits(ts::tensor<bool>({true, false}),
                                                          ts::tensor<int64_t>({0, 1, 2}));
  ts::Tensor<bool> any = ts::ragged::reduce_any(rb);
  ts::Tensor<bool> all = ts::ragged::reduce_all(rb);
  const auto data = ts::tensor<float>({1, 2, 3});
  const auto ids = ts::tensor<int64_t>({0, 2, 0});
  ts::Tensor<float> s = ts::unsorted_segment_sum(data, ids, 3);
  ts::unsorted_segment_prod(data, ids, 3);
  ts::unsorted_segment_min(data, ids, 3);
  ts::unsorted_segment_max(data, ids, 3);
  ts::unsorted_segment_mean(data, ids, 3);
  EXPECT_EQ(rs.to_vector(), (std::vector<float>{6, 0, 4}));
  EXPECT_EQ(cols.to_vector(), (std::vector<float>{4, 2, 3}));
  EXPECT_EQ(any.to_vector(), (std::vector<bool>{true, false}));
  EXPECT_EQ(all.to_vector(), (std::vector<bool>{true, false}));
  EXPECT_EQ(s.to_vector(), (std::vector<float>{4, 0, 2}));
}

// ---- TensorFlow's answers ------------------------------------------------------------------

TEST_P(RaggedReduce, MatchesTensorFlow) {
  int checked = 0;
  for (const auto& c : cases("ragged")) {
    const auto fn = c["fn"].get<std::string>();
    const auto axis = c["axis"].get<std::int64_t>();
    const std::string what = c["name"].get<std::string>() + " " + fn + " axis " +
                             std::to_string(axis) + " (" + c["splits_dtype"].get<std::string>() +
                             " splits)";
    with_dtype<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t, float,
               double>(c["values"]["dtype"].get<std::string>(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto values = golden_tensor<T>(c["values"], device());
      const auto splits = c["row_splits"].get<std::vector<std::int64_t>>();
      const auto check = [&](const auto& r) {
        if constexpr (std::is_same_v<T, bool>) {
          expect_golden(run_logical(fn, r, axis), c["out"], what, true);
        } else {
          const bool exact = fn == "reduce_max" || fn == "reduce_min" || std::is_integral_v<T>;
          if (fn == "reduce_sum")
            expect_golden(ts::ragged::reduce_sum(r, axis), c["out"], what, exact);
          if (fn == "reduce_prod") {
            expect_golden(ts::ragged::reduce_prod(r, axis), c["out"], what, exact);
          }
          if (fn == "reduce_max")
            expect_golden(ts::ragged::reduce_max(r, axis), c["out"], what, true);
          if (fn == "reduce_min")
            expect_golden(ts::ragged::reduce_min(r, axis), c["out"], what, true);
          if (fn == "reduce_mean") {
            expect_golden(ts::ragged::reduce_mean(r, axis), c["out"], what, std::is_integral_v<T>);
          }
        }
      };
      if (c["splits_dtype"] == "int32") {
        std::vector<std::int32_t> s32(splits.begin(), splits.end());
        check(ts::RaggedTensor<T, std::int32_t>::from_row_splits(
            values, ts::Tensor<std::int32_t>::from_vector(s32, device())));
      } else {
        check(ts::RaggedTensor<T>::from_row_splits(
            values, ts::Tensor<std::int64_t>::from_vector(splits, device())));
      }
      ++checked;
    });
  }
  EXPECT_GT(checked, 150);
}

TEST_P(RaggedReduce, SegmentReductionsMatchTensorFlow) {
  int checked = 0;
  for (const auto& c : cases("segment")) {
    const auto fn = c["fn"].get<std::string>();
    const std::string what = c["name"].get<std::string>() + " " + fn;
    const auto n = c["n"].get<std::int64_t>();
    with_dtype<std::uint8_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t, float, double>(
        c["data"]["dtype"].get<std::string>(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          const auto data = golden_tensor<T>(c["data"], device());
          with_dtype<std::int32_t, std::int64_t>(
              c["ids"]["dtype"].get<std::string>(), [&](auto itag) {
                using I = typename decltype(itag)::type;
                const auto ids = golden_tensor<I>(c["ids"], device());
                const bool exact = std::is_integral_v<T> || fn == "unsorted_segment_max" ||
                                   fn == "unsorted_segment_min";
                if (fn == "unsorted_segment_sum") {
                  expect_golden(ts::unsorted_segment_sum(data, ids, n), c["out"], what, exact);
                } else if (fn == "unsorted_segment_prod") {
                  expect_golden(ts::unsorted_segment_prod(data, ids, n), c["out"], what, exact);
                } else if (fn == "unsorted_segment_max") {
                  expect_golden(ts::unsorted_segment_max(data, ids, n), c["out"], what, true);
                } else if (fn == "unsorted_segment_min") {
                  expect_golden(ts::unsorted_segment_min(data, ids, n), c["out"], what, true);
                } else {
                  expect_golden(ts::unsorted_segment_mean(data, ids, n), c["out"], what, false);
                }
                ++checked;
              });
        });
  }
  EXPECT_GT(checked, 60);
}

// ---- reference loops over random partitions -------------------------------------------------

/// Row lengths: `rows` rows of 0..max_len values (a fifth of them empty).
std::vector<std::int64_t> random_splits(std::int64_t rows, std::int64_t max_len, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<std::int64_t> len(0, max_len);
  std::vector<std::int64_t> splits{0};
  for (std::int64_t i = 0; i < rows; ++i) {
    splits.push_back(splits.back() + (gen() % 5 == 0 ? 0 : len(gen)));
  }
  return splits;
}

std::vector<float> random_values(std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(0.0f, 100.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = normal(gen);
  return v;
}

TEST_P(RaggedReduce, ManyShortRowsMatchReferenceLoops) {
  const auto splits = random_splits(100000, 20, 1);
  const auto values = random_values(splits.back(), 2);
  const auto r = ts::RaggedTensor<float>::from_row_splits(
      ts::Tensor<float>::from_vector(values, device()),
      ts::Tensor<std::int64_t>::from_vector(splits, device()));
  const auto sum = ts::ragged::reduce_sum(r).cpu().to_vector();
  const auto mx = ts::ragged::reduce_max(r).cpu().to_vector();
  const auto mean = ts::ragged::reduce_mean(r).cpu().to_vector();
  for (std::size_t i = 0; i + 1 < splits.size(); ++i) {
    double s = 0.0;
    float m = std::numeric_limits<float>::lowest();
    for (auto p = splits[i]; p < splits[i + 1]; ++p) {
      s += values[static_cast<std::size_t>(p)];
      m = std::max(m, values[static_cast<std::size_t>(p)]);
    }
    const auto count = splits[i + 1] - splits[i];
    ASSERT_NEAR(sum[i], s, 1e-6 * 100.0 * 20) << "row " << i;
    ASSERT_EQ(mx[i], m) << "row " << i;
    if (count == 0) {
      ASSERT_TRUE(std::isnan(mean[i])) << "row " << i;
    } else {
      ASSERT_NEAR(mean[i], s / static_cast<double>(count), 1e-4) << "row " << i;
    }
  }
  // Axis 0: column position j over the rows that reach it.
  const auto cols = ts::ragged::reduce_sum(r, 0).cpu().to_vector();
  ASSERT_EQ(cols.size(), 20u);
  for (std::size_t j = 0; j < cols.size(); ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i + 1 < splits.size(); ++i) {
      if (splits[i + 1] - splits[i] > static_cast<std::int64_t>(j)) {
        s += values[static_cast<std::size_t>(splits[i]) + j];
      }
    }
    ASSERT_NEAR(cols[j], s, 1e-6 * 100.0 * 100000) << "column " << j;
  }
}

TEST_P(RaggedReduce, OneLongRowIsAccurate) {
  const std::int64_t n = 1000000;
  const auto values = random_values(n, 3);
  const auto r =
      ts::RaggedTensor<float>::from_row_splits(ts::Tensor<float>::from_vector(values, device()),
                                               ts::tensor<std::int64_t>({0, 0, n, n}).to(device()));
  const auto sum = ts::ragged::reduce_sum(r).cpu().to_vector();
  double s = 0.0;
  double magnitude = 0.0;
  for (const float v : values) {
    s += v;
    magnitude += std::fabs(v);
  }
  EXPECT_EQ(sum[0], 0.0f);
  EXPECT_NEAR(sum[1], s,
              1e-6 * magnitude);  // docs/ops/ragged.md: relative error <= 1e-6 of sum |x|
  EXPECT_EQ(sum[2], 0.0f);
}

TEST_P(RaggedReduce, ValuesMayBeExpressionsAndInnerDims) {
  const auto splits = ts::tensor<std::int64_t>({0, 2, 2, 5}).to(device());
  const auto values = ts::Tensor<double>::arange(0.0, 10.0).reshape({5, 2}).to(device());
  const auto r = ts::RaggedTensor<double>::from_row_splits(values, splits);
  const auto doubled = ts::ragged::reduce_sum(r * 2.0 + 1.0).cpu().to_vector();
  EXPECT_EQ(doubled, (std::vector<double>{6, 10, 0, 0, 39, 45}));
  EXPECT_EQ(ts::ragged::reduce_sum(r).shape(), ts::Shape({3, 2}));
  EXPECT_EQ(ts::ragged::reduce_max(r, 0).cpu().to_vector(),
            (std::vector<double>{4, 5, 6, 7, 8, 9}));
}

// Float sums are the same bits on every device, at every thread count, run after run.
TEST(RaggedReduceBits, FloatSumsAreIdenticalAcrossDevicesThreadsAndRuns) {
  const auto splits = random_splits(20000, 64, 4);
  const auto values = random_values(splits.back(), 5);
  const auto host = ts::RaggedTensor<float>::from_row_splits(
      ts::Tensor<float>::from_vector(values), ts::Tensor<std::int64_t>::from_vector(splits));
  const auto ids_host = ts::Tensor<std::int64_t>::from_vector([&] {
    std::vector<std::int64_t> ids(values.size());
    std::mt19937 gen(6);
    for (auto& id : ids) id = static_cast<std::int64_t>(gen() % 1000) - 10;
    return ids;
  }());
  const auto data_host = ts::Tensor<float>::from_vector(values);
  const auto rows = ts::ragged::reduce_sum(host).to_vector();
  const auto cols = ts::ragged::reduce_sum(host, 0).to_vector();
  const auto segs = ts::unsorted_segment_sum(data_host, ids_host, 990).to_vector();
  tessera_test::with_host_threads({1, 2, 3}, [&] {
    EXPECT_EQ(ts::ragged::reduce_sum(host).to_vector(), rows);
    EXPECT_EQ(ts::ragged::reduce_sum(host, 0).to_vector(), cols);
    EXPECT_EQ(ts::unsorted_segment_sum(data_host, ids_host, 990).to_vector(), segs);
  });
  for (const auto& device : tessera_test::available_devices()) {
    SCOPED_TRACE(device.str());
    const auto r = host.to(device);
    EXPECT_EQ(ts::ragged::reduce_sum(r).cpu().to_vector(), rows);
    EXPECT_EQ(ts::ragged::reduce_sum(r, 0).cpu().to_vector(), cols);
    EXPECT_EQ(
        ts::unsorted_segment_sum(data_host.to(device), ids_host.to(device), 990).cpu().to_vector(),
        segs);
  }
}

// The fold's order, spelled out (reduce_segments.hpp): element k of a row in lane k % 16, each
// lane started from 0, the lanes added in lane order; rows of at most 16
// take a path without the lane array that must give the same bits. Rows of 0 to 40 doubles of
// mixed magnitudes, where another order rounds differently (a sequential sum differs in most).
TEST(RaggedReduceBits, RowSumsFollowTheLaneOrderOnEveryPath) {
  std::mt19937 gen(65);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::vector<std::int64_t> splits{0};
  std::vector<double> values;
  for (int length = 0; length <= 40; ++length) {
    for (int i = 0; i < length; ++i) values.push_back(std::ldexp(mantissa(gen), exponent(gen)));
    splits.push_back(static_cast<std::int64_t>(values.size()));
  }
  std::vector<double> want;
  for (std::size_t r = 0; r + 1 < splits.size(); ++r) {
    double lanes[16] = {};
    const std::int64_t n = splits[r + 1] - splits[r];
    for (std::int64_t k = 0; k < n; ++k) {
      lanes[k % 16] += values[static_cast<std::size_t>(splits[r] + k)];
    }
    double acc = 0.0;
    for (std::int64_t l = 0; l < std::min<std::int64_t>(n, 16); ++l) acc += lanes[l];
    want.push_back(acc);
  }
  const auto host = ts::RaggedTensor<double>::from_row_splits(
      ts::Tensor<double>::from_vector(values), ts::Tensor<std::int64_t>::from_vector(splits));
  for (const auto& device : tessera_test::available_devices()) {
    SCOPED_TRACE(device.str());
    const auto got = ts::ragged::reduce_sum(host.to(device)).cpu().to_vector();
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t r = 0; r < want.size(); ++r) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got[r]), std::bit_cast<std::uint64_t>(want[r]))
          << "row of " << r << " values";
    }
  }
}

// ---- row selection: gather, boolean_mask, from_tensor ------------------------------------

template <class T, class S>
void expect_ragged(const ts::RaggedTensor<T, S>& got, const nlohmann::json& c,
                   const std::string& what) {
  std::vector<std::int64_t> splits;
  for (const S s : got.row_splits().cpu().to_vector()) splits.push_back(s);
  EXPECT_EQ(splits, c["out_splits"].get<std::vector<std::int64_t>>()) << what;
  EXPECT_EQ(got.values().shape(), tessera_test::shape_of(c["out_values"])) << what;
  EXPECT_EQ(got.values().cpu().to_vector(), tessera_test::decode_all<T>(c["out_values"])) << what;
}

TEST_P(RaggedReduce, RowSelectionMatchesTensorFlow) {
  int checked = 0;
  for (const auto& c : cases("select")) {
    const auto op = c["op"].get<std::string>();
    if (op == "gather") {
      const auto r = ts::RaggedTensor<float>::from_row_splits(
          golden_tensor<float>(c["values"], device()),
          ts::Tensor<std::int64_t>::from_vector(c["row_splits"].get<std::vector<std::int64_t>>(),
                                                device()));
      const auto rows = c["rows"].get<std::vector<std::int64_t>>();
      expect_ragged(r.gather(ts::Tensor<std::int64_t>::from_vector(rows, device())), c, op);
      const std::vector<std::int32_t> rows32(rows.begin(), rows.end());
      expect_ragged(r.gather(ts::Tensor<std::int32_t>::from_vector(rows32, device())), c, op);
    } else if (op == "boolean_mask") {
      const auto mask = golden_tensor<bool>(c["mask"], device());
      with_dtype<std::int32_t, float>(c["x"]["dtype"].get<std::string>(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        expect_ragged(ts::ragged::boolean_mask(golden_tensor<T>(c["x"], device()), mask), c, op);
      });
    } else if (op == "from_tensor_lengths") {
      const auto dense = golden_tensor<float>(c["dense"], device());
      const auto lengths = c["lengths"].get<std::vector<std::int64_t>>();
      expect_ragged(ts::RaggedTensor<float>::from_tensor(
                        dense, ts::Tensor<std::int64_t>::from_vector(lengths, device())),
                    c, op);
    } else {
      const auto dense = golden_tensor<float>(c["dense"], device());
      expect_ragged(
          ts::RaggedTensor<float>::from_tensor(dense, ts::padding(c["padding"].get<float>())), c,
          op);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 11);
}

TEST_P(RaggedReduce, RowSelectionRefusesBadArguments) {
  const auto r = ts::RaggedTensor<float>::from_row_splits(
      ts::tensor<float>({1, 2, 3}).to(device()), ts::tensor<std::int64_t>({0, 2, 3}).to(device()));
  try {
    r.gather(ts::tensor<std::int64_t>({0, -1}).to(device()));
    FAIL() << "no IndexError";
  } catch (const ts::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("rows[1] = -1 is not in [0, 2)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(r.gather(ts::tensor<std::int32_t>({2}).to(device())), ts::IndexError);
  EXPECT_THROW(r.gather(ts::Tensor<std::int64_t>::zeros({1, 1}, device())), ts::ShapeError);
  const auto dense = ts::Tensor<float>::zeros({2, 3}, device());
  EXPECT_THROW(
      ts::RaggedTensor<float>::from_tensor(dense, ts::tensor<std::int64_t>({1, 4}).to(device())),
      ts::ValueError);
  EXPECT_THROW(
      ts::RaggedTensor<float>::from_tensor(dense, ts::tensor<std::int64_t>({1, -1}).to(device())),
      ts::ValueError);
  EXPECT_THROW(
      ts::RaggedTensor<float>::from_tensor(dense, ts::tensor<std::int64_t>({1}).to(device())),
      ts::ShapeError);
  EXPECT_THROW(ts::ragged::boolean_mask(dense, ts::Tensor<bool>::zeros({3, 2}, device())),
               ts::ShapeError);
  // Masked rows of an expression's result, and a round trip through to_tensor.
  const auto back = ts::RaggedTensor<float>::from_tensor(r.to_tensor(-1.0f), ts::padding(-1.0f));
  EXPECT_EQ(back.to_list(), r.to_list());
}

// ---- errors ------------------------------------------------------------------------------

TEST_P(RaggedReduce, BadAxesAndSegmentArgumentsRaise) {
  const auto r = ts::RaggedTensor<float>::from_row_splits(
      ts::Tensor<float>::zeros({4, 2}, device()), ts::tensor<std::int64_t>({0, 1, 4}).to(device()));
  EXPECT_THROW(ts::ragged::reduce_sum(r, 3), ts::IndexError);
  EXPECT_THROW(ts::ragged::reduce_sum(r, -4), ts::IndexError);
  EXPECT_THROW(ts::ragged::reduce_sum(r, 2), ts::ValueError);
  EXPECT_THROW(ts::ragged::reduce_sum(r, -1), ts::ValueError);          // the inner dim
  EXPECT_EQ(ts::ragged::reduce_sum(r, -2).shape(), ts::Shape({2, 2}));  // axis 1
  try {
    ts::ragged::reduce_max(r, 5);
    FAIL() << "no IndexError";
  } catch (const ts::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("ragged::reduce_max"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("axis 5"), std::string::npos) << e.what();
  }

  const auto data = ts::tensor<float>({1, 2, 3}).to(device());
  for (const auto& e : cases("segment_errors")) {
    const auto d = golden_tensor<double>(e["data"], device());
    const auto ids = golden_tensor<std::int32_t>(e["ids"], device());
    try {
      ts::unsorted_segment_sum(d, ids, e["n"].get<std::int64_t>());
      FAIL() << "no IndexError";
    } catch (const ts::IndexError& err) {
      EXPECT_NE(std::string(err.what()).find(e["message"].get<std::string>()), std::string::npos)
          << err.what();
    }
  }
  EXPECT_THROW(ts::unsorted_segment_sum(data, ts::tensor<int64_t>({0, 1, 2}).to(device()), -1),
               ts::ValueError);
  EXPECT_THROW(ts::unsorted_segment_sum(data, ts::tensor<int64_t>({0, 1}).to(device()), 3),
               ts::ShapeError);
  EXPECT_THROW(ts::unsorted_segment_max(ts::Tensor<float>::zeros({2, 3}, device()),
                                        ts::Tensor<int64_t>::zeros({3}, device()), 3),
               ts::ShapeError);
  if (!device().is_cpu()) {
    EXPECT_THROW(ts::unsorted_segment_sum(data, ts::tensor<int64_t>({0, 1, 2}), 3),
                 ts::DeviceError);
  }
}

}  // namespace
