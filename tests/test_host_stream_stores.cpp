// SPDX-License-Identifier: BSD-3-Clause
// Streaming stores for large host outputs (host_stream_stores.hpp, HostExecutor::stream_span):
// every element of the span written, nothing outside it, whatever the span's alignment and
// length; and every elementwise result bit-identical to plain stores, at 1-4 threads.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/stream_threshold.hpp"
#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/host_stream_stores.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using tessera_test::StreamThreshold;
using tessera_test::with_host_threads;
using ts::detail::HostExecutor;
using ts::detail::kStreamLineBytes;

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

/// A kernel whose element i is a value that differs from its neighbours' in every dtype.
template <class T>
struct IndexKernel {
  T linear(std::int64_t i) const { return static_cast<T>(i * 7 + 3); }
};

template <class T>
void expect_span_written_exactly() {
  constexpr auto per_line = static_cast<std::int64_t>(kStreamLineBytes / sizeof(T));
  constexpr std::int64_t chunk = HostExecutor::kStreamChunk<T>;
  const std::int64_t lengths[] = {
      0,         1,     per_line - 1, per_line,      per_line + 1,
      chunk - 1, chunk, chunk + 1,    3 * chunk + 5, 5 * chunk + per_line};
  const std::int64_t size = 8 * chunk + 4 * per_line;
  const T sentinel = static_cast<T>(-7);
  // Line-aligned storage, so that `begin` sets the span's alignment to every element offset.
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size) * sizeof(T) + kStreamLineBytes);
  const auto base = reinterpret_cast<std::uintptr_t>(bytes.data());
  T* const data = reinterpret_cast<T*>(bytes.data() + (kStreamLineBytes - base % kStreamLineBytes));
  const IndexKernel<T> kernel;
  for (std::int64_t begin = 0; begin < 2 * per_line; ++begin) {
    for (const std::int64_t length : lengths) {
      const std::int64_t end = begin + length;
      std::fill(data, data + size, sentinel);
      HostExecutor::stream_span<HostExecutor::ReadLinear>(data, kernel, begin, end);
      ts::detail::stream_store_fence();
      for (std::int64_t i = 0; i < size; ++i) {
        const T expected = i >= begin && i < end ? kernel.linear(i) : sentinel;
        ASSERT_EQ(data[i], expected)
            << "element " << i << " of span [" << begin << ", " << end << ")";
      }
    }
  }
}

TEST(HostStreamStores, StreamSpanWritesEveryElementOfItsSpanAndNothingElse) {
  expect_span_written_exactly<std::int8_t>();
  expect_span_written_exactly<std::int16_t>();
  expect_span_written_exactly<std::int32_t>();
  expect_span_written_exactly<float>();
  expect_span_written_exactly<double>();
  expect_span_written_exactly<std::int64_t>();
}

std::vector<float> random_floats(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = uniform(rng);
  return v;
}

template <class T>
std::vector<std::uint64_t> bits_of(const ts::Tensor<T>& t) {
  std::vector<std::uint64_t> bits;
  for (const T v : t.to_vector()) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    bits.push_back(b);
  }
  return bits;
}

// Each expression evaluated with every output streamed and with none: the same bits, at 1-4
// threads. Contiguous outputs (fused, a cast to double, bool and int8 results), unit-step rows
// with a broadcast row (rows of 1000, of 77 and of 4099 elements, so that rows start at every
// alignment) and rows with a transposed operand, plus operands that start off a line (a slice
// from element 1).
TEST(HostStreamStores, ResultsMatchPlainStoresBitForBit) {
  const std::int64_t n = 3 * 65536 + 1001;
  const auto a_values = random_floats(n + 1, 1);
  const auto b_values = random_floats(n + 1, 2);
  const auto a_all = ts::Tensor<float>::from_vector(a_values, {n + 1});
  const auto a = a_all.slice(0, 1, n + 1);  // starts 4 bytes into a line
  const auto b = ts::Tensor<float>::from_vector(b_values, {n + 1}).slice(0, 0, n);
  struct Results {
    std::vector<std::vector<std::uint64_t>> bits;
  };
  const auto evaluate_all = [&] {
    Results r;
    r.bits.push_back(bits_of(ts::Tensor<float>(a * b + 2.0f * a - ts::sqrt(ts::abs(b)))));
    r.bits.push_back(bits_of(ts::Tensor<double>(ts::cast<double>(a) * 2.0 + 1.0)));
    r.bits.push_back(bits_of(ts::Tensor<bool>(a > b)));
    r.bits.push_back(bits_of(ts::Tensor<std::int8_t>(ts::cast<std::int8_t>(a * 100.0f))));
    for (const std::int64_t cols : {std::int64_t{1000}, std::int64_t{77}, std::int64_t{4099}}) {
      const std::int64_t rows = n / cols;
      const auto x = a.slice(0, 0, rows * cols).reshape({rows, cols});
      const auto row = b.slice(0, 0, cols);
      r.bits.push_back(bits_of(ts::Tensor<float>(x + row)));
      r.bits.push_back(bits_of(ts::Tensor<double>(ts::cast<double>(x) * row)));
    }
    // A transposed operand: rows walked whole (300 columns) and in tiles (2100 columns).
    for (const std::int64_t cols : {std::int64_t{300}, std::int64_t{2100}}) {
      const std::int64_t rows = n / cols;
      const auto t = a.slice(0, 0, rows * cols).reshape({cols, rows}).transpose(0, 1);
      const auto y = b.slice(0, 0, rows * cols).reshape({rows, cols});
      r.bits.push_back(bits_of(ts::Tensor<float>(t * y + y)));
    }
    return r;
  };
  with_host_threads({1, 2, 3, 4}, [&] {
    Results plain;
    Results streamed;
    {
      const StreamThreshold never(kNever);
      plain = evaluate_all();
    }
    {
      const StreamThreshold always(0);
      streamed = evaluate_all();
    }
    ASSERT_EQ(plain.bits.size(), streamed.bits.size());
    for (std::size_t e = 0; e < plain.bits.size(); ++e) {
      ASSERT_EQ(plain.bits[e].size(), streamed.bits[e].size()) << "expression " << e;
      for (std::size_t i = 0; i < plain.bits[e].size(); ++i)
        ASSERT_EQ(plain.bits[e][i], streamed.bits[e][i]) << "expression " << e << ", element " << i;
    }
    // And the plain result is the reference loop's (the fused expression, element by element).
    const auto fused = ts::Tensor<float>(a * b + 2.0f * a - ts::sqrt(ts::abs(b))).to_vector();
    for (std::int64_t i = 0; i < n; ++i) {
      const float x = a_values[static_cast<std::size_t>(i + 1)];
      const float y = b_values[static_cast<std::size_t>(i)];
      const volatile float product = x * y;
      const volatile float twice = 2.0f * x;
      const volatile float sum = product + twice;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(fused[static_cast<std::size_t>(i)]),
                std::bit_cast<std::uint32_t>(sum - std::sqrt(std::abs(y))))
          << "element " << i;
    }
  });
}

// The threshold: outputs of at least host_stream_min_bytes bytes stream, smaller ones do not,
// and types whose elements would straddle lines never do.
TEST(HostStreamStores, ThresholdDecidesWhichOutputsStream) {
  EXPECT_GT(ts::detail::host_stream_min_bytes().load(), 0);
  const StreamThreshold threshold(1 << 20);
  EXPECT_EQ(ts::detail::host_streams_output<float>(1 << 20), ts::detail::kHostStreamStores);
  EXPECT_FALSE(ts::detail::host_streams_output<float>((1 << 20) - 1));
  struct Odd {
    char bytes[12];
  };
  EXPECT_FALSE(ts::detail::host_streams_output<Odd>(std::int64_t{1} << 40));
}

}  // namespace
