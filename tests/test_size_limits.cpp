// SPDX-License-Identifier: BSD-3-Clause
// Size limits (docs/reliability.md): inputs of more than 2^31 elements are counted, indexed and
// searched in int64 end to end; int32 results are refused exactly from rows of INT32_MAX elements
// on. The inputs are 2 GiB of bool/int8 written once; the ctest label `huge` lets a run leave them
// out (the sanitized CI run does: ~7 minutes under ASan + UBSan).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using ts::Shape;
using ts::Tensor;

constexpr std::int64_t kTwo31 = std::int64_t{1} << 31;
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

TEST(SizeLimits, NonzeroCountsAndIndexesPast2To31BoolElements) {
  const std::int64_t n = kTwo31 + 77;
  auto x = Tensor<bool>::zeros({n});
  // Positions on both sides of 2^31 and the last element: an int32 count or index would wrap.
  const std::vector<std::int64_t> set = {5, kTwo31 - 1, kTwo31, kTwo31 + 3, n - 1};
  for (auto p : set) x.data()[p] = true;
  EXPECT_EQ(x.count_nonzero(), static_cast<std::int64_t>(set.size()));
  const auto rows = x.nonzero();
  ASSERT_EQ(rows.shape(), Shape({static_cast<std::int64_t>(set.size()), 1}));
  EXPECT_EQ(rows.to_vector(), set);
  // The same input seen as 2-D: (2^16, 2^15 + ...) rows and columns from int64 positions.
  const std::int64_t cols = n / 2;
  const auto two_d = x.slice(0, 0, 2 * cols).reshape({2, cols});
  const auto rc = two_d.nonzero_static(8, -1).to_vector();
  std::vector<std::int64_t> want;
  for (auto p : set) {
    if (p < 2 * cols) want.insert(want.end(), {p / cols, p % cols});
  }
  EXPECT_EQ(two_d.nonzero().to_vector(), want);
  // A strided row of the 2-D view through an expression: the kernel's int64 offsets.
  const auto second_row =
      std::count_if(set.begin(), set.end(), [&](auto p) { return p >= cols && p < 2 * cols; });
  EXPECT_EQ((two_d.select(0, 1) != false).count_nonzero(), second_row);
  want.resize(16, -1);
  EXPECT_EQ(rc, want);
}

TEST(SizeLimits, BucketizeSearchesInt8BoundariesPast2To31) {
  // Sorted int8 boundaries of 2^31 + 5 elements: -1 up to 2^31 + 1, then 0 up to 2^31 + 4, then 1.
  const std::int64_t n = kTwo31 + 5;
  auto boundaries = Tensor<std::int8_t>::empty({n});
  std::fill(boundaries.data(), boundaries.data() + kTwo31 + 1, std::int8_t{-1});
  std::fill(boundaries.data() + kTwo31 + 1, boundaries.data() + kTwo31 + 4, std::int8_t{0});
  boundaries.data()[n - 1] = 1;
  const auto v = ts::tensor<std::int8_t>({-2, -1, 0, 1, 2});
  // left: first position with boundary >= v; right: first with boundary > v.
  EXPECT_EQ(v.bucketize(boundaries).to_vector(),
            (std::vector<std::int64_t>{0, 0, kTwo31 + 1, n - 1, n}));
  EXPECT_EQ(v.bucketize(boundaries, true).to_vector(),
            (std::vector<std::int64_t>{0, kTwo31 + 1, n - 1, n, n}));
}

TEST(SizeLimits, Int32ResultsAllowedBelowInt32MaxRowsAndRefusedFromThere) {
  // One 2 GiB fill serves both sides of the limit: INT32_MAX zeros, and a view of one fewer.
  const auto all = Tensor<std::int8_t>::zeros({kInt32Max});
  const auto fewer = all.slice(0, 0, kInt32Max - 1);
  const auto v = ts::tensor<std::int8_t>({-1, 0, 1});
  // INT32_MAX - 1 boundaries: the largest answer, INT32_MAX - 1, still fits int32.
  EXPECT_EQ(v.bucketize<std::int32_t>(fewer).to_vector(),
            (std::vector<std::int32_t>{0, 0, static_cast<std::int32_t>(kInt32Max - 1)}));
  // One more boundary and int32 results are refused before anything is computed.
  try {
    (void)v.bucketize<std::int32_t>(all);
    ADD_FAILURE() << "no ValueError";
  } catch (const ts::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("2147483647"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)all.searchsorted<std::int32_t>(v), ts::ValueError);
  // int64 results are fine there.
  EXPECT_EQ(v.bucketize(all).to_vector(), (std::vector<std::int64_t>{0, 0, kInt32Max}));
}

}  // namespace
