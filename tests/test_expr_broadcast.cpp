// SPDX-License-Identifier: BSD-3-Clause
// NumPy broadcasting (including 0-d and empty operands), broadcast errors, and PyTorch type
// promotion of mixed element types and weak scalars.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
namespace ref = tessera_test::ref;
using tessera_test::random_values;
using tessera_test::ref_binary;
using tessera_test::tensor_matches;
using tessera_test::throws_with;

template <class E>
using value_t = typename std::remove_cvref_t<E>::value_type;

// ---- broadcasting ---------------------------------------------------------------------------

template <class C>
class ExprBroadcast : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ExprBroadcast, tessera_test::AllCases, tessera_test::CaseName);

/// Evaluates a op b for operands of shapes as and bs, in every layout, against the reference.
template <class T, class Make, class Ref>
void check_broadcast(ts::Device device, const ts::Shape& as, const ts::Shape& bs,
                     const ts::Shape& expected_shape, Make make, Ref reference) {
  std::mt19937_64 rng(as.size() * 31 + bs.size());
  const auto av = random_values<T>(as.numel(), rng);
  const auto bv = random_values<T>(bs.numel(), rng, /*nonzero=*/true);
  const auto al = tessera_test::all_layouts(av, as, device);
  const auto bl = tessera_test::all_layouts(bv, bs, device);
  for (std::size_t i = 0; i < std::max(al.size(), bl.size()); ++i) {
    const auto& a = al[i % al.size()];
    const auto& b = bl[(i + 1) % bl.size()];
    SCOPED_TRACE(testing::Message() << as << " " << a.name << " op " << bs << " " << b.name);
    const auto out = ts::eval(make(a.view, b.view));
    EXPECT_EQ(out.device(), device);
    EXPECT_TRUE(tensor_matches(out, expected_shape,
                               ref_binary<value_t<decltype(out)>>(av, as, bv, bs, reference)));
  }
}

TYPED_TEST(ExprBroadcast, ColumnPlusRowGivesMatrix) {
  using T = typename TypeParam::value_type;
  auto add = [](const auto& a, const auto& b) { return a + b; };
  check_broadcast<T>(this->device(), {3, 1}, {4}, {3, 4}, add, ref::add<T>);
  check_broadcast<T>(this->device(), {4}, {3, 1}, {3, 4}, add, ref::add<T>);
}

TYPED_TEST(ExprBroadcast, ThreeDimsTimesTwoDims) {
  using T = typename TypeParam::value_type;
  auto mul = [](const auto& a, const auto& b) { return a * b; };
  check_broadcast<T>(this->device(), {2, 1, 3}, {4, 1}, {2, 4, 3}, mul, ref::mul<T>);
  check_broadcast<T>(this->device(), {4, 1}, {2, 1, 3}, {2, 4, 3}, mul, ref::mul<T>);
  check_broadcast<T>(this->device(), {1, 3, 1, 2}, {2, 1, 5, 1}, {2, 3, 5, 2}, mul, ref::mul<T>);
}

TYPED_TEST(ExprBroadcast, ZeroDimTensorsBroadcastToAnyShape) {
  using T = typename TypeParam::value_type;
  auto div = [](const auto& a, const auto& b) { return a / b; };
  auto lt = [](const auto& a, const auto& b) { return a < b; };
  auto less = [](T x, T y) { return x < y; };
  check_broadcast<T>(this->device(), {}, {2, 3}, {2, 3}, div, ref::div<T>);
  check_broadcast<T>(this->device(), {2, 3}, {}, {2, 3}, div, ref::div<T>);
  check_broadcast<T>(this->device(), {}, {}, {}, div, ref::div<T>);
  check_broadcast<T>(this->device(), {}, {4, 1, 2}, {4, 1, 2}, lt, less);
}

TYPED_TEST(ExprBroadcast, EmptyDimensionsBroadcastToEmptyResults) {
  using T = typename TypeParam::value_type;
  auto maximum = [](const auto& a, const auto& b) { return ts::maximum(a, b); };
  check_broadcast<T>(this->device(), {0, 3}, {3}, {0, 3}, maximum, ref::maximum<T>);
  check_broadcast<T>(this->device(), {0}, {1}, {0}, maximum, ref::maximum<T>);
  check_broadcast<T>(this->device(), {2, 1}, {0}, {2, 0}, maximum, ref::maximum<T>);
  check_broadcast<T>(this->device(), {}, {0, 4}, {0, 4}, maximum, ref::maximum<T>);
}

TYPED_TEST(ExprBroadcast, WhereBroadcastsAllThreeOperands) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(21);
  const auto cv = random_values<bool>(2, rng);
  const auto xv = random_values<T>(3, rng);
  const auto yv = random_values<T>(4, rng);
  const auto c = ts::Tensor<bool>::from_vector(cv, {2, 1, 1}, this->device());
  const auto x = ts::Tensor<T>::from_vector(xv, {3, 1}, this->device());
  const auto y = ts::Tensor<T>::from_vector(yv, {4}, this->device());
  std::vector<T> expected;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) expected.push_back(cv[i] ? xv[j] : yv[k]);
  EXPECT_TRUE(tensor_matches(ts::eval(ts::where(c, x, y)), {2, 3, 4}, expected));
}

TYPED_TEST(ExprBroadcast, IncompatibleShapesAreShapeErrorNamingBoth) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto a = ts::Tensor<T>::zeros({2, 3}, dev);
  const auto b = ts::Tensor<T>::zeros({3, 2}, dev);
  const auto c = ts::Tensor<T>::zeros({4}, dev);
  const auto m = ts::Tensor<bool>::zeros({5}, dev);
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::eval(a + b); }, {"add", "(2, 3)", "(3, 2)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::eval(a * c); }, {"mul", "(2, 3)", "(4,)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::eval(c < a); }, {"(4,)", "(2, 3)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::eval(ts::where(m, c, T(0))); },
                                          {"where", "(5,)", "(4,)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] {
    const ts::Tensor<T> r = a + (b + a);
    (void)r;
  }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { (void)ts::sum(a + c); }));
  // Empty against non-1 is still an error (NumPy: 0 vs 3).
  const auto e = ts::Tensor<T>::zeros({0}, dev);
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::eval(e + a); }, {"(0,)", "(2, 3)"}));
}

// ---- type promotion -------------------------------------------------------------------------

using I8 = std::int8_t;
using U8 = std::uint8_t;
using I16 = std::int16_t;
using I32 = std::int32_t;
using I64 = std::int64_t;

template <class A, class B>
using sum_type = value_t<decltype(std::declval<ts::Tensor<A>>() + std::declval<ts::Tensor<B>>())>;
template <class A, class S>
using scalar_product_type = value_t<decltype(std::declval<ts::Tensor<A>>() * std::declval<S>())>;

TEST(ExprPromotion, TensorTypesPromoteLikePyTorch) {
  // [snippet:promotion-tensors]
  static_assert(std::is_same_v<sum_type<I32, float>, float>);
  static_assert(std::is_same_v<sum_type<float, I32>, float>);
  static_assert(std::is_same_v<sum_type<U8, I8>, I16>);
  static_assert(std::is_same_v<sum_type<I8, U8>, I16>);
  static_assert(std::is_same_v<sum_type<U8, I16>, I16>);
  static_assert(std::is_same_v<sum_type<bool, U8>, U8>);
  static_assert(std::is_same_v<sum_type<bool, bool>, bool>);
  static_assert(std::is_same_v<sum_type<I64, float>, float>);
  static_assert(std::is_same_v<sum_type<float, double>, double>);
  static_assert(std::is_same_v<sum_type<I16, I64>, I64>);
  using Cmp = decltype(std::declval<ts::Tensor<U8>>() < std::declval<ts::Tensor<double>>());
  static_assert(std::is_same_v<value_t<Cmp>, bool>);
  using Min =
      decltype(ts::minimum(std::declval<ts::Tensor<I8>>(), std::declval<ts::Tensor<I16>>()));
  static_assert(std::is_same_v<value_t<Min>, I16>);
  using Where = decltype(ts::where(std::declval<ts::Tensor<bool>>(), std::declval<ts::Tensor<I8>>(),
                                   std::declval<ts::Tensor<U8>>()));
  static_assert(std::is_same_v<value_t<Where>, I16>);
  using Sqrt = decltype(ts::sqrt(std::declval<ts::Tensor<I32>>()));
  static_assert(std::is_same_v<value_t<Sqrt>, float>);
  // [end-snippet]
  SUCCEED();
}

TEST(ExprPromotion, ScalarsAreWeakUnlessOfAHigherCategory) {
  // [snippet:promotion-scalars]
  static_assert(std::is_same_v<scalar_product_type<float, double>, float>);
  static_assert(std::is_same_v<scalar_product_type<I32, double>, float>);
  static_assert(std::is_same_v<scalar_product_type<I32, float>, float>);
  static_assert(std::is_same_v<scalar_product_type<I8, int>, I8>);
  static_assert(std::is_same_v<scalar_product_type<U8, long>, U8>);
  static_assert(std::is_same_v<scalar_product_type<I16, I64>, I16>);
  static_assert(std::is_same_v<scalar_product_type<bool, int>, I64>);
  static_assert(std::is_same_v<scalar_product_type<bool, bool>, bool>);
  static_assert(std::is_same_v<scalar_product_type<double, float>, double>);
  using Where =
      decltype(ts::where(std::declval<ts::Tensor<bool>>(), std::declval<ts::Tensor<I32>>(), 0.5));
  static_assert(std::is_same_v<value_t<Where>, float>);
  // [end-snippet]
  SUCCEED();
}

class ExprPromotionValues : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ExprPromotionValues);

TEST_P(ExprPromotionValues, MixedOperandsComputeInTheCommonType) {
  // uint8 + int8 in int16: 200 + 100 = 300, not a wrapped byte.
  const auto u = ts::Tensor<U8>::from_vector({200, 255, 0}, device());
  const auto i = ts::Tensor<I8>::from_vector({100, -128, -1}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(u + i), {3}, {I16{300}, I16{127}, I16{-1}}));
  // int32 + float in float: 2^24 + 1 is not a float.
  const auto big = ts::Tensor<I32>::from_vector({(1 << 24) + 1, 3}, device());
  const auto zero = ts::Tensor<float>::zeros({2}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(big + zero), {2}, {16777216.0f, 3.0f}));
  // Tensor<float> * 2.0 stays float; Tensor<int32> * 2.5 becomes float32, PyTorch's default
  // floating type (2^24 + 1 rounds to 2^24 before the multiply, as in torch).
  const auto f = ts::Tensor<float>::from_vector({0.1f, 3.0f}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(f * 2.0), {2}, {0.1f * 2.0f, 6.0f}));
  EXPECT_TRUE(tensor_matches(ts::eval(big * 2.5), {2}, {16777216.0f * 2.5f, 7.5f}));
  // Comparisons happen in the common type: int32 2 < 2.5 is true (not 2 < 2).
  const auto two = ts::Tensor<I32>::from_vector({2, 3}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(two < 2.5), {2}, {true, false}));
  // Weak integer scalars keep the tensor's type and wrap with it (int8 100 + 100 = -56).
  const auto small = ts::Tensor<I8>::from_vector({100, -100}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(small + 100), {2}, {I8{-56}, I8{0}}));
  // Broadcasting and promotion together.
  const auto col = ts::Tensor<I64>::from_vector({1, 2}, {2, 1}, device());
  const auto row = ts::Tensor<float>::from_vector({0.5f, 1.5f, 2.5f}, device());
  EXPECT_TRUE(tensor_matches(ts::eval(col * row), {2, 3}, {0.5f, 1.5f, 2.5f, 1.0f, 3.0f, 5.0f}));
}

TEST_P(ExprPromotionValues, ConvertingConstructionIsExplicit) {
  const auto a = ts::Tensor<I32>::from_vector({1, 2, 3}, device());
  static_assert(!std::is_convertible_v<decltype(a + 1), ts::Tensor<float>>);
  static_assert(std::is_convertible_v<decltype(a + 1), ts::Tensor<I32>>);
  static_assert(std::is_constructible_v<ts::Tensor<float>, decltype(a + 1)>);
  const ts::Tensor<float> f(a * 2);
  EXPECT_TRUE(tensor_matches(f, {3}, {2.0f, 4.0f, 6.0f}));
  const ts::Tensor<double> d(a);
  EXPECT_TRUE(tensor_matches(d, {3}, {1.0, 2.0, 3.0}));
  EXPECT_EQ(d.device(), device());
}

// ---- the host's row-wise evaluation --------------------------------------------------------
// Host work is split into blocks of 2^15 elements; these shapes make blocks start and end
// inside rows, give rows of one element, and take each inner-loop flavour: unit steps (the
// vectorised loop), a transposed operand, an operand broadcast along the last dimension and a
// strided output.

/// Row-major values of t read through at(), independent of the executor.
template <class T>
std::vector<T> values_via_at(const ts::Tensor<T>& t) {
  std::vector<T> out;
  const auto& shape = t.shape();
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    out.push_back(t.at(index));
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++index[static_cast<std::size_t>(d)] < shape[static_cast<std::size_t>(d)]) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

/// An int32 tensor of `shape` with values drawn uniformly from [-bound, bound].
ts::Tensor<std::int32_t> random_int32s(std::mt19937_64& rng, const ts::Shape& shape,
                                       std::int32_t bound) {
  std::uniform_int_distribution<std::int32_t> pick(-bound, bound);
  std::vector<std::int32_t> v(static_cast<std::size_t>(shape.numel()));
  for (auto& x : v) x = pick(rng);
  return ts::Tensor<std::int32_t>::from_vector(v, shape);
}

TEST(ExprRows, BlocksSplittingRowsMatchElementwiseReference) {
  std::mt19937_64 rng(7);
  const auto make = [&](const ts::Shape& shape) {
    return ts::Tensor<float>::from_vector(random_values<float>(shape.numel(), rng), shape);
  };
  // (3, 50000) + (50000,): rows longer than a block.
  const auto x = make({3, 50000});
  const auto row = make({50000});
  const auto xv = x.to_vector();
  const auto rv = row.to_vector();
  const auto sum = ts::eval(x + row * 2.0f).to_vector();
  for (std::size_t i = 0; i < xv.size(); ++i) ASSERT_EQ(sum[i], xv[i] + rv[i % 50000] * 2.0f) << i;

  // (70001, 1) - (1,): one-element rows.
  const auto column = make({70001, 1});
  const auto one = make({1});
  const auto diff = ts::eval(column - one).to_vector();
  const auto cv = column.to_vector();
  for (std::size_t i = 0; i < cv.size(); ++i) ASSERT_EQ(diff[i], cv[i] - one.item()) << i;

  // A transposed operand (inner step 301) and a column broadcast along the last dimension
  // (inner step 0), with where() on top.
  const auto m = make({301, 257});
  const auto t = m.transpose(0, 1);  // (257, 301)
  const auto col = make({257, 1});
  const ts::Tensor<float> picked = ts::where(t > col, t * col, -t);
  const auto tv = values_via_at(t);
  const auto colv = col.to_vector();
  const auto pv = picked.to_vector();
  for (std::size_t i = 0; i < tv.size(); ++i) {
    const float c = colv[i / 301];
    ASSERT_EQ(pv[i], tv[i] > c ? tv[i] * c : -tv[i]) << i;
  }

  // A strided output: every other column of a (400, 200) tensor, written in place (the
  // expression has the view's shape and reads it element for element, so no temporary).
  auto target = ts::Tensor<float>::zeros({400, 200});
  auto every_other = target.slice(1, 1, 200, 2);  // (400, 100), inner step 2
  const auto addend = make({100});
  every_other = every_other + (addend + 1.0f);
  const auto all = target.to_vector();
  const auto av = addend.to_vector();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::size_t c = i % 200;
    ASSERT_EQ(all[i], c % 2 == 1 ? av[c / 2] + 1.0f : 0.0f) << i;
  }
}

// Consecutive rows of a block step their cursors along the second-innermost dimension instead
// of seeking; a carry into an outer dimension (or a block's first row) seeks. 4-d operands whose
// second-innermost extent is 1 in one (every row carries) and 9 in the other, permuted and
// broadcast, spanning several blocks; the same walk feeds the reductions.
TEST(ExprRows, SteppedAndSoughtRowsMatchElementwiseReference) {
  std::mt19937_64 rng(29);
  const auto make = [&](const ts::Shape& shape) { return random_int32s(rng, shape, 50); };
  for (const std::int64_t mid : {1, 9}) {
    SCOPED_TRACE(mid);
    // (mid, 5, 60, 130) read as (60, 5, mid, 130): rows of 130, outer dims transposed.
    const auto a = make({mid, 5, 60, 130}).transpose(0, 2);
    const auto b = make({5, 1, 130});  // broadcast over the first and third dims
    const auto& shape = a.shape();
    ASSERT_GT(shape.numel(), std::int64_t{1} << 15);  // more than one block
    const ts::Tensor<std::int32_t> out = a * 3 - b;
    const auto av = values_via_at(a);
    const auto bv = b.to_vector();
    const auto ov = out.to_vector();
    std::int64_t expected_sum = 0;
    for (std::size_t i = 0; i < av.size(); ++i) {
      const std::size_t col = i % 130;
      const std::size_t outer = (i / (130 * static_cast<std::size_t>(mid))) % 5;
      const std::int32_t want = av[i] * 3 - bv[outer * 130 + col];
      ASSERT_EQ(ov[i], want) << i;
      expected_sum += want;
    }
    EXPECT_EQ(ts::sum(a * 3 - b), expected_sum);
  }
}

// Whole rows that follow each other along the second-innermost dimension are written in one
// call when an operand is strided: runs that end at a carry into an outer dimension, at a part's
// edge (parts start at multiples of 64 elements, mid-row) or at the end, with one or both
// operands strided and a cast on top, at 1-3 threads, on the probe's call and priced ones.
TEST(ExprRows, RunsOfWholeRowsMatchElementwiseReference) {
  std::mt19937_64 rng(41);
  const auto make = [&](const ts::Shape& shape) { return random_int32s(rng, shape, 1000); };
  for (const auto& dims : std::vector<std::array<std::int64_t, 3>>{
           {3, 41, 67}, {7, 45, 130}, {1, 100, 100}, {50, 1, 199}, {2, 1000, 9}}) {
    const auto [d0, d1, d2] = dims;
    SCOPED_TRACE(::testing::Message() << d0 << 'x' << d1 << 'x' << d2);
    const auto a = make({d2, d1, d0}).transpose(0, 2);  // (d0, d1, d2), inner step d0 * d1
    const auto b = make({d0, d1, d2});
    const auto c = make({d0, d2, d1}).transpose(1, 2);  // inner step d1
    const auto av = values_via_at(a);
    const auto bv = b.to_vector();
    const auto cv = values_via_at(c);
    tessera_test::with_host_threads({1, 2, 3}, [&](int) {
      for (int call = 0; call < 3; ++call) {
        const ts::Tensor<std::int32_t> one = a * 3 - b;
        const ts::Tensor<std::int32_t> both = a - c * 2;
        const ts::Tensor<double> cast = ts::cast<double>(c) + 0.5;
        const auto ov = one.to_vector();
        const auto wv = both.to_vector();
        const auto kv = cast.to_vector();
        for (std::size_t i = 0; i < av.size(); ++i) {
          ASSERT_EQ(ov[i], av[i] * 3 - bv[i]) << i;
          ASSERT_EQ(wv[i], av[i] - cv[i] * 2) << i;
          ASSERT_EQ(kv[i], static_cast<double>(cv[i]) + 0.5) << i;
        }
      }
    });
  }
}

// Strided operands and outputs with rows of 2048+ elements are walked in tiles of 16 rows by
// 128 columns: tiles whose rows cross an outer index (rows of 7 per outer index), partial
// column tiles (2050 = 16 * 128 + 2), rows split by block edges, and a strided output.
TEST(ExprRows, TiledWalkMatchesElementwiseReference) {
  std::mt19937_64 rng(13);
  const auto make = [&](const ts::Shape& shape) {
    return ts::Tensor<float>::from_vector(random_values<float>(shape.numel(), rng), shape);
  };
  const auto cube = make({2050, 7, 3}).transpose(0, 2);  // (3, 7, 2050), inner step 21
  const auto plane = make({7, 2050});                    // broadcast over the first dim
  const ts::Tensor<float> sum = cube * 3.0f - plane;
  const auto cv = values_via_at(cube);
  const auto pv = plane.to_vector();
  const auto sv = sum.to_vector();
  ASSERT_EQ(sv.size(), cv.size());
  for (std::size_t i = 0; i < cv.size(); ++i) {
    ASSERT_EQ(sv[i], cv[i] * 3.0f - pv[i % (std::size_t{7} * 2050)]) << i;
  }

  // (2100, 40) transposed plus a row, into every other column of a (40, 4200) tensor.
  const auto tall = make({2100, 40});
  const auto row = make({2100});
  auto target = ts::Tensor<float>::zeros({40, 4200});
  auto every_other = target.slice(1, 0, 4200, 2);  // (40, 2100), inner step 2
  every_other = tall.transpose(0, 1) + row;
  const auto all = target.to_vector();
  const auto tv = tall.to_vector();
  const auto rv = row.to_vector();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::size_t r = i / 4200;
    const std::size_t c = i % 4200;
    ASSERT_EQ(all[i], c % 2 == 0 ? tv[(c / 2) * 40 + r] + rv[c / 2] : 0.0f) << i;
  }
}

// Rows with a contiguous output and a strided operand run one loop per pattern of contiguous
// operands (for expressions of up to two operand tensors). Every pattern of two operands drawn
// from contiguous, transposed, broadcast along the row (step 0) and every-other-column (step 2),
// in both orders, with a cast and a unary op on top, against the elementwise reference.
TEST(ExprRows, EveryPatternOfContiguousOperandsMatchesReference) {
  std::mt19937_64 rng(17);
  const auto make = [&](const ts::Shape& shape) {
    return ts::Tensor<float>::from_vector(random_values<float>(shape.numel(), rng), shape);
  };
  constexpr std::int64_t kRows = 37;
  constexpr std::int64_t kCols = 301;  // not a multiple of the vector width
  const std::vector<ts::Tensor<float>> layouts = {
      make({kRows, kCols}),                                // contiguous
      make({kCols, kRows}).transpose(0, 1),                // inner step kRows
      make({kRows, 1}),                                    // broadcast: inner step 0
      make({kRows, 2 * kCols}).slice(1, 1, 2 * kCols, 2),  // inner step 2
  };
  // Each layout's values at the (kRows, kCols) positions of the result.
  // (Two broadcast operands give a (kRows, 1) result, expanded alike.)
  const auto expanded = [&]<class T>(const ts::Tensor<T>& t) {
    auto v = values_via_at(t);
    if (t.shape()[1] == kCols) return v;
    std::vector<T> wide;
    for (std::int64_t r = 0; r < kRows; ++r) wide.insert(wide.end(), kCols, v[r]);
    return wide;
  };
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    for (std::size_t j = 0; j < layouts.size(); ++j) {
      const auto& a = layouts[i];
      const auto& b = layouts[j];
      const auto av = expanded(a);
      const auto bv = expanded(b);
      const ts::Tensor<float> sum = a * 2.0f - b;
      const ts::Tensor<double> cast = ts::cast<double>(ts::abs(b)) + ts::cast<double>(a);
      const auto sv = expanded(sum);
      const auto cv = expanded(cast);
      ASSERT_EQ(sv.size(), av.size());
      ASSERT_EQ(cv.size(), av.size());
      for (std::size_t k = 0; k < av.size(); ++k) {
        ASSERT_EQ(sv[k], av[k] * 2.0f - bv[k]) << i << ' ' << j << ' ' << k;
        ASSERT_EQ(cv[k], static_cast<double>(std::abs(bv[k])) + static_cast<double>(av[k]))
            << i << ' ' << j << ' ' << k;
      }
    }
    // One operand tensor and a scalar; and three operand tensors (more than get a loop each).
    const auto& a = layouts[i];
    const auto av = expanded(a);
    const ts::Tensor<float> one = a + 1.0f;
    const ts::Tensor<float> three = ts::where(a > 0.0f, a, layouts[1]) * layouts[2];
    const auto ov = expanded(one);
    const auto tv = expanded(three);
    const auto t1 = expanded(layouts[1]);
    const auto t2 = expanded(layouts[2]);
    for (std::size_t k = 0; k < av.size(); ++k) {
      ASSERT_EQ(ov[k], av[k] + 1.0f) << i << ' ' << k;
      ASSERT_EQ(tv[k], (av[k] > 0.0f ? av[k] : t1[k]) * t2[k]) << i << ' ' << k;
    }
  }
}

TEST(ExprRows, ReductionsOfStridedAndBroadcastOperandsMatchReference) {
  std::mt19937_64 rng(11);
  const auto m = ts::Tensor<int64_t>::from_vector(
      random_values<int64_t>(std::int64_t{503} * 211, rng), {503, 211});
  const auto t = m.transpose(0, 1);
  const auto tv = values_via_at(t);
  std::uint64_t expected = 0;  // wrapping, like the int64 sum
  for (const auto v : tv) expected += static_cast<std::uint64_t>(v);
  EXPECT_EQ(static_cast<std::uint64_t>(ts::sum(t)), expected);
  // Broadcast: (211, 1) against (503,) with a comparison; count by hand.
  const auto col = ts::Tensor<int64_t>::from_vector(random_values<int64_t>(211, rng), {211, 1});
  const auto row = m.select(1, 0);  // (503,), inner step 211
  const auto cv = col.to_vector();
  const auto rv = row.to_vector();
  std::int64_t count = 0;
  for (const auto c : cv)
    for (const auto r : rv) count += c < r;
  EXPECT_EQ(ts::sum(ts::cast<int64_t>(col < row)), count);
  EXPECT_EQ(ts::any(col == row), count != 0 && std::any_of(cv.begin(), cv.end(), [&](auto c) {
                                   return std::find(rv.begin(), rv.end(), c) != rv.end();
                                 }));
}
