// SPDX-License-Identifier: BSD-3-Clause
// The out= rule (docs/reliability.md, "out= and in-place forms"): every `out=` and in-place entry
// point may be handed memory that its inputs also read (the input itself, a view of it, another
// argument), and must then give exactly what it gives with a fresh `out`. Each case computes the
// expected answer from clones (no sharing) and compares with the aliased call, on every device.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using ts::Tensor;

class NonzeroOut : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(NonzeroOut);

// Issue 19: x.nonzero_out(x) on [[1, 1], [0, 0]] gave [[0, 0], [0, 0]].
TEST_P(NonzeroOut, AliasesItsInput) {
  auto x = ts::tensor<std::int64_t>({{1, 1}, {0, 0}}, device());
  x.nonzero_out(x);
  EXPECT_EQ(x.shape(), (ts::Shape{2, 2}));
  EXPECT_EQ(x.to_vector(), (std::vector<std::int64_t>{0, 0, 0, 1}));

  auto y = ts::tensor<std::int64_t>({{1, 1}, {0, 0}}, device());
  (y != 0).nonzero_out(y);
  EXPECT_EQ(y.to_vector(), (std::vector<std::int64_t>{0, 0, 0, 1}));
}

// Issue 19: on a (200, 2) input 299 of 400 values were wrong; also through views of the input
// (a transpose written through its strides) and with a result shape that differs (rebinding).
TEST_P(NonzeroOut, AliasesItsInputThroughViewsAndLargeShapes) {
  std::mt19937_64 rng(19);
  std::vector<std::int64_t> values(400);
  for (auto& v : values) v = static_cast<std::int64_t>(rng() % 3 == 0 ? 0 : 1 + rng() % 5);
  const auto reference = Tensor<std::int64_t>::from_vector(values, {200, 2}, device());
  const auto expected = reference.clone().nonzero();

  auto x = reference.clone();
  x.nonzero_out(x);
  EXPECT_EQ(x.shape(), expected.shape());
  EXPECT_EQ(x.to_vector(), expected.to_vector());

  // All nonzero: the result (400, 2) differs from x's shape (200, 2).
  auto ones = Tensor<std::int64_t>::ones({200, 2}, device());
  const auto all = ones.clone().nonzero();
  ones.nonzero_out(ones);
  EXPECT_EQ(ones.to_vector(), all.to_vector());

  // `out` is a (2, 2) view of the input's own memory, column-major: it keeps its strides.
  auto base = ts::tensor<std::int64_t>({{1, 0}, {1, 0}}, device());
  const auto base_expected = base.clone().nonzero();  // [[0, 0], [1, 0]]
  auto view = base.transpose(0, 1);
  base.nonzero_out(view);
  EXPECT_EQ(view.strides(), (ts::Shape{1, 2}));
  EXPECT_EQ(view.to_vector(), base_expected.to_vector());
  EXPECT_EQ(base.transpose(0, 1).to_vector(), base_expected.to_vector());

  // The input is a view (a step-2 slice) of `out`.
  auto wide = Tensor<std::int64_t>::from_vector(values, {100, 4}, device());
  const auto slice_expected = wide.clone().slice(1, 0, 4, 2).nonzero();
  wide.slice(1, 0, 4, 2).nonzero_out(wide);
  EXPECT_EQ(wide.to_vector(), slice_expected.to_vector());
}

class SearchsortedOut : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(SearchsortedOut);

TEST_P(SearchsortedOut, AliasesItsValuesSequenceOrSorter) {
  const std::vector<std::int64_t> seq_values{1, 3, 5, 7, 9, 11};
  const std::vector<std::int64_t> probe{0, 3, 4, 9, 12, 6};
  const auto seq = Tensor<std::int64_t>::from_vector(seq_values, {6}, device());
  const auto expected = seq.searchsorted(Tensor<std::int64_t>::from_vector(probe, {6}, device()));

  // out is the values.
  auto v = Tensor<std::int64_t>::from_vector(probe, {6}, device());
  seq.searchsorted_out(v, v);
  EXPECT_EQ(v.to_vector(), expected.to_vector());

  // out is an expression's operand, element for element.
  auto w = Tensor<std::int64_t>::from_vector(probe, {6}, device());
  seq.searchsorted_out(w * 1, w);
  EXPECT_EQ(w.to_vector(), expected.to_vector());

  // out is the sequence (same shape as the values).
  auto s = seq.clone();
  s.searchsorted_out(Tensor<std::int64_t>::from_vector(probe, {6}, device()), s);
  EXPECT_EQ(s.to_vector(), expected.to_vector());

  // out is a reversed-stride view of the values' memory: (2, 3) values, out their transpose's
  // transpose through a column-major buffer.
  auto grid = Tensor<std::int64_t>::from_vector(probe, {2, 3}, device());
  const auto grid_expected = seq.searchsorted(grid.clone());
  auto grid_out = grid.reshape({3, 2}).transpose(0, 1);  // (2, 3), same memory, other order
  seq.searchsorted_out(grid, grid_out);
  EXPECT_EQ(grid_out.to_vector(), grid_expected.to_vector());

  // out is the sorter.
  const auto unsorted = Tensor<std::int64_t>::from_vector({9, 1, 7, 3, 11, 5}, {6}, device());
  auto sorter = Tensor<std::int64_t>::from_vector({1, 3, 5, 2, 0, 4}, {6}, device());
  const auto values = Tensor<std::int64_t>::from_vector(probe, {6}, device());
  const auto sorted_expected = unsorted.searchsorted(values, {.sorter = sorter.clone()});
  unsorted.searchsorted_out(values, sorter, {.sorter = sorter});
  EXPECT_EQ(sorter.to_vector(), sorted_expected.to_vector());
}

TEST_P(SearchsortedOut, BucketizeOutAliasesItsInputOrBoundaries) {
  const std::vector<std::int64_t> input{0, 3, 4, 9, 12, 6};
  const auto boundaries = Tensor<std::int64_t>::from_vector({1, 3, 5, 7, 9, 11}, {6}, device());
  const auto expected =
      Tensor<std::int64_t>::from_vector(input, {6}, device()).bucketize(boundaries);

  auto x = Tensor<std::int64_t>::from_vector(input, {6}, device());
  x.bucketize_out(boundaries, x);
  EXPECT_EQ(x.to_vector(), expected.to_vector());

  auto b = boundaries.clone();
  Tensor<std::int64_t>::from_vector(input, {6}, device()).bucketize_out(b, b);
  EXPECT_EQ(b.to_vector(), expected.to_vector());
}

class ScatterInPlace : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ScatterInPlace);

TEST_P(ScatterInPlace, IndicesAndUpdatesMayReadTheDestination) {
  // t = [1, 0, 3, 2, 5, 4]: its own entries index it.
  const std::vector<std::int64_t> start{1, 0, 3, 2, 5, 4};
  auto expected = Tensor<std::int64_t>::from_vector(start, {6}, device());
  const auto indices = expected.clone().reshape({6, 1});
  const auto updates = expected.clone() * 10 + 1;
  expected = expected.tensor_scatter_nd_add(indices, updates);

  auto t = Tensor<std::int64_t>::from_vector(start, {6}, device());
  t.scatter_nd_add_(t.reshape({6, 1}), t * 10 + 1);
  EXPECT_EQ(t.to_vector(), expected.to_vector());

  // Updates are the destination's transpose: rows are replaced by columns.
  auto u = Tensor<std::int64_t>::from_vector({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}, device());
  const auto rows = Tensor<std::int64_t>::from_vector({0, 1, 2}, {3, 1}, device());
  const auto transposed_expected = u.clone().transpose(0, 1).contiguous();
  u.scatter_nd_update_(rows, u.transpose(0, 1));
  EXPECT_EQ(u.to_vector(), transposed_expected.to_vector());

  // A strided destination whose updates read it.
  auto base = Tensor<std::int64_t>::from_vector({1, 2, 3, 4, 5, 6}, {3, 2}, device());
  auto column = base.select(1, 0);  // [1, 3, 5], stride 2
  const auto two = Tensor<std::int64_t>::from_vector({2, 0}, {2, 1}, device());
  const auto column_expected =
      column.clone().tensor_scatter_nd_sub(two, column.clone().slice(0, 0, 2, 1));
  column.scatter_nd_sub_(two, column.slice(0, 0, 2, 1));
  EXPECT_EQ(column.to_vector(), column_expected.to_vector());
  EXPECT_EQ(base.select(1, 0).to_vector(), column_expected.to_vector());
}

class AssignExpression : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(AssignExpression);

TEST_P(AssignExpression, ReadsOfTheDestinationInAnotherOrderGoThroughATemporary) {
  auto a = Tensor<std::int32_t>::from_vector({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}, device());
  const auto c = a.clone();
  Tensor<std::int32_t> expected = c.transpose(0, 1) + c;
  a = a.transpose(0, 1) + a;
  EXPECT_EQ(a.to_vector(), expected.to_vector());

  // A broadcast row of the destination itself.
  auto b = Tensor<std::int32_t>::from_vector({1, 2, 3, 4, 5, 6}, {2, 3}, device());
  const auto d = b.clone();
  Tensor<std::int32_t> row_expected = d - d.select(0, 1);
  b = b - b.select(0, 1);
  EXPECT_EQ(b.to_vector(), row_expected.to_vector());
}

}  // namespace
