// SPDX-License-Identifier: BSD-3-Clause
// Requests beyond memory raise tessera::Error (never std::bad_alloc, never an abort), and sizes
// that do not fit int64 are refused before the allocator is asked.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

#include "tessera/tessera.hpp"

// Under AddressSanitizer an impossible request aborts the process unless the allocator may
// return null; tessera then reports it as its own Error, which is what these tests check.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace {

namespace ts = tessera;
using ts::Tensor;

// `call()` must raise ValueError whose message contains every one of `parts`.
void expect_value_error_naming(const std::function<void()>& call,
                               std::initializer_list<std::string_view> parts) {
  try {
    call();
    ADD_FAILURE() << "no ValueError";
  } catch (const ts::ValueError& e) {
    const std::string what = e.what();
    for (const std::string_view part : parts) {
      EXPECT_NE(what.find(part), std::string::npos) << what;
    }
  }
}

TEST(AllocationLimits, AllocationBeyondMemoryRaisesTesseraError) {
  // 2^42 floats = 16 TiB: no machine here has it; the request must fail as a tessera::Error.
  try {
    (void)Tensor<float>::empty({std::int64_t{1} << 42});
    ADD_FAILURE() << "16 TiB were allocated";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("out of host memory"), std::string::npos) << e.what();
  }
  // Shapes whose byte count does not fit int64 never reach the allocator.
  EXPECT_THROW((void)Tensor<double>::empty({std::int64_t{1} << 61, 8}), ts::ValueError);
  EXPECT_THROW((void)Tensor<double>::empty({std::int64_t{1} << 32, std::int64_t{1} << 32}),
               ts::ValueError);
}

TEST(AllocationLimits, RaggedRangeBeyondMemoryRaisesTesseraError) {
  // 2^45 int64 values (256 TiB) with int64 splits: valid arguments, impossible memory.
  EXPECT_THROW((void)ts::ragged::range<std::int64_t>(std::int64_t{1} << 45), ts::Error);
}

TEST(AllocationLimits, FromValueRowidsWithHugeNrowsRaisesTesseraError) {
  // 2^52 empty rows need 32 PiB of row splits: a tessera::Error, not std::bad_alloc.
  const auto values = Tensor<float>::empty({0});
  const auto ids = Tensor<std::int64_t>::empty({0});
  EXPECT_THROW((void)ts::RaggedTensor<float>::from_value_rowids(values, ids, std::int64_t{1} << 52),
               ts::Error);
}

TEST(AllocationLimits, FromValueRowidsWhoseLastIdIsInt64MaxRaisesValueError) {
  // nrows = value_rowids[-1] + 1 would overflow int64.
  const auto values = Tensor<float>::ones({1});
  const auto ids = Tensor<std::int64_t>::full({1}, std::numeric_limits<std::int64_t>::max());
  EXPECT_THROW((void)ts::RaggedTensor<float>::from_value_rowids(values, ids), ts::ValueError);
}

TEST(AllocationLimits, FromValueRowidsWhoseNrowsExceedsInt32RowPartitionRaisesValueError) {
  // Found by fuzz_ragged: int32 row ids ending at INT32_MAX made nrows = 2^31, and the call
  // asked for 2^31 + 1 int32 splits (8.6 GB) instead of refusing a row count its int32 row
  // partition cannot hold. Nothing is allocated now, with or without an explicit nrows.
  const auto values = Tensor<float>::ones({2});
  const auto ids = ts::tensor<std::int32_t>({0, std::numeric_limits<std::int32_t>::max()});
  using R = ts::RaggedTensor<float, std::int32_t>;
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { (void)R::from_value_rowids(values, ids); },
           [&] { (void)R::from_value_rowids(values, ids, std::int64_t{1} << 31); },
           [&] { (void)R::from_value_rowids(values, ids, std::int64_t{1} << 52); }}) {
    expect_value_error_naming(call, {"RaggedTensor::from_value_rowids:", "int32"});
  }
  // A row count that fits still works (rows past the last id are empty).
  const auto ids_small = ts::tensor<std::int32_t>({0, 1});
  EXPECT_EQ(R::from_value_rowids(values, ids_small, 5).nrows(), 5);
}

TEST(AllocationLimits, FromRowLengthsNearInt64MaxRaiseValueErrorWithoutOverflow) {
  // Found by fuzz_ragged (a 12-minute run): lengths {3, INT64_MAX} summed to 3 + INT64_MAX,
  // signed overflow (UBSan) before the check against the number of values.
  const auto values = Tensor<float>::ones({4});
  const auto lengths = ts::tensor<std::int64_t>({3, std::numeric_limits<std::int64_t>::max()});
  expect_value_error_naming(
      [&] { (void)ts::RaggedTensor<float>::from_row_lengths(values, lengths); },
      {"from_row_lengths", "9223372036854775810"});  // 3 + INT64_MAX
}

TEST(AllocationLimits, FromValueRowidsWhoseSplitsOverflowInt64BytesNamesTheOp) {
  // Found by fuzz_ragged: valid row ids whose last entry is 2523081471497871365 ask for that
  // many + 2 row splits; the byte count overflows int64, and the error came from
  // Tensor::empty ("empty: shape ... needs more bytes than fit in int64"), not naming the op.
  const auto values = Tensor<float>::ones({1});
  const auto ids = Tensor<std::int64_t>::full({1}, 2523081471497871365);
  expect_value_error_naming([&] { (void)ts::RaggedTensor<float>::from_value_rowids(values, ids); },
                            {"RaggedTensor::from_value_rowids:", "2523081471497871366"});
}

}  // namespace
