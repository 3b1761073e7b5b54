// SPDX-License-Identifier: BSD-3-Clause
// xtensor interop: round trips, zero-copy views, and tessera's expression results checked
// against xtensor's own evaluation of the same expression.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xio.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xview.hpp>

#include "tessera/interop/xtensor.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

/// A tensor of `shape` holding 0, 1, 2, ... converted to T (alternating for bool).
template <class T>
ts::Tensor<T> iota(const ts::Shape& shape) {
  auto t = ts::Tensor<T>::empty(shape);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    t.data()[i] = std::is_same_v<T, bool> ? static_cast<T>(i % 3 == 1) : static_cast<T>(i);
  }
  return t;
}

/// The row-major elements of an xtensor expression, as a std::vector (std::vector<bool> for
/// bool, to compare with Tensor::to_vector).
template <class T, class E>
std::vector<T> xt_values(const E& e) {
  const xt::xarray<T> x = e;
  return std::vector<T>(x.begin(), x.end());
}

template <class T>
class XtensorRoundTrip : public ::testing::Test {};
using Dtypes = ::testing::Types<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                std::int64_t, float, double>;
TYPED_TEST_SUITE(XtensorRoundTrip, Dtypes);

TYPED_TEST(XtensorRoundTrip, KeepsShapeAndValuesForEveryRank) {
  using T = TypeParam;
  const std::vector<ts::Shape> shapes = {{}, {0}, {5}, {2, 3}, {2, 0, 3}, {2, 3, 4}, {1, 2, 1, 3}};
  for (const auto& shape : shapes) {
    SCOPED_TRACE(shape.str());
    const auto t = iota<T>(shape);
    const xt::xarray<T> x = ts::to_xtensor(t);
    ASSERT_EQ(x.dimension(), shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) EXPECT_EQ(x.shape()[d], shape[d]);
    EXPECT_EQ(std::vector<T>(x.begin(), x.end()), t.to_vector());
    const ts::Tensor<T> back = ts::from_xtensor(x);
    EXPECT_EQ(back.shape(), shape);
    EXPECT_EQ(back.to_vector(), t.to_vector());
    const ts::Tensor<T> through_view = ts::from_xtensor(ts::as_xtensor(t));
    EXPECT_EQ(through_view.to_vector(), t.to_vector());
  }
}

TEST(Xtensor, ScalarTensorBecomesZeroDimArray) {
  const auto x = ts::to_xtensor(ts::Tensor<double>::scalar(2.5));
  EXPECT_EQ(x.dimension(), 0u);
  EXPECT_EQ(x(), 2.5);
  const auto t = ts::from_xtensor(x);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.item(), 2.5);
}

TEST(Xtensor, FromXtensorEvaluatesExpressionsAndViews) {
  const xt::xarray<float> x = {{1, 2, 3}, {4, 5, 6}};
  const ts::Tensor<float> doubled = ts::from_xtensor(x * 2.0f + 1.0f);
  EXPECT_EQ(doubled.shape(), (ts::Shape{2, 3}));
  EXPECT_EQ(doubled.to_vector(), (std::vector<float>{3, 5, 7, 9, 11, 13}));
  // A strided column view, a row view and a transpose (column-major strides).
  EXPECT_EQ(ts::from_xtensor(xt::view(x, xt::all(), 1)).to_vector(), (std::vector<float>{2, 5}));
  EXPECT_EQ(ts::from_xtensor(xt::view(x, 1, xt::all())).to_vector(), (std::vector<float>{4, 5, 6}));
  const auto xt_t = ts::from_xtensor(xt::transpose(x));
  EXPECT_EQ(xt_t.shape(), (ts::Shape{3, 2}));
  EXPECT_EQ(xt_t.to_vector(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  const xt::xarray<float, xt::layout_type::column_major> col = x;
  EXPECT_EQ(ts::from_xtensor(col).to_vector(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  const ts::Tensor<bool> mask = ts::from_xtensor(x > 3.0f);
  EXPECT_EQ(mask.to_vector(), (std::vector<bool>{false, false, false, true, true, true}));
}

TEST(Xtensor, TransposedTensorThroughZeroCopyView) {
  const auto t = iota<int32_t>({2, 3});
  const auto tt = t.transpose(0, 1);
  ASSERT_FALSE(tt.is_contiguous());
  auto v = ts::as_xtensor(tt);
  ASSERT_EQ(v.shape()[0], 3u);
  ASSERT_EQ(v.shape()[1], 2u);
  EXPECT_EQ(v.data(), t.data());  // zero-copy
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 2; ++j) EXPECT_EQ(v(i, j), tt.at({int64_t(i), int64_t(j)}));
  }
  EXPECT_EQ(xt_values<int32_t>(v), tt.to_vector());
  EXPECT_EQ(ts::to_xtensor(tt), v);
  // A strided slice (every second column) too.
  const auto s = iota<double>({3, 4}).slice(1, 0, 4, 2);
  EXPECT_EQ(xt_values<double>(ts::as_xtensor(s)), s.to_vector());
}

TEST(Xtensor, WritesThroughViewAreVisibleInTensor) {
  auto t = ts::Tensor<float>::zeros({2, 3});
  auto v = ts::as_xtensor(t);
  v(1, 2) = 5.0f;
  EXPECT_EQ(t.at({1, 2}), 5.0f);
  // Writing an xtensor expression into a transposed view lands in the right places.
  auto vt = ts::as_xtensor(t.transpose(0, 1));
  vt = xt::xarray<float>{{1, 2}, {3, 4}, {5, 6}};
  EXPECT_EQ(t.to_vector(), (std::vector<float>{1, 3, 5, 2, 4, 6}));
  // Assignment and compound assignment into a strided slice leave the skipped columns alone.
  auto m = ts::Tensor<int64_t>::zeros({2, 4});
  auto vs = ts::as_xtensor(m.slice(1, 1, 4, 2));  // columns 1 and 3
  vs = xt::xarray<int64_t>{{1, 2}, {3, 4}};
  vs += 10;
  EXPECT_EQ(m.to_vector(), (std::vector<int64_t>{0, 11, 0, 12, 0, 13, 0, 14}));
  xt::noalias(vs) = xt::xarray<int64_t>{7, 8};  // broadcast (2) into (2, 2)
  EXPECT_EQ(m.to_vector(), (std::vector<int64_t>{0, 7, 0, 8, 0, 7, 0, 8}));
  auto b = ts::Tensor<bool>::zeros({3});
  ts::as_xtensor(b)(1) = true;
  EXPECT_EQ(b.to_vector(), (std::vector<bool>{false, true, false}));
}

TEST(Xtensor, ViewOfSizeOneDimensionBroadcasts) {
  const auto col = ts::tensor<float>({{1}, {2}, {3}});  // (3, 1), row-major strides (1, 1)
  const auto row = ts::tensor<float>({10, 20, 30, 40});
  const xt::xarray<float> expected = ts::to_xtensor(col) + ts::to_xtensor(row);
  const xt::xarray<float> got = ts::as_xtensor(col) + ts::as_xtensor(row);
  EXPECT_EQ(got, expected);
}

TEST(Xtensor, CudaTensorHasNoZeroCopyViewButCopies) {
  if (!ts::cuda_available()) GTEST_SKIP() << "no CUDA device: skipped the CUDA round trip";
  const auto g = iota<float>({2, 3}).to(ts::Device::cuda());
  EXPECT_THROW(ts::as_xtensor(g), ts::DeviceError);
  EXPECT_EQ(xt_values<float>(ts::to_xtensor(g.transpose(0, 1))), g.transpose(0, 1).to_vector());
  const xt::xarray<int64_t> x = {{1, 2}, {3, 4}};
  const auto back = ts::from_xtensor(x, ts::Device::cuda());
  EXPECT_TRUE(back.device().is_cuda());
  EXPECT_EQ(back.to_vector(), (std::vector<int64_t>{1, 2, 3, 4}));
}

// ---- tessera expressions against xtensor's evaluation of the same expression --------------

class XtensorExpr : public ::testing::Test {
 protected:
  ts::Tensor<float> a = ts::tensor<float>({{1.5f, -2, 3}, {0.25f, 5, -6}, {7, 8, -0.5f}});
  ts::Tensor<float> b = ts::tensor<float>({{2, -2, 1}, {4, 0.5f, -7}, {1, 9, 3}});
  xt::xarray<float> xa = ts::to_xtensor(a);
  xt::xarray<float> xb = ts::to_xtensor(b);
};

TEST_F(XtensorExpr, ArithmeticMatchesExactly) {
  const ts::Tensor<float> c = a + b * 2.0f;
  EXPECT_EQ(ts::to_xtensor(c), xt::xarray<float>(xa + xb * 2.0f));
  const ts::Tensor<float> d = (a - b) / 4.0f;
  EXPECT_EQ(ts::to_xtensor(d), xt::xarray<float>((xa - xb) / 4.0f));
  // Operands read through strides: tessera's transpose against xtensor's.
  const ts::Tensor<float> e = a.transpose(0, 1) * b;
  EXPECT_EQ(ts::to_xtensor(e), xt::xarray<float>(xt::transpose(xa) * xb));
}

TEST_F(XtensorExpr, BroadcastingMatchesExactly) {
  const auto col = ts::tensor<float>({{1}, {2}, {3}});
  const auto row = ts::tensor<float>({10, 20, 30, 40});
  const ts::Tensor<float> c = col + row;
  EXPECT_EQ(c.shape(), (ts::Shape{3, 4}));
  EXPECT_EQ(ts::to_xtensor(c), xt::xarray<float>(ts::to_xtensor(col) + ts::to_xtensor(row)));
}

TEST_F(XtensorExpr, WhereAndComparisonsMatchExactly) {
  const auto w = ts::eval(ts::where(a > b, a, b));
  EXPECT_EQ(ts::to_xtensor(w), xt::xarray<float>(xt::where(xa > xb, xa, xb)));
  const ts::Tensor<bool> m = (a >= 1.0f) & !(b < 0.0f);
  EXPECT_EQ(ts::to_xtensor(m), xt::xarray<bool>((xa >= 1.0f) && !(xb < 0.0f)));
}

TEST_F(XtensorExpr, MathFunctionsMatchToFloatPrecision) {
  const auto xs = xt::xarray<float>(xt::sqrt(xt::abs(xa)));
  const auto xe = xt::xarray<float>(xt::exp(xb / 4.0f));
  const auto ts_sqrt = ts::to_xtensor(ts::eval(ts::sqrt(ts::abs(a))));
  const auto ts_exp = ts::to_xtensor(ts::eval(ts::exp(b / 4.0f)));
  EXPECT_EQ(ts::to_xtensor(ts::eval(ts::abs(a))), xt::xarray<float>(xt::abs(xa)));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_FLOAT_EQ(ts_sqrt.flat(i), xs.flat(i)) << "sqrt at " << i;
    EXPECT_FLOAT_EQ(ts_exp.flat(i), xe.flat(i)) << "exp at " << i;
  }
}

TEST_F(XtensorExpr, ReductionsMatch) {
  // tessera accumulates float sums in double; xtensor in float: equal to float rounding.
  EXPECT_NEAR(ts::sum(a * b), xt::sum(xa * xb)(), 1e-4);
  EXPECT_EQ(ts::sum(ts::Tensor<int32_t>::arange(0, 100)), 4950);
  EXPECT_EQ(ts::max(a - b), xt::amax(xa - xb)());
  EXPECT_EQ(ts::min(a), xt::amin(xa)());
  // Large enough to span several evaluation blocks.
  const auto big = iota<double>({1000, 100});
  const auto xbig = ts::as_xtensor(big);
  EXPECT_DOUBLE_EQ(ts::sum(big * 0.5), xt::sum(xbig * 0.5)());
}

}  // namespace
