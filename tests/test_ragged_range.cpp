// SPDX-License-Identifier: BSD-3-Clause
// ragged::range: golden cases from TensorFlow (tools/golden/gen_ragged.py: tf.ragged.range's
// reference page examples and TensorFlow's ragged_range_op_test cases), its error cases, a
// reference loop over random int/float inputs in every argument form, long rows, and the CUDA
// kernel against the host.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/ragged_golden.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::decode;
using tessera_test::golden;
using tessera_test::golden_tensor;
using tessera_test::golden_vector;

const nlohmann::json& cases(const char* key) { return golden("ragged_golden.json")[key]; }

/// Runs a golden case on `device`: on the CPU through the overload of its arity (limits only,
/// starts + limits, all three), elsewhere through the form that names the device.
template <class T, class S>
ts::RaggedTensor<T, S> run_case(const nlohmann::json& c, ts::Device device) {
  std::vector<ts::ragged::RangeArg<T>> a;
  for (const auto& arg : c["args"]) {
    if (arg.contains("scalar")) {
      a.emplace_back(decode<T>(arg["scalar"]));
    } else {
      a.emplace_back(golden_tensor<T>(arg, device));
    }
  }
  if (a.size() == 3) return ts::ragged::range<T, S>(a[0], a[1], a[2], device);
  if (device.is_cpu()) {
    return a.size() == 1 ? ts::ragged::range<T, S>(a[0]) : ts::ragged::range<T, S>(a[0], a[1]);
  }
  return a.size() == 1 ? ts::ragged::range<T, S>(T(0), a[0], T(1), device)
                       : ts::ragged::range<T, S>(a[0], a[1], T(1), device);
}

/// TensorFlow adds delta repeatedly in T; tessera computes start + j * delta in double.
template <class T>
void expect_values_near(const std::vector<T>& got, const std::vector<T>& want,
                        const std::string& name) {
  ASSERT_EQ(got.size(), want.size()) << name;
  for (std::size_t k = 0; k < got.size(); ++k) {
    if constexpr (std::is_floating_point_v<T>) {
      const double tol =
          (std::is_same_v<T, float> ? 1e-5 : 1e-12) * std::max(1.0, std::abs(double(want[k])));
      EXPECT_NEAR(got[k], want[k], tol) << name << " value " << k;
    } else {
      EXPECT_EQ(got[k], want[k]) << name << " value " << k;
    }
  }
}

class RaggedRange : public tessera_test::OnEachDevice {};

TEST_P(RaggedRange, MatchesTensorFlowGoldenCases) {
  int checked = 0;
  for (const auto& c : cases("range")) {
    tessera_test::with_case_types<std::int32_t, std::int64_t, float, double>(
        c, [&](auto t, auto s) {
          using T = typename decltype(t)::type;
          using S = typename decltype(s)::type;
          const std::string name = c["name"];
          const auto r = run_case<T, S>(c, device());
          EXPECT_EQ(r.row_splits().to_vector(), c["row_splits"].get<std::vector<S>>()) << name;
          expect_values_near(r.values().to_vector(), golden_vector<T>(c["values"]), name);
          EXPECT_EQ(r.values().dim(), 1);
          ++checked;
        });
  }
  EXPECT_GE(checked, 25);
}

/// TensorFlow's messages are kept; tessera adds the row and its arguments.
TEST_P(RaggedRange, RejectsWhatTensorFlowRejects) {
  int checked = 0;
  for (const auto& c : cases("range_errors")) {
    tessera_test::with_case_types<std::int32_t, std::int64_t, float, double>(
        c, [&](auto t, auto s) {
          using T = typename decltype(t)::type;
          using S = typename decltype(s)::type;
          const std::string name = c["name"];
          const std::string message = c["message"];
          const bool shape_error = message.find("shape") != std::string::npos ||
                                   message.find("scalar or vector") != std::string::npos;
          const std::string key =
              message.find("total range size") != std::string::npos ? "total range size" : message;
          try {
            run_case<T, S>(c, device());
            ADD_FAILURE() << name << ": no error";
          } catch (const ts::ShapeError& e) {
            EXPECT_TRUE(shape_error) << name << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
          } catch (const ts::ValueError& e) {
            EXPECT_FALSE(shape_error) << name << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
          }
          ++checked;
        });
  }
  EXPECT_EQ(checked, 13);
}

TEST_P(RaggedRange, ErrorsNameTheRow) {
  const auto starts = ts::tensor<int64_t>({0, 1, 2}, device());
  try {
    ts::ragged::range<int64_t>(starts, 5, ts::tensor<int64_t>({1, 0, 0}, device()));
    FAIL() << "no error";
  } catch (const ts::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1: start = 1, limit = 5, delta = 0"),
              std::string::npos)
        << e.what();
  }
  try {
    ts::ragged::range<float>(
        ts::tensor<float>({0, 1}, device()),
        ts::tensor<float>({1, std::numeric_limits<float>::infinity()}, device()), 1.0f);
    FAIL() << "no error";
  } catch (const ts::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1"), std::string::npos) << e.what();
  }
}

/// The total is checked before the values are allocated: 3 * 2^30 int32 splits fail at once.
TEST_P(RaggedRange, TotalOverflowOfInt32SplitsFailsBeforeAllocating) {
  const auto limits = ts::tensor<int64_t>({1 << 30, 1 << 30, 1 << 30}, device());
  ts::reset_peak_memory_stats(device());
  const auto before = ts::memory_stats(device()).current_bytes;
  EXPECT_THROW((ts::ragged::range<int64_t, int32_t>(limits)), ts::ValueError);
  EXPECT_LT(ts::memory_stats(device()).peak_bytes, before + (1u << 20));
  // int64 splits hold the same total.
  const auto r =
      ts::ragged::range<int64_t, int64_t>(ts::tensor<int64_t>({1 << 20, 1 << 20}, device()));
  EXPECT_EQ(r.row_splits().to_vector(), (std::vector<int64_t>{0, 1 << 20, 2 << 20}));
}

// ---- reference loop over random inputs ---------------------------------------------------

/// Python's range, element by element, in exact arithmetic (ints) or T for the size and double
/// for the elements (floats, as docs/ops/ragged.md says).
template <class T>
std::vector<T> reference_row(T start, T limit, T delta) {
  std::vector<T> row;
  if constexpr (std::is_integral_v<T>) {
    for (__int128 v = start; delta > 0 ? v < limit : v > limit; v += delta) row.push_back(T(v));
  } else {
    if ((delta > 0 && limit < start) || (delta < 0 && limit > start)) return row;
    const T n = std::ceil(std::abs((limit - start) / delta));
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(n); ++j) {
      row.push_back(static_cast<T>(double(start) + double(j) * double(delta)));
    }
  }
  return row;
}

template <class T>
T draw(std::mt19937_64& gen, bool delta) {
  if constexpr (std::is_integral_v<T>) {
    if (delta) {
      T d = 0;
      while (d == 0) d = static_cast<T>(std::uniform_int_distribution<int>(-7, 7)(gen));
      return d;
    }
    return static_cast<T>(std::uniform_int_distribution<int>(-40, 40)(gen));
  } else {
    if (delta) {
      T d = 0;
      while (d == 0) d = static_cast<T>(std::uniform_int_distribution<int>(-12, 12)(gen)) / T(4);
      return d;
    }
    return static_cast<T>(std::uniform_real_distribution<double>(-30, 30)(gen));
  }
}

/// One argument in a random form: a scalar, a 0-d tensor, a contiguous or a strided vector.
template <class T>
ts::ragged::RangeArg<T> random_arg(std::mt19937_64& gen, const std::vector<T>& v, int form,
                                   ts::Device device) {
  switch (form) {
    case 0:
      return v[0];
    case 1:
      return ts::Tensor<T>::scalar(v[0], device);
    case 2:
      return ts::Tensor<T>::from_vector(v, device);
    default: {
      // every other element of a twice-as-long vector
      std::vector<T> wide(2 * v.size());
      for (std::size_t i = 0; i < v.size(); ++i)
        wide[2 * i] = v[i], wide[2 * i + 1] = draw<T>(gen, true);
      return ts::Tensor<T>::from_vector(wide, device).slice(0, 0, std::int64_t(wide.size()), 2);
    }
  }
}

template <class T, class S>
void check_random(ts::Device device, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  for (int trial = 0; trial < 40; ++trial) {
    const int nrows = std::uniform_int_distribution<int>(0, 30)(gen);
    int forms[3];
    bool any_vector = false;
    for (int& f : forms) {
      f = std::uniform_int_distribution<int>(0, 3)(gen);
      if (nrows != 1 && f >= 2) any_vector = true;
    }
    const std::size_t n = any_vector ? std::size_t(nrows) : 1;
    std::vector<T> v[3];
    for (int a = 0; a < 3; ++a) {
      const std::size_t len = forms[a] >= 2 ? n : 1;
      for (std::size_t i = 0; i < len; ++i) v[a].push_back(draw<T>(gen, a == 2));
      if (forms[a] >= 2 && !any_vector) forms[a] = 0;  // keep one-row calls all-scalar
    }
    const auto r = ts::ragged::range<T, S>(random_arg(gen, v[0], forms[0], device),
                                           random_arg(gen, v[1], forms[1], device),
                                           random_arg(gen, v[2], forms[2], device), device);
    std::vector<S> splits{0};
    std::vector<T> values;
    for (std::size_t i = 0; i < n; ++i) {
      auto at = [&](int a) { return v[a].size() == 1 ? v[a][0] : v[a][i]; };
      const auto row = reference_row<T>(at(0), at(1), at(2));
      values.insert(values.end(), row.begin(), row.end());
      splits.push_back(static_cast<S>(values.size()));
    }
    ASSERT_EQ(r.row_splits().to_vector(), splits) << "trial " << trial;
    ASSERT_EQ(r.values().to_vector(), values) << "trial " << trial;
    ASSERT_EQ(r.device(), device);
  }
}

TEST_P(RaggedRange, EqualsReferenceLoopOnRandomInputs) {
  check_random<std::int32_t, std::int64_t>(device(), 1);
  check_random<std::int64_t, std::int32_t>(device(), 2);
  check_random<float, std::int64_t>(device(), 3);
  check_random<double, std::int32_t>(device(), 4);
}

/// Rows longer than a host block are split between threads; values must still be exact.
TEST_P(RaggedRange, LongRowsAndManyShortRows) {
  const auto r =
      ts::ragged::range<int64_t>(ts::tensor<int64_t>({0, -5, 7}, device()),
                                 ts::tensor<int64_t>({300001, -5, 7 + 3 * 200000}, device()),
                                 ts::tensor<int64_t>({1, 1, 3}, device()));
  const auto values = r.values().to_vector();
  ASSERT_EQ(values.size(), 300001u + 200000u);
  for (std::int64_t k = 0; k < 300001; ++k) ASSERT_EQ(values[k], k);
  for (std::int64_t j = 0; j < 200000; ++j) ASSERT_EQ(values[300001 + j], 7 + 3 * j);

  std::vector<int64_t> limits(100000);
  for (std::size_t i = 0; i < limits.size(); ++i) limits[i] = static_cast<int64_t>(i % 7);
  const auto many = ts::ragged::range<double, int32_t>(
      ts::Tensor<double>::from_vector(std::vector<double>(limits.begin(), limits.end()), device()));
  const auto splits = many.row_splits().to_vector();
  const auto vals = many.values().to_vector();
  for (std::size_t i = 0; i < limits.size(); ++i) {
    ASSERT_EQ(splits[i + 1] - splits[i], limits[i]);
    for (int32_t j = splits[i]; j < splits[i + 1]; ++j) ASSERT_EQ(vals[j], j - splits[i]);
  }
}

TEST_P(RaggedRange, TensorArgumentsMustShareADevice) {
  // The other device: the CPU for a device case, cuda:0 for the CPU case.
  const ts::Device other = device().is_cpu() ? ts::Device::cuda(0) : ts::Device::cpu();
  if (!ts::cuda_available()) GTEST_SKIP() << "needs a second device";
  EXPECT_THROW(ts::ragged::range<int64_t>(ts::tensor<int64_t>({1, 2}, other),
                                          ts::tensor<int64_t>({3, 4}, device())),
               ts::DeviceError);
}

TESSERA_INSTANTIATE_ON_EACH_DEVICE(RaggedRange);

/// The GPU kernel gives the host's answers, on random inputs of every type pair.
TEST(RaggedRangeCuda, EqualsHost) {
  if (!ts::cuda_available()) GTEST_SKIP() << tessera_test::unavailable_reason(ts::Device::cuda(0));
  std::mt19937_64 gen(7);
  std::vector<float> starts(5000), limits(5000), deltas(5000);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    starts[i] = draw<float>(gen, false);
    limits[i] = draw<float>(gen, false);
    deltas[i] = draw<float>(gen, true);
  }
  const auto host = ts::ragged::range<float, int32_t>(ts::Tensor<float>::from_vector(starts),
                                                      ts::Tensor<float>::from_vector(limits),
                                                      ts::Tensor<float>::from_vector(deltas));
  const auto gpu = ts::ragged::range<float, int32_t>(
      ts::Tensor<float>::from_vector(starts, ts::Device::cuda(0)),
      ts::Tensor<float>::from_vector(limits, ts::Device::cuda(0)),
      ts::Tensor<float>::from_vector(deltas, ts::Device::cuda(0)));
  EXPECT_EQ(gpu.device(), ts::Device::cuda(0));
  EXPECT_EQ(gpu.row_splits().to_vector(), host.row_splits().to_vector());
  EXPECT_EQ(gpu.values().to_vector(), host.values().to_vector());
}

}  // namespace
