// SPDX-License-Identifier: BSD-3-Clause
// Every documented error of the five operations (the Errors sections of docs/ops/), table-driven:
// the call throws exactly the documented exception type, its message names the operation and the
// offending value, and every input and `out` tensor is byte-for-byte unchanged afterwards (the
// whole storage, so writes beside a view count too). Runs on the CPU and, where a GPU is
// present, on cuda:0.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "support/snapshot.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::storage_bytes;
using ts::Device;
using ts::Shape;
using ts::Tensor;

enum class Kind { Shape, Index, Value };

/// A tensor that must not change: how to read its bytes and shape now, and what they were.
struct Watched {
  std::string name;
  std::function<std::vector<unsigned char>()> bytes;
  std::function<Shape()> shape;
  std::vector<unsigned char> bytes_before;
  Shape shape_before;
};

/// One documented error: the call, the exception, what the message names, what it must not touch.
struct Case {
  std::string name;
  Kind kind;
  std::string op;
  std::vector<std::string> mentions;  // the offending values, as the message prints them
  std::function<void()> call;
  std::vector<Watched> watched;
};

/// Watches `*t` (held by the case, so `_out` calls may rebind it: its shape is checked too).
template <class T>
Watched watch(const std::string& name, const std::shared_ptr<Tensor<T>>& t) {
  return {name, [t] { return storage_bytes(*t); }, [t] { return t->shape(); }, {}, {}};
}

template <class T>
std::shared_ptr<Tensor<T>> held(std::initializer_list<ts::NestedList<T>> v, Device d) {
  return std::make_shared<Tensor<T>>(ts::tensor<T>(v, d));
}
template <class T>
std::shared_ptr<Tensor<T>> held(Tensor<T> t) {
  return std::make_shared<Tensor<T>>(std::move(t));
}

// ---- searchsorted and bucketize ---------------------------------------------------------------

void searchsorted_cases(Device d, std::vector<Case>& cases) {
  auto seq2 = held<float>({{1, 3, 5}, {2, 4, 6}}, d);
  auto seq1 = held<float>({1, 3, 5, 7, 9}, d);
  auto vals32 = held<float>({{1, 2}, {3, 4}, {5, 6}}, d);
  auto vals = held<float>({2, 8}, d);
  auto out = held(Tensor<std::int64_t>::full({3, 2}, 7, d));
  auto out2 = held(Tensor<std::int64_t>::full({2}, 7, d));
  cases.push_back({"searchsorted_leading_dims_differ",
                   Kind::Shape,
                   "searchsorted_out",
                   {"(2, 3)", "(3, 2)"},
                   [=] { seq2->searchsorted_out(*vals32, *out); },
                   {watch("sequence", seq2), watch("values", vals32), watch("out", out)}});
  cases.push_back(
      {"searchsorted_side_left_with_right_true",
       Kind::Value,
       "searchsorted_out",
       {"Side::Left", "right = true"},
       [=] { seq1->searchsorted_out(*vals, *out2, {.right = true, .side = ts::Side::Left}); },
       {watch("sequence", seq1), watch("values", vals), watch("out", out2)}});
  auto sorter_short = held<std::int64_t>({0, 1, 2, 3}, d);
  cases.push_back({"searchsorted_sorter_wrong_shape",
                   Kind::Shape,
                   "searchsorted_out",
                   {"(5,)", "(4,)"},
                   [=] { seq1->searchsorted_out(*vals, *out2, {.sorter = *sorter_short}); },
                   {watch("sequence", seq1), watch("sorter", sorter_short), watch("out", out2)}});
  auto sorter_bad = held<std::int64_t>({0, 1, 7, 3, 4}, d);
  cases.push_back({"searchsorted_sorter_entry_out_of_range",
                   Kind::Index,
                   "searchsorted_out",
                   {"sorter entry 7", "length 5"},
                   [=] { seq1->searchsorted_out(*vals, *out2, {.sorter = *sorter_bad}); },
                   {watch("sequence", seq1), watch("sorter", sorter_bad), watch("out", out2)}});
  auto seq0 = held(Tensor<float>::scalar(1.0f, d));
  cases.push_back({"searchsorted_0d_sequence",
                   Kind::Shape,
                   "searchsorted",
                   {"0-d"},
                   [=] { (void)seq0->searchsorted(*vals); },
                   {watch("sequence", seq0)}});
  auto val0 = held(Tensor<float>::scalar(2.0f, d));
  cases.push_back({"searchsorted_0d_values_need_1d_sequence",
                   Kind::Shape,
                   "searchsorted",
                   {"(2, 3)"},
                   [=] { (void)seq2->searchsorted(*val0); },
                   {watch("sequence", seq2), watch("values", val0)}});
  // Rows of INT32_MAX elements: the storage is allocated but never touched (the check comes
  // first), so this costs address space, not memory.
  auto long_row = held(Tensor<std::int8_t>::empty({std::numeric_limits<std::int32_t>::max()}, d));
  auto small = held<std::int8_t>({1, 2}, d);
  auto out32 = held(Tensor<std::int32_t>::full({2}, 7, d));
  cases.push_back({"searchsorted_out_int32_row_too_long",
                   Kind::Value,
                   "searchsorted_out",
                   {"2147483647"},
                   [=] { long_row->searchsorted_out(*small, *out32); },
                   {watch("values", small), watch("out", out32)}});
  cases.push_back({"searchsorted_int32_result_row_too_long",
                   Kind::Value,
                   "searchsorted",
                   {"2147483647"},
                   [=] { (void)long_row->searchsorted<std::int32_t>(*small); },
                   {watch("values", small)}});

  auto boundaries2 = held<float>({{1, 2}, {3, 4}}, d);
  cases.push_back({"bucketize_boundaries_not_1d",
                   Kind::Shape,
                   "bucketize_out",
                   {"(2, 2)"},
                   [=] { vals->bucketize_out(*boundaries2, *out2); },
                   {watch("input", vals), watch("boundaries", boundaries2), watch("out", out2)}});
  cases.push_back({"bucketize_boundaries_not_1d_returning",
                   Kind::Shape,
                   "bucketize",
                   {"(2, 2)"},
                   [=] { (void)vals->bucketize(*boundaries2, true); },
                   {watch("input", vals), watch("boundaries", boundaries2)}});
  cases.push_back({"bucketize_out_int32_too_many_boundaries",
                   Kind::Value,
                   "bucketize_out",
                   {"2147483647"},
                   [=] { small->bucketize_out(*long_row, *out32); },
                   {watch("input", small), watch("out", out32)}});
}

// ---- nonzero ----------------------------------------------------------------------------------

void nonzero_cases(Device d, std::vector<Case>& cases) {
  auto x = held<float>({{0, 1}, {2, 0}}, d);
  cases.push_back({"nonzero_static_negative_size",
                   Kind::Value,
                   "nonzero_static",
                   {"-1"},
                   [=] { (void)x->nonzero_static(-1); },
                   {watch("input", x)}});
  cases.push_back({"nonzero_static_negative_size_expression",
                   Kind::Value,
                   "nonzero_static",
                   {"-3"},
                   [=] { (void)(*x > 0.0f).nonzero_static(-3, 5); },
                   {watch("input", x)}});
}

// ---- tensor_scatter_nd_* ----------------------------------------------------------------------

void scatter_cases(Device d, std::vector<Case>& cases) {
  const char* names[] = {"sub", "add", "update", "min", "max"};
  for (int op = 0; op < 5; ++op) {
    const std::string name = std::string("tensor_scatter_nd_") + names[op];
    for (bool in_place : {false, true}) {
      // Calls the op (returning form or its in-place twin) on held operands.
      auto call = [op, in_place](const std::shared_ptr<Tensor<float>>& t,
                                 const std::shared_ptr<Tensor<std::int64_t>>& i,
                                 const std::shared_ptr<Tensor<float>>& u) {
        return std::function<void()>([=] {
          switch (op) {
            case 0:
              in_place ? (void)t->scatter_nd_sub_(*i, *u) : (void)t->tensor_scatter_nd_sub(*i, *u);
              break;
            case 1:
              in_place ? (void)t->scatter_nd_add_(*i, *u) : (void)t->tensor_scatter_nd_add(*i, *u);
              break;
            case 2:
              in_place ? (void)t->scatter_nd_update_(*i, *u)
                       : (void)t->tensor_scatter_nd_update(*i, *u);
              break;
            case 3:
              in_place ? (void)t->scatter_nd_min_(*i, *u) : (void)t->tensor_scatter_nd_min(*i, *u);
              break;
            default:
              in_place ? (void)t->scatter_nd_max_(*i, *u) : (void)t->tensor_scatter_nd_max(*i, *u);
              break;
          }
        });
      };
      const std::string form = name + (in_place ? "_inplace" : "");
      auto add = [&](const std::string& what, Kind kind, std::vector<std::string> mentions,
                     std::shared_ptr<Tensor<float>> t, std::shared_ptr<Tensor<std::int64_t>> i,
                     std::shared_ptr<Tensor<float>> u) {
        cases.push_back({form + "_" + what,
                         kind,
                         name,
                         std::move(mentions),
                         call(t, i, u),
                         {watch("tensor", t), watch("indices", i), watch("updates", u)}});
      };
      auto t43 = held(Tensor<float>::full({4, 3}, 1.5f, d));
      add("updates_shape_mismatch", Kind::Shape, {"[2,4]", "[4,3]", "[2,1]"}, t43,
          held<std::int64_t>({{0}, {1}}, d), held(Tensor<float>::ones({2, 4}, d)));
      add("k_above_rank", Kind::Shape, {"(3)", "[1, 2]"}, t43,
          held(Tensor<std::int64_t>::zeros({2, 3}, d)), held(Tensor<float>::ones({2}, d)));
      add("k_zero", Kind::Shape, {"(0)", "[1, 2]"}, t43,
          held(Tensor<std::int64_t>::zeros({2, 0}, d)), held(Tensor<float>::ones({2, 4, 3}, d)));
      // Rows 0 and 1 are valid: nothing of them may be written before row 2 is found bad.
      auto t6 = held<float>({1, 2, 3, 4, 5, 6}, d);
      add("index_past_the_end", Kind::Index, {"indices[2] = [6] does not index into shape [6]"}, t6,
          held<std::int64_t>({{0}, {5}, {6}}, d), held<float>({10, 20, 30}, d));
      add("negative_index", Kind::Index, {"indices[1] = [-1] does not index into shape [6]"}, t6,
          held<std::int64_t>({{0}, {-1}}, d), held<float>({10, 20}, d));
      add("batched_index_out_of_range", Kind::Index,
          {"indices[1,0] = [7] does not index into shape [6]"}, t6,
          held<std::int64_t>({{{1}, {2}}, {{7}, {3}}}, d), held<float>({{1, 2}, {3, 4}}, d));
      add("0d_tensor", Kind::Shape, {"tensor must be at least 1-D"},
          held(Tensor<float>::scalar(1.0f, d)), held<std::int64_t>({{0}}, d), held<float>({1}, d));
      add("0d_indices", Kind::Shape, {"indices must be at least 1-D"}, t6,
          held(Tensor<std::int64_t>::scalar(0, d)), held<float>({1}, d));
      add("0d_updates", Kind::Shape, {"updates must be at least 1-D"}, t6,
          held<std::int64_t>({{0}}, d), held(Tensor<float>::scalar(1.0f, d)));
      add("rows_into_empty_tensor", Kind::Shape, {"empty output shape [0]"},
          held(Tensor<float>::ones({0}, d)), held<std::int64_t>({{0}}, d), held<float>({1}, d));
    }
  }
}

// ---- ragged::range and the RaggedTensor factories --------------------------------------------

void ragged_cases(Device d, std::vector<Case>& cases) {
  auto starts3 = held<std::int64_t>({0, 1, 2}, d);
  auto limits2 = held<std::int64_t>({4, 5}, d);
  cases.push_back({"range_vector_lengths_differ",
                   Kind::Shape,
                   "ragged::range",
                   {"(3,)", "(2,)"},
                   [=] { (void)ts::ragged::range<std::int64_t>(*starts3, *limits2); },
                   {watch("starts", starts3), watch("limits", limits2)}});
  auto deltas = held<std::int64_t>({1, 0, 2}, d);
  auto limits3 = held<std::int64_t>({4, 5, 6}, d);
  cases.push_back({"range_delta_zero",
                   Kind::Value,
                   "ragged::range",
                   {"Requires delta != 0", "row 1"},
                   [=] { (void)ts::ragged::range<std::int64_t>(*starts3, *limits3, *deltas); },
                   {watch("starts", starts3), watch("limits", limits3), watch("deltas", deltas)}});
  auto limits_2d = held<std::int64_t>({{1, 2}}, d);
  cases.push_back({"range_rank_2_argument",
                   Kind::Shape,
                   "ragged::range",
                   {"limits", "(1, 2)"},
                   [=] { (void)ts::ragged::range<std::int64_t>(*limits_2d); },
                   {watch("limits", limits_2d)}});
  auto huge = held<float>({1.0f, 1e30f}, d);
  auto tiny = held<float>({1.0f, 1e-30f}, d);
  cases.push_back({"range_float_size_above_int64_max",
                   Kind::Value,
                   "ragged::range",
                   {"row 1", "9223372036854775807"},
                   [=] { (void)ts::ragged::range<float>(0.0f, *huge, *tiny); },
                   {watch("limits", huge), watch("deltas", tiny)}});
  auto nan_limit = held<double>({std::numeric_limits<double>::quiet_NaN()}, d);
  cases.push_back({"range_nan_limit",
                   Kind::Value,
                   "ragged::range",
                   {"row 0", "nan"},
                   [=] { (void)ts::ragged::range<double>(*nan_limit); },
                   {watch("limits", nan_limit)}});
  auto big = held<std::int64_t>({2000000000, 2000000000}, d);
  cases.push_back({"range_total_above_int32_splits",
                   Kind::Value,
                   "ragged::range",
                   {"4000000000", "int32"},
                   [=] { (void)ts::ragged::range<std::int64_t, std::int32_t>(*big); },
                   {watch("limits", big)}});

  using R = ts::RaggedTensor<float>;
  auto values = held<float>({1, 2, 3, 4}, d);
  auto add = [&](const std::string& what, const std::string& op, std::vector<std::string> mentions,
                 std::shared_ptr<Tensor<std::int64_t>> part, std::function<void()> call) {
    cases.push_back({what,
                     Kind::Value,
                     op,
                     std::move(mentions),
                     std::move(call),
                     {watch("values", values), watch("partition", part)}});
  };
  const std::string splits_op = "RaggedTensor::from_row_splits";
  for (auto [what, splits, mention] :
       {std::tuple{"row_splits_first_not_zero", std::vector<std::int64_t>{1, 2, 4},
                   "row_splits[0]"},
        std::tuple{"row_splits_decreasing", std::vector<std::int64_t>{0, 3, 2, 4},
                   "row_splits[1] = 3"},
        std::tuple{"row_splits_last_not_nvalues", std::vector<std::int64_t>{0, 2, 5}, "got 5"}}) {
    auto p = held(
        Tensor<std::int64_t>::from_vector(splits, {static_cast<std::int64_t>(splits.size())}, d));
    add(what, splits_op, {mention}, p, [=] { (void)R::from_row_splits(*values, *p); });
  }
  const std::string lengths_op = "RaggedTensor::from_row_lengths";
  auto negative = held<std::int64_t>({2, -1, 3}, d);
  add("row_lengths_negative", lengths_op, {"row_lengths[1] = -1"}, negative,
      [=] { (void)R::from_row_lengths(*values, *negative); });
  auto short_sum = held<std::int64_t>({1, 2}, d);
  add("row_lengths_sum_short", lengths_op, {"sum to 3"}, short_sum,
      [=] { (void)R::from_row_lengths(*values, *short_sum); });
  const std::string rowids_op = "RaggedTensor::from_value_rowids";
  auto out_of_range = held<std::int64_t>({0, 0, 1, 5}, d);
  add("value_rowids_not_below_nrows", rowids_op, {"value_rowids[3] = 5", "nrows = 3"}, out_of_range,
      [=] { (void)R::from_value_rowids(*values, *out_of_range, 3); });
  auto decreasing = held<std::int64_t>({0, 2, 1, 2}, d);
  add("value_rowids_decreasing", rowids_op, {"value_rowids[1] = 2"}, decreasing,
      [=] { (void)R::from_value_rowids(*values, *decreasing); });
  auto too_few = held<std::int64_t>({0, 1}, d);
  add("value_rowids_count_differs", rowids_op, {"2 entries", "4 values"}, too_few,
      [=] { (void)R::from_value_rowids(*values, *too_few, 2); });
  auto ids = held<std::int64_t>({0, 0, 1, 1}, d);
  add("value_rowids_negative_nrows", rowids_op, {"-2"}, ids,
      [=] { (void)R::from_value_rowids(*values, *ids, -2); });
}

std::vector<Case> documented_errors(Device d) {
  std::vector<Case> cases;
  searchsorted_cases(d, cases);
  nonzero_cases(d, cases);
  scatter_cases(d, cases);
  ragged_cases(d, cases);
  return cases;
}

const char* kind_name(Kind k) {
  return k == Kind::Shape ? "ShapeError" : k == Kind::Index ? "IndexError" : "ValueError";
}

/// The exact documented type: a sibling (or the base Error) is a failure.
bool thrown_kind_is(Kind k, const std::exception& e) {
  switch (k) {
    case Kind::Shape:
      return dynamic_cast<const ts::ShapeError*>(&e) != nullptr;
    case Kind::Index:
      return dynamic_cast<const ts::IndexError*>(&e) != nullptr;
    case Kind::Value:
      return dynamic_cast<const ts::ValueError*>(&e) != nullptr;
  }
  return false;
}

class ErrorContract : public tessera_test::OnEachDevice {};

TEST_P(ErrorContract, EveryDocumentedErrorThrowsItsTypeNamesOpAndValueAndWritesNothing) {
  auto cases = documented_errors(device());
  ASSERT_EQ(cases.size(), 128u);  // 11 search, 2 nonzero, 5 x 2 x 10 scatter, 15 ragged
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    for (auto& w : c.watched) {
      w.bytes_before = w.bytes();
      w.shape_before = w.shape();
    }
    std::string message;
    try {
      c.call();
      ADD_FAILURE() << "no exception; expected " << kind_name(c.kind);
    } catch (const std::exception& e) {
      message = e.what();
      EXPECT_TRUE(thrown_kind_is(c.kind, e))
          << "expected " << kind_name(c.kind) << ", got: " << message;
    }
    EXPECT_NE(message.find(c.op + ":"), std::string::npos) << "op not named: " << message;
    for (const auto& m : c.mentions) {
      EXPECT_NE(message.find(m), std::string::npos) << "\"" << m << "\" not in: " << message;
    }
    for (const auto& w : c.watched) {
      EXPECT_EQ(w.shape(), w.shape_before) << w.name << " changed shape";
      EXPECT_TRUE(w.bytes() == w.bytes_before) << w.name << " changed";
    }
  }
}

TESSERA_INSTANTIATE_ON_EACH_DEVICE(ErrorContract);

}  // namespace
