// SPDX-License-Identifier: BSD-3-Clause
// Every error a public op raises names that op first, including errors raised by what it calls
// inside (allocations, size checks, broadcasting of an expression it reads). Issue 19:
// ragged::range<int64_t>(0, 1LL << 62) raised "empty: shape (4611686018427387904,) needs more
// bytes than fit in int64" — right type, raised before allocating, but naming `empty`.
//
// The walk: each op is given an oversized request (a result beyond int64 bytes, or beyond any
// memory) and, where it reads expressions, operands that do not broadcast; the message must
// start with "<op>: ".

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/typed.hpp"
#include "tessera/tessera.hpp"

// Under AddressSanitizer an impossible request aborts the process unless the allocator may
// return null; tessera then reports it as its own Error, which is what these tests check.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace {

namespace ts = tessera;
using ts::Tensor;

constexpr std::int64_t kHuge = std::int64_t{1} << 62;  // elements: more bytes than int64 holds

struct Call {
  std::string op;
  std::function<void()> run;
};

/// Runs every call; each must raise a tessera::Error whose message starts with "op: ".
void expect_each_names_its_op(const std::vector<Call>& calls) {
  for (const auto& call : calls) {
    SCOPED_TRACE(call.op);
    try {
      call.run();
      ADD_FAILURE() << call.op << ": no exception";
    } catch (const ts::Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(call.op + ": ", 0), 0u) << what;
    } catch (const std::exception& e) {
      ADD_FAILURE() << call.op << ": not a tessera::Error: " << e.what();
    }
  }
}

class OpNames : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(OpNames);

// The issue's own case, on its own so that its name says what it pins.
TEST_P(OpNames, RaggedRangeOfTwoToTheSixtyTwoNamesRaggedRange) {
  try {
    (void)ts::ragged::range<std::int64_t>(0, kHuge, 1, device());
    FAIL() << "no exception";
  } catch (const ts::ValueError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("ragged::range: ", 0), 0u) << what;
    EXPECT_EQ(what.find("empty"), std::string::npos) << what;
  }
}

TEST_P(OpNames, EveryFactoryNamesItselfForAnOversizedRequest) {
  const ts::Device dev = device();
  const auto none = Tensor<float>::empty({0}, dev);
  const auto two = ts::tensor<float>({1, 2}, dev);
  expect_each_names_its_op({
      {"empty", [&] { (void)Tensor<float>::empty({kHuge}, dev); }},
      {"zeros", [&] { (void)Tensor<double>::zeros({kHuge}, dev); }},
      {"ones",
       [&] {
         (void)Tensor<std::int32_t>::ones({kHuge, 2}, dev);
       }},
      {"full",
       [&] {
         (void)Tensor<std::int64_t>::full({2, kHuge}, 7, dev);
       }},
      {"arange",
       [&] {
         (void)Tensor<std::int64_t>::arange(0, std::numeric_limits<std::int64_t>::max(), 1, dev);
       }},
      {"arange", [&] { (void)Tensor<float>::arange(0.0f, 1e30f, 1.0f, dev); }},
      {"from_vector",
       [&] {
         (void)Tensor<float>::from_vector({}, {kHuge, 4}, dev);
       }},
      {"reshape",
       [&] {
         (void)none.reshape({kHuge, 8});
       }},
      {"ragged::range", [&] { (void)ts::ragged::range<std::int64_t>(0, kHuge, 1, dev); }},
      {"RaggedTensor::from_value_rowids",
       [&] {
         (void)ts::RaggedTensor<float>::from_value_rowids(
             two, ts::tensor<std::int64_t>({0, 1}, dev), kHuge);
       }},
      {"RaggedTensor::to_tensor",
       [&] {
         // An unvalidated partition (the caller's promise, broken): its one row claims 2^62
         // values, so the dense result is oversized.
         const auto splits = ts::tensor<std::int64_t>({0, kHuge}, dev);
         (void)ts::RaggedTensor<float>::from_row_splits(two, splits, /*validate=*/false)
             .to_tensor(0.0f);
       }},
  });
}

TEST_P(OpNames, EveryOpOnExpressionsNamesItselfForAResultBeyondMemory) {
  const ts::Device dev = device();
  // (2^22, 1) with (1, 2^22): 2^44 elements (16 TiB as int8, 128 TiB as int64) from two 4 MiB
  // operands; no machine here holds the result, so each op's allocation fails.
  constexpr std::int64_t kSide = std::int64_t{1} << 22;
  const auto col = Tensor<std::int8_t>::ones({kSide, 1}, dev);
  const auto row = Tensor<std::int8_t>::ones({1, kSide}, dev);
  const auto seq = ts::tensor<std::int8_t>({1, 2, 3}, dev);
  auto out = Tensor<std::int64_t>::empty({0}, dev);
  expect_each_names_its_op({
      {"eval", [&] { (void)ts::eval(col + row); }},
      {"eval", [&] { const Tensor<std::int8_t> t = col + row; }},
      {"assign",
       [&] {
         auto t = Tensor<std::int8_t>::zeros({1}, dev);
         t = col + row;
       }},
      {"searchsorted", [&] { (void)seq.searchsorted(col + row); }},
      {"searchsorted_out", [&] { seq.searchsorted_out(col + row, out); }},
      {"bucketize", [&] { (void)(col + row).bucketize(seq); }},
      {"bucketize_out", [&] { (col + row).bucketize_out(seq, out); }},
      {"nonzero_static", [&] { (void)col.nonzero_static(kHuge); }},
  });
}

TEST_P(OpNames, EveryOpOnExpressionsNamesItselfWhenTheyDoNotBroadcast) {
  const ts::Device dev = device();
  const auto a = ts::tensor<std::int32_t>({1, 2, 3}, dev);
  const auto b = ts::tensor<std::int32_t>({1, 2}, dev);
  const auto seq = ts::tensor<std::int32_t>({1, 2, 3}, dev);
  auto t = Tensor<std::int32_t>::zeros({4}, dev);
  const auto idx = ts::tensor<std::int64_t>({{1}, {2}, {3}}, dev);
  auto out = Tensor<std::int64_t>::empty({0}, dev);
  expect_each_names_its_op({
      {"sum", [&] { (void)ts::sum(a + b); }},
      {"min", [&] { (void)ts::min(a + b); }},
      {"max", [&] { (void)ts::max(a - b); }},
      {"any", [&] { (void)ts::any(a * b); }},
      {"all", [&] { (void)ts::all(a == b); }},
      {"count_nonzero", [&] { (void)(a + b).count_nonzero(); }},
      {"nonzero", [&] { (void)(a + b).nonzero(); }},
      {"nonzero", [&] { (void)(a + b).nonzero(ts::as_tuple); }},
      {"nonzero_out", [&] { (a + b).nonzero_out(out); }},
      {"nonzero_static", [&] { (void)(a + b).nonzero_static(2); }},
      {"searchsorted", [&] { (void)seq.searchsorted(a + b); }},
      {"bucketize", [&] { (void)(a + b).bucketize(seq); }},
      {"tensor_scatter_nd_add", [&] { (void)t.tensor_scatter_nd_add(idx, a + b); }},
      {"tensor_scatter_nd_sub", [&] { t.scatter_nd_sub_(idx, a - b); }},
      {"eval", [&] { (void)ts::eval(a + b); }},
  });
}

}  // namespace
