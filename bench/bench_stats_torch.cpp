// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_stats.cpp (built only when CMake finds Torch), 2 threads.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <tuple>

#include "stats_cases.hpp"

namespace {

void torch_unique(benchmark::State& state) {
  at::set_num_threads(2);
  const std::int64_t n = state.range(0);
  auto v = bench::stats::random_ids(n, 1);
  const auto x = at::from_blob(v.data(), {n}, at::kLong).clone();
  for (auto _ : state) {
    auto r = at::_unique2(x, /*sorted*/ true, /*return_inverse*/ true, /*return_counts*/ true);
    benchmark::DoNotOptimize(std::get<0>(r).data_ptr());
  }
  bench::set_counters(state, n, n * 16);
}

void torch_bincount(benchmark::State& state) {
  at::set_num_threads(2);
  const std::int64_t n = state.range(0);
  auto v = bench::stats::random_ids(n, 2);
  const auto x = at::from_blob(v.data(), {n}, at::kLong).clone();
  for (auto _ : state) {
    auto r = at::bincount(x);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  bench::set_counters(state, n, n * 8);
}

void torch_histc(benchmark::State& state) {
  at::set_num_threads(2);
  const std::int64_t n = state.range(0);
  auto v = bench::random_floats(n, 3);
  const auto x = at::from_blob(v.data(), {n}, at::kFloat).clone();
  for (auto _ : state) {
    auto r = at::histc(x, bench::stats::kBins, -1.0, 1.0);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  bench::set_counters(state, n, n * 4);
}

}  // namespace

void register_torch_stats() {
  bench::register_case("unique", "torch", torch_unique);
  bench::register_case("bincount", "torch", torch_bincount);
  bench::register_case("histc", "torch", torch_histc);
}
