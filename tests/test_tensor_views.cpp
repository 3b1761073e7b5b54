// SPDX-License-Identifier: BSD-3-Clause
// Transfers, copies, views and casts of tensors, for every dtype on every device present, with
// contiguous, transposed, step-sliced and selected inputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::all_layouts;
using tessera_test::iota_values;
using tessera_test::tensor_matches;
using tessera_test::throws_with;

namespace {

/// Values with nothing in common with iota_values (to see overwritten elements).
template <class T>
std::vector<T> other_values(std::int64_t n) {
  std::vector<T> out;
  for (std::int64_t i = 0; i < n; ++i) {
    out.push_back(std::is_same_v<T, bool> ? static_cast<T>((i + 1) % 2) : static_cast<T>(90 - i));
  }
  return out;
}

/// Python's slice: start/stop count from the end when negative, then clamp to [0, n].
std::vector<std::int64_t> ref_slice(std::int64_t n, std::int64_t start, std::int64_t stop,
                                    std::int64_t step) {
  auto norm = [n](std::int64_t i) { return std::clamp<std::int64_t>(i < 0 ? i + n : i, 0, n); };
  std::vector<std::int64_t> picked;
  for (std::int64_t i = norm(start); i < norm(stop); i += step) picked.push_back(i);
  return picked;
}

/// Row-major values of a (rows x cols) matrix `m` restricted to `picked` along `dim`.
template <class T>
std::vector<T> pick(const std::vector<T>& m, std::int64_t rows, std::int64_t cols, int dim,
                    const std::vector<std::int64_t>& picked) {
  std::vector<T> out;
  if (dim == 0) {
    for (auto r : picked)
      for (std::int64_t c = 0; c < cols; ++c)
        out.push_back(m[static_cast<std::size_t>(r * cols + c)]);
  } else {
    for (std::int64_t r = 0; r < rows; ++r)
      for (auto c : picked) out.push_back(m[static_cast<std::size_t>(r * cols + c)]);
  }
  return out;
}

/// Views of a (4, 5) tensor: slices, selects, transposes, reshape and chains of them.
constexpr int kViewKinds = 6;
template <class T>
ts::Tensor<T> view_of(int which, const ts::Tensor<T>& b) {
  switch (which) {
    case 0:
      return b.slice(1, 1, 5, 2);
    case 1:
      return b.select(0, 2);
    case 2:
      return b.select(1, -1);
    case 3:
      return b.transpose(0, 1);
    case 4:
      return b.reshape({20}).slice(0, 3, 17, 4);
    default:
      return b.slice(0, 1, 3).transpose(1, 0).slice(0, 0, 5, 3);
  }
}

}  // namespace

// ---- transfers and copies -------------------------------------------------------------------

template <class C>
class TensorTransfers : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorTransfers, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(TensorTransfers, ToTheSameDeviceSharesStorage) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::from_vector(iota_values<T>(6), {2, 3}, this->device());
  EXPECT_EQ(a.to(this->device()).data(), a.data());
  const auto host = a.cpu();
  EXPECT_TRUE(host.device().is_cpu());
  EXPECT_EQ(host.data() == a.data(), this->device().is_cpu());
  EXPECT_TRUE(tensor_matches(host, {2, 3}, iota_values<T>(6)));
  EXPECT_TRUE(tensor_matches(host.to(this->device()), {2, 3}, iota_values<T>(6)));
}

TYPED_TEST(TensorTransfers, RoundTripKeepsValuesOfEveryLayout) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(24);
  for (const auto& s : all_layouts(values, {2, 3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    EXPECT_EQ(s.view.device(), this->device());
    EXPECT_TRUE(tensor_matches(s.view, {2, 3, 4}, values));  // to_vector is row-major
    const auto host = s.view.cpu();
    EXPECT_TRUE(tensor_matches(host, {2, 3, 4}, values));
    const auto back = host.to(this->device());
    EXPECT_EQ(back.device(), this->device());
    EXPECT_TRUE(tensor_matches(back, {2, 3, 4}, values));
  }
}

TYPED_TEST(TensorTransfers, CloneIsAnIndependentContiguousCopy) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(12);
  for (const auto& s : all_layouts(values, {3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    const auto before = s.base.to_vector();
    auto c = s.view.clone();
    EXPECT_TRUE(c.is_contiguous());
    EXPECT_EQ(c.device(), this->device());
    EXPECT_NE(c.storage().data(), s.base.storage().data());
    EXPECT_TRUE(tensor_matches(c, {3, 4}, values));
    c = ts::cast<T>(ts::Tensor<T>::from_vector(other_values<T>(12), {3, 4}, this->device()));
    EXPECT_TRUE(tensor_matches(c, {3, 4}, other_values<T>(12)));
    EXPECT_TRUE(tensor_matches(s.view, {3, 4}, values));
    EXPECT_EQ(s.base.to_vector(), before);
  }
}

TYPED_TEST(TensorTransfers, ContiguousCopiesOnlyStridedTensors) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(12);
  for (const auto& s : all_layouts(values, {3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    const auto c = s.view.contiguous();
    EXPECT_TRUE(c.is_contiguous());
    EXPECT_TRUE(tensor_matches(c, {3, 4}, values));
    EXPECT_EQ(c.storage().data() == s.base.storage().data(), s.name == "contiguous");
  }
}

TYPED_TEST(TensorTransfers, ItemReadsTheOnlyElement) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(6);
  for (const auto& s : all_layouts(values, {2, 3}, this->device())) {
    SCOPED_TRACE(s.name);
    EXPECT_EQ(s.view.select(0, 1).select(0, 2).item(), values[5]);
    EXPECT_EQ(s.view.slice(0, 1, 2).slice(1, 1, 2).item(), values[4]);  // shape (1, 1)
  }
  EXPECT_EQ(ts::Tensor<T>::full({1, 1, 1}, T(1), this->device()).item(), T(1));
}

TYPED_TEST(TensorTransfers, ItemOfManyOrNoElementsIsValueError) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({2, 3}, this->device());
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)a.item(); }, {"item", "6"}));
  const auto e = ts::Tensor<T>::zeros({0}, this->device());
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)e.item(); }, {"item", "0"}));
}

TYPED_TEST(TensorTransfers, AtReadsEveryElementOfEveryLayout) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(24);
  for (const auto& s : all_layouts(values, {2, 3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    for (std::int64_t i = 0; i < 2; ++i) {
      for (std::int64_t j = 0; j < 3; ++j) {
        for (std::int64_t k = 0; k < 4; ++k) {
          const T expected = values[static_cast<std::size_t>((i * 3 + j) * 4 + k)];
          EXPECT_EQ(s.view.at({i, j, k}), expected);
          EXPECT_EQ(s.view.at({i - 2, j - 3, k - 4}), expected);  // negatives count from the end
          EXPECT_EQ(s.view.at(std::vector<std::int64_t>{i, j - 3, k}), expected);
        }
      }
    }
  }
}

TYPED_TEST(TensorTransfers, AtOutOfRangeIsIndexError) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({2, 3}, this->device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)a.at({2, 0}); }, {"at", "2"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)a.at({0, 3}); }, {"3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)a.at({-3, 0}); }, {"-3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)a.at({0, -4}); }, {"-4"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)a.at({0}); }));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)a.at({0, 0, 0}); }));
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] { (void)ts::Tensor<T>::zeros({0}, this->device()).at({0}); }));
}

// ---- views ----------------------------------------------------------------------------------

template <class C>
class TensorViews : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorViews, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(TensorViews, ReshapeKeepsRowMajorOrder) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(24);
  for (const auto& s : all_layouts(values, {2, 3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    for (const ts::Shape& shape : {ts::Shape{4, 6}, ts::Shape{24}, ts::Shape{2, 12},
                                   ts::Shape{1, 2, 3, 4}, ts::Shape{4, 3, 2}}) {
      const auto r = s.view.reshape(shape);
      EXPECT_TRUE(tensor_matches(r, shape, values));
      EXPECT_EQ(r.device(), this->device());
    }
    EXPECT_TRUE(tensor_matches(s.view.reshape({-1, 4}), {6, 4}, values));
    EXPECT_TRUE(tensor_matches(s.view.reshape({3, -1, 2}), {3, 4, 2}, values));
    EXPECT_TRUE(tensor_matches(s.view.reshape({-1}), {24}, values));
  }
  const auto one = ts::Tensor<T>::full({1, 1}, T(1), this->device());
  EXPECT_TRUE(tensor_matches(one.reshape({}), ts::Shape{}, {T(1)}));
  const auto empty = ts::Tensor<T>::zeros({0, 3}, this->device());
  EXPECT_EQ(empty.reshape({-1, 3}).shape(), (ts::Shape{0, 3}));
  EXPECT_EQ(empty.reshape({3, 0, 5}).shape(), (ts::Shape{3, 0, 5}));
}

TYPED_TEST(TensorViews, ReshapeOfContiguousIsAView) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::from_vector(iota_values<T>(12), {3, 4}, this->device());
  auto r = a.reshape({2, 6});
  EXPECT_EQ(r.data(), a.data());
  r = ts::cast<T>(ts::Tensor<T>::from_vector(other_values<T>(12), {2, 6}, this->device()));
  EXPECT_TRUE(tensor_matches(a, {3, 4}, other_values<T>(12)));
}

TYPED_TEST(TensorViews, ReshapeToTheWrongSizeIsShapeError) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({2, 3, 4}, this->device());
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { a.reshape({5, 5}); }, {"reshape", "(5, 5)", "24"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { a.reshape({-1, 5}); }, {"24"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { a.reshape({-1, -1}); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { a.reshape({-2, -12}); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { a.transpose(0, 2).reshape({7}); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] {
    a.reshape({1, 1, 1, 1, 1, 1, 1, 2, 3, 4});
  }));  // more than kMaxDims = 8
  const auto empty = ts::Tensor<T>::zeros({0, 3}, this->device());
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { empty.reshape({-1, 0}); }));  // ambiguous
}

TYPED_TEST(TensorViews, SliceWithNegativeBoundsClamps) {
  using T = typename TypeParam::value_type;
  const std::int64_t rows = 4, cols = 7;
  const auto values = iota_values<T>(rows * cols);
  struct Bounds {
    std::int64_t start, stop, step;
  };
  const Bounds bounds[] = {{-3, 100, 1}, {-100, 3, 1}, {2, -1, 1},    {-5, -2, 2}, {1, 100, 3},
                           {5, 2, 1},    {-1, -3, 1},  {100, 200, 1}, {0, 0, 1},   {-200, -100, 1}};
  for (const auto& s : all_layouts(values, {rows, cols}, this->device())) {
    for (int dim = 0; dim < 2; ++dim) {
      for (const auto& b : bounds) {
        SCOPED_TRACE(testing::Message() << s.name << " dim " << dim << " slice(" << b.start << ", "
                                        << b.stop << ", " << b.step << ")");
        const auto picked = ref_slice(dim == 0 ? rows : cols, b.start, b.stop, b.step);
        const auto n = static_cast<std::int64_t>(picked.size());
        const auto sl = s.view.slice(dim, b.start, b.stop, b.step);
        EXPECT_TRUE(tensor_matches(sl, dim == 0 ? ts::Shape{n, cols} : ts::Shape{rows, n},
                                   pick(values, rows, cols, dim, picked)));
        EXPECT_EQ(sl.storage().data(), s.base.storage().data());
        const auto neg = s.view.slice(dim - 2, b.start, b.stop, b.step);  // negative dim
        EXPECT_EQ(neg.to_vector(), sl.to_vector());
      }
    }
    EXPECT_TRUE(tensor_matches(s.view.slice(1, 2), {rows, cols - 2},
                               pick(values, rows, cols, 1, ref_slice(cols, 2, cols, 1))));
  }
}

TYPED_TEST(TensorViews, SliceWithAHugeStepTakesOnlyTheFirstElement) {
  using T = typename TypeParam::value_type;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  const auto values = iota_values<T>(40);
  for (const auto& s : all_layouts(values, {8, 5}, this->device())) {
    SCOPED_TRACE(s.name);
    // Python: list(range(8))[2::sys.maxsize] == [2]; torch agrees.
    const auto rows = s.view.slice(0, 2, kMax, kMax);
    EXPECT_TRUE(tensor_matches(rows, {1, 5}, pick(values, 8, 5, 0, {2})));
    const auto cols = s.view.slice(1, kMin, kMax, kMax);
    EXPECT_TRUE(tensor_matches(cols, {8, 1}, pick(values, 8, 5, 1, {0})));
    EXPECT_TRUE(tensor_matches(s.view.slice(-1, kMin, kMax), {8, 5}, values));
    EXPECT_TRUE(tensor_matches(s.view.slice(0, kMin, kMin), {0, 5}, {}));
    EXPECT_TRUE(
        tensor_matches(s.view.slice(1, 3, kMax, kMax / 2), {8, 1}, pick(values, 8, 5, 1, {3})));
  }
}

TYPED_TEST(TensorViews, SliceStepMustBePositive) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({3, 4}, this->device());
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { a.slice(1, 0, 4, 0); }, {"slice", "step", "0"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { a.slice(0, 3, 0, -1); }, {"-1"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.slice(2, 0, 1); }, {"slice"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.slice(-3, 0, 1); }));
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] { ts::Tensor<T>::scalar(T(1), this->device()).slice(0, 0, 1); }));
}

TYPED_TEST(TensorViews, SelectRemovesTheDimension) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(24);
  for (const auto& s : all_layouts(values, {2, 3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    for (int dim = 0; dim < 3; ++dim) {
      const std::int64_t extent = s.view.size(dim);
      for (std::int64_t index = -extent; index < extent; ++index) {
        const auto sel = s.view.select(dim, index);
        const std::int64_t i = index < 0 ? index + extent : index;
        std::vector<T> expected;
        std::vector<std::int64_t> shape;
        for (std::int64_t k = 0; k < 24; ++k) {
          const std::int64_t idx[3] = {k / 12, (k / 4) % 3, k % 4};
          if (idx[dim] == i) expected.push_back(values[static_cast<std::size_t>(k)]);
        }
        for (int d = 0; d < 3; ++d)
          if (d != dim) shape.push_back(s.view.size(d));
        EXPECT_TRUE(tensor_matches(sel, ts::Shape(shape), expected)) << dim << ", " << index;
        EXPECT_EQ(sel.storage().data(), s.base.storage().data());
      }
    }
  }
  const auto a = ts::Tensor<T>::zeros({2, 3}, this->device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.select(1, 3); }, {"select", "3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.select(0, -3); }, {"-3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.select(2, 0); }));
}

TYPED_TEST(TensorViews, TransposeSwapsDimensions) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(24);
  for (const auto& s : all_layouts(values, {2, 3, 4}, this->device())) {
    SCOPED_TRACE(s.name);
    for (const auto& [d0, d1] :
         {std::pair{0, 2}, std::pair{-1, 0}, std::pair{1, 2}, std::pair{1, 1}, std::pair{-2, -3}}) {
      const auto t = s.view.transpose(d0, d1);
      const int a = (d0 + 3) % 3, b = (d1 + 3) % 3;
      std::vector<std::int64_t> shape{2, 3, 4};
      std::swap(shape[static_cast<std::size_t>(a)], shape[static_cast<std::size_t>(b)]);
      std::vector<T> expected;
      std::int64_t idx[3];
      for (idx[0] = 0; idx[0] < shape[0]; ++idx[0])
        for (idx[1] = 0; idx[1] < shape[1]; ++idx[1])
          for (idx[2] = 0; idx[2] < shape[2]; ++idx[2]) {
            std::int64_t src[3] = {idx[0], idx[1], idx[2]};
            std::swap(src[a], src[b]);
            expected.push_back(
                values[static_cast<std::size_t>((src[0] * 3 + src[1]) * 4 + src[2])]);
          }
      EXPECT_TRUE(tensor_matches(t, ts::Shape(shape), expected)) << d0 << ", " << d1;
      EXPECT_EQ(t.storage().data(), s.base.storage().data());
    }
  }
  const auto a = ts::Tensor<T>::zeros({2, 3}, this->device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.transpose(0, 2); }, {"transpose"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { a.transpose(-3, 0); }));
}

TYPED_TEST(TensorViews, WritingThroughAViewChangesOnlyItsElementsOfTheBase) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  for (int which = 0; which < kViewKinds; ++which) {
    SCOPED_TRACE(which);
    // Tag every base element with its own position, then read which positions the view covers.
    const auto positions = ts::Tensor<std::int64_t>::arange(0, 20, 1, dev).reshape({4, 5});
    const auto covered = view_of(which, positions).to_vector();
    const auto base = ts::Tensor<T>::from_vector(iota_values<T>(20), {4, 5}, dev);
    auto view = view_of(which, base);
    EXPECT_EQ(view.storage().data(), base.storage().data());
    const auto n = static_cast<std::int64_t>(covered.size());
    const auto fresh = other_values<T>(n);
    view = ts::cast<T>(ts::Tensor<T>::from_vector(fresh, view.shape(), dev));
    auto expected = iota_values<T>(20);
    for (std::size_t k = 0; k < covered.size(); ++k)
      expected[static_cast<std::size_t>(covered[k])] = fresh[k];
    EXPECT_TRUE(tensor_matches(base, {4, 5}, expected));
    EXPECT_TRUE(tensor_matches(view, view_of(which, positions).shape(), fresh));
  }
}

TYPED_TEST(TensorViews, CopiesShareStorage) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::from_vector(iota_values<T>(6), {2, 3}, this->device());
  const long owners = a.storage().use_count();
  auto b = a;  // a cheap handle copy, as in PyTorch
  EXPECT_EQ(b.data(), a.data());
  EXPECT_EQ(a.storage().use_count(), owners + 1);
  b = ts::cast<T>(ts::Tensor<T>::from_vector(other_values<T>(6), {2, 3}, this->device()));
  EXPECT_TRUE(tensor_matches(a, {2, 3}, other_values<T>(6)));
  ts::Tensor<T> view;
  {
    const auto owner = ts::Tensor<T>::from_vector(iota_values<T>(6), {2, 3}, this->device());
    view = owner.select(1, 2);
  }
  // The view keeps the memory alive after the last other handle is gone.
  EXPECT_TRUE(tensor_matches(view, {2}, {iota_values<T>(6)[2], iota_values<T>(6)[5]}));
}

// ---- cast -----------------------------------------------------------------------------------

template <class C>
class TensorCast : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorCast, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(TensorCast, ConvertsToEveryDtypeLikeStaticCast) {
  using T = typename TypeParam::value_type;
  // Values every dtype holds: 0..100 (floats with halves, so truncation shows), and bool.
  std::vector<T> values;
  for (int i = 0; i < 12; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      values.push_back(static_cast<T>(i * 8.5));
    } else {
      values.push_back(static_cast<T>(std::is_same_v<T, bool> ? i % 3 == 0 : i * 9));
    }
  }
  for (const auto& s : all_layouts(values, {3, 4}, this->device())) {
    tessera_test::for_each_dtype<tessera_test::DTypes>([&](auto tag) {
      using U = typename decltype(tag)::type;
      SCOPED_TRACE(testing::Message() << s.name << " -> " << ts::dtype_name(ts::dtype_v<U>));
      const ts::Tensor<U> c = s.view.template cast<U>();
      EXPECT_EQ(c.device(), this->device());
      EXPECT_TRUE(tensor_matches(
          c, {3, 4}, tessera_test::ref_unary<U>(values, [](T x) { return static_cast<U>(x); })));
    });
  }
}

template <class C>
class TensorCastSigned : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorCastSigned, tessera_test::SignedCases, tessera_test::CaseName);

TYPED_TEST(TensorCastSigned, NegativeValuesConvertLikeStaticCast) {
  using T = typename TypeParam::value_type;
  const std::vector<T> values{T(-1), T(-50), T(0), T(3)};
  const auto a = ts::Tensor<T>::from_vector(values, this->device());
  const auto values64 = tessera_test::ref_unary<std::int64_t>(values, [](T x) { return x; });
  EXPECT_TRUE(tensor_matches(a.template cast<std::int64_t>(), {4}, values64));
  EXPECT_TRUE(tensor_matches(a.template cast<double>(), {4}, {-1.0, -50.0, 0.0, 3.0}));
  EXPECT_TRUE(tensor_matches(a.template cast<bool>(), {4}, {true, true, false, true}));
  EXPECT_TRUE(tensor_matches(a.template cast<std::int8_t>(), {4},
                             {std::int8_t{-1}, std::int8_t{-50}, std::int8_t{0}, std::int8_t{3}}));
  // Wrapping into uint8 is modular (as static_cast and PyTorch's integer casts).
  const auto wrapped = ts::Tensor<std::int32_t>::from_vector({-1, 256, 300}, this->device());
  EXPECT_TRUE(tensor_matches(wrapped.template cast<std::uint8_t>(), {3},
                             {std::uint8_t{255}, std::uint8_t{0}, std::uint8_t{44}}));
}
