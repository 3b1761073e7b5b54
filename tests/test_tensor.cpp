// SPDX-License-Identifier: BSD-3-Clause
// Tensor construction, factories and queries, for every dtype on every device present.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::iota_values;
using tessera_test::tensor_matches;
using tessera_test::throws_with;

// ---- the original smoke tests, kept ---------------------------------------------------------

TEST(Tensor, NestedListsGiveShapeAndValues) {
  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  EXPECT_EQ(a.shape(), (ts::Shape{2, 5}));
  EXPECT_EQ(a.dim(), 2);
  EXPECT_EQ(a.numel(), 10);
  EXPECT_EQ(a.size(-1), 5);
  EXPECT_EQ(a.at({1, 2}), 6.0f);
  auto e = ts::tensor<float>({});
  EXPECT_EQ(e.shape(), (ts::Shape{0}));
  EXPECT_THROW(ts::tensor<int>({{1, 2}, {3}}), ts::ShapeError);
}

// ---- construction from nested lists ---------------------------------------------------------

template <class C>
class TensorConstruction : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorConstruction, tessera_test::AllCases, tessera_test::CaseName);

/// i as T (bool: i % 2), the value iota_values<T> puts at position i.
template <class T>
T nth(int i) {
  return std::is_same_v<T, bool> ? static_cast<T>(i % 2) : static_cast<T>(i);
}

// Found by the clang sanitize tree: clang 14 resolved `tensor<T>({x})` to the scalar overload
// (shape ()), g++ to the nested list (shape (1)). The API contract means the list.
TEST(TensorFactories, OneElementBracesAreOneDimensionalOnEveryCompiler) {
  EXPECT_EQ(ts::tensor<float>({1.5f}).shape(), ts::Shape{1});
  EXPECT_EQ(ts::tensor<std::int64_t>({7}, ts::Device::cpu()).to_vector(),
            std::vector<std::int64_t>{7});
  EXPECT_EQ(ts::tensor<double>(5.0).shape(), ts::Shape{});
  EXPECT_EQ(ts::tensor<float>(3).item(), 3.0f);  // an int value converts, still 0-d
  EXPECT_EQ(ts::tensor<float>(3).dim(), 0);
}

TYPED_TEST(TensorConstruction, NestedListsOfEveryRankGiveRowMajorValues) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto t0 = ts::tensor<T>(nth<T>(5), dev);
  EXPECT_TRUE(tensor_matches(t0, ts::Shape{}, {nth<T>(5)}));
  const auto t1 = ts::tensor<T>({nth<T>(0), nth<T>(1), nth<T>(2)}, dev);
  EXPECT_TRUE(tensor_matches(t1, {3}, iota_values<T>(3)));
  const auto single = ts::tensor<T>({nth<T>(1)}, dev);
  EXPECT_TRUE(tensor_matches(single, {1}, {nth<T>(1)}));
  const auto t2 =
      ts::tensor<T>({{nth<T>(0), nth<T>(1), nth<T>(2)}, {nth<T>(3), nth<T>(4), nth<T>(5)}}, dev);
  EXPECT_TRUE(tensor_matches(t2, {2, 3}, iota_values<T>(6)));
  const auto t3 = ts::tensor<T>(
      {{{nth<T>(0), nth<T>(1)}}, {{nth<T>(2), nth<T>(3)}}, {{nth<T>(4), nth<T>(5)}}}, dev);
  EXPECT_TRUE(tensor_matches(t3, {3, 1, 2}, iota_values<T>(6)));
  const auto t4 = ts::tensor<T>({{{{nth<T>(0)}, {nth<T>(1)}}, {{nth<T>(2)}, {nth<T>(3)}}},
                                 {{{nth<T>(4)}, {nth<T>(5)}}, {{nth<T>(6)}, {nth<T>(7)}}}},
                                dev);
  EXPECT_TRUE(tensor_matches(t4, {2, 2, 2, 1}, iota_values<T>(8)));
  for (const auto* t : {&t0, &t1, &t2, &t3, &t4}) {
    EXPECT_EQ(t->device(), dev);
    EXPECT_TRUE(t->is_contiguous());
  }
  EXPECT_EQ(t4.dim(), 4);
  EXPECT_EQ(t4.numel(), 8);
}

TYPED_TEST(TensorConstruction, EmptyBracesGiveShapeZero) {
  using T = typename TypeParam::value_type;
  const auto e = ts::tensor<T>({}, this->device());
  EXPECT_EQ(e.shape(), (ts::Shape{0}));
  EXPECT_EQ(e.dim(), 1);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(e.device(), this->device());
  EXPECT_TRUE(e.to_vector().empty());
  const auto rows = ts::tensor<T>({{}, {}}, this->device());
  EXPECT_EQ(rows.shape(), (ts::Shape{2, 0}));
}

TYPED_TEST(TensorConstruction, RaggedNestingIsShapeError) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const T x = nth<T>(1);
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::tensor<T>({{x, x}, {x}}, dev); }, {"tensor"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::tensor<T>({{x}, {x, x}}, dev); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::tensor<T>({{x, x}, x}, dev); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::tensor<T>({x, {x, x}}, dev); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::tensor<T>({{}, {x}}, dev); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] {
    ts::tensor<T>({{{x, x}, {x, x}}, {{x, x}, {x}}}, dev);
  }));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::tensor<T>({{{x}, {x}}, {x, x}}, dev); }));
}

TYPED_TEST(TensorConstruction, ScalarIsZeroDimensional) {
  using T = typename TypeParam::value_type;
  const auto s = ts::Tensor<T>::scalar(nth<T>(7), this->device());
  EXPECT_EQ(s.shape(), ts::Shape{});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(s.device(), this->device());
  EXPECT_EQ(s.item(), nth<T>(7));
  EXPECT_EQ(s.at({}), nth<T>(7));
  EXPECT_TRUE(s.is_contiguous());
  EXPECT_TRUE(tensor_matches(s, ts::Shape{}, {nth<T>(7)}));
}

// ---- factories ------------------------------------------------------------------------------

template <class C>
class TensorFactories : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorFactories, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(TensorFactories, ZerosOnesFullFillEveryElement) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  for (const ts::Shape& shape : {ts::Shape{}, ts::Shape{0}, ts::Shape{3}, ts::Shape{2, 3},
                                 ts::Shape{2, 0, 4}, ts::Shape{2, 3, 1, 2}}) {
    SCOPED_TRACE(shape.str());
    const auto n = static_cast<std::size_t>(shape.numel());
    const auto zeros = ts::Tensor<T>::zeros(shape, dev);
    const auto ones = ts::Tensor<T>::ones(shape, dev);
    const auto full = ts::Tensor<T>::full(shape, nth<T>(7), dev);
    EXPECT_TRUE(tensor_matches(zeros, shape, std::vector<T>(n, T(0))));
    EXPECT_TRUE(tensor_matches(ones, shape, std::vector<T>(n, T(1))));
    EXPECT_TRUE(tensor_matches(full, shape, std::vector<T>(n, nth<T>(7))));
    for (const auto* t : {&zeros, &ones, &full}) {
      EXPECT_EQ(t->device(), dev);
      EXPECT_TRUE(t->is_contiguous());
    }
  }
}

TYPED_TEST(TensorFactories, EmptyHasShapeDeviceAndContiguousStrides) {
  using T = typename TypeParam::value_type;
  const auto e = ts::Tensor<T>::empty({2, 3, 4}, this->device());
  EXPECT_EQ(e.shape(), (ts::Shape{2, 3, 4}));
  EXPECT_EQ(e.strides(), (ts::Shape{12, 4, 1}));
  EXPECT_EQ(e.device(), this->device());
  EXPECT_EQ(e.numel(), 24);
  // Its values are indeterminate (not even valid bools), so they are never read here.
}

TYPED_TEST(TensorFactories, DefaultDeviceIsCpu) {
  using T = typename TypeParam::value_type;
  EXPECT_TRUE(ts::Tensor<T>::zeros({2}).device().is_cpu());
  EXPECT_TRUE(ts::Tensor<T>::ones({2}).device().is_cpu());
  EXPECT_TRUE(ts::Tensor<T>::full({2}, T(1)).device().is_cpu());
  EXPECT_TRUE(ts::Tensor<T>::empty({2}).device().is_cpu());
  EXPECT_TRUE(ts::Tensor<T>::scalar(T(1)).device().is_cpu());
  EXPECT_TRUE(ts::Tensor<T>::from_vector({T(1)}).device().is_cpu());
  EXPECT_TRUE(ts::tensor<T>({T(1)}).device().is_cpu());
  const ts::Tensor<T> d;
  EXPECT_TRUE(d.device().is_cpu());
  EXPECT_EQ(d.shape(), (ts::Shape{0}));  // as torch.Tensor()
}

TYPED_TEST(TensorFactories, BadShapeIsShapeError) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::Tensor<T>::zeros({2, -1}, dev);
      },
      {"(2, -1)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::Tensor<T>::empty({-3}, dev); }));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::Tensor<T>::ones({1, 1, 1, 1, 1, 1, 1, 1, 1}, dev);
      },
      {"9"}));
}

TYPED_TEST(TensorFactories, FromVectorKeepsRowMajorOrderAndCopies) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  auto values = iota_values<T>(6);
  const auto t = ts::Tensor<T>::from_vector(values, {2, 3}, dev);
  const auto flat = ts::Tensor<T>::from_vector(values, dev);
  values[0] = nth<T>(1);  // the tensors hold copies
  EXPECT_TRUE(tensor_matches(t, {2, 3}, iota_values<T>(6)));
  EXPECT_TRUE(tensor_matches(flat, {6}, iota_values<T>(6)));
  EXPECT_EQ(t.device(), dev);
  EXPECT_EQ(flat.device(), dev);
  EXPECT_EQ(t.at({1, 0}), nth<T>(3));
  EXPECT_TRUE(tensor_matches(ts::Tensor<T>::from_vector({}, {0, 2}, dev), {0, 2}, {}));
  EXPECT_TRUE(tensor_matches(ts::Tensor<T>::from_vector({nth<T>(1)}, ts::Shape{}, dev), ts::Shape{},
                             {nth<T>(1)}));
}

TYPED_TEST(TensorFactories, FromVectorSizeMismatchIsShapeError) {
  using T = typename TypeParam::value_type;
  const auto values = iota_values<T>(6);
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::Tensor<T>::from_vector(values, {4, 2}, this->device());
      },
      {"from_vector", "(4, 2)", "8", "6"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] { ts::Tensor<T>::from_vector(values, ts::Shape{}, this->device()); }));
}

// ---- arange ---------------------------------------------------------------------------------

template <class C>
class TensorArange : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorArange, tessera_test::NumericCases, tessera_test::CaseName);

/// torch.arange reference: start + i * step (in double for floats) while short of stop.
template <class T>
std::vector<T> ref_arange(double start, double stop, double step) {
  std::vector<T> out;
  for (std::int64_t i = 0;; ++i) {
    const double x = start + static_cast<double>(i) * step;
    if (step > 0 ? x >= stop : x <= stop) break;
    out.push_back(static_cast<T>(x));
  }
  return out;
}

TYPED_TEST(TensorArange, CountsUpToStopExclusive) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  for (const auto& [start, stop, step] :
       {std::tuple{0, 10, 2}, std::tuple{0, 10, 3}, std::tuple{3, 4, 1}, std::tuple{7, 100, 31}}) {
    SCOPED_TRACE(testing::Message() << start << ", " << stop << ", " << step);
    const auto t = ts::Tensor<T>::arange(T(start), T(stop), T(step), dev);
    const auto expected = ref_arange<T>(start, stop, step);
    EXPECT_TRUE(tensor_matches(t, {static_cast<std::int64_t>(expected.size())}, expected));
    EXPECT_EQ(t.device(), dev);
  }
  EXPECT_TRUE(tensor_matches(ts::Tensor<T>::arange(T(5), dev), {5}, ref_arange<T>(0, 5, 1)));
  EXPECT_TRUE(
      tensor_matches(ts::Tensor<T>::arange(T(2), T(6), T(1), dev), {4}, ref_arange<T>(2, 6, 1)));
}

TYPED_TEST(TensorArange, StopNotAheadOfStartIsEmpty) {
  using T = typename TypeParam::value_type;
  EXPECT_TRUE(tensor_matches(ts::Tensor<T>::arange(T(5), T(1), T(1), this->device()), {0}, {}));
  EXPECT_TRUE(tensor_matches(ts::Tensor<T>::arange(T(4), T(4), T(2), this->device()), {0}, {}));
  EXPECT_TRUE(tensor_matches(ts::Tensor<T>::arange(T(0), this->device()), {0}, {}));
}

TYPED_TEST(TensorArange, StepZeroIsValueError) {
  using T = typename TypeParam::value_type;
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::Tensor<T>::arange(T(0), T(5), T(0), this->device()); }, {"arange", "step"}));
}

template <class C>
class TensorArangeSigned : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorArangeSigned, tessera_test::SignedCases, tessera_test::CaseName);

TYPED_TEST(TensorArangeSigned, NegativeStepCountsDown) {
  using T = typename TypeParam::value_type;
  for (const auto& [start, stop, step] : {std::tuple{5, 0, -1}, std::tuple{10, 0, -3},
                                          std::tuple{-2, -10, -4}, std::tuple{0, 5, -1}}) {
    SCOPED_TRACE(testing::Message() << start << ", " << stop << ", " << step);
    const auto t = ts::Tensor<T>::arange(T(start), T(stop), T(step), this->device());
    const auto expected = ref_arange<T>(start, stop, step);
    EXPECT_TRUE(tensor_matches(t, {static_cast<std::int64_t>(expected.size())}, expected));
  }
}

class TensorArangeEdges : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(TensorArangeEdges);

TEST_P(TensorArangeEdges, FractionalStepsComputeStartPlusIStepInDouble) {
  const auto f = ts::Tensor<float>::arange(0.0f, 1.0f, 0.1f, device());
  EXPECT_TRUE(tensor_matches(f, {10}, ref_arange<float>(0.0, 1.0, static_cast<double>(0.1f))));
  const auto d = ts::Tensor<double>::arange(0.0, 1.0, 0.1, device());
  EXPECT_TRUE(tensor_matches(d, {10}, ref_arange<double>(0.0, 1.0, 0.1)));
  const auto third = ts::Tensor<float>::arange(0.0f, 1.0f, 0.3f, device());
  EXPECT_EQ(third.numel(), 4);  // 0, .3, .6, .9 (torch.arange(0, 1, 0.3))
  const auto down = ts::Tensor<double>::arange(1.0, 0.0, -0.25, device());
  EXPECT_TRUE(tensor_matches(down, {4}, {1.0, 0.75, 0.5, 0.25}));
  const auto half = ts::Tensor<float>::arange(0.5f, 2.0f, 0.5f, device());
  EXPECT_TRUE(tensor_matches(half, {3}, {0.5f, 1.0f, 1.5f}));
}

TEST_P(TensorArangeEdges, NonFiniteBoundIsValueError) {
  const float inf = std::numeric_limits<float>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::Tensor<float>::arange(0.0f, inf, 1.0f, device()); }, {"arange", "finite"}));
  EXPECT_TRUE(
      throws_with<ts::ValueError>([&] { ts::Tensor<double>::arange(nan, 1.0, 1.0, device()); }));
  EXPECT_TRUE(
      throws_with<ts::ValueError>([&] { ts::Tensor<float>::arange(0.0f, 1.0f, inf, device()); }));
}

TEST_P(TensorArangeEdges, TooManyElementsIsValueError) {
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::Tensor<float>::arange(0.0f, 1e30f, 1.0f, device()); }, {"arange"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] {
    ts::Tensor<std::int64_t>::arange(0, std::numeric_limits<std::int64_t>::max(), 1, device());
  }));
}

TEST_P(TensorArangeEdges, IntegerRangeSpanningTheWholeTypeIsExact) {
  using I32 = std::numeric_limits<std::int32_t>;
  const auto a = ts::Tensor<std::int32_t>::arange(I32::min(), I32::max(), 1 << 30, device());
  EXPECT_TRUE(tensor_matches(a, {4}, {I32::min(), -(1 << 30), 0, 1 << 30}));
  using I64 = std::numeric_limits<std::int64_t>;
  const auto b = ts::Tensor<std::int64_t>::arange(I64::min(), I64::max(), I64::max(), device());
  EXPECT_TRUE(tensor_matches(b, {3}, {I64::min(), std::int64_t{-1}, I64::max() - 1}));
  const auto c = ts::Tensor<std::int8_t>::arange(-128, 127, 100, device());
  EXPECT_TRUE(tensor_matches(c, {3}, {std::int8_t{-128}, std::int8_t{-28}, std::int8_t{72}}));
  const auto d = ts::Tensor<std::uint8_t>::arange(255, 0, 1, device());
  EXPECT_EQ(d.numel(), 0);
}

// ---- queries --------------------------------------------------------------------------------

template <class C>
class TensorQueries : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorQueries, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(TensorQueries, ShapeDimNumelAndSize) {
  using T = typename TypeParam::value_type;
  const auto t = ts::Tensor<T>::zeros({2, 3, 4}, this->device());
  EXPECT_EQ(t.shape(), (ts::Shape{2, 3, 4}));
  EXPECT_EQ(t.shape().size(), 3u);
  EXPECT_EQ(t.shape()[1], 3);
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(t.size(2), 4);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.size(-3), 2);
  EXPECT_EQ(t.device(), this->device());
  EXPECT_EQ(ts::Tensor<T>::zeros({5, 0}, this->device()).numel(), 0);
}

TYPED_TEST(TensorQueries, SizeOutOfRangeIsIndexError) {
  using T = typename TypeParam::value_type;
  const auto t = ts::Tensor<T>::zeros({2, 3, 4}, this->device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)t.size(3); }, {"size", "3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)t.size(-4); }, {"-4"}));
  // A 0-d tensor has no dimension to ask about (torch: "tensor has no dimensions").
  const auto s = ts::Tensor<T>::scalar(T(1), this->device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)s.size(0); }, {"size"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)s.size(-1); }, {"size"}));
}

TYPED_TEST(TensorQueries, IsContiguousOnlyForRowMajorLayouts) {
  using T = typename TypeParam::value_type;
  const auto a = ts::Tensor<T>::zeros({3, 4}, this->device());
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_FALSE(a.transpose(0, 1).is_contiguous());
  EXPECT_FALSE(a.slice(1, 0, 4, 2).is_contiguous());
  EXPECT_TRUE(a.slice(0, 1, 3).is_contiguous());  // whole rows: an offset, no gaps
  EXPECT_TRUE(a.select(0, 1).is_contiguous());
  EXPECT_FALSE(a.select(1, 1).is_contiguous());
  // The stride of a size-1 dimension does not matter.
  EXPECT_TRUE(ts::Tensor<T>::zeros({1, 5}, this->device()).transpose(0, 1).is_contiguous());
  EXPECT_TRUE(ts::Tensor<T>::zeros({0, 3}, this->device()).transpose(0, 1).is_contiguous());
  for (const auto& s : tessera_test::all_layouts(iota_values<T>(6), {2, 3}, this->device())) {
    EXPECT_EQ(s.view.is_contiguous(), s.name == "contiguous") << s.name;
  }
}

// ---- devices --------------------------------------------------------------------------------

/// Every way to put a tensor on `device` raises DeviceError naming it.
void expect_device_error_everywhere(ts::Device device) {
  const std::string name = device.str();
  const std::initializer_list<std::string> needles{name, "not available"};
  using F = ts::Tensor<float>;
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::zeros({2}, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::ones({2, 2}, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::full({2}, 1.0f, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::empty({0}, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::scalar(1.0f, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::arange(0, 4, 1, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { F::from_vector({1, 2}, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::tensor<float>({1, 2}, device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::tensor<double>(5.0, device); }, needles));
  const auto host = ts::tensor<std::int64_t>({1, 2, 3});
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { host.to(device); }, needles));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { host.transpose(0, 0).to(device); }, needles));
  EXPECT_EQ(host.to_vector(), (std::vector<std::int64_t>{1, 2, 3}));  // input untouched
}

#if !TESSERA_DEVICE_EMULATED  // the emulated device is always present
TEST(TensorDevices, CudaTensorWithoutGpuIsDeviceError) {
  if (ts::cuda_available()) GTEST_SKIP() << "a GPU is present (see UnusableGpuIndexIsDeviceError)";
  EXPECT_FALSE(ts::cuda_available());
  EXPECT_EQ(ts::cuda_device_count(), 0);
  expect_device_error_everywhere(ts::Device::cuda(0));
}
#endif

TEST(TensorDevices, UnusableGpuIndexIsDeviceError) {
  // One past the last GPU is never usable, with or without a GPU.
  expect_device_error_everywhere(ts::Device::cuda(ts::cuda_device_count()));
}

TEST(TensorDevices, AvailableDevicesStartWithTheCpu) {
  const auto devices = tessera_test::available_devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_TRUE(devices[0].is_cpu());
  EXPECT_EQ(devices.size(), ts::cuda_available() ? 2u : 1u);
  for (const auto device : devices) {
    const auto t = ts::Tensor<std::int32_t>::arange(0, 5, 1, device);
    EXPECT_EQ(t.device(), device);
    EXPECT_EQ(t.to_vector(), (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
  }
}
