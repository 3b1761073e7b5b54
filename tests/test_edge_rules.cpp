// SPDX-License-Identifier: BSD-3-Clause
// Rules found broken at the edges of the framework vocabulary (issue 51), each checked on every
// device present against what PyTorch 2.15 / TensorFlow 2.21 do.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

// tf.ragged.boolean_mask(x * 1, mask) works in TF; the API takes expressions where values go.
TEST(EdgeRules, RaggedBooleanMaskTakesExpressions) {
  for (const auto device : tessera_test::available_devices()) {
    const auto x = ts::tensor<std::int64_t>({{1, 2, 3}, {4, 5, 6}}, device);
    const auto mask = ts::tensor<bool>({{true, false, true}, {false, false, true}}, device);
    const auto from_expression = ts::ragged::boolean_mask(x * 1, mask);
    EXPECT_EQ(from_expression.to_list(), (std::vector<std::vector<std::int64_t>>{{1, 3}, {6}}));
    const auto both = ts::ragged::boolean_mask(x * 2, x > 2);
    EXPECT_EQ(both.to_list(), (std::vector<std::vector<std::int64_t>>{{6}, {8, 10, 12}}));
    EXPECT_EQ(both.device(), device);
    EXPECT_THROW(ts::ragged::boolean_mask(x * 1, ts::Tensor<bool>::ones({3, 3}, device)),
                 ts::ShapeError);
  }
}

// torch.nansum(torch.tensor([1, 2], dtype=torch.int32), 0) -> tensor(3) (int64).
TEST(EdgeRules, NansumOfBoolAndIntegersIsTheirInt64Sum) {
  for (const auto device : tessera_test::available_devices()) {
    const auto i = ts::tensor<std::int32_t>({{1, 2}, {3, 4}}, device);
    const auto s = ts::nansum(i, 0);
    static_assert(std::is_same_v<decltype(s), const ts::Tensor<std::int64_t>>);
    EXPECT_EQ(s.to_vector(), (std::vector<std::int64_t>{4, 6}));
    const auto b = ts::tensor<bool>({true, true, false}, device);
    EXPECT_EQ(ts::nansum(b, 0).item(), 2);
    EXPECT_EQ(b.nansum(0).item(), 2);
    EXPECT_EQ(ts::nansum(i * 2, {0, 1}).item(), 20);
  }
}

// torch.square(torch.tensor([True])) -> tensor([1]) (int64).
TEST(EdgeRules, SquareOfBoolIsInt64) {
  for (const auto device : tessera_test::available_devices()) {
    const auto b = ts::tensor<bool>({true, false}, device);
    ts::Tensor<std::int64_t> s = ts::square(b);
    EXPECT_EQ(s.to_vector(), (std::vector<std::int64_t>{1, 0}));
    using R = typename decltype(ts::square(b))::value_type;
    static_assert(std::is_same_v<R, std::int64_t>);
    // Other dtypes keep theirs (integers wrap).
    ts::Tensor<std::int8_t> w = ts::square(ts::tensor<std::int8_t>({12, -3}, device));
    EXPECT_EQ(w.to_vector(), (std::vector<std::int8_t>{static_cast<std::int8_t>(144), 9}));
  }
}

// torch.isclose(a, b, rtol=-1) raises "rtol must be greater than or equal to zero".
TEST(EdgeRules, IscloseRefusesNegativeTolerances) {
  for (const auto device : tessera_test::available_devices()) {
    const auto a = ts::tensor<float>({1.0f, 2.0f}, device);
    const auto b = ts::tensor<float>({1.0f, 2.5f}, device);
    EXPECT_THROW(ts::isclose(a, b, -1.0), ts::ValueError);
    EXPECT_THROW(ts::isclose(a, b, 1e-5, -1e-8), ts::ValueError);
    EXPECT_THROW(ts::allclose(a, b, -1.0), ts::ValueError);
    EXPECT_THROW(ts::allclose(a, b, 1e-5, -1.0), ts::ValueError);
    try {
      (void)ts::allclose(a, b, -0.5);
      ADD_FAILURE() << "no error";
    } catch (const ts::ValueError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("allclose"), std::string::npos) << what;
      EXPECT_NE(what.find("rtol"), std::string::npos) << what;
      EXPECT_NE(what.find("-0.5"), std::string::npos) << what;
    }
    // Zero tolerances are fine: exact comparison.
    EXPECT_EQ(ts::Tensor<bool>(ts::isclose(a, b, 0.0, 0.0)).to_vector(),
              (std::vector<bool>{true, false}));
  }
}

// torch.take_along_dim(torch.tensor(5.), torch.tensor(0), 0) raises IndexError ("Dimension
// specified as 0 but tensor has no dimensions"); gather and index_select take a 0-d input
// as one element along dim 0, as PyTorch does.
TEST(EdgeRules, TakeAlongDimOfA0dTensorIsAnIndexError) {
  for (const auto device : tessera_test::available_devices()) {
    const auto x = ts::Tensor<float>::scalar(5.0f, device);
    const auto i0 = ts::Tensor<std::int64_t>::scalar(0, device);
    EXPECT_THROW(x.take_along_dim(i0, 0), ts::IndexError);
    EXPECT_THROW(x.take_along_dim(i0, -1), ts::IndexError);
    EXPECT_THROW(ts::roll(x, 1, 0), ts::IndexError);
    EXPECT_THROW(x.roll({1}, {0}), ts::IndexError);
    EXPECT_EQ(x.gather(0, i0).item(), 5.0f);
    EXPECT_EQ(x.index_select(0, i0).item(), 5.0f);
    EXPECT_EQ(ts::cumsum(x, 0).item(), 5.0f);  // reductions and scans accept dim 0 and -1
    EXPECT_EQ(ts::sum(x, -1).item(), 5.0f);
    EXPECT_EQ(x.take_along_dim(i0).item(), 5.0f);  // the flat form has no dim
  }
}
