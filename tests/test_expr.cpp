// SPDX-License-Identifier: BSD-3-Clause
// Elementwise expressions: arithmetic, comparisons, logic, where, math functions, minimum and
// maximum, casts, broadcasting, type promotion and integer division, checked against reference
// loops for every dtype on every device present, with strided operands.

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
using tessera_test::all_layouts;
using tessera_test::random_values;
using tessera_test::ref_binary;
using tessera_test::ref_unary;
using tessera_test::tensor_matches;
using tessera_test::throws_with;

// ---- the original smoke test, kept ----------------------------------------------------------

TEST(Expr, FusedArithmeticMatchesLoop) {
  auto a = ts::tensor<float>({{1, 3, 5}, {2, 4, 6}});
  auto b = ts::tensor<int64_t>({1, 2, 3});
  ts::Tensor<float> e = a + a * 2.0f - b.cast<float>();
  EXPECT_EQ(e.to_vector(), (std::vector<float>{2, 7, 12, 5, 10, 15}));
  ts::Tensor<bool> m = (a > 4.0f) & !(a == 5.0f);
  EXPECT_EQ(m.to_vector(), (std::vector<bool>{false, false, false, false, false, true}));
  auto w = ts::eval(ts::where(m, a, 0.0f));
  EXPECT_EQ(w.to_vector(), (std::vector<float>{0, 0, 0, 0, 0, 6}));
  EXPECT_EQ(ts::sum(a * a), 91.0f);
  EXPECT_EQ(ts::max(a), 6.0f);
  EXPECT_TRUE(ts::any(a > 5.0f));
  EXPECT_FALSE(ts::all(m));
  a = a + 1.0f;
  EXPECT_EQ(a.to_vector(), (std::vector<float>{2, 4, 6, 3, 5, 7}));
}

// An expression holds its operands by value (it cannot dangle); a subexpression passed as a
// temporary is moved into its parent instead of copied, so building `a * b + c` copies each
// tensor handle once.
TEST(Expr, OperandsPassedAsTemporariesAreMovedIntoTheNode) {
  auto a = ts::Tensor<float>::ones({3});
  const auto owners = [&] { return a.storage().use_count(); };
  auto product = a * 2.0f;  // a named tensor is copied: a and the node own the memory
  EXPECT_EQ(owners(), 2);
  auto sum = std::move(product) + 1.0f;  // the node moves into its parent: still two owners
  EXPECT_EQ(owners(), 2);
  auto both = sum - a;  // a named node is copied, a named tensor too: two more owners
  EXPECT_EQ(owners(), 4);
  auto unary = ts::sqrt(std::move(sum));
  auto cast = ts::cast<double>(std::move(unary));
  auto picked = ts::where(a > 0.0f, std::move(cast), 0.0);  // one more copy: `a > 0.0f`
  EXPECT_EQ(owners(), 5);
  const double root = std::sqrt(3.0f);  // sqrt computes in float, the cast widens its result
  EXPECT_EQ(ts::eval(picked).to_vector(), (std::vector<double>{root, root, root}));
  EXPECT_EQ(ts::eval(both).to_vector(), (std::vector<float>{2, 2, 2}));
  auto temporary = ts::Tensor<float>::full({2}, 4.0f) * ts::Tensor<float>::full({2}, 0.5f);
  EXPECT_EQ(temporary.a.storage().use_count(), 1);  // the temporaries' handles moved in
  EXPECT_EQ(ts::eval(temporary).to_vector(), (std::vector<float>{2, 2}));
}

// ---- arithmetic -----------------------------------------------------------------------------

template <class C>
class ExprArithmetic : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprArithmetic, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(ExprArithmetic, BinaryOpsMatchReferenceForEveryLayout) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(11);
  const ts::Shape shape{3, 4};
  const auto av = random_values<T>(12, rng);
  const auto bv = random_values<T>(12, rng, /*nonzero=*/true);
  const auto as = all_layouts(av, shape, this->device());
  const auto bs = all_layouts(bv, shape, this->device());
  for (std::size_t i = 0; i < as.size(); ++i) {
    const auto& a = as[i].view;
    const auto& b = bs[(i + 1) % bs.size()].view;
    SCOPED_TRACE(as[i].name + " op " + bs[(i + 1) % bs.size()].name);
    static_assert(std::is_same_v<typename decltype(a + b)::value_type, T>);
    EXPECT_TRUE(
        tensor_matches(ts::eval(a + b), shape, ref_binary<T>(av, shape, bv, shape, ref::add<T>)));
    EXPECT_TRUE(
        tensor_matches(ts::eval(a * b), shape, ref_binary<T>(av, shape, bv, shape, ref::mul<T>)));
    // bool / bool is true division into float (PyTorch); b is nonzero, so the quotient is a.
    using Quotient = typename decltype(a / b)::value_type;
    static_assert(std::is_same_v<Quotient, std::conditional_t<std::is_same_v<T, bool>, float, T>>);
    EXPECT_TRUE(tensor_matches(ts::eval(a / b), shape,
                               ref_binary<Quotient>(av, shape, bv, shape, ref::div<T>)));
    if constexpr (!std::is_same_v<T, bool>) {
      EXPECT_TRUE(
          tensor_matches(ts::eval(a - b), shape, ref_binary<T>(av, shape, bv, shape, ref::sub<T>)));
    }
    EXPECT_EQ(ts::eval(a + b).device(), this->device());
  }
}

TYPED_TEST(ExprArithmetic, ScalarOperandsOnEitherSide) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(12);
  const auto av = random_values<T>(6, rng, /*nonzero=*/true);
  const T s = std::is_same_v<T, bool> ? T(1) : T(3);
  for (const auto& l : all_layouts(av, {2, 3}, this->device())) {
    SCOPED_TRACE(l.name);
    const auto& a = l.view;
    static_assert(std::is_same_v<typename decltype(a * s)::value_type, T>);  // scalars are weak
    auto with = [&](auto f) { return ref_unary<T>(av, f); };
    EXPECT_TRUE(tensor_matches(ts::eval(a + s), {2, 3}, with([&](T x) { return ref::add(x, s); })));
    EXPECT_TRUE(tensor_matches(ts::eval(s + a), {2, 3}, with([&](T x) { return ref::add(s, x); })));
    EXPECT_TRUE(tensor_matches(ts::eval(a * s), {2, 3}, with([&](T x) { return ref::mul(x, s); })));
    EXPECT_TRUE(tensor_matches(ts::eval(s * a), {2, 3}, with([&](T x) { return ref::mul(s, x); })));
    // bool / bool gives float (PyTorch's true division); the divisors here are nonzero.
    using Quotient = typename decltype(a / s)::value_type;
    auto quotient = [&](auto f) { return ref_unary<Quotient>(av, f); };
    EXPECT_TRUE(
        tensor_matches(ts::eval(a / s), {2, 3}, quotient([&](T x) { return ref::div(x, s); })));
    EXPECT_TRUE(
        tensor_matches(ts::eval(s / a), {2, 3}, quotient([&](T x) { return ref::div(s, x); })));
    if constexpr (!std::is_same_v<T, bool>) {
      EXPECT_TRUE(
          tensor_matches(ts::eval(a - s), {2, 3}, with([&](T x) { return ref::sub(x, s); })));
      EXPECT_TRUE(
          tensor_matches(ts::eval(s - a), {2, 3}, with([&](T x) { return ref::sub(s, x); })));
    }
  }
}

TYPED_TEST(ExprArithmetic, CastOfAnExpressionConvertsTheResult) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(13);
  const auto av = random_values<T>(6, rng);
  for (const auto& l : all_layouts(av, {3, 2}, this->device())) {
    const auto e = ts::cast<double>(l.view + l.view);
    static_assert(std::is_same_v<typename decltype(e)::value_type, double>);
    EXPECT_TRUE(tensor_matches(
        ts::eval(e), {3, 2},
        ref_unary<double>(av, [](T x) { return static_cast<double>(ref::add(x, x)); })))
        << l.name;
    EXPECT_TRUE(tensor_matches(ts::eval(ts::cast<bool>(l.view)), {3, 2},
                               ref_unary<bool>(av, [](T x) { return x != T(0); })));
  }
}

template <class C>
class ExprNegate : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprNegate, tessera_test::NumericCases, tessera_test::CaseName);

TYPED_TEST(ExprNegate, UnaryMinusNegatesAndWrapsUnsigned) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(14);
  const auto av = random_values<T>(12, rng);
  for (const auto& l : all_layouts(av, {2, 6}, this->device())) {
    const auto negated = ref_unary<T>(av, [](T x) { return static_cast<T>(T(0) - x); });
    EXPECT_TRUE(tensor_matches(ts::eval(-l.view), {2, 6}, negated)) << l.name;
    EXPECT_TRUE(tensor_matches(ts::eval(-(-l.view)), {2, 6}, av)) << l.name;
  }
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    // The most negative integer has no positive counterpart: -MIN and abs(MIN) wrap to MIN,
    // as in PyTorch.
    const T lo = std::numeric_limits<T>::min();
    const auto m = ts::Tensor<T>::from_vector({lo, T(-5), T(5)}, this->device());
    EXPECT_TRUE(tensor_matches(ts::eval(-m), {3}, {lo, T(5), T(-5)}));
    EXPECT_TRUE(tensor_matches(ts::eval(ts::abs(m)), {3}, {lo, T(5), T(5)}));
  }
}

// ---- comparisons, logic, where --------------------------------------------------------------

template <class C>
class ExprCompare : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprCompare, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(ExprCompare, ComparisonsGiveBoolMatchingReference) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(15);
  const ts::Shape shape{4, 3};
  auto av = random_values<T>(12, rng);
  auto bv = random_values<T>(12, rng);
  for (std::size_t k = 0; k < 12; k += 3) bv[k] = av[k];  // some ties
  const auto as = all_layouts(av, shape, this->device());
  const auto bs = all_layouts(bv, shape, this->device());
  const T s = av[4];
  for (std::size_t i = 0; i < as.size(); ++i) {
    const auto& a = as[i].view;
    const auto& b = bs[as.size() - 1 - i].view;
    SCOPED_TRACE(as[i].name);
    static_assert(std::is_same_v<typename decltype(a < b)::value_type, bool>);
    auto cmp = [&](auto f) { return ref_binary<bool>(av, shape, bv, shape, f); };
    EXPECT_TRUE(tensor_matches(ts::eval(a < b), shape, cmp([](T x, T y) { return x < y; })));
    EXPECT_TRUE(tensor_matches(ts::eval(a <= b), shape, cmp([](T x, T y) { return x <= y; })));
    EXPECT_TRUE(tensor_matches(ts::eval(a > b), shape, cmp([](T x, T y) { return x > y; })));
    EXPECT_TRUE(tensor_matches(ts::eval(a >= b), shape, cmp([](T x, T y) { return x >= y; })));
    EXPECT_TRUE(tensor_matches(ts::eval(a == b), shape, cmp([](T x, T y) { return x == y; })));
    EXPECT_TRUE(tensor_matches(ts::eval(a != b), shape, cmp([](T x, T y) { return x != y; })));
    EXPECT_TRUE(
        tensor_matches(ts::eval(a < s), shape, ref_unary<bool>(av, [&](T x) { return x < s; })));
    EXPECT_TRUE(
        tensor_matches(ts::eval(s <= a), shape, ref_unary<bool>(av, [&](T x) { return s <= x; })));
  }
}

TYPED_TEST(ExprCompare, WhereSelectsElementwiseAndBroadcasts) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(16);
  const auto av = random_values<T>(12, rng);
  const auto bv = random_values<T>(12, rng);
  const auto mv = random_values<bool>(12, rng);
  const auto as = all_layouts(av, {3, 4}, this->device());
  const auto bs = all_layouts(bv, {3, 4}, this->device());
  const auto ms = all_layouts(mv, {3, 4}, this->device());
  for (std::size_t i = 0; i < as.size(); ++i) {
    const auto& m = ms[(i + 1) % ms.size()].view;
    const auto& a = as[i].view;
    const auto& b = bs[(i + 2) % bs.size()].view;
    static_assert(std::is_same_v<typename decltype(ts::where(m, a, b))::value_type, T>);
    std::vector<T> expected;
    for (std::size_t k = 0; k < 12; ++k) expected.push_back(mv[k] ? av[k] : bv[k]);
    EXPECT_TRUE(tensor_matches(ts::eval(ts::where(m, a, b)), {3, 4}, expected)) << as[i].name;
    const T s = T(1);
    expected.clear();
    for (std::size_t k = 0; k < 12; ++k) expected.push_back(mv[k] ? av[k] : s);
    EXPECT_TRUE(tensor_matches(ts::eval(ts::where(m, a, s)), {3, 4}, expected));
    expected.clear();
    for (std::size_t k = 0; k < 12; ++k) expected.push_back(mv[k] ? s : bv[k]);
    EXPECT_TRUE(tensor_matches(ts::eval(ts::where(m, s, b)), {3, 4}, expected));
  }
  // cond (3, 1), x (1, 4), y (4,) broadcast to (3, 4); scalars on both sides take cond's shape.
  const auto m = ts::Tensor<bool>::from_vector({true, false, true}, {3, 1}, this->device());
  const auto x = ts::Tensor<T>::from_vector({av.begin(), av.begin() + 4}, {1, 4}, this->device());
  const auto y = ts::Tensor<T>::from_vector({bv.begin() + 4, bv.begin() + 8}, {4}, this->device());
  std::vector<T> expected;
  for (int r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 4; ++c) expected.push_back(r != 1 ? av[c] : bv[4 + c]);
  EXPECT_TRUE(tensor_matches(ts::eval(ts::where(m, x, y)), {3, 4}, expected));
  const auto constant = ts::eval(ts::where(m, T(1), T(0)));
  EXPECT_TRUE(tensor_matches(constant, {3, 1}, {T(1), T(0), T(1)}));
  EXPECT_EQ(constant.device(), this->device());
}

class ExprLogic : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ExprLogic);

TEST_P(ExprLogic, AndOrNotFollowTruthTables) {
  const auto a = ts::tensor<bool>({false, false, true, true}, device());
  const auto b = ts::tensor<bool>({false, true, false, true}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(a & b), {4}, {false, false, false, true}));
  EXPECT_TRUE(tensor_matches(ts::eval(a | b), {4}, {false, true, true, true}));
  EXPECT_TRUE(tensor_matches(ts::eval(!a), {4}, {true, true, false, false}));
  EXPECT_TRUE(tensor_matches(ts::eval((!(a & b)) | (a & !b)), {4}, {true, true, true, false}));
  EXPECT_TRUE(tensor_matches(ts::eval(a & true), {4}, {false, false, true, true}));
  EXPECT_TRUE(tensor_matches(ts::eval(false | b), {4}, {false, true, false, true}));
  // Composed with comparisons, over a strided operand.
  const auto x =
      ts::Tensor<float>::arange(0.0f, 12.0f, 1.0f, device()).reshape({3, 4}).transpose(0, 1);
  std::vector<bool> expected;
  for (const float v : x.to_vector()) expected.push_back(v > 4.0f && !(v == 7.0f));
  EXPECT_TRUE(tensor_matches(ts::eval((x > 4.0f) & !(x == 7.0f)), {4, 3}, expected));
}

// ---- math functions -------------------------------------------------------------------------

template <class C>
class ExprMath : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprMath, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(ExprMath, AbsSqrtExpLogMatchTheStandardLibrary) {
  using T = typename TypeParam::value_type;
  using F = std::conditional_t<std::is_floating_point_v<T>, T, float>;  // ints compute in float
  std::mt19937_64 rng(17);
  auto av = random_values<T>(12, rng);
  if constexpr (std::is_floating_point_v<T>) av[3] = std::numeric_limits<T>::quiet_NaN();
  const double tol = tessera_test::fp_tolerance<F>();
  for (const auto& l : all_layouts(av, {4, 3}, this->device())) {
    SCOPED_TRACE(l.name);
    const auto& a = l.view;
    static_assert(std::is_same_v<typename decltype(ts::abs(a))::value_type, T>);
    static_assert(std::is_same_v<typename decltype(ts::sqrt(a))::value_type, F>);
    static_assert(std::is_same_v<typename decltype(ts::exp(a))::value_type, F>);
    static_assert(std::is_same_v<typename decltype(ts::log(a))::value_type, F>);
    EXPECT_TRUE(tensor_matches(ts::eval(ts::abs(a)), {4, 3}, ref_unary<T>(av, [](T x) {
                                 if constexpr (std::is_signed_v<T>) {
                                   return x < T(0) ? static_cast<T>(T(0) - x) : x;
                                 } else {
                                   return x;
                                 }
                               })));
    auto math = [&](auto f) { return ref_unary<F>(av, [&](T x) { return f(static_cast<F>(x)); }); };
    EXPECT_TRUE(
        tensor_matches(ts::eval(ts::sqrt(a)), {4, 3}, math([](F x) { return std::sqrt(x); }), tol));
    EXPECT_TRUE(
        tensor_matches(ts::eval(ts::exp(a)), {4, 3}, math([](F x) { return std::exp(x); }), tol));
    EXPECT_TRUE(
        tensor_matches(ts::eval(ts::log(a)), {4, 3}, math([](F x) { return std::log(x); }), tol));
  }
}

TYPED_TEST(ExprMath, MinimumAndMaximumMatchReference) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(18);
  const auto av = random_values<T>(12, rng);
  const auto bv = random_values<T>(12, rng);
  const auto as = all_layouts(av, {2, 6}, this->device());
  const auto bs = all_layouts(bv, {2, 6}, this->device());
  for (std::size_t i = 0; i < as.size(); ++i) {
    const auto& a = as[i].view;
    const auto& b = bs[(i + 3) % bs.size()].view;
    EXPECT_TRUE(tensor_matches(ts::eval(ts::minimum(a, b)), {2, 6},
                               ref_binary<T>(av, {2, 6}, bv, {2, 6}, ref::minimum<T>)));
    EXPECT_TRUE(tensor_matches(ts::eval(ts::maximum(a, b)), {2, 6},
                               ref_binary<T>(av, {2, 6}, bv, {2, 6}, ref::maximum<T>)));
    const T s = av[0];
    EXPECT_TRUE(tensor_matches(ts::eval(ts::maximum(a, s)), {2, 6},
                               ref_unary<T>(av, [&](T x) { return ref::maximum(x, s); })));
    EXPECT_TRUE(tensor_matches(ts::eval(ts::minimum(s, a)), {2, 6},
                               ref_unary<T>(av, [&](T x) { return ref::minimum(s, x); })));
  }
}

template <class C>
class ExprFloatMath : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprFloatMath, tessera_test::FloatCases, tessera_test::CaseName);

TYPED_TEST(ExprFloatMath, MinimumAndMaximumPropagateNaN) {
  using T = typename TypeParam::value_type;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const auto a = ts::Tensor<T>::from_vector({nan, T(1), nan, -inf, T(2)}, this->device());
  const auto b = ts::Tensor<T>::from_vector({T(1), nan, nan, T(0), inf}, this->device());
  EXPECT_TRUE(tensor_matches(ts::eval(ts::minimum(a, b)), {5}, {nan, nan, nan, -inf, T(2)}));
  EXPECT_TRUE(tensor_matches(ts::eval(ts::maximum(a, b)), {5}, {nan, nan, nan, T(0), inf}));
  EXPECT_TRUE(tensor_matches(ts::eval(ts::maximum(a, T(0))), {5}, {nan, T(1), nan, T(0), T(2)}));
  EXPECT_TRUE(tensor_matches(ts::eval(ts::minimum(nan, b)), {5}, {nan, nan, nan, nan, nan}));
  // NaN compares false except !=.
  EXPECT_TRUE(tensor_matches(ts::eval(a == a), {5}, {false, true, false, true, true}));
  EXPECT_TRUE(tensor_matches(ts::eval(a != a), {5}, {true, false, true, false, false}));
  EXPECT_TRUE(tensor_matches(ts::eval(a < inf), {5}, {false, true, false, true, true}));
}

// ---- integer division -----------------------------------------------------------------------

template <class C>
class ExprDivision : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprDivision, tessera_test::NumericCases, tessera_test::CaseName);

TYPED_TEST(ExprDivision, IntegersTruncateTowardZeroAndDivisionByZeroGivesZero) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      const auto a = ts::Tensor<T>::from_vector({T(7), T(-7), T(7), T(-7), T(1), T(-1)}, dev);
      const auto b = ts::Tensor<T>::from_vector({T(2), T(2), T(-2), T(-2), T(3), T(3)}, dev);
      EXPECT_TRUE(tensor_matches(ts::eval(a / b), {6}, {T(3), T(-3), T(-3), T(3), T(0), T(0)}));
      // MIN / -1 overflows; tessera wraps (to MIN) instead of trapping.
      const T lo = std::numeric_limits<T>::min();
      const auto m = ts::Tensor<T>::from_vector({lo, lo, T(5)}, dev);
      EXPECT_TRUE(tensor_matches(ts::eval(m / T(-1)), {3}, {lo, lo, T(-5)}));
    }
    const auto a = ts::Tensor<T>::from_vector({T(9), T(0), T(100), T(1)}, dev);
    const auto zero = ts::Tensor<T>::zeros({4}, dev);
    EXPECT_TRUE(tensor_matches(ts::eval(a / zero), {4}, {T(0), T(0), T(0), T(0)}));
    EXPECT_TRUE(tensor_matches(ts::eval(a / T(0)), {4}, {T(0), T(0), T(0), T(0)}));
    EXPECT_TRUE(tensor_matches(ts::eval(a / T(4)), {4}, {T(2), T(0), T(25), T(0)}));
    // A floating scalar makes it true division in float32, PyTorch's default floating type
    // (weak scalars of a higher category).
    static_assert(std::is_same_v<typename decltype(a / 2.0)::value_type, float>);
    EXPECT_TRUE(tensor_matches(ts::eval(a / 2.0), {4}, {4.5f, 0.0f, 50.0f, 0.5f}));
  } else {
    const T inf = std::numeric_limits<T>::infinity();
    const auto a = ts::Tensor<T>::from_vector({T(1), T(-1), T(0), T(7)}, dev);
    const auto out = ts::eval(a / T(0));
    EXPECT_TRUE(tensor_matches(out, {4}, {inf, -inf, std::numeric_limits<T>::quiet_NaN(), inf}));
    EXPECT_TRUE(tensor_matches(ts::eval(a / T(2)), {4}, {T(0.5), T(-0.5), T(0), T(3.5)}));
  }
}
