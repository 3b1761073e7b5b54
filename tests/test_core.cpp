// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cstdint>
#include <list>
#include <sstream>
#include <type_traits>

#include "tessera/tessera.hpp"

namespace ts = tessera;

TEST(Device, CpuIsIndexZeroAndPrints) {
  const auto d = ts::Device::cpu();
  EXPECT_TRUE(d.is_cpu());
  EXPECT_FALSE(d.is_cuda());
  EXPECT_EQ(d.index(), 0);
  std::ostringstream os;
  os << d << ' ' << ts::Device::cuda(1);
  EXPECT_EQ(os.str(), "cpu cuda:1");
  EXPECT_TRUE(ts::Device::cuda(0) == ts::Device::cuda());
  EXPECT_FALSE(ts::Device::cuda(0) == ts::Device::cuda(1));
  EXPECT_FALSE(ts::Device::cpu() == ts::Device::cuda(0));
}

TEST(Device, NegativeCudaIndexIsValueError) { EXPECT_THROW(ts::Device::cuda(-1), ts::ValueError); }

TEST(Shape, BehavesLikeATuple) {
  ts::Shape s{2, 3};
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1], 3);
  EXPECT_EQ(s.numel(), 6);
  std::vector<std::int64_t> v{4, 5, 6};
  ts::Shape t(v.begin(), v.end());
  EXPECT_EQ(t, (ts::Shape{4, 5, 6}));
  EXPECT_EQ(t.str(), "(4, 5, 6)");
  EXPECT_EQ(ts::Shape{7}.str(), "(7,)");
  EXPECT_EQ(ts::Shape{}.str(), "()");
  EXPECT_EQ(ts::Shape{}.numel(), 1);
}

// Up to kMaxDims extents are stored inline and longer shapes spill to the heap: both kinds must
// compare, copy, print and mutate alike, and a long one must still reach the factories' check.
TEST(Shape, InlineAndSpilledShapesBehaveAlike) {
  const std::vector<std::int64_t> eight{1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::int64_t> nine{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const ts::Shape a(eight);
  const ts::Shape b(nine);
  EXPECT_EQ(a.size(), 8u);
  EXPECT_EQ(b.size(), 9u);
  EXPECT_EQ(a.vec(), eight);
  EXPECT_EQ(b.vec(), nine);
  EXPECT_EQ(b.back(), 9);
  EXPECT_EQ(b.numel(), 362880);
  EXPECT_EQ(b.str(), "(1, 2, 3, 4, 5, 6, 7, 8, 9)");
  EXPECT_FALSE(a == b);
  ts::Shape c = b;  // copy of a spilled shape, then mutated: the original keeps its extents
  c[8] = 10;
  EXPECT_EQ(b[8], 9);
  EXPECT_EQ(c[8], 10);
  c = a;  // a spilled shape assigned an inline one
  EXPECT_EQ(c, a);
  EXPECT_EQ(c.size(), 8u);
  ts::Shape d = a;
  d[0] = 9;
  EXPECT_FALSE(d == a);
  // A prefix equal in the inline slots is not equality: sizes differ.
  EXPECT_FALSE((ts::Shape{2, 3}) == (ts::Shape{2, 3, 0}));
  EXPECT_FALSE((ts::Shape{}) == (ts::Shape{0}));
  // From iterators of other integer types and of non-contiguous ranges.
  const std::vector<int> ints{4, 5, 6};
  EXPECT_EQ(ts::Shape(ints.begin(), ints.end()), (ts::Shape{4, 5, 6}));
  const std::list<std::int64_t> listed(nine.begin(), nine.end());
  EXPECT_EQ(ts::Shape(listed.begin(), listed.end()), b);
  EXPECT_EQ(ts::Shape::filled(3, 7), (ts::Shape{7, 7, 7}));
  EXPECT_EQ(ts::Shape::filled(9, 1).numel(), 1);
  EXPECT_EQ(ts::Shape::filled(0, 5), ts::Shape{});
  ts::Shape e = a;
  e = b;  // an inline shape assigned a spilled one
  EXPECT_EQ(e, b);
  const ts::Shape& same = e;
  e = same;  // self-assignment keeps the extents
  EXPECT_EQ(e, b);
  ts::Shape f = std::move(e);  // a move leaves the source a 0-d shape, the target the extents
  EXPECT_EQ(f, b);
  EXPECT_EQ(e, ts::Shape{});  // NOLINT(bugprone-use-after-move): the moved-from state is tested
  e = std::move(f);
  EXPECT_EQ(e, b);
  EXPECT_EQ(f.size(), 0u);  // NOLINT(bugprone-use-after-move)
  EXPECT_THROW(ts::Tensor<float>::zeros(b), ts::ShapeError);
  EXPECT_EQ(ts::Tensor<float>::zeros(a).shape(), a);
}

// view() fills every one of its kMaxDims slots (the dimensions, then zeros), whatever the
// tensor's rank and strides, and a moved-from Shape is a 0-d shape whose view slots are zero.
TEST(Shape, ViewsCarryTheExtentsThenZeros) {
  const auto t = ts::Tensor<float>::zeros({2, 3, 4}).transpose(0, 2);
  const auto v = t.view();
  EXPECT_EQ(v.data, t.data());
  ASSERT_EQ(v.ndim, 3);
  const std::int64_t shape[] = {4, 3, 2};
  const std::int64_t strides[] = {1, 4, 12};
  for (int d = 0; d < ts::kMaxDims; ++d) {
    EXPECT_EQ(v.shape[d], d < 3 ? shape[d] : 0) << "slot " << d;
    EXPECT_EQ(v.strides[d], d < 3 ? strides[d] : 0) << "slot " << d;
  }
  const auto s = ts::Tensor<double>::full({}, 2.0).view();  // 0-d: every slot zero
  EXPECT_EQ(s.ndim, 0);
  for (int d = 0; d < ts::kMaxDims; ++d) EXPECT_EQ(s.shape[d] | s.strides[d], 0) << "slot " << d;
  ts::Shape moved{5, 6, 7};
  const ts::Shape taken = std::move(moved);
  EXPECT_EQ(taken, (ts::Shape{5, 6, 7}));
  EXPECT_EQ(moved, ts::Shape{});  // NOLINT(bugprone-use-after-move): the documented state
  EXPECT_EQ(moved.numel(), 1);
}

// What each element type is comes from one traits header (element_traits.hpp); its answers
// for the eight dtypes and for scalars that are not elements.
TEST(DType, ElementTraitsSayWhatEachTypeIs) {
  static_assert(ts::Boolean<bool> && !ts::Integer<bool> && ts::Integral<bool>);
  static_assert(ts::Integer<std::uint8_t> && ts::Integer<std::int64_t> && !ts::Floating<int>);
  static_assert(ts::Floating<float> && ts::Floating<const double> && !ts::Integral<double>);
  static_assert(!ts::Complex<double> && ts::Arithmetic<char> && !ts::Arithmetic<int*>);
  static_assert(ts::Ordered<std::int16_t> && !ts::Ordered<ts::Shape>);
  static_assert(std::is_same_v<ts::accumulate_t<bool>, std::int64_t>);
  static_assert(std::is_same_v<ts::accumulate_t<std::uint8_t>, std::int64_t>);
  static_assert(std::is_same_v<ts::accumulate_t<float>, float>);
  static_assert(std::is_same_v<ts::sum_t<double>, ts::accumulate_t<double>>);
  static_assert(std::is_same_v<ts::abs_t<std::int8_t>, std::int8_t>);
  // Branches on a type's kind follow the traits: sum of bool counts in int64, of float in float.
  EXPECT_EQ(ts::sum(ts::Tensor<bool>::ones({300})), std::int64_t{300});
  EXPECT_EQ(ts::sum(ts::Tensor<float>::full({4}, 0.5f)), 2.0f);
}

TEST(DType, PromotionFollowsPyTorch) {
  static_assert(std::is_same_v<ts::promote_t<int32_t, float>, float>);
  static_assert(std::is_same_v<ts::promote_t<uint8_t, int8_t>, int16_t>);
  static_assert(std::is_same_v<ts::promote_t<uint8_t, int32_t>, int32_t>);
  static_assert(std::is_same_v<ts::promote_t<bool, int8_t>, int8_t>);
  static_assert(std::is_same_v<ts::promote_t<float, double>, double>);
  static_assert(std::is_same_v<ts::promote_t<int64_t, float>, float>);
  static_assert(std::is_same_v<ts::scalar_promote_t<float, double>, float>);
  static_assert(std::is_same_v<ts::scalar_promote_t<int32_t, double>, float>);
  static_assert(std::is_same_v<ts::scalar_promote_t<uint8_t, int>, uint8_t>);
  EXPECT_EQ(ts::dtype_name(ts::dtype_v<float>), "float32");
  EXPECT_EQ(ts::dtype_name(ts::dtype_v<bool>), "bool");
}

TEST(Error, HierarchyDerivesFromRuntimeError) {
  try {
    ts::detail::raise<ts::ShapeError>("reshape", "shape ", ts::Shape{5, 3}, " is invalid");
    FAIL();
  } catch (const ts::Error& e) {
    EXPECT_STREQ(e.what(), "reshape: shape (5, 3) is invalid");
    EXPECT_NE(dynamic_cast<const ts::ShapeError*>(&e), nullptr);
  }
  static_assert(std::is_base_of_v<std::runtime_error, ts::Error>);
  static_assert(std::is_base_of_v<ts::Error, ts::IndexError>);
  static_assert(std::is_base_of_v<ts::Error, ts::ValueError>);
  static_assert(std::is_base_of_v<ts::Error, ts::DeviceError>);
}

TEST(HostBlockCache, ReusesFreedLargeBlocksAndEmptiesOnRequest) {
  tessera::empty_cache();
  const void* first = nullptr;
  const auto before = tessera::memory_stats(tessera::Device::cpu()).current_bytes;
  {
    const auto a = tessera::Tensor<float>::empty({1 << 20});  // 4 MiB
    first = a.data();
  }
  EXPECT_EQ(tessera::memory_stats(tessera::Device::cpu()).current_bytes, before);
  if (tessera::cached_memory() == 0) {
    GTEST_SKIP() << "host block cache off (AddressSanitizer or TESSERA_HOST_CACHE_BYTES=0)";
  }
  EXPECT_GE(tessera::cached_memory(), std::size_t{4} << 20);
  {
    const auto b = tessera::Tensor<float>::empty({1 << 20});
    EXPECT_EQ(b.data(), first);  // the same pages, already mapped
    EXPECT_EQ(tessera::cached_memory(), 0u);
    const auto small = tessera::Tensor<float>::empty({1000});
    (void)small;
  }
  EXPECT_GE(tessera::empty_cache(), std::size_t{4} << 20);  // small blocks are never cached
  EXPECT_EQ(tessera::cached_memory(), 0u);
}

#if defined(__linux__)
// Blocks of whole 2 MiB granules start on a 2 MiB boundary, so that transparent huge pages can
// back them (they are advised MADV_HUGEPAGE); smaller blocks keep 64-byte alignment.
TEST(HostAllocation, LargeBlocksStartOnHugePageBoundaries) {
  tessera::empty_cache();  // fresh blocks, not ones cached by an earlier test
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  for (const std::int64_t n :
       {std::int64_t{1} << 19, (std::int64_t{1} << 19) + 1, std::int64_t{3} << 20}) {
    const auto big = tessera::Tensor<float>::ones({n});
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % kHugePage, 0u) << n << " floats";
    EXPECT_EQ(tessera::sum(big), static_cast<float>(n));
  }
  const auto small = tessera::Tensor<float>::empty({1000});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 64, 0u);
}
#endif
