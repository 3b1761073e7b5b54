// SPDX-License-Identifier: BSD-3-Clause
// RaggedTensor: factories and their validation (golden cases from TensorFlow), row queries,
// dense conversion, devices, printing (repr texts TensorFlow printed) and elementwise
// expressions that keep the row partition.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/ragged_golden.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::golden;
using tessera_test::golden_tensor;

const nlohmann::json& cases(const char* key) { return golden("ragged_golden.json")[key]; }

// ---- the API contract spellings ----------------------------------------------------

TEST(RaggedContract, CompilesAsWritten) {
  const auto starts = ts::tensor<int64_t>({0, 5, 8});
  const auto limits = ts::tensor<int64_t>({3, 3, 12});
  const auto deltas = ts::tensor<int64_t>({1, 1, 1});
  ts::RaggedTensor<int64_t> r = ts::ragged::range<int64_t>(starts, limits, deltas);
  auto r2 = ts::ragged::range<int64_t>(ts::tensor<int64_t>({3, 5, 2}));
  auto r3 = ts::ragged::range<float, int32_t>(ts::tensor<float>({0, 5, 8}),
                                              ts::tensor<float>({3, 3, 12}), 1.0f);
  static_assert(std::is_same_v<decltype(r3), ts::RaggedTensor<float, int32_t>>);
  const ts::Device dev = ts::Device::cpu();
  r.values();
  r.row_splits();
  r.nrows();
  r.row_lengths();
  r.value_rowids();
  r.row(1);
  std::vector<std::vector<int64_t>> list = r.to_list();
  r.device();
  r.to(dev);
  r.cpu();
  r.to_tensor(/*pad*/ 0);
  const auto values = ts::tensor<float>({1, 2, 3, 4});
  ts::RaggedTensor<float>::from_row_splits(values, ts::tensor<int64_t>({0, 1, 1, 4}));
  ts::RaggedTensor<float>::from_row_lengths(values, ts::tensor<int64_t>({1, 0, 3}));
  ts::RaggedTensor<float>::from_value_rowids(values, ts::tensor<int64_t>({0, 2, 2, 3}),
                                             /*nrows*/ 4);
  std::ostringstream os;
  os << r;
  EXPECT_EQ(os.str(), "<RaggedTensor [[0, 1, 2], [], [8, 9, 10, 11]]>");
  EXPECT_EQ(list, (std::vector<std::vector<int64_t>>{{0, 1, 2}, {}, {8, 9, 10, 11}}));
  EXPECT_EQ(r2.to_list(), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {0, 1, 2, 3, 4}, {0, 1}}));
}

// ---- factories ---------------------------------------------------------------------------

class RaggedFactories : public tessera_test::OnEachDevice {};

/// Valid partitions give TensorFlow's row_splits/row_lengths/value_rowids; the ones TensorFlow
/// rejects raise ValueError.
TEST_P(RaggedFactories, MatchTensorFlow) {
  int checked = 0;
  for (const auto& c : cases("factories")) {
    tessera_test::with_case_types<std::int64_t>(c, [&](auto, auto s) {
      using S = typename decltype(s)::type;
      const auto values = golden_tensor<int64_t>(c["values"], device());
      const auto arg = ts::Tensor<S>::from_vector(c["arg"].get<std::vector<S>>(), device());
      const std::string kind = c["kind"];
      auto make = [&] {
        if (kind == "row_splits") return ts::RaggedTensor<int64_t, S>::from_row_splits(values, arg);
        if (kind == "row_lengths")
          return ts::RaggedTensor<int64_t, S>::from_row_lengths(values, arg);
        return ts::RaggedTensor<int64_t, S>::from_value_rowids(values, arg,
                                                               c["nrows"].get<int64_t>());
      };
      const std::string what = kind + " " + c["arg"].dump();
      if (c.contains("tf_error")) {
        EXPECT_THROW(make(), ts::ValueError) << what;
      } else {
        const auto r = make();
        EXPECT_EQ(r.device(), device());
        EXPECT_EQ(r.row_splits().to_vector(), c["row_splits"].get<std::vector<S>>()) << what;
        EXPECT_EQ(r.row_lengths().to_vector(), c["row_lengths"].get<std::vector<S>>()) << what;
        EXPECT_EQ(r.value_rowids().to_vector(), c["value_rowids"].get<std::vector<S>>()) << what;
        EXPECT_EQ(r.values().to_vector(), values.to_vector());
        const auto dense = r.to_tensor(-1);
        const auto want = c["to_tensor"]["shape"].get<std::vector<int64_t>>();
        EXPECT_EQ(dense.shape(), ts::Shape(want.begin(), want.end())) << what;
        EXPECT_EQ(dense.to_vector(), c["to_tensor"]["data"].get<std::vector<int64_t>>()) << what;
      }
      ++checked;
    });
  }
  EXPECT_EQ(checked, 24);
}

TEST_P(RaggedFactories, MessagesNameThePosition) {
  const auto values = ts::tensor<float>({1, 2, 3, 4}, device());
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const ts::ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no ValueError");
  };
  EXPECT_NE(message([&] {
              ts::RaggedTensor<float>::from_row_splits(values,
                                                       ts::tensor<int64_t>({0, 3, 2, 4}, device()));
            }).find("row_splits[1] = 3 > row_splits[2] = 2"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ts::RaggedTensor<float>::from_row_lengths(values,
                                                        ts::tensor<int64_t>({1, -1, 4}, device()));
            }).find("row_lengths[1] = -1"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ts::RaggedTensor<float>::from_value_rowids(
                  values, ts::tensor<int64_t>({0, 0, 5, 1}, device()), 3);
            }).find("value_rowids[2] = 5"),
            std::string::npos);
  EXPECT_THROW(
      ts::RaggedTensor<float>::from_row_splits(values, ts::tensor<int64_t>({{0, 4}}, device())),
      ts::ShapeError);
  EXPECT_THROW(ts::RaggedTensor<float>::from_row_splits(ts::Tensor<float>::scalar(1, device()),
                                                        ts::tensor<int64_t>({0, 1}, device())),
               ts::ShapeError);
  // Without validation the partition is taken as given (TensorFlow's validate=False).
  EXPECT_NO_THROW(ts::RaggedTensor<float>::from_row_splits(
      values, ts::tensor<int64_t>({0, 4}, device()), false));
}

// ---- queries and conversions -------------------------------------------------------------

TEST_P(RaggedFactories, RowsListsAndDenseForm) {
  const auto r = ts::RaggedTensor<int32_t, int32_t>::from_row_splits(
      ts::tensor<int32_t>({0, 1, 2, 8, 9, 10, 11}, device()),
      ts::tensor<int32_t>({0, 3, 3, 7}, device()));
  EXPECT_EQ(r.nrows(), 3);
  EXPECT_EQ(r.row(0).to_vector(), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(r.row(1).numel(), 0);
  EXPECT_EQ(r.row(-1).to_vector(), (std::vector<int32_t>{8, 9, 10, 11}));
  EXPECT_THROW(r.row(3), ts::IndexError);
  EXPECT_THROW(r.row(-4), ts::IndexError);
  // row() is a view: it shares the values' memory.
  EXPECT_EQ(r.row(2).storage().data(), r.values().storage().data());
  EXPECT_EQ(r.to_tensor(-1).shape(), ts::Shape({3, 4}));
  EXPECT_EQ(r.cpu().device(), ts::Device::cpu());
  EXPECT_EQ(r.cpu().to(device()).to_list(), r.to_list());

  // n-d values: rows of (2,) vectors; to_tensor pads whole inner blocks.
  const auto m = ts::RaggedTensor<float>::from_row_lengths(
      ts::tensor<float>({{1, 2}, {3, 4}, {5, 6}}, device()),
      ts::tensor<int64_t>({2, 0, 1}, device()));
  EXPECT_EQ(m.row(0).shape(), ts::Shape({2, 2}));
  EXPECT_EQ(m.to_tensor(0).shape(), ts::Shape({3, 2, 2}));
  EXPECT_THROW(m.to_list(), ts::ShapeError);
  EXPECT_EQ(m.value_rowids().to_vector(), (std::vector<int64_t>{0, 0, 2}));

  const ts::RaggedTensor<double> none;
  EXPECT_EQ(none.nrows(), 0);
  EXPECT_EQ(none.to_tensor().shape(), ts::Shape({0, 0}));
  EXPECT_EQ(none.value_rowids().numel(), 0);
}

/// value_rowids and to_tensor against reference loops on random partitions.
TEST_P(RaggedFactories, RandomPartitionsMatchReferenceLoops) {
  std::mt19937_64 gen(11);
  for (int trial = 0; trial < 20; ++trial) {
    const int nrows = std::uniform_int_distribution<int>(0, 3000)(gen);
    std::vector<int64_t> lengths(nrows);
    for (auto& l : lengths) l = std::uniform_int_distribution<int>(0, trial % 2 ? 60 : 3)(gen);
    std::vector<int64_t> ids;
    for (int i = 0; i < nrows; ++i) ids.insert(ids.end(), lengths[i], i);
    std::vector<double> values(ids.size());
    for (auto& v : values) v = std::uniform_real_distribution<double>(-1, 1)(gen);
    const auto r = ts::RaggedTensor<double>::from_row_lengths(
        ts::Tensor<double>::from_vector(values, device()),
        ts::Tensor<int64_t>::from_vector(lengths, device()));
    ASSERT_EQ(r.value_rowids().to_vector(), ids);
    int64_t width = 0;
    for (auto l : lengths) width = std::max(width, l);
    std::vector<double> dense(nrows * width, 7.0);
    for (std::size_t k = 0, i = 0, j = 0; k < ids.size(); ++k) {
      if (ids[k] != int64_t(i)) i = ids[k], j = 0;
      dense[i * width + j++] = values[k];
    }
    ASSERT_EQ(r.to_tensor(7.0).to_vector(), dense);
    ASSERT_EQ(r.row_lengths().to_vector(), lengths);
  }
}

// ---- expressions -------------------------------------------------------------------------

/// Each ragged expression equals the same arithmetic applied row by row to to_list(), and keeps
/// the row splits.
template <class U, class T, class F>
std::vector<std::vector<U>> map_rows(const std::vector<std::vector<T>>& rows, F f) {
  std::vector<std::vector<U>> out;
  for (const auto& row : rows) {
    out.emplace_back();
    for (T v : row) out.back().push_back(static_cast<U>(f(v)));
  }
  return out;
}

TEST_P(RaggedFactories, ExpressionsKeepTheRowPartition) {
  const auto r = ts::ragged::range<int64_t>(ts::tensor<int64_t>({0, 5, 8, -3}, device()),
                                            ts::tensor<int64_t>({3, 3, 12, 4}, device()), 1);
  const auto rows = r.to_list();
  ts::RaggedTensor<int64_t> q = r * 2 + 1;
  EXPECT_EQ(q.row_splits().to_vector(), r.row_splits().to_vector());
  EXPECT_EQ(q.device(), device());
  EXPECT_EQ(q.to_list(), map_rows<int64_t>(rows, [](int64_t v) { return v * 2 + 1; }));
  EXPECT_EQ(ts::eval(-r).to_list(), map_rows<int64_t>(rows, [](int64_t v) { return -v; }));
  EXPECT_EQ(ts::eval(10 - r).to_list(), map_rows<int64_t>(rows, [](int64_t v) { return 10 - v; }));
  ts::RaggedTensor<bool> big = r > 8;
  EXPECT_EQ(big.to_list(), map_rows<bool>(rows, [](int64_t v) { return v > 8; }));
  EXPECT_EQ(big.row_splits().to_vector(), r.row_splits().to_vector());
  const ts::RaggedTensor<double> half(r / 2.0);
  EXPECT_EQ(half.to_list(), map_rows<double>(rows, [](int64_t v) { return v / 2.0; }));
  EXPECT_EQ(ts::eval(!(r > 8)).to_list(), map_rows<bool>(rows, [](int64_t v) { return !(v > 8); }));
  // bucketize keeps the partition too and equals bucketize of the values.
  const auto boundaries = ts::tensor<int64_t>({2, 9}, device());
  const auto buckets = r.bucketize(boundaries);
  EXPECT_EQ(buckets.row_splits().to_vector(), r.row_splits().to_vector());
  EXPECT_EQ(buckets.values().to_vector(), r.values().bucketize(boundaries).to_vector());
}

TESSERA_INSTANTIATE_ON_EACH_DEVICE(RaggedFactories);

// ---- printing ----------------------------------------------------------------------------

/// repr() texts TensorFlow printed: floats, bools, empty tensors, n-d values, line wrapping and
/// summaries of many rows or long rows.
TEST(RaggedFormat, MatchesTensorFlowRepr) {
  int checked = 0;
  for (const auto& c : cases("repr")) {
    tessera_test::with_case_types<bool, std::int32_t, std::int64_t, float, double>(
        c, [&](auto t, auto s) {
          using T = typename decltype(t)::type;
          using S = typename decltype(s)::type;
          const auto r = ts::RaggedTensor<T, S>::from_row_splits(
              golden_tensor<T>(c["values"]),
              ts::Tensor<S>::from_vector(c["row_splits"].get<std::vector<S>>()));
          EXPECT_EQ(ts::to_string(r), c["repr"].get<std::string>()) << c["name"];
          ++checked;
        });
  }
  EXPECT_EQ(checked, 24);
}

}  // namespace
