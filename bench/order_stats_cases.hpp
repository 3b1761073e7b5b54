// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file order_stats_cases.hpp
/// The cases of bench_order_stats (issue 49), shared by every peer: quantile(x, 0.9) of 1e7
/// floats, median(x, 1) of 1000 rows of 10000, softmax and log_softmax(x, 1) of 4000 x 4000.
/// Floats uniform in [-1, 1) (bench_data.hpp), the same for every peer.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::order_stats {

/// One case: an operation over `rows` rows of `cols` floats (rows 1: a 1-D tensor).
struct OrderStatsCase {
  const char* op;     ///< quantile, median, softmax or log_softmax
  std::int64_t rows;  ///< 1: a 1-D tensor
  std::int64_t cols;  ///< the row length
};

/// Every case, in registration order; the benchmark's argument is the index.
inline const std::vector<OrderStatsCase>& cases() {
  static const std::vector<OrderStatsCase> c = {{"quantile", 1, 10'000'000},
                                                {"median", 1000, 10'000},
                                                {"softmax", 4000, 4000},
                                                {"log_softmax", 4000, 4000}};
  return c;
}

/// The tensor shape of a case.
inline std::vector<std::int64_t> shape_of(const OrderStatsCase& c) {
  if (c.rows == 1) return {c.cols};
  return {c.rows, c.cols};
}

/// Registers every case as `<op>_<rows>x<cols>/<peer>/<index>`.
template <class F>
void register_cases(const std::string& peer, F f) {
  for (std::size_t i = 0; i < cases().size(); ++i) {
    const auto& c = cases()[i];
    const std::string name = std::string(c.op) + "_" + std::to_string(c.rows) + "x" +
                             std::to_string(c.cols) + "/" + peer;
    benchmark::RegisterBenchmark(name.c_str(), f)
        ->Arg(static_cast<std::int64_t>(i))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

/// Elements read per second.
inline void set_counters(benchmark::State& state, const OrderStatsCase& c) {
  state.SetItemsProcessed(state.iterations() * c.rows * c.cols);
}

}  // namespace bench::order_stats
