// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_order_stats.cpp: the same cases as a PyTorch user writes them,
// on 2 intra-op threads (TESSERA_BENCH_TORCH_THREADS overrides).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "order_stats_cases.hpp"

namespace {

void torch_order_stats(benchmark::State& state) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  const auto& c = bench::order_stats::cases()[static_cast<std::size_t>(state.range(0))];
  auto values = bench::random_floats(c.rows * c.cols, 1);
  const auto x = at::from_blob(values.data(), bench::order_stats::shape_of(c), at::kFloat).clone();
  const std::string op = c.op;
  for (auto _ : state) {
    at::Tensor r;
    if (op == "quantile") {
      r = at::quantile(x, 0.9);
      benchmark::DoNotOptimize(r.item<float>());
    } else if (op == "median") {
      auto m = at::median(x, 1);
      benchmark::DoNotOptimize(std::get<0>(m).data_ptr());
    } else if (op == "softmax") {
      r = at::softmax(x, 1);
      benchmark::DoNotOptimize(r.data_ptr());
    } else {
      r = at::log_softmax(x, 1);
      benchmark::DoNotOptimize(r.data_ptr());
    }
    benchmark::ClobberMemory();
  }
  bench::order_stats::set_counters(state, c);
}

}  // namespace

/// Called from bench_order_stats.cpp's main when the torch peer is built.
void register_torch_order_stats() {
  bench::order_stats::register_cases("libtorch", torch_order_stats);
}
