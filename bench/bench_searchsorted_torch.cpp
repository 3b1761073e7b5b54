// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_searchsorted.cpp (built only when CMake finds Torch), 2 threads.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include "bench_data.hpp"  // names the libtorch version in the JSON context
#include "search_cases.hpp"

namespace {

at::Tensor to_torch(std::vector<float> values, std::int64_t rows, std::int64_t cols) {
  const std::vector<std::int64_t> shape =
      rows == 1 ? std::vector<std::int64_t>{cols} : std::vector<std::int64_t>{rows, cols};
  return at::from_blob(values.data(), shape, at::kFloat).clone();
}

void torch_searchsorted(benchmark::State& state) {
  at::set_num_threads(2);
  const auto& c = bench::kSearchCases[state.range(0)];
  const auto seq = to_torch(bench::sorted_sequence(c), c.rows, c.length);
  const auto values = to_torch(bench::search_values(c), c.rows, c.values);
  for (auto _ : state) {
    auto idx = at::searchsorted(seq, values);
    benchmark::DoNotOptimize(idx.data_ptr());
  }
  bench::set_search_counters(state, c);
}

void torch_bucketize(benchmark::State& state) {
  at::set_num_threads(2);
  const auto& c = bench::kBucketizeCase;
  const auto boundaries = to_torch(bench::sorted_sequence(c), 1, c.length);
  const auto x = to_torch(bench::search_values(c), 1, c.values);
  for (auto _ : state) {
    auto idx = at::bucketize(x, boundaries);
    benchmark::DoNotOptimize(idx.data_ptr());
  }
  bench::set_search_counters(state, c);
}

void torch_bucketize_sweep(benchmark::State& state) {
  at::set_num_threads(2);
  const auto c = bench::bucketize_sweep_case(state.range(0));
  const auto boundaries = to_torch(bench::sorted_sequence(c), 1, c.length);
  const auto x = to_torch(bench::search_values(c), 1, c.values);
  for (auto _ : state) {
    auto idx = at::bucketize(x, boundaries);
    benchmark::DoNotOptimize(idx.data_ptr());
  }
  bench::set_search_counters(state, c);
}

}  // namespace

void register_torch_searchsorted() {
  bench::register_search_cases("BM_Searchsorted", "torch", torch_searchsorted);
  bench::register_bucketize_sweep("BM_BucketizeSweep", "torch", torch_bucketize_sweep);
  benchmark::RegisterBenchmark("BM_Bucketize/torch", torch_bucketize)
      ->Arg(0)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}
