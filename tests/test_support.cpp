// SPDX-License-Identifier: BSD-3-Clause
// Checks of the test support code itself: the comparisons can fail, the strided layouts are
// what they claim to be, and the typed lists cover every dtype.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
namespace tt = tessera_test;

TEST(Support, ComparisonsReportMismatches) {
  const auto t = ts::tensor<float>({{1, 2}, {3, 4}});
  EXPECT_TRUE(tt::tensor_matches(t, {2, 2}, {1, 2, 3, 4}));
  EXPECT_FALSE(tt::tensor_matches(t, {4}, {1, 2, 3, 4}));     // wrong shape
  EXPECT_FALSE(tt::tensor_matches(t, {2, 2}, {1, 2, 3, 5}));  // wrong value
  EXPECT_FALSE(tt::tensor_matches(t, {2, 2}, {1, 2, 3}));     // wrong count
  EXPECT_TRUE(tt::tensor_matches(t, {2, 2}, {1, 2, 3, 4.000001f}, 1e-5));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(tt::same_value(nan, nan));
  EXPECT_FALSE(tt::same_value(nan, 1.0f));
  EXPECT_FALSE(tt::same_value(1.0f, nan));
  EXPECT_FALSE(tt::same_value(std::numeric_limits<float>::infinity(), 1e30f, 1.0));
  EXPECT_FALSE(tt::same_value<std::int8_t>(1, 2));
}

TEST(Support, ThrowsWithChecksTypeAndMessage) {
  auto shape_error = [] { ts::detail::raise<ts::ShapeError>("op", "shape (2, 3)"); };
  EXPECT_TRUE(tt::throws_with<ts::ShapeError>(shape_error, {"op", "(2, 3)"}));
  EXPECT_FALSE(tt::throws_with<ts::ShapeError>(shape_error, {"(3, 2)"}));
  EXPECT_FALSE(tt::throws_with<ts::IndexError>(shape_error));
  EXPECT_FALSE(tt::throws_with<ts::ShapeError>([] {}));
}

TEST(Support, NamedLayoutsAreStridedViewsOfTheirValues) {
  const auto values = tt::iota_values<std::int32_t>(24);
  const auto layouts = tt::all_layouts(values, {2, 3, 4}, ts::Device::cpu());
  ASSERT_EQ(layouts.size(), 4u);
  for (const auto& s : layouts) {
    SCOPED_TRACE(s.name);
    EXPECT_TRUE(tt::tensor_matches(s.view, {2, 3, 4}, values));
    EXPECT_EQ(s.view.storage().data(), s.base.storage().data());
    EXPECT_EQ(s.view.is_contiguous(), s.name == "contiguous");
    EXPECT_EQ(s.positions.size(), 24u);
    const auto base = s.base.to_vector();
    for (std::size_t k = 0; k < 24; ++k) {
      EXPECT_EQ(base[static_cast<std::size_t>(s.positions[k])], values[k]);
    }
    // Sliced and selected views leave gaps (holding the sentinel) in their base.
    EXPECT_EQ(s.base.numel() > 24, s.name == "sliced" || s.name == "selected");
  }
  EXPECT_EQ(layouts[1].view.strides(), (ts::Shape{1, 2, 6}));              // transposed
  EXPECT_EQ(layouts[2].view.strides(), (ts::Shape{2 * 7 * 9, 2 * 9, 2}));  // sliced by 2
  EXPECT_EQ(layouts[3].view.strides(), (ts::Shape{36, 12, 3}));            // selected
  EXPECT_NE(layouts[3].view.storage_offset(), 0);
  // Rank 0 and 1 get the layouts that exist for them.
  EXPECT_EQ(tt::all_layouts(std::vector<float>{1}, ts::Shape{}, ts::Device::cpu()).size(), 2u);
  EXPECT_EQ(tt::all_layouts(std::vector<float>{1, 2}, ts::Shape{2}, ts::Device::cpu()).size(), 3u);
}

TEST(Support, RandomLayoutsHoldTheirValues) {
  std::mt19937_64 rng(7);
  int strided = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const ts::Shape shape = tt::random_shape(rng);
    const auto values = tt::random_values<double>(shape.numel(), rng);
    const auto s = tt::make_strided(values, shape, tt::random_layout(shape.size(), rng),
                                    ts::Device::cpu(), -1.0);
    EXPECT_TRUE(tt::tensor_matches(s.view, shape, values)) << shape;
    strided += s.view.is_contiguous() ? 0 : 1;
  }
  EXPECT_GT(strided, 20);  // most random layouts really are strided
}

TEST(Support, ReferenceBroadcastFollowsNumPy) {
  EXPECT_EQ(tt::ref_broadcast({3, 1}, {4}), (ts::Shape{3, 4}));
  EXPECT_EQ(tt::ref_broadcast({2, 1, 3}, {4, 1}), (ts::Shape{2, 4, 3}));
  EXPECT_EQ(tt::ref_broadcast({}, {0, 2}), (ts::Shape{0, 2}));
  // Element (1, 2) of a (2, 3) output reads (0, 2) of a (1, 3) input and (1, 0) of (2, 1).
  EXPECT_EQ(tt::broadcast_source({1, 3}, {2, 3}, 5), 2);
  EXPECT_EQ(tt::broadcast_source({2, 1}, {2, 3}, 5), 1);
  EXPECT_EQ(tt::broadcast_source({}, {2, 3}, 5), 0);
}

TEST(Support, TypeListsCoverEveryDtypeOnEveryDevice) {
  int count = 0;
  tt::for_each_dtype<tt::DTypes>([&](auto tag) {
    using T = typename decltype(tag)::type;
    static_assert(ts::is_dtype_v<T>);
    ++count;
  });
  EXPECT_EQ(count, 8);
  EXPECT_EQ(tt::all_devices().size(), 2u);
  EXPECT_TRUE(tt::unavailable_reason(ts::Device::cpu()).empty());
  EXPECT_EQ(tt::unavailable_reason(ts::Device::cuda(0)).empty(), ts::cuda_available());
  EXPECT_EQ((tt::CaseName::GetName<tt::Case<float, tt::OnCuda>>(0)), "float32_cuda0");
}
