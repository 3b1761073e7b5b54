// SPDX-License-Identifier: BSD-3-Clause
// tensor_scatter_nd_* argument errors (docs/ops/scatter.md): shapes and devices are checked before
// anything is written, and the empty cases return an unchanged copy.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using ts::Tensor;

TEST(ScatterErrors, ShapesAreCheckedBeforeAnythingIsWritten) {
  auto t = Tensor<float>::ones({4, 3});
  const auto i = ts::tensor<std::int64_t>({{0}, {1}});
  const auto u = Tensor<float>::ones({2, 3});
  // 0-d tensor, indices, updates.
  auto s = Tensor<float>::scalar(1.0f);
  EXPECT_THROW((void)s.tensor_scatter_nd_sub(i, u), ts::ShapeError);
  EXPECT_THROW(t.scatter_nd_sub_(Tensor<std::int64_t>::scalar(0), u), ts::ShapeError);
  EXPECT_THROW(t.scatter_nd_sub_(i, Tensor<float>::scalar(1.0f)), ts::ShapeError);
  // K outside [1, rank].
  EXPECT_THROW(t.scatter_nd_sub_(Tensor<std::int64_t>::zeros({2, 0}), u), ts::ShapeError);
  EXPECT_THROW(t.scatter_nd_sub_(Tensor<std::int64_t>::zeros({2, 3}), Tensor<float>::ones({2})),
               ts::ShapeError);
  // Updates of the wrong shape: the message names all three shapes.
  try {
    t.scatter_nd_sub_(i, Tensor<float>::ones({2, 4}));
    ADD_FAILURE() << "no ShapeError";
  } catch (const ts::ShapeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tensor_scatter_nd_sub"), std::string::npos) << what;
    EXPECT_NE(what.find("[2,4]"), std::string::npos) << what;
    EXPECT_NE(what.find("[4,3]"), std::string::npos) << what;
    EXPECT_NE(what.find("[2,1]"), std::string::npos) << what;
  }
  // Rows into a tensor without elements.
  EXPECT_THROW((void)Tensor<float>::ones({0}).tensor_scatter_nd_add(ts::tensor<std::int32_t>({{0}}),
                                                                    ts::tensor<float>({1})),
               ts::ShapeError);
  EXPECT_EQ(t.to_vector(), std::vector<float>(12, 1.0f));
  // No rows: an unchanged copy, whatever the tensor.
  const auto none = Tensor<std::int64_t>::zeros({0, 1});
  EXPECT_EQ(t.tensor_scatter_nd_sub(none, Tensor<float>::zeros({0, 3})).to_vector(), t.to_vector());
  EXPECT_EQ(
      Tensor<float>::ones({0, 2}).tensor_scatter_nd_sub(none, Tensor<float>::zeros({0, 2})).shape(),
      (ts::Shape{0, 2}));
}

TEST(ScatterErrors, OperandsOnAnotherDeviceRaiseDeviceError) {
  if (!tessera_test::unavailable_reason(ts::Device::cuda(0)).empty()) GTEST_SKIP() << "no GPU";
  auto t = Tensor<float>::ones({4});
  const auto i = ts::tensor<std::int64_t>({{0}}, ts::Device::cuda(0));
  EXPECT_THROW(t.scatter_nd_sub_(i, ts::tensor<float>({1})), ts::DeviceError);
  EXPECT_THROW(t.scatter_nd_sub_(ts::tensor<std::int64_t>({{0}}),
                                 ts::tensor<float>({1}, ts::Device::cuda(0))),
               ts::DeviceError);
  EXPECT_EQ(t.to_vector(), std::vector<float>(4, 1.0f));
}

}  // namespace
