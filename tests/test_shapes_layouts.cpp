// SPDX-License-Identifier: BSD-3-Clause
// Shapes and views (API part 3) against the framework that existed before them: every op
// family reads permuted, expanded, diagonal and overlapping-window views as it reads their
// contiguous copies, and the in-place ops write through permuted and diagonal views, on every
// device present.

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <vector>

#include "support/typed.hpp"

namespace ts = tessera;

TEST(ShapesLayouts, EveryOpFamilyReadsPermutedExpandedAndDiagonalViews) {
  for (const auto device : tessera_test::available_devices()) {
    std::vector<float> values;
    for (int i = 0; i < 60; ++i) values.push_back(static_cast<float>((i * 37) % 23) - 11.0f);
    const auto base = ts::Tensor<float>::from_vector(values, {3, 4, 5}).to(device);
    const std::vector<ts::Tensor<float>> layouts = {
        base.permute({2, 0, 1}),                                         // (5, 3, 4), strided
        base.select(2, 1).unsqueeze(0).expand({5, 3, 4}),                // stride 0 leading dim
        base.select(0, 1).unsqueeze(1).expand({4, 3, 5}).movedim(2, 0),  // stride 0 in the middle
        base.diagonal(0, 1, 2).unsqueeze(2).expand({3, 4, 5}),           // diagonal + expand
        base.select(0, 0).unfold(1, 3, 1),                               // overlapping windows
    };
    for (std::size_t k = 0; k < layouts.size(); ++k) {
      const auto& v = layouts[k];
      const auto c = v.contiguous();
      ASSERT_EQ(c.to_vector(), v.to_vector()) << k;
      const std::string what = "layout " + std::to_string(k);
      // pointwise and whole-tensor reductions
      EXPECT_EQ(ts::Tensor<float>(v * 2.0f + 1.0f).to_vector(),
                ts::Tensor<float>(c * 2.0f + 1.0f).to_vector())
          << what;
      EXPECT_EQ(ts::sum(v), ts::sum(c)) << what;
      // reductions and scans over dims
      EXPECT_EQ(ts::sum(v, 1).to_vector(), ts::sum(c, 1).to_vector()) << what;
      EXPECT_EQ(ts::amax(v, {0, 2}).to_vector(), ts::amax(c, {0, 2}).to_vector()) << what;
      EXPECT_EQ(ts::argmax(v, -1).to_vector(), ts::argmax(c, -1).to_vector()) << what;
      EXPECT_EQ(ts::cumsum(v, 0).to_vector(), ts::cumsum(c, 0).to_vector()) << what;
      // ordering
      EXPECT_EQ(v.sort(1).values.to_vector(), c.sort(1).values.to_vector()) << what;
      EXPECT_EQ(v.argsort(-1).to_vector(), c.argsort(-1).to_vector()) << what;
      EXPECT_EQ(v.topk(2, 0).values.to_vector(), c.topk(2, 0).values.to_vector()) << what;
      // nonzero and searchsorted
      EXPECT_EQ(v.nonzero().to_vector(), c.nonzero().to_vector()) << what;
      const auto sorted = v.sort(-1).values;
      EXPECT_EQ(sorted.searchsorted(v).to_vector(), sorted.contiguous().searchsorted(c).to_vector())
          << what;
      // gathers
      const auto idx = ts::tensor<std::int64_t>({2, 0, 0, 1}, device);
      EXPECT_EQ(v.index_select(1, idx).to_vector(), c.index_select(1, idx).to_vector()) << what;
      EXPECT_EQ(v.take(idx).to_vector(), c.take(idx).to_vector()) << what;
      EXPECT_EQ(ts::cat({v, c}, 1).to_vector(), ts::cat({c, c}, 1).to_vector()) << what;
      EXPECT_EQ(v.masked_select(v > 0.0f).to_vector(), c.masked_select(c > 0.0f).to_vector())
          << what;
      // scatter (out of place: the expanded input is only read)
      const auto rows = ts::tensor<std::int64_t>({{1}, {0}}, device);
      const auto updates = ts::Tensor<float>::ones({2, v.size(1), v.size(2)}, device);
      EXPECT_EQ(v.tensor_scatter_nd_sub(rows, updates).to_vector(),
                c.tensor_scatter_nd_sub(rows, updates).to_vector())
          << what;
      // copies of the new block
      EXPECT_EQ(v.flip({0, 2}).to_vector(), c.flip({0, 2}).to_vector()) << what;
      EXPECT_EQ(ts::roll(v, {2, -1}, {0, 2}).to_vector(), ts::roll(c, {2, -1}, {0, 2}).to_vector())
          << what;
      EXPECT_EQ(v.repeat({1, 2, 1}).to_vector(), c.repeat({1, 2, 1}).to_vector()) << what;
      EXPECT_EQ(ts::triu(v, -1).to_vector(), ts::triu(c, -1).to_vector()) << what;
      EXPECT_EQ(v.reshape({-1}).to_vector(), c.to_vector()) << what;
    }
  }
}

TEST(ShapesLayouts, InPlaceOpsWriteThroughPermutedAndDiagonalViews) {
  for (const auto device : tessera_test::available_devices()) {
    // Each in-place op on a view of `a` must leave `a` as the same op on a contiguous copy of
    // the view, written back by hand, would.
    const auto fresh = [&] {
      return ts::Tensor<float>::arange(0.0f, 24.0f, 1.0f, device).reshape({2, 3, 4});
    };
    const auto check = [&](const char* what, auto&& op_on_view, auto&& take_view) {
      auto a = fresh();
      auto v = take_view(a);
      op_on_view(v);
      auto b = fresh();
      auto w = take_view(b).contiguous();
      op_on_view(w);
      auto target = take_view(b);
      target = w * 1.0f;  // write the expected values through the same view
      EXPECT_EQ(a.to_vector(), b.to_vector()) << what;
    };
    const auto permuted = [](const ts::Tensor<float>& t) { return t.permute({2, 0, 1}); };
    const auto diagonal = [](const ts::Tensor<float>& t) { return t.diagonal(1, 1, 2); };
    const auto rows = ts::tensor<std::int64_t>({{1, 0}, {3, 1}}, device);   // into (4, 2, 3)
    const auto cells = ts::tensor<std::int64_t>({{1, 0}, {0, 2}}, device);  // into (2, 3)
    for (const auto& [name, view] :
         {std::pair{"permuted", +permuted}, std::pair{"diagonal", +diagonal}}) {
      check(
          name, [](auto& v) { v.masked_fill_(v > 5.0f, -1.0f); }, view);
      check(
          name,
          [&](auto& v) {
            v.index_put_({ts::tensor<std::int64_t>({1, 0, 1}, device)}, 9.0f, /*accumulate*/ true);
          },
          view);
      check(
          name,
          [&](auto& v) {
            const auto ups = ts::Tensor<float>::ones({2}, device) * 7.0f;
            if (v.dim() == 2) v.scatter_nd_add_(cells, ts::Tensor<float>(ups));
            if (v.dim() == 3) v.scatter_nd_sub_(rows, ts::Tensor<float>::ones({2, 3}, device));
          },
          view);
      check(
          name, [](auto& v) { v = v * 2.0f + v.flip({0}); }, view);
    }
  }
}

TEST(ShapesLayouts, RaggedSegmentFormatAndInteropReadExpandedViews) {
  for (const auto device : tessera_test::available_devices()) {
    const auto row = ts::tensor<float>({1, 0, 3}, device);
    const auto e = row.unsqueeze(0).expand({2, 3});  // stride 0 rows
    const auto c = e.contiguous();
    const auto ids = ts::tensor<std::int64_t>({1, 0}, device);
    EXPECT_EQ(ts::unsorted_segment_sum(e, ids, 2).to_vector(),
              ts::unsorted_segment_sum(c, ids, 2).to_vector());
    const auto lengths = ts::tensor<std::int64_t>({1, 3}, device);
    EXPECT_EQ(ts::RaggedTensor<float>::from_tensor(e, lengths).to_list(),
              ts::RaggedTensor<float>::from_tensor(c, lengths).to_list());
    const auto mask = ts::tensor<bool>({{true, false, true}, {false, true, true}}, device);
    EXPECT_EQ(ts::ragged::boolean_mask(e, mask).to_list(),
              ts::ragged::boolean_mask(c, mask).to_list());
    const auto nd = ts::tensor<std::int64_t>({{1, 2}, {0, 0}}, device);
    EXPECT_EQ(e.gather_nd(nd).to_vector(), c.gather_nd(nd).to_vector());
    const auto edges = ts::tensor<float>({0.5f, 2.0f}, device);
    EXPECT_EQ(e.bucketize(edges).to_vector(), c.bucketize(edges).to_vector());
    EXPECT_EQ(e.count_nonzero(), 4);
    EXPECT_EQ(e.cast<double>().to_vector(), c.cast<double>().to_vector());
    std::ostringstream printed, expected;
    printed << e;
    expected << c;
    EXPECT_EQ(printed.str(), expected.str());
  }
}

TEST(ShapesLayouts, CastReadsEveryLayoutAsItsContiguousCopy) {
  for (const auto device : tessera_test::available_devices()) {
    // Values that change under the narrowing casts: int8 wraps, bool is "nonzero".
    std::vector<std::int32_t> values(4 * 6);
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<std::int32_t>(i * 37) - 300;
    }
    const auto base = ts::Tensor<std::int32_t>::from_vector(values, {4, 6}, device);
    const auto view = base.t().slice(0, 1, 6, 2);  // (3, 4), strides (2, 6)
    std::vector<std::int32_t> want;                // the reference loop over the view
    for (std::int64_t r = 0; r < 3; ++r) {
      for (std::int64_t c = 0; c < 4; ++c) {
        want.push_back(values[static_cast<std::size_t>(c * 6 + 1 + 2 * r)]);
      }
    }
    std::vector<double> as_double;
    std::vector<std::int8_t> as_int8;
    std::vector<bool> as_bool;
    for (const std::int32_t v : want) {
      as_double.push_back(v);
      as_int8.push_back(static_cast<std::int8_t>(v));
      as_bool.push_back(v != 0);
    }
    EXPECT_EQ(view.cast<double>().to_vector(), as_double) << device;
    EXPECT_EQ(view.cast<std::int8_t>().to_vector(), as_int8) << device;
    EXPECT_EQ(view.cast<bool>().to_vector(), as_bool) << device;
    EXPECT_EQ(view.cast<double>().shape(), ts::Shape({3, 4}));
    EXPECT_EQ(base.to_vector(), values);  // the source is untouched
    // 0-d and empty tensors.
    EXPECT_EQ(base.select(0, 1).select(0, 2).cast<float>().item(), static_cast<float>(values[8]));
    EXPECT_EQ(base.slice(0, 0, 0).cast<double>().shape(), ts::Shape({0, 6}));
  }
}
