// SPDX-License-Identifier: BSD-3-Clause
// nonzero family against PyTorch's own answers (tests/data/nonzero_golden.json, written by
// tools/golden/gen_nonzero.py) and against a reference loop over random shapes and layouts.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "support/golden.hpp"
#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

using tessera_test::ts::Tensor;
namespace ts = tessera;
using nlohmann::json;
using tessera_test::reference_nonzero;

const json& golden() { return tessera_test::golden("nonzero_golden.json"); }
using tessera_test::decode;

template <class C>
class NonzeroGolden : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(NonzeroGolden, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(NonzeroGolden, MatchesTorchInEveryLayout) {
  using T = typename TypeParam::value_type;
  const std::string dtype(ts::dtype_name(ts::dtype_v<T>));
  int checked = 0;
  for (const auto& c : golden()["cases"]) {
    if (c["dtype"] != dtype) continue;
    const ts::Shape shape(c["shape"].begin(), c["shape"].end());
    std::vector<T> values;
    for (const auto& v : c["values"]) values.push_back(decode<T>(v));
    const ts::Shape expected_shape(c["expected_shape"].begin(), c["expected_shape"].end());
    const auto expected = c["expected"].get<std::vector<std::int64_t>>();
    const auto z = expected_shape[0];
    for (const auto& input : tessera_test::all_layouts(values, shape, this->device())) {
      SCOPED_TRACE(dtype + " " + shape.str() + " " + input.name);
      const auto& x = input.view;
      const auto nz = x.nonzero();
      EXPECT_EQ(nz.shape(), expected_shape);
      EXPECT_EQ(nz.device(), this->device());
      EXPECT_EQ(nz.to_vector(), expected);
      EXPECT_EQ(x.argwhere().to_vector(), expected);
      EXPECT_EQ(x.count_nonzero(), c["count"].get<std::int64_t>());
      const auto columns = x.nonzero(ts::as_tuple);
      ASSERT_EQ(columns.size(), c["tuple_count"].get<std::size_t>());
      for (std::size_t d = 0; d < columns.size(); ++d) {
        EXPECT_EQ(columns[d].to_vector(), c["tuple"][d].get<std::vector<std::int64_t>>());
      }
      // nonzero_static: truncated, exact and padded sizes.
      for (const std::int64_t size : {std::max<std::int64_t>(z - 1, 0), z, z + 2}) {
        const auto fixed = x.nonzero_static(size, -7);
        const auto ndim = static_cast<std::int64_t>(shape.size());
        ASSERT_EQ(fixed.shape(), (ts::Shape{size, ndim}));
        std::vector<std::int64_t> want(expected.begin(),
                                       expected.begin() + std::min(size, z) * ndim);
        want.resize(static_cast<std::size_t>(size * ndim), -7);
        EXPECT_EQ(fixed.to_vector(), want);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

template <class C>
class NonzeroOut : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(NonzeroOut, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(NonzeroOut, ResizesWrongShapeAndKeepsStridesOfRightShape) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(7);
  const ts::Shape shape{4, 3, 5};
  const auto values = tessera_test::random_values<T>(shape.numel(), rng);
  const auto x = Tensor<T>::from_vector(values, shape, this->device());
  const auto expected = reference_nonzero(values, shape);
  const auto z = static_cast<std::int64_t>(expected.size() / 3);

  auto wrong = Tensor<std::int64_t>::zeros({2, 2}, this->device());
  x.nonzero_out(wrong);
  EXPECT_EQ(wrong.shape(), (ts::Shape{z, 3}));
  EXPECT_EQ(wrong.to_vector(), expected);

  // A (z, 3) view with column-major strides: written through its strides, not replaced.
  auto base = Tensor<std::int64_t>::full({3, z}, -1, this->device());
  auto strided = base.transpose(0, 1);
  const auto storage = strided.storage().data();
  x.nonzero_out(strided);
  EXPECT_EQ(strided.storage().data(), storage);
  EXPECT_EQ(strided.strides(), (ts::Shape{1, z}));
  EXPECT_EQ(strided.to_vector(), expected);
  EXPECT_EQ(base.transpose(0, 1).to_vector(), expected);
}

TEST(Nonzero, ZeroDimInputFollowsTorch) {
  EXPECT_EQ(Tensor<float>::scalar(2.5f).nonzero().shape(), (ts::Shape{1, 0}));
  EXPECT_EQ(Tensor<float>::scalar(0.0f).nonzero().shape(), (ts::Shape{0, 0}));
  const auto one = Tensor<int32_t>::scalar(3).nonzero(ts::as_tuple);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].to_vector(), (std::vector<std::int64_t>{0}));
  const auto none = Tensor<int32_t>::scalar(0).nonzero(ts::as_tuple);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].numel(), 0);
  EXPECT_EQ(Tensor<bool>::scalar(true).nonzero_static(3, 9).shape(), (ts::Shape{3, 0}));
}

TEST(Nonzero, NanIsNonzeroAndNegativeZeroIsZero) {
  const auto x = ts::tensor<double>({0.0, -0.0, std::nan(""), 1.0});
  EXPECT_EQ(x.nonzero().to_vector(), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(x.count_nonzero(), 2);
}

TEST(Nonzero, NegativeStaticSizeIsValueError) {
  const auto x = ts::tensor<int32_t>({1, 0, 2});
  try {
    (void)x.nonzero_static(-1);
    FAIL() << "expected ValueError";
  } catch (const ts::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("nonzero_static"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos);
  }
  EXPECT_EQ(x.to_vector(), (std::vector<int32_t>{1, 0, 2}));
}

class NonzeroDevices : public tessera_test::OnEachDevice {};
INSTANTIATE_TEST_SUITE_P(Devices, NonzeroDevices, ::testing::ValuesIn(tessera_test::all_devices()),
                         [](const auto& info) { return info.param.is_cpu() ? "cpu" : "cuda0"; });

TEST_P(NonzeroDevices, ExpressionsMatchReferenceOverRandomShapesAndLayouts) {
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 60; ++trial) {
    const auto shape = tessera_test::random_shape(rng, 4, 0, 9);
    const auto values = tessera_test::random_values<float>(shape.numel(), rng);
    const auto spec = tessera_test::random_layout(shape.size(), rng);
    const auto input = tessera_test::make_strided(values, shape, spec, GetParam(),
                                                  tessera_test::sentinel_value<float>());
    std::vector<bool> flags;
    for (float v : values) flags.push_back(v > 2.5f && v != 5.0f);
    const auto expected = reference_nonzero(flags, shape);
    SCOPED_TRACE(shape.str());
    const auto& x = input.view;
    EXPECT_EQ(((x > 2.5f) & (x != 5.0f)).nonzero().to_vector(), expected);
    const auto count = std::count(flags.begin(), flags.end(), true);
    EXPECT_EQ(((x > 2.5f) & (x != 5.0f)).count_nonzero(), count);
  }
}

// Inputs large enough to span many blocks, with innermost runs long enough for the chunked
// (64-element) dense and sparse writers and lengths that leave ragged tails; nonzero_static cuts
// the output inside a chunk.
TEST_P(NonzeroDevices, LargeInputsCrossEveryBlockAndChunkPath) {
  std::mt19937_64 rng(77);
  const std::vector<ts::Shape> shapes = {{300001}, {517, 1031}, {3, 129, 700}, {2, 3, 67, 190}};
  for (const auto& shape : shapes) {
    for (const double density : {0.0005, 0.03, 0.5, 0.97, 1.0}) {
      std::bernoulli_distribution pick(density);
      std::vector<std::uint8_t> flags(static_cast<std::size_t>(shape.numel()));
      for (auto& f : flags) f = pick(rng) ? 1 : 0;
      std::vector<bool> as_bool(flags.begin(), flags.end());
      const auto expected = reference_nonzero(as_bool, shape);
      SCOPED_TRACE(shape.str() + " density " + std::to_string(density));
      const auto x = Tensor<std::uint8_t>::from_vector(flags, shape, GetParam());
      EXPECT_EQ(x.nonzero().to_vector(), expected);
      EXPECT_EQ((x != std::uint8_t{0}).nonzero().to_vector(), expected);
      const auto rows = static_cast<std::int64_t>(expected.size() / shape.size());
      const std::int64_t cut = rows / 2 + 13;  // inside a chunk for every density above
      const auto fixed = x.nonzero_static(cut, -3).to_vector();
      for (std::int64_t r = 0; r < cut; ++r) {
        for (std::size_t d = 0; d < shape.size(); ++d) {
          const auto at = static_cast<std::size_t>(r) * shape.size() + d;
          ASSERT_EQ(fixed[at], r < rows ? expected[at] : -3) << "row " << r;
        }
      }
    }
  }
}

// Outputs past 32 MiB, which the host writes with non-temporal stores where dense: ranks 1-3,
// full and nearly full chunks, an output written through column-major strides and one at an
// offset of 8 bytes (not 16-byte aligned), and nonzero_static cutting a dense block.
TEST_P(NonzeroDevices, OutputsBeyondTheCachesMatchTheReference) {
  std::mt19937_64 rng(99);
  // Streaming stores are the host's: a device (one kernel for every size) checks one case.
  const bool host = GetParam().is_cpu();
  std::vector<ts::Shape> shapes = {{4500000}, {2100, 1100}, {3, 700, 1000}};
  if (!host) shapes.resize(1);
  for (const auto& shape : shapes) {
    for (const double density : {0.97, 1.0}) {
      if (!host && density == 1.0) continue;
      std::bernoulli_distribution pick(density);
      std::vector<std::uint8_t> flags(static_cast<std::size_t>(shape.numel()));
      for (auto& f : flags) f = pick(rng) ? 1 : 0;
      const auto expected = reference_nonzero(std::vector<bool>(flags.begin(), flags.end()), shape);
      const auto rows = static_cast<std::int64_t>(expected.size() / shape.size());
      const auto ndim = static_cast<std::int64_t>(shape.size());
      ASSERT_GE(rows * ndim * 8, std::int64_t{32} << 20);
      SCOPED_TRACE(shape.str() + " density " + std::to_string(density));
      const auto x = Tensor<std::uint8_t>::from_vector(flags, shape, GetParam());
      EXPECT_EQ(x.nonzero().to_vector(), expected);
      auto column_major = Tensor<std::int64_t>::full({ndim, rows}, -1, GetParam()).transpose(0, 1);
      x.nonzero_out(column_major);
      EXPECT_EQ(column_major.to_vector(), expected);
      // Rows of 16 bytes starting 8 bytes into the storage.
      auto shifted = Tensor<std::int64_t>::full({rows * ndim + 1}, -1, GetParam())
                         .slice(0, 1, rows * ndim + 1)
                         .reshape({rows, ndim});
      x.nonzero_out(shifted);
      EXPECT_EQ(shifted.to_vector(), expected);
      const std::int64_t cut = rows - rows / 50 + 5;  // still past 32 MiB
      const auto fixed = x.nonzero_static(cut, -3).to_vector();
      EXPECT_TRUE(std::equal(fixed.begin(), fixed.end(), expected.begin()));
    }
  }
}

TEST_P(NonzeroDevices, OutOnAnotherDeviceIsDeviceErrorAndUntouched) {
  if (!ts::cuda_available()) GTEST_SKIP() << "needs a GPU to put out on another device";
  const auto x = ts::tensor<int32_t>({0, 1, 2}, GetParam());
  const auto other = GetParam().is_cpu() ? ts::Device::cuda(0) : ts::Device::cpu();
  auto out = Tensor<std::int64_t>::full({2, 1}, 5, other);
  EXPECT_THROW(x.nonzero_out(out), ts::DeviceError);
  EXPECT_EQ(out.to_vector(), (std::vector<std::int64_t>{5, 5}));
}

}  // namespace
