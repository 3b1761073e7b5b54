// SPDX-License-Identifier: BSD-3-Clause
// External memory: Tensor<T>::from_blob adopts or borrows a pointer without copying, on the
// host and on a device (a pointer from the device runtime, as cudaMalloc would give);
// data_ptr() and span() lend the elements back. Each test states the property it pins.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"
#include "tessera/core/device_runtime.hpp"

namespace ts = tessera;
namespace runtime = tessera::detail::device_runtime;
using tessera_test::iota_values;
using tessera_test::tensor_matches;
using tessera_test::throws_with;

// ---- every dtype, on the host and on cuda:0 -------------------------------------------------

template <class C>
class FromBlob : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(FromBlob, tessera_test::AllCases, tessera_test::CaseName);

// The tensor reads the caller's memory in place (same pointer, same values), and its deleter
// runs exactly once, only after the last handle (a copy, a view) is gone.
TYPED_TEST(FromBlob, AdoptsMemoryWithoutCopyAndDeletesOnceAfterLastHandle) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto values = iota_values<T>(6);
  const std::size_t nbytes = 6 * sizeof(T);
  T* ptr = nullptr;
  if (dev.is_cpu()) {
    ptr = new T[6];
    std::copy(values.begin(), values.end(), ptr);
  } else {
    ptr = static_cast<T*>(runtime::allocate(nbytes, dev.index()));
    std::unique_ptr<T[]> host(new T[6]);
    std::copy(values.begin(), values.end(), host.get());
    runtime::copy_from_host(ptr, host.get(), nbytes, dev.index());
  }
  int deletions = 0;
  {
    auto t = ts::Tensor<T>::from_blob(ptr, {2, 3}, dev, [&deletions, dev](T* p) {
      ++deletions;
      if (dev.is_cpu()) {
        delete[] p;
      } else {
        runtime::deallocate(p, dev.index());
      }
    });
    EXPECT_EQ(t.data_ptr(), ptr);
    EXPECT_EQ(t.device(), dev);
    EXPECT_TRUE(t.is_contiguous());
    EXPECT_TRUE(tensor_matches(t, {2, 3}, values));
    auto column = t.select(1, 2);  // a view shares the adopted memory
    t = ts::Tensor<T>::zeros({1}, dev);
    EXPECT_EQ(deletions, 0) << "a view still holds the memory";
    EXPECT_EQ(column.data_ptr(), ptr + 2);
    EXPECT_EQ(column.to_vector(), (std::vector<T>{values[2], values[5]}));
  }
  EXPECT_EQ(deletions, 1);
}

// Without a deleter the caller keeps ownership: nothing is freed when the tensor dies, and
// writes through the tensor land in the caller's buffer.
TYPED_TEST(FromBlob, BorrowsWithoutDeleterAndWritesShowInTheBuffer) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const std::size_t nbytes = 4 * sizeof(T);
  void* raw = dev.is_cpu() ? ::operator new(nbytes) : runtime::allocate(nbytes, dev.index());
  T* ptr = static_cast<T*>(raw);
  {
    auto t = ts::Tensor<T>::from_blob(ptr, {4}, dev);
    t = ts::cast<T>(ts::Tensor<T>::full({4}, T(1), dev));  // an expression: written in place
    EXPECT_EQ(t.data_ptr(), ptr);
  }
  std::unique_ptr<T[]> back(new T[4]);
  if (dev.is_cpu()) {
    std::copy(ptr, ptr + 4, back.get());
    ::operator delete(raw);
  } else {
    runtime::copy_to_host(back.get(), ptr, nbytes, dev.index());
    runtime::deallocate(raw, dev.index());
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(back[i], T(1)) << i;
}

// A strided (column-major) buffer is read through its strides, in place.
TYPED_TEST(FromBlob, StridedLayoutReadsThroughStrides) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto values = iota_values<T>(6);  // column-major storage of a 2x3 matrix
  auto storage = ts::Tensor<T>::from_vector(std::vector<T>(values.begin(), values.end()), {6}, dev);
  auto t = ts::Tensor<T>::from_blob(storage.data_ptr(), {2, 3}, {1, 2}, dev);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.strides(), (ts::Shape{1, 2}));
  EXPECT_TRUE(tensor_matches(
      t, {2, 3}, std::vector<T>{values[0], values[2], values[4], values[1], values[3], values[5]}));
}

// ---- host-only behaviour --------------------------------------------------------------------

TEST(FromBlob, MutationsAreVisibleBothWays) {
  std::vector<float> buffer{1, 2, 3, 4, 5, 6};
  auto t = ts::Tensor<float>::from_blob(buffer.data(), {3, 2}, ts::Device::cpu());
  buffer[5] = 60.0f;
  EXPECT_EQ(t.at({2, 1}), 60.0f);
  t = t * 10.0f;  // same shape: assignment writes into the buffer
  EXPECT_EQ(buffer, (std::vector<float>{10, 20, 30, 40, 50, 600}));
}

TEST(FromBlob, ResultsOfOperationsOwnFreshMemory) {
  int deletions = 0;
  float* p = new float[3]{1, 2, 3};
  ts::Tensor<float> doubled;
  {
    auto t = ts::Tensor<float>::from_blob(p, {3}, ts::Device::cpu(), [&](float* q) {
      ++deletions;
      delete[] q;
    });
    doubled = t * 2.0f;
  }
  EXPECT_EQ(deletions, 1);  // the result does not hold the adopted buffer
  EXPECT_EQ(doubled.to_vector(), (std::vector<float>{2, 4, 6}));
}

TEST(FromBlob, EmptyAndZeroDimensionalShapes) {
  auto empty = ts::Tensor<double>::from_blob(nullptr, {0, 4}, ts::Device::cpu());
  EXPECT_EQ(empty.numel(), 0);
  double x = 2.5;
  auto scalar = ts::Tensor<double>::from_blob(&x, {}, ts::Device::cpu());
  EXPECT_EQ(scalar.item(), 2.5);
  EXPECT_EQ(scalar.span().size(), 1u);
}

// Issue 19's class: a zero extent makes the shape empty wherever it stands, so huge extents
// before it are accepted as they are after it (from_blob once checked the running product
// left to right, as empty did).
TEST(FromBlob, ZeroElementShapesAcceptedWhateverTheOrderOfTheirExtents) {
  constexpr std::int64_t kBig = std::int64_t{1} << 40;
  for (const ts::Shape& shape : {ts::Shape{0, kBig, kBig}, ts::Shape{kBig, kBig, 0}}) {
    const auto t = ts::Tensor<float>::from_blob(nullptr, shape, ts::Device::cpu());
    EXPECT_EQ(t.numel(), 0) << shape;
    EXPECT_EQ(t.shape(), shape);
  }
}

TEST(FromBlob, InvalidRequestsRaiseAndLeaveOwnershipWithTheCaller) {
  std::vector<float> buffer(8);
  int deletions = 0;
  auto count = [&](float*) { ++deletions; };
  const auto cpu = ts::Device::cpu();
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::Tensor<float>::from_blob(buffer.data(), {2, 4}, {4}, cpu, count);
      },
      {"from_blob", "strides (4,)", "(2, 4)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::Tensor<float>::from_blob(buffer.data(), {2, -4}, cpu, count);
      },
      {"from_blob", "negative dimension", "(2, -4)"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::Tensor<float>::from_blob(buffer.data(), {2, 4}, {4, 0}, cpu, count);
      },
      {"from_blob", "stride 0 of dimension 1", "positive"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::Tensor<float>::from_blob(buffer.data(), {2, 4}, {2, 1}, cpu, count);
      },
      {"from_blob", "strides (2, 1)", "share an element"}));
  EXPECT_TRUE(
      throws_with<ts::ValueError>([&] { ts::Tensor<float>::from_blob(nullptr, {2}, cpu, count); },
                                  {"from_blob", "null pointer", "(2,)"}));
  auto* misaligned = reinterpret_cast<float*>(reinterpret_cast<char*>(buffer.data()) + 1);
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::Tensor<float>::from_blob(misaligned, {2}, cpu, count); },
      {"from_blob", "not aligned for float32"}));
  EXPECT_TRUE(throws_with<ts::DeviceError>(
      [&] { ts::Tensor<float>::from_blob(buffer.data(), {2}, ts::Device::cuda(7), count); },
      {"from_blob", "cuda:7", "not available"}));
  EXPECT_EQ(deletions, 0);
}

TEST(Span, ViewsContiguousHostElementsInPlace) {
  auto t = ts::tensor<std::int32_t>({{1, 2, 3}, {4, 5, 6}});
  std::span<std::int32_t> s = t.span();
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s.data(), t.data_ptr());
  EXPECT_EQ(std::accumulate(s.begin(), s.end(), 0), 21);
  s[4] = 50;
  EXPECT_EQ(t.at({1, 1}), 50);
  auto row = t.select(0, 1);  // a contiguous view: its own elements only
  EXPECT_EQ(std::vector<std::int32_t>(row.span().begin(), row.span().end()),
            (std::vector<std::int32_t>{4, 50, 6}));
}

TEST(Span, NonContiguousOrDeviceTensorsRaise) {
  auto t = ts::tensor<float>({{1, 2}, {3, 4}});
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)t.transpose(0, 1).span(); },
                                          {"span", "not contiguous", "(2, 2)", "(1, 2)"}));
  if (ts::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device for the device case";
  auto g = t.to(ts::Device::cuda(0));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { (void)g.span(); }, {"span", "cuda:0"}));
}
