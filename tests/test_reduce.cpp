// SPDX-License-Identifier: BSD-3-Clause
// Whole-tensor reductions (sum, min, max, any, all) over tensors and expressions, for every dtype
// on every device present: strided inputs, empty and 0-d inputs, NaN, integer overflow and
// float accuracy.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
namespace ref = tessera_test::ref;
using tessera_test::random_values;
using tessera_test::same_value;
using tessera_test::throws_with;

namespace {

/// Reference sum: int64 for bool and integers, double for floats (then T, as tessera returns).
template <class T>
ts::sum_t<T> ref_sum(const std::vector<T>& values) {
  std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t> acc = 0;
  for (const T x : values) acc += x;
  return static_cast<ts::sum_t<T>>(acc);
}
template <class T>
T ref_min(const std::vector<T>& values) {
  T m = values.at(0);
  for (const T x : values) m = ref::minimum(m, x);
  return m;
}
template <class T>
T ref_max(const std::vector<T>& values) {
  T m = values.at(0);
  for (const T x : values) m = ref::maximum(m, x);
  return m;
}
template <class T>
bool ref_any(const std::vector<T>& values) {
  for (const T x : values)
    if (x != T(0)) return true;  // NaN != 0 too
  return false;
}
template <class T>
bool ref_all(const std::vector<T>& values) {
  for (const T x : values)
    if (x == T(0)) return false;
  return true;
}

}  // namespace

template <class C>
class Reduce : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(Reduce, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(Reduce, ResultTypesFollowPyTorch) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({2}, this->device());
  using Sum = decltype(ts::sum(a));
  static_assert(
      std::is_same_v<Sum, std::conditional_t<std::is_floating_point_v<T>, T, std::int64_t>>);
  static_assert(std::is_same_v<decltype(ts::min(a)), T>);
  static_assert(std::is_same_v<decltype(ts::max(a)), T>);
  static_assert(std::is_same_v<decltype(ts::any(a)), bool>);
  static_assert(std::is_same_v<decltype(ts::all(a)), bool>);
  static_assert(std::is_same_v<decltype(ts::sum(a > T(0))), std::int64_t>);
  EXPECT_EQ(ts::sum(a), Sum{0});
}

TYPED_TEST(Reduce, EveryReductionMatchesReferenceOnEveryLayout) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(41);
  for (const ts::Shape& shape : {ts::Shape{7}, ts::Shape{3, 5}, ts::Shape{2, 3, 4}}) {
    const auto values = random_values<T>(shape.numel(), rng);
    for (const auto& s : tessera_test::all_layouts(values, shape, this->device())) {
      SCOPED_TRACE(testing::Message() << shape << " " << s.name);
      EXPECT_EQ(ts::sum(s.view), ref_sum(values));
      EXPECT_EQ(ts::min(s.view), ref_min(values));
      EXPECT_EQ(ts::max(s.view), ref_max(values));
      EXPECT_EQ(ts::any(s.view), ref_any(values));
      EXPECT_EQ(ts::all(s.view), ref_all(values));
    }
  }
  // any/all over all-true and all-false inputs.
  const auto zeros = ts::Tensor<T>::zeros({4, 4}, this->device()).transpose(0, 1);
  const auto ones = ts::Tensor<T>::ones({4, 4}, this->device()).slice(1, 0, 4, 2);
  EXPECT_FALSE(ts::any(zeros));
  EXPECT_FALSE(ts::all(zeros));
  EXPECT_TRUE(ts::any(ones));
  EXPECT_TRUE(ts::all(ones));
}

TYPED_TEST(Reduce, ReductionsOfExpressionsMatchReference) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(42);
  const auto av = random_values<T>(12, rng);
  const auto bv = random_values<T>(4, rng);
  const auto a = ts::Tensor<T>::from_vector(av, {4, 3}, this->device()).transpose(0, 1);  // (3, 4)
  const auto b = ts::Tensor<T>::from_vector(bv, {4}, this->device());
  std::vector<T> at;  // a's values, row-major
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) at.push_back(av[j * 3 + i]);
  const auto prod = tessera_test::ref_binary<T>(at, {3, 4}, bv, {4}, ref::mul<T>);
  const auto greater =
      tessera_test::ref_binary<bool>(at, {3, 4}, bv, {4}, [](T x, T y) { return x > y; });
  EXPECT_EQ(ts::sum(a * b), ref_sum(prod));
  EXPECT_EQ(ts::min(a * b), ref_min(prod));
  EXPECT_EQ(ts::max(ts::maximum(a, b)),
            ref_max(tessera_test::ref_binary<T>(at, {3, 4}, bv, {4}, ref::maximum<T>)));
  EXPECT_EQ(ts::sum(a > b), ref_sum(greater));  // counts, as int64
  EXPECT_EQ(ts::any(a > b), ref_any(greater));
  EXPECT_EQ(ts::all(a > b), ref_all(greater));
  EXPECT_EQ(ts::all(a == a), true);
  EXPECT_EQ(ts::any(a != a), false);
}

TYPED_TEST(Reduce, EmptyInputsGiveIdentitiesAndMinMaxRaise) {
  using T = typename TypeParam::value_type;
  for (const ts::Shape& shape : {ts::Shape{0}, ts::Shape{3, 0}, ts::Shape{0, 2, 2}}) {
    SCOPED_TRACE(shape.str());
    const auto e = ts::Tensor<T>::zeros(shape, this->device());
    EXPECT_EQ(ts::sum(e), ts::sum_t<T>{0});
    EXPECT_FALSE(ts::any(e));
    EXPECT_TRUE(ts::all(e));
    EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::min(e); }, {"min", "empty"}));
    EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::max(e); }, {"max", "empty"}));
    EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::max(e * T(1)); }));
  }
  // An empty result of broadcasting is empty too.
  const auto row = ts::Tensor<T>::ones({1, 3}, this->device());
  const auto none = ts::Tensor<T>::ones({0, 1}, this->device());
  EXPECT_EQ(ts::sum(row + none), ts::sum_t<T>{0});
  EXPECT_TRUE(ts::all(row != row + none));
}

TYPED_TEST(Reduce, ZeroDimInputsReduceToTheirValue) {
  using T = typename TypeParam::value_type;
  const T value = std::is_same_v<T, bool> ? T(1) : T(5);
  const auto s = ts::Tensor<T>::scalar(value, this->device());
  EXPECT_EQ(ts::sum(s), static_cast<ts::sum_t<T>>(value));
  EXPECT_EQ(ts::min(s), value);
  EXPECT_EQ(ts::max(s), value);
  EXPECT_TRUE(ts::any(s));
  EXPECT_TRUE(ts::all(s));
  EXPECT_FALSE(ts::any(s != s));
}

TYPED_TEST(Reduce, LargeInputsCombineEveryBlock) {
  using T = typename TypeParam::value_type;
  // Several host blocks (32768 elements each) and a strided walk; the extremes sit in the last
  // block.
  std::mt19937_64 rng(43);
  const std::int64_t rows = 331, cols = 317;
  auto values = random_values<T>(rows * cols, rng);
  if constexpr (!std::is_same_v<T, bool>) {
    values[values.size() - 5] = T(110);
    values[values.size() - 7] = std::is_unsigned_v<T> ? T(0) : T(-110);
  }
  const auto a = ts::Tensor<T>::from_vector(values, {cols, rows}, this->device()).transpose(0, 1);
  const auto contiguous = ts::Tensor<T>::from_vector(values, {rows * cols}, this->device());
  EXPECT_EQ(ts::sum(a), ref_sum(values));
  EXPECT_EQ(ts::sum(contiguous), ref_sum(values));
  EXPECT_EQ(ts::min(a), ref_min(values));
  EXPECT_EQ(ts::max(contiguous), ref_max(values));
  EXPECT_EQ(ts::any(a), ref_any(values));
  EXPECT_EQ(ts::all(contiguous), ref_all(values));
}

// ---- integers -------------------------------------------------------------------------------

namespace {
/// The wrapped (two's complement) int64 sum, computed in uint64 so the reference itself has no
/// undefined behaviour: what PyTorch's int64 sum returns.
template <class T>
std::int64_t ref_wrapped_sum(const std::vector<T>& values) {
  std::uint64_t acc = 0;
  for (const T x : values) acc += static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
  return static_cast<std::int64_t>(acc);
}
using IntegerDTypes =
    std::tuple<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t>;
}  // namespace

template <class C>
class ReduceExtremes : public tessera_test::Typed<C> {};
using IntegerCases = tessera_test::gtest_types_t<tessera_test::cartesian_t<IntegerDTypes>>;
TYPED_TEST_SUITE(ReduceExtremes, IntegerCases, tessera_test::CaseName);

// Every reduction at the extremes of every integer dtype, in every layout, and long enough
// (100003 elements) to cross the host's blocks and the device's partials: the sanitizer build
// (UBSan) checks that no path overflows a signed type.
TYPED_TEST(ReduceExtremes, EveryReductionAtTheLimitsOfTheDtypeMatchesReference) {
  using T = typename TypeParam::value_type;
  constexpr T lo = std::numeric_limits<T>::lowest();
  constexpr T hi = std::numeric_limits<T>::max();
  std::vector<std::vector<T>> cases = {{hi, T(1)}, {lo, hi}, {hi, hi, hi}, {lo, lo, lo}};
  if constexpr (std::is_signed_v<T>) cases.push_back({lo, T(-1)});
  for (const bool top : {true, false}) {
    std::vector<T> many(100003, top ? hi : lo);
    many[many.size() / 2] = top ? lo : hi;
    cases.push_back(std::move(many));
  }
  for (const auto& values : cases) {
    const auto n = static_cast<std::int64_t>(values.size());
    SCOPED_TRACE(::testing::Message() << n << " values from " << +values.front());
    for (const auto& input : tessera_test::all_layouts(values, {n}, this->device())) {
      const auto& x = input.view;
      EXPECT_EQ(ts::sum(x), ref_wrapped_sum(values));
      EXPECT_EQ(ts::min(x), ref_min(values));
      EXPECT_EQ(ts::max(x), ref_max(values));
      EXPECT_EQ(ts::any(x), ref_any(values));
      EXPECT_EQ(ts::all(x), ref_all(values));
    }
  }
}

class ReduceValues : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ReduceValues);

// Issue 19: ts::sum of int64 {INT64_MAX, 1} added with a plain `+` (signed overflow, reported by
// UBSan). It wraps, as torch.tensor([2**63 - 1, 1]).sum() == -2**63, on every device.
TEST_P(ReduceValues, Int64SumPastMaxWrapsWithoutUndefinedBehaviour) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(ts::sum(ts::tensor<std::int64_t>({kMax, 1}, device())), kMin);
  EXPECT_EQ(ts::sum(ts::tensor<std::int64_t>({kMin, -1}, device())), kMax);
  EXPECT_EQ(ts::sum(ts::tensor<std::int64_t>({kMax, kMax, 2}, device())), 0);
}

TEST_P(ReduceValues, IntegerSumsAreInt64WithoutOverflow) {
  const auto i8 = ts::Tensor<std::int8_t>::full({1000}, 100, device());
  static_assert(std::is_same_v<decltype(ts::sum(i8)), std::int64_t>);
  EXPECT_EQ(ts::sum(i8), 100000);
  EXPECT_EQ(ts::sum(ts::Tensor<std::int8_t>::full({1000}, -128, device())), -128000);
  EXPECT_EQ(ts::sum(ts::Tensor<std::uint8_t>::full({1000}, 255, device())), 255000);
  EXPECT_EQ(ts::sum(ts::Tensor<std::int16_t>::full({100}, 32767, device())), 3276700);
  const std::int32_t big = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(ts::sum(ts::Tensor<std::int32_t>::full({4}, big, device())), std::int64_t{4} * big);
  // Overflow of the expression itself happens in its own type (int8 100 + 100 wraps to -56).
  EXPECT_EQ(ts::sum(i8 + i8), -56000);
  const auto flags = ts::tensor<bool>({true, false, true, true}, device());
  EXPECT_EQ(ts::sum(flags), 3);
  const auto extremes = ts::tensor<std::int64_t>(
      {std::numeric_limits<std::int64_t>::min(), 0, std::numeric_limits<std::int64_t>::max()},
      device());
  EXPECT_EQ(ts::min(extremes), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(ts::max(extremes), std::numeric_limits<std::int64_t>::max());
}

// ---- floats ---------------------------------------------------------------------------------

TEST_P(ReduceValues, FloatSumOfTenMillionTenthsIsAccurate) {
  const std::int64_t n = 10'000'000;
  const double expected = static_cast<double>(n) * static_cast<double>(0.1f);
  const auto relative = [&](double got) { return std::fabs(got - expected) / expected; };
  const auto a = ts::Tensor<float>::full({n}, 0.1f, device());
  EXPECT_LE(relative(ts::sum(a)), 1e-6);
  EXPECT_LE(relative(ts::sum(a * 1.0f)), 1e-6);  // through an expression
  const auto strided = ts::Tensor<float>::full({2 * n}, 0.1f, device()).slice(0, 1, 2 * n, 2);
  EXPECT_LE(relative(ts::sum(strided)), 1e-6);
  EXPECT_LE(std::fabs(ts::sum(ts::Tensor<double>::full({n}, 0.1, device())) - 1e6) / 1e6, 1e-9);
}

TEST_P(ReduceValues, FloatSumOfRandomValuesMatchesDoubleReference) {
  std::mt19937_64 rng(44);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> values(1 << 20);
  double expected = 0;
  for (auto& x : values) {
    x = dist(rng);
    expected += x;
  }
  const auto a = ts::Tensor<float>::from_vector(values, {1024, 1024}, device()).transpose(0, 1);
  EXPECT_LE(std::fabs(ts::sum(a) - expected) / expected, 1e-6);
}

template <class C>
class ReduceFloat : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ReduceFloat, tessera_test::FloatCases, tessera_test::CaseName);

TYPED_TEST(ReduceFloat, NaNMakesMinMaxAndSumNaN) {
  using T = typename TypeParam::value_type;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::mt19937_64 rng(45);
  for (const std::size_t where : {std::size_t{0}, std::size_t{5}, std::size_t{11}}) {
    auto values = random_values<T>(12, rng);
    values[where] = nan;
    for (const auto& s : tessera_test::all_layouts(values, {3, 4}, this->device())) {
      SCOPED_TRACE(testing::Message() << "NaN at " << where << ", " << s.name);
      EXPECT_TRUE(std::isnan(ts::min(s.view)));
      EXPECT_TRUE(std::isnan(ts::max(s.view)));
      EXPECT_TRUE(std::isnan(ts::sum(s.view)));
      EXPECT_TRUE(ts::any(s.view));  // NaN is nonzero
    }
  }
  const auto neg = ts::Tensor<T>::from_vector({T(1), T(-1), T(2)}, this->device());
  EXPECT_TRUE(std::isnan(ts::max(ts::log(neg))));  // NaN produced inside the expression
  EXPECT_TRUE(std::isnan(ts::min(ts::sqrt(neg))));
  EXPECT_TRUE(ts::all(ts::Tensor<T>::full({3}, nan, this->device())));
}

TYPED_TEST(ReduceFloat, InfinitiesAreOrdinaryExtremes) {
  using T = typename TypeParam::value_type;
  const T inf = std::numeric_limits<T>::infinity();
  const auto a = ts::Tensor<T>::from_vector({-inf, T(0), T(3)}, this->device());
  EXPECT_EQ(ts::min(a), -inf);
  EXPECT_EQ(ts::max(a), T(3));
  EXPECT_EQ(ts::max(ts::Tensor<T>::full({4}, -inf, this->device())), -inf);
  EXPECT_EQ(ts::min(ts::Tensor<T>::full({4}, inf, this->device())), inf);
  EXPECT_EQ(ts::sum(a), -inf);
  EXPECT_TRUE(std::isnan(ts::sum(ts::Tensor<T>::from_vector({inf, -inf}, this->device()))));
  EXPECT_TRUE(
      same_value(ts::sum(ts::Tensor<T>::from_vector({T(0.25), T(0.5)}, this->device())), T(0.75)));
}
