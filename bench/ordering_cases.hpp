// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ordering_cases.hpp
/// The cases of bench_ordering (issue 35), shared by every peer: sort and argsort of one row
/// of 1e6 and 1e7 floats and of 1000 rows of 10000, and topk(10) of each of those rows.
/// Floats uniform in [-1, 1) (bench_data.hpp), the same for every peer.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::ordering {

/// One case: an operation over `rows` rows of `cols` floats, along the last dimension.
struct OrderingCase {
  const char* op;     ///< sort, argsort or topk10
  std::int64_t rows;  ///< 1: a 1-D tensor
  std::int64_t cols;  ///< the row length
};

/// Every case, in registration order; the benchmark's argument is the index.
inline const std::vector<OrderingCase>& cases() {
  static const std::vector<OrderingCase> c = {{"sort", 1, 1'000'000},     {"sort", 1, 10'000'000},
                                              {"sort", 1000, 10'000},     {"argsort", 1, 1'000'000},
                                              {"argsort", 1, 10'000'000}, {"argsort", 1000, 10'000},
                                              {"topk10", 1000, 10'000}};
  return c;
}

/// The case's shape.
inline std::vector<std::int64_t> shape_of(const OrderingCase& c) {
  return c.rows == 1 ? std::vector<std::int64_t>{c.cols}
                     : std::vector<std::int64_t>{c.rows, c.cols};
}

/// Registers `fn(state)` for every case as "<op>_<rows>x<cols>/<peer>/<index>".
template <class F>
void register_cases(const char* peer, F fn) {
  for (std::size_t i = 0; i < cases().size(); ++i) {
    const auto& c = cases()[i];
    const std::string name = std::string(c.op) + "_" + std::to_string(c.rows) + "x" +
                             std::to_string(c.cols) + "/" + peer;
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(static_cast<std::int64_t>(i))
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

/// Elements in, and bytes read and written (values and int64 indices) per iteration.
inline void set_ordering_counters(benchmark::State& state, const OrderingCase& c) {
  const std::int64_t n = c.rows * c.cols;
  const std::int64_t out = std::string(c.op) == "topk10" ? c.rows * 10 : n;
  set_counters(state, n, 4 * n + 12 * out);
}

}  // namespace bench::ordering
