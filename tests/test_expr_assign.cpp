// SPDX-License-Identifier: BSD-3-Clause
// Lazy evaluation, assignment of expressions (into views, into operands of the expression
// itself) and device rules of expressions, for every dtype on every device present.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
namespace ref = tessera_test::ref;
using tessera_test::random_values;
using tessera_test::tensor_matches;
using tessera_test::throws_with;
using tessera_test::values_match;

// ---- lazy evaluation ------------------------------------------------------------------------

template <class C>
class ExprLazy : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprLazy, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(ExprLazy, BuildingAnExpressionDoesNotEvaluateIt) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(31);
  const auto before = random_values<T>(6, rng);
  const auto after = random_values<T>(6, rng);
  auto a = ts::Tensor<T>::from_vector(before, {2, 3}, this->device());
  const auto e = a * T(1) + a;  // a node, not a tensor: nothing is computed yet
  static_assert(!std::is_same_v<std::remove_cvref_t<decltype(e)>, ts::Tensor<T>>);
  static_assert(ts::Expression<decltype(e)>);
  // Overwrite a's elements in place; the expression reads them only when it is evaluated.
  a = ts::cast<T>(ts::Tensor<T>::from_vector(after, {2, 3}, this->device()));
  const auto expected =
      tessera_test::ref_unary<T>(after, [](T x) { return ref::add(ref::mul(x, T(1)), x); });
  EXPECT_TRUE(tensor_matches(ts::eval(e), {2, 3}, expected));
  const ts::Tensor<T> assigned = e;  // evaluation on assignment
  EXPECT_TRUE(tensor_matches(assigned, {2, 3}, expected));
  EXPECT_NE(assigned.data(), a.data());
}

TYPED_TEST(ExprLazy, ShapeErrorsSurfaceAtEvaluationNotConstruction) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({2, 3}, this->device());
  const auto b = ts::Tensor<T>::zeros({4}, this->device());
  EXPECT_NO_THROW({
    const auto e = a + b;
    (void)e;
  });
  const auto e = a + b;
  EXPECT_THROW(ts::eval(e), ts::ShapeError);
}

TYPED_TEST(ExprLazy, ExpressionsKeepTheirOperandsAlive) {
  using T = typename TypeParam::value_type;
  // The temporaries are gone after this statement; the node holds shared handles to them.
  const auto e =
      ts::Tensor<T>::ones({3}, this->device()) * ts::Tensor<T>::full({3}, T(1), this->device());
  const auto first = ts::eval(e);
  const auto second = ts::eval(e);  // evaluating twice reads the same operands
  EXPECT_TRUE(tensor_matches(first, {3}, {T(1), T(1), T(1)}));
  EXPECT_TRUE(tensor_matches(second, {3}, {T(1), T(1), T(1)}));
  EXPECT_NE(first.data(), second.data());
}

// ---- assignment -----------------------------------------------------------------------------

template <class C>
class ExprAssign : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprAssign, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(ExprAssign, SelfUpdateWritesInPlace) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(32);
  const auto values = random_values<T>(12, rng);
  auto a = ts::Tensor<T>::from_vector(values, {3, 4}, this->device());
  const auto alias = a;
  const T* data = a.data();
  a = a + T(1);
  const auto expected = tessera_test::ref_unary<T>(values, [](T x) { return ref::add(x, T(1)); });
  EXPECT_TRUE(tensor_matches(a, {3, 4}, expected));
  EXPECT_EQ(a.data(), data);  // same memory, so every handle sees the update
  EXPECT_TRUE(tensor_matches(alias, {3, 4}, expected));
}

TYPED_TEST(ExprAssign, TransposeOfItselfMatchesFreshEvaluation) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(33);
  const auto values = random_values<T>(25, rng);
  for (const auto& s : tessera_test::all_layouts(values, {5, 5}, this->device())) {
    SCOPED_TRACE(s.name);
    auto a = s.view;
    const auto fresh = ts::eval(a.transpose(0, 1) + a).to_vector();
    std::vector<T> expected;
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < 5; ++j)
        expected.push_back(ref::add(values[j * 5 + i], values[i * 5 + j]));
    EXPECT_TRUE(values_match(fresh, expected));
    a = a.transpose(0, 1) + a;
    EXPECT_TRUE(tensor_matches(a, {5, 5}, expected));
    EXPECT_EQ(a.storage().data(), s.base.storage().data());  // written through, not rebound
    // Elements of the base outside the view are untouched.
    auto base = s.base.to_vector();
    for (std::size_t k = 0; k < s.positions.size(); ++k) {
      base[static_cast<std::size_t>(s.positions[k])] = tessera_test::sentinel_value<T>();
    }
    EXPECT_TRUE(values_match(base, std::vector<T>(base.size(), tessera_test::sentinel_value<T>())));
  }
}

TYPED_TEST(ExprAssign, OverlappingShiftedSlicesMatchFreshEvaluation) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(34);
  const auto values = random_values<T>(10, rng);
  for (const auto& s : tessera_test::all_layouts(values, {10}, this->device())) {
    SCOPED_TRACE(s.name);
    auto b = s.view;
    auto head = b.slice(0, 0, 9);
    auto tail = b.slice(0, 1, 10);
    head = tail + T(0);  // shift left by one: reads run ahead of writes
    std::vector<T> left(values.begin() + 1, values.end());
    left.push_back(values.back());
    EXPECT_TRUE(tensor_matches(b, {10}, left));
    tail = head * T(1);  // shift right by one: a forward loop would smear b[0]
    std::vector<T> right{left.front()};
    right.insert(right.end(), left.begin(), left.end() - 1);
    EXPECT_TRUE(tensor_matches(b, {10}, right));
  }
}

TYPED_TEST(ExprAssign, ShiftedRowsAndBroadcastRowsOfItselfMatchFreshEvaluation) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(35);
  const auto values = random_values<T>(12, rng);
  for (const auto& s : tessera_test::all_layouts(values, {3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    const auto x = ts::Tensor<T>::from_vector(values, {3, 4}, this->device());
    // Row 0 broadcast over every row, while row 0 itself is overwritten.
    auto a = s.view;
    a = a.select(0, 0) + a;
    auto expected = tessera_test::ref_binary<T>(values, {4}, values, {3, 4}, ref::add<T>);
    EXPECT_TRUE(tensor_matches(a, {3, 4}, ts::eval(x.select(0, 0) + x).to_vector()));
    EXPECT_TRUE(tensor_matches(a, {3, 4}, expected));
    // Column 2 (a (3, 1) view) times every column.
    const auto y = a.clone();
    const auto yv = y.to_vector();
    a = a.slice(1, 2, 3) * a;
    std::vector<T> column{yv[2], yv[6], yv[10]};
    EXPECT_TRUE(tensor_matches(
        a, {3, 4}, tessera_test::ref_binary<T>(column, {3, 1}, yv, {3, 4}, ref::mul<T>)));
    // Rows 1..2 = rows 0..1 + rows 1..2 (overlapping windows).
    const auto zv = a.to_vector();
    auto lower = a.slice(0, 1, 3);
    lower = a.slice(0, 0, 2) + lower;
    std::vector<T> shifted(zv.begin(), zv.begin() + 4);
    for (std::size_t k = 4; k < 12; ++k) shifted.push_back(ref::add(zv[k - 4], zv[k]));
    EXPECT_TRUE(tensor_matches(a, {3, 4}, shifted));
  }
}

TYPED_TEST(ExprAssign, IntoAViewWritesThroughAndLeavesTheRestAlone) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(36);
  const auto av = random_values<T>(12, rng);
  const auto bv = random_values<T>(4, rng);
  const auto a = ts::Tensor<T>::from_vector(av, {3, 4}, this->device()).transpose(0, 1);
  const auto b = ts::Tensor<T>::from_vector(bv, {4, 1}, this->device());
  std::vector<T> expected;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) expected.push_back(ref::maximum(av[j * 4 + i], bv[i]));
  for (const auto& s :
       tessera_test::all_layouts(random_values<T>(12, rng), {4, 3}, this->device())) {
    SCOPED_TRACE(s.name);
    auto view = s.view;
    const T* data = view.data();
    view = ts::maximum(a, b);
    EXPECT_EQ(view.data(), data);
    EXPECT_TRUE(tensor_matches(view, {4, 3}, expected));
    auto base = s.base.to_vector();
    std::vector<T> through;
    for (auto p : s.positions) {
      through.push_back(base[static_cast<std::size_t>(p)]);
      base[static_cast<std::size_t>(p)] = tessera_test::sentinel_value<T>();
    }
    EXPECT_TRUE(values_match(through, expected));
    EXPECT_TRUE(values_match(base, std::vector<T>(base.size(), tessera_test::sentinel_value<T>())));
  }
}

TYPED_TEST(ExprAssign, ConvertingAssignmentWritesConvertedValues) {
  using T = typename TypeParam::value_type;
  auto d = ts::Tensor<double>::zeros({2, 3}, this->device());
  const auto alias = d;
  std::mt19937_64 rng(37);
  const auto values = random_values<T>(6, rng);
  const auto t = ts::Tensor<T>::from_vector(values, {3, 2}, this->device()).transpose(0, 1);
  if constexpr (std::is_same_v<T, double>) {
    d = ts::cast<double>(t);
  } else {
    d = t;  // a Tensor<T> is an expression for Tensor<double>: converted in place
  }
  std::vector<double> expected;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) expected.push_back(static_cast<double>(values[j * 2 + i]));
  EXPECT_TRUE(tensor_matches(alias, {2, 3}, expected));
}

TYPED_TEST(ExprAssign, AnotherShapeRebindsInsteadOfWriting) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(38);
  const auto values = random_values<T>(12, rng);
  const auto base = ts::Tensor<T>::from_vector(values, {3, 4}, this->device());
  auto row = base.select(0, 1);
  row = base + T(0);  // shape (3, 4) is not the row's (4,): the handle takes new memory
  EXPECT_EQ(row.shape(), (ts::Shape{3, 4}));
  EXPECT_NE(row.storage().data(), base.storage().data());
  EXPECT_TRUE(tensor_matches(base, {3, 4}, values));
  ts::Tensor<T> unset;
  unset = base * T(1);
  EXPECT_EQ(unset.shape(), (ts::Shape{3, 4}));
  EXPECT_EQ(unset.device(), this->device());
  // Copy-assigning a tensor of the same type rebinds the handle too (no element copy).
  auto view = base.select(0, 0);
  const auto other = ts::Tensor<T>::zeros({4}, this->device());
  view = other;
  EXPECT_EQ(view.data(), other.data());
  EXPECT_TRUE(tensor_matches(base, {3, 4}, values));
}

// ---- devices --------------------------------------------------------------------------------

TEST(ExprDevices, OperandsOnDifferentDevicesAreDeviceError) {
  TESSERA_SKIP_IF_UNAVAILABLE(ts::Device::cuda(0));
  const auto cpu = ts::tensor<float>({1, 2, 3});
  const auto gpu = ts::tensor<float>({1, 2, 3}, ts::Device::cuda(0));
  const auto mask = ts::tensor<bool>({true, false, true});
  const std::initializer_list<std::string> names{"cpu", "cuda:0"};
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::eval(cpu + gpu); }, names));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::eval(gpu * 2.0f - cpu); }, names));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::eval(ts::where(mask, gpu, gpu)); }, names));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { (void)ts::sum(cpu * gpu); }, names));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { (void)ts::any(gpu > cpu); }, names));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] {
    const ts::Tensor<double> r(ts::maximum(cpu, gpu));
    (void)r;
  }));
  EXPECT_EQ(cpu.to_vector(), (std::vector<float>{1, 2, 3}));  // inputs untouched
  EXPECT_EQ(gpu.to_vector(), (std::vector<float>{1, 2, 3}));
}

class ExprOnDevice : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ExprOnDevice);

TEST_P(ExprOnDevice, ResultsLiveOnTheOperandsDevice) {
  const auto a = ts::Tensor<float>::arange(0.0f, 6.0f, 1.0f, device()).reshape({2, 3});
  const auto m = a > 2.0f;
  EXPECT_EQ(ts::eval(a * 2.0f).device(), device());
  EXPECT_EQ(ts::eval(m).device(), device());
  EXPECT_EQ(ts::eval(ts::where(m, 1.0f, 0.0f)).device(), device());  // scalars follow cond
  EXPECT_EQ(ts::eval(ts::cast<std::int8_t>(a)).device(), device());
  const ts::Tensor<double> d(a + 1.0f);
  EXPECT_EQ(d.device(), device());
}
