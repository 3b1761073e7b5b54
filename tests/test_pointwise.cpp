// SPDX-License-Identifier: BSD-3-Clause
// The pointwise rules PyTorch's goldens cannot pin (it raises where tessera defines a value), the
// promotion rules at compile time, and every layout: strided and broadcast operands and
// expression operands give the elementwise reference's answer on every device.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "support/pointwise_check.hpp"
#include "support/reference.hpp"

namespace ts = tessera;
using tessera_test::values_match;

namespace {
template <class E>
using value_t = typename std::remove_cvref_t<E>::value_type;
template <class T>
using Tn = ts::Tensor<T>;

// Promotion (PyTorch): float functions of integers compute in float32, pow(int, int) stays
// integer, tests give bool, an int tensor with a float scalar is float32, bool with an int
// scalar int64.
static_assert(std::is_same_v<value_t<decltype(ts::sin(std::declval<Tn<std::int32_t>>()))>, float>);
static_assert(std::is_same_v<value_t<decltype(ts::sin(std::declval<Tn<double>>()))>, double>);
static_assert(std::is_same_v<value_t<decltype(ts::sigmoid(std::declval<Tn<bool>>()))>, float>);
static_assert(
    std::is_same_v<value_t<decltype(ts::pow(std::declval<Tn<std::int16_t>>(), 2))>, std::int16_t>);
static_assert(
    std::is_same_v<value_t<decltype(ts::pow(std::declval<Tn<std::int32_t>>(), 2.5))>, float>);
static_assert(std::is_same_v<value_t<decltype(ts::pow(2, std::declval<Tn<double>>()))>, double>);
static_assert(std::is_same_v<value_t<decltype(ts::atan2(std::declval<Tn<std::int64_t>>(),
                                                        std::declval<Tn<std::int64_t>>()))>,
                             float>);
static_assert(std::is_same_v<value_t<decltype(ts::isnan(std::declval<Tn<float>>()))>, bool>);
static_assert(std::is_same_v<value_t<decltype(ts::logical_and(std::declval<Tn<float>>(),
                                                              std::declval<Tn<std::int8_t>>()))>,
                             bool>);
static_assert(std::is_same_v<value_t<decltype(std::declval<Tn<std::int32_t>>() * 2.5)>, float>);
static_assert(std::is_same_v<value_t<decltype(std::declval<Tn<bool>>() + 1)>, std::int64_t>);
static_assert(std::is_same_v<
              value_t<decltype(std::declval<Tn<std::uint8_t>>() % std::declval<Tn<std::int8_t>>())>,
              std::int16_t>);
static_assert(std::is_same_v<value_t<decltype(~std::declval<Tn<std::int8_t>>())>, std::int8_t>);
static_assert(
    std::is_same_v<value_t<decltype(ts::floor(std::declval<Tn<std::int32_t>>()))>, std::int32_t>);
static_assert(
    std::is_same_v<value_t<decltype(ts::clamp(std::declval<Tn<std::int32_t>>(), 0.5f, 2))>, float>);
static_assert(
    std::is_same_v<value_t<decltype(ts::isclose(std::declval<Tn<float>>(), 1.0f))>, bool>);

template <class T>
std::vector<T> values_of(const ts::Tensor<T>& t) {
  return t.cpu().to_vector();
}
}  // namespace

class PointwiseRules : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(PointwiseRules);

// PyTorch raises ZeroDivisionError here on the CPU; tessera gives 0 on every device (as NumPy),
// and never traps on INT_MIN / -1.
TEST_P(PointwiseRules, IntegerDivisionByZeroGivesZeroAndMinByMinusOneWraps) {
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  const auto a = ts::Tensor<std::int32_t>::from_vector({7, -7, kMin, kMin, 5, -5}, {6}, device());
  const auto b = ts::Tensor<std::int32_t>::from_vector({0, 0, -1, 0, -3, 3}, {6}, device());
  EXPECT_EQ(values_of(ts::eval(a / b)), (std::vector<std::int32_t>{0, 0, kMin, 0, -1, -1}));
  EXPECT_EQ(values_of(ts::eval(a % b)), (std::vector<std::int32_t>{0, 0, 0, 0, 2, -2}));
  EXPECT_EQ(values_of(ts::eval(ts::fmod(a, b))), (std::vector<std::int32_t>{0, 0, 0, 0, 2, -2}));
  EXPECT_EQ(values_of(ts::eval(ts::remainder(a, b))),
            (std::vector<std::int32_t>{0, 0, 0, 0, -1, 1}));
  EXPECT_EQ(values_of(ts::eval(ts::floor_divide(a, b))),
            (std::vector<std::int32_t>{0, 0, kMin, 0, -2, -2}));
  const auto u = ts::Tensor<std::uint8_t>::from_vector({7, 200}, {2}, device());
  EXPECT_EQ(values_of(ts::eval(u % std::uint8_t{0})), (std::vector<std::uint8_t>{0, 0}));
  EXPECT_EQ(values_of(ts::eval(ts::floor_divide(u, std::uint8_t{3}))),
            (std::vector<std::uint8_t>{2, 66}));
}

TEST_P(PointwiseRules, ShiftsPastTheWidthGiveZeroOrTheSignFill) {
  const auto a = ts::Tensor<std::int8_t>::from_vector({1, -8, 1, -8, 3, -128}, {6}, device());
  const auto s = ts::Tensor<std::int8_t>::from_vector({8, 9, -1, -1, 2, 1}, {6}, device());
  EXPECT_EQ(values_of(ts::eval(a << s)), (std::vector<std::int8_t>{0, 0, 0, 0, 12, 0}));
  EXPECT_EQ(values_of(ts::eval(a >> s)), (std::vector<std::int8_t>{0, -1, 0, -1, 0, -64}));
  const auto w = ts::Tensor<std::int64_t>::from_vector({1, -1}, {2}, device());
  EXPECT_EQ(values_of(ts::eval(w << 63)),
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(),
                                       std::numeric_limits<std::int64_t>::min()}));
  EXPECT_EQ(values_of(ts::eval(w >> 64)), (std::vector<std::int64_t>{0, -1}));
  EXPECT_EQ(values_of(ts::eval(~w)), (std::vector<std::int64_t>{-2, 0}));
}

TEST_P(PointwiseRules, IntegerPowWrapsAndNegativeExponentsGiveZeroButForPlusMinusOne) {
  const auto base = ts::Tensor<std::int32_t>::from_vector({2, -1, -1, 1, 0, 3, 2}, {7}, device());
  const auto exp = ts::Tensor<std::int32_t>::from_vector({-1, -3, -2, -5, 0, 4, 33}, {7}, device());
  EXPECT_EQ(values_of(ts::eval(ts::pow(base, exp))),
            (std::vector<std::int32_t>{0, -1, 1, 1, 1, 81, 0}));
  const auto i8 = ts::Tensor<std::int8_t>::from_vector({3, -2}, {2}, device());
  EXPECT_EQ(values_of(ts::eval(ts::pow(i8, std::int8_t{5}))),
            (std::vector<std::int8_t>{-13, -32}));  // 243 wraps to -13
}

TEST_P(PointwiseRules, SpecialFloatValuesFollowPyTorch) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto x =
      ts::Tensor<float>::from_vector({nan, -0.0f, 0.5f, -0.5f, 2.5f, -inf}, {6}, device());
  EXPECT_TRUE(values_match(values_of(ts::eval(ts::sign(x))),
                           std::vector<float>{0.0f, 0.0f, 1.0f, -1.0f, 1.0f, -1.0f}, 0, "sign"));
  EXPECT_TRUE(values_match(values_of(ts::eval(ts::round(x))),
                           std::vector<float>{nan, -0.0f, 0.0f, -0.0f, 2.0f, -inf}, 0, "round"));
  EXPECT_EQ(values_of(ts::eval(ts::signbit(x))),
            (std::vector<bool>{false, true, false, true, false, true}));
  EXPECT_EQ(values_of(ts::eval(!x)), (std::vector<bool>{false, true, false, false, false, false}));
  const auto y = ts::Tensor<float>::from_vector({1.0f, nan, 3.0f, nan, 0.0f, 1.0f}, {6}, device());
  EXPECT_TRUE(values_match(values_of(ts::eval(ts::fmax(x, y))),
                           std::vector<float>{1.0f, -0.0f, 3.0f, -0.5f, 2.5f, 1.0f}, 0, "fmax"));
  EXPECT_TRUE(values_match(values_of(ts::eval(ts::maximum(x, y))),
                           std::vector<float>{nan, nan, 3.0f, nan, 2.5f, 1.0f}, 0, "maximum"));
  EXPECT_TRUE(values_match(values_of(ts::eval(ts::clamp(x, 1.0f, 0.0f))),
                           std::vector<float>{nan, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}, 0,
                           "clamp lo>hi"));
}

TEST_P(PointwiseRules, CloseComparesWithToleranceInfinitiesAndNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto a = ts::Tensor<float>::from_vector({1.0f, 1.0f, inf, inf, nan, 100.0f}, {6}, device());
  const auto b =
      ts::Tensor<float>::from_vector({1.0f + 1e-6f, 1.1f, inf, -inf, nan, 100.001f}, {6}, device());
  EXPECT_EQ(values_of(ts::eval(ts::isclose(a, b))),
            (std::vector<bool>{true, false, true, false, false, true}));
  EXPECT_EQ(values_of(ts::eval(ts::isclose(a, b, 1e-5, 1e-8, true))),
            (std::vector<bool>{true, false, true, false, true, true}));
  EXPECT_FALSE(ts::allclose(a, b));
  EXPECT_TRUE(ts::allclose(a, a, 1e-5, 1e-8, true));
  EXPECT_TRUE(ts::allclose(a * 2.0f, a + a, 0.0, 0.0, true));  // expressions
  const auto i = ts::Tensor<std::int32_t>::from_vector({10, 20}, {2}, device());
  EXPECT_EQ(values_of(ts::eval(ts::isclose(i, i + 1, 0.06, 0.0))),
            (std::vector<bool>{false, true}));
}

// The same bits for every layout: the function of a transposed, sliced or broadcast operand (and
// of an expression) equals the function of its contiguous copy, element for element.
TEST_P(PointwiseRules, StridedBroadcastAndExpressionOperandsMatchContiguous) {
  std::mt19937_64 rng(34);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> v(6 * 7);
  for (float& f : v) f = dist(rng);
  const auto base = ts::Tensor<float>::from_vector(v, {6, 7}, device());
  const auto t = base.transpose(0, 1);                    // (7, 6), strided
  const auto s = base.slice(1, 1, 7, 2).transpose(0, 1);  // (3, 6), stepped
  const ts::Tensor<float> tc = t.contiguous();
  const ts::Tensor<float> sc = s.contiguous();
  const auto row =
      ts::Tensor<float>::from_vector({0.5f, -1.5f, 2.0f, 3.0f, -0.25f, 1.0f}, {6}, device());
  auto same = [](const auto& got, const auto& want, const char* what) {
    EXPECT_TRUE(values_match(values_of(ts::eval(got)), values_of(ts::eval(want)), 0, what));
  };
  // A contiguous output of a vectorised row takes the host's vector loops (host_vector_math.hpp),
  // other layouts scalar cmath: glibc's sinf and powf are within an ulp of the correctly rounded
  // value and the vector loops within 3 (test_host_vector_math.cpp), so they agree within 4.
  auto near = [](const auto& got, const auto& want, const char* what) {
    EXPECT_TRUE(values_match(values_of(ts::eval(got)), values_of(ts::eval(want)), 4, what));
  };
  near(ts::sin(t), ts::sin(tc), "sin strided");
  same(ts::atan2(s, row), ts::atan2(sc, row), "atan2 stepped, broadcast");
  near(ts::pow(t, 2.5f), ts::pow(tc, 2.5f), "pow strided");
  same(ts::isfinite(ts::log(t)), ts::isfinite(ts::log(tc)), "isfinite(log) strided");
  same(ts::floor_divide(t * 3.0f, row), ts::floor_divide(tc * 3.0f, row), "floor_divide expr");
  same(ts::clamp(t, -1.0f, row), ts::clamp(tc, -1.0f, row), "clamp with a tensor bound");
  same(ts::lerp(t, tc, 0.75f), ts::lerp(tc, tc, 0.75f), "lerp");
  const auto ints = ts::cast<std::int32_t>(t * 10.0f);
  same(ints % 7, ts::fmod(ts::eval(ints), 7), "% of an expression");
  same(ts::bitwise_xor(ints, ints << 1), ts::eval(ints) ^ (ts::eval(ints) << 1), "xor, shift");
  // Every element against the scalar reference, through the strided path.
  const auto got = values_of(ts::eval(ts::expm1(t)));
  const auto tv = values_of(tc);
  for (std::size_t i = 0; i < tv.size(); ++i) {
    EXPECT_LE(tessera_test::ulp_distance(
                  got[i], static_cast<float>(std::expm1(static_cast<long double>(tv[i])))),
              4)
        << i;
  }
}

// Transcendental functions within 4 ulp of the correctly rounded value (long double reference)
// over many random floats, in float32 and float64.
TEST_P(PointwiseRules, TranscendentalFunctionsAreWithinFourUlp) {
  std::mt19937_64 rng(35);
  std::uniform_real_distribution<double> dist(-3.0, 3.0);
  std::vector<float> fv(4096);
  std::vector<double> dv(4096);
  for (std::size_t i = 0; i < fv.size(); ++i) fv[i] = static_cast<float>(dv[i] = dist(rng));
  const auto f = ts::Tensor<float>::from_vector(fv, {4096}, device());
  const auto d = ts::Tensor<double>::from_vector(dv, {4096}, device());
  auto check = [&](const auto& gotf, const auto& gotd, auto ref, const char* what) {
    const auto gf = values_of(ts::eval(gotf));
    const auto gd = values_of(ts::eval(gotd));
    int bad = 0;
    for (std::size_t i = 0; i < fv.size(); ++i) {
      const long double rf = ref(static_cast<long double>(fv[i]));
      const long double rd = ref(static_cast<long double>(dv[i]));
      if (std::isnan(rf) != std::isnan(gf[i]) ||
          (!std::isnan(rf) && tessera_test::ulp_distance(gf[i], static_cast<float>(rf)) > 4)) {
        ++bad;
      }
      if (std::isnan(rd) != std::isnan(gd[i]) ||
          (!std::isnan(rd) && tessera_test::ulp_distance(gd[i], static_cast<double>(rd)) > 4)) {
        ++bad;
      }
    }
    EXPECT_EQ(bad, 0) << what;
  };
  check(
      ts::sin(f), ts::sin(d), [](long double x) { return std::sin(x); }, "sin");
  check(
      ts::tanh(f), ts::tanh(d), [](long double x) { return std::tanh(x); }, "tanh");
  check(
      ts::exp(f), ts::exp(d), [](long double x) { return std::exp(x); }, "exp");
  check(
      ts::log(f), ts::log(d), [](long double x) { return std::log(x); }, "log");
  check(
      ts::sigmoid(f), ts::sigmoid(d), [](long double x) { return 1.0L / (1.0L + std::exp(-x)); },
      "sigmoid");
  check(
      ts::pow(ts::abs(f), 2.5f), ts::pow(ts::abs(d), 2.5),
      [](long double x) { return std::pow(std::fabs(x), 2.5L); }, "pow");
  check(
      ts::erf(f), ts::erf(d), [](long double x) { return std::erf(x); }, "erf");
}
