// SPDX-License-Identifier: BSD-3-Clause
// searchsorted and bucketize error rules (docs/ops/searchsorted.md): the exception type, a message
// that names the op, the argument and the values, and inputs and `out` left exactly as they were.

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "support/errors.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::expect_throw;
using ts::Tensor;

class SearchsortedErrorsOnDevice : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(SearchsortedErrorsOnDevice);

TEST_P(SearchsortedErrorsOnDevice, EveryErrorRuleLeavesInputsAndOutIntact) {
  const auto seq = ts::tensor<float>({{1, 2, 3}, {4, 5, 6}}).to(device());
  const auto values = ts::tensor<float>({{1, 5}, {4, 7}}).to(device());
  auto out = Tensor<std::int64_t>::full({2, 2}, 42, device());
  const auto seq_before = seq.to_vector();
  const auto values_before = values.to_vector();
  const auto intact = [&] {
    EXPECT_EQ(out.shape(), (ts::Shape{2, 2}));
    EXPECT_EQ(out.to_vector(), (std::vector<std::int64_t>(4, 42)));
    EXPECT_EQ(seq.to_vector(), seq_before);
    EXPECT_EQ(values.to_vector(), values_before);
  };

  auto msg = expect_throw<ts::ValueError>(
      [&] { seq.searchsorted_out(values, out, {.right = true, .side = ts::Side::Left}); });
  EXPECT_NE(msg.find("searchsorted_out"), std::string::npos) << msg;
  EXPECT_NE(msg.find("side"), std::string::npos) << msg;
  intact();

  // Leading dims differ / rank differs.
  msg = expect_throw<ts::ShapeError>([&] {
    seq.searchsorted_out(ts::tensor<float>({{1}, {2}, {3}}).to(device()), out);
  });
  EXPECT_NE(msg.find("(2, 3)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(3, 1)"), std::string::npos) << msg;
  intact();
  expect_throw<ts::ShapeError>([&] {
    seq.searchsorted_out(ts::tensor<float>({1, 2}).to(device()), out);
  });
  intact();
  // 0-d sequence; scalar values with an n-d sequence.
  expect_throw<ts::ShapeError>(
      [&] { Tensor<float>::scalar(1, device()).searchsorted_out(values, out); });
  msg = expect_throw<ts::ShapeError>([&] { seq.searchsorted_out(1.0f, out); });
  EXPECT_NE(msg.find("scalar"), std::string::npos) << msg;
  intact();
  // Sorter: wrong shape, out of range (both ends).
  const auto good_order = Tensor<std::int64_t>::zeros({2, 3}, device());
  expect_throw<ts::ShapeError>([&] {
    seq.searchsorted_out(values, out, {.sorter = Tensor<std::int64_t>::zeros({3}, device())});
  });
  intact();
  msg = expect_throw<ts::IndexError>([&] {
    seq.searchsorted_out(values, out,
                         {.sorter = ts::tensor<std::int64_t>({{0, 1, 2}, {2, 3, 0}}).to(device())});
  });
  EXPECT_NE(msg.find("3"), std::string::npos) << msg;
  intact();
  expect_throw<ts::IndexError>([&] {
    seq.searchsorted_out(
        values, out, {.sorter = ts::tensor<std::int64_t>({{0, -1, 2}, {2, 1, 0}}).to(device())});
  });
  intact();
  EXPECT_NO_THROW(seq.searchsorted(values, {.sorter = good_order}));
  // bucketize needs 1-d boundaries.
  msg = expect_throw<ts::ShapeError>([&] { values.bucketize_out(seq, out); });
  EXPECT_NE(msg.find("bucketize_out"), std::string::npos) << msg;
  EXPECT_NE(msg.find("boundaries"), std::string::npos) << msg;
  intact();
  expect_throw<ts::ShapeError>([&] { values.bucketize(Tensor<float>::scalar(1, device())); });
  // Device mismatches (only reachable with a GPU; on the CPU a CUDA tensor cannot be made).
  if (device().is_cuda()) {
    auto host_out = Tensor<std::int64_t>::full({2, 2}, 42);
    expect_throw<ts::DeviceError>([&] { seq.searchsorted_out(values, host_out); });
    EXPECT_EQ(host_out.to_vector(), (std::vector<std::int64_t>(4, 42)));
    expect_throw<ts::DeviceError>([&] { seq.searchsorted(values.cpu()); });
  }
}

TEST(SearchsortedErrors, Int32ResultsNeedRowsShorterThanInt32Max) {
  // A row of INT32_MAX elements without the memory: a broadcast view would do, but tessera's
  // views always own real rows, so the rule is checked on the shape alone, before anything runs.
  EXPECT_NO_THROW(ts::detail::check_search_int32("searchsorted", ts::Shape{INT32_MAX - 1}));
  const auto msg = expect_throw<ts::ValueError>([] {
    ts::detail::check_search_int32("searchsorted", ts::Shape{2, INT32_MAX});
  });
  EXPECT_NE(msg.find("2147483647"), std::string::npos) << msg;
}

}  // namespace
