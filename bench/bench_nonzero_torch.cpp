// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_nonzero.cpp (built only when CMake finds Torch), 2 threads.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include "bench_data.hpp"  // names the libtorch version in the JSON context
#include "nonzero_cases.hpp"

namespace {

at::Tensor torch_mask(double density) {
  auto mask = bench::random_mask(density);
  return at::from_blob(mask.data(), {bench::kNonzeroSide, bench::kNonzeroSide}, at::kByte)
      .to(at::kBool);
}

void torch_bool(benchmark::State& state) {
  at::set_num_threads(2);
  const auto x = torch_mask(bench::kDensities[state.range(0)]);
  for (auto _ : state) {
    auto idx = at::nonzero(x);
    benchmark::DoNotOptimize(idx.data_ptr());
  }
  state.counters["rows"] = static_cast<double>(at::nonzero(x).size(0));
}

void torch_expression(benchmark::State& state) {
  at::set_num_threads(2);
  auto values = bench::random_unit_floats();
  const auto x =
      at::from_blob(values.data(), {bench::kNonzeroSide, bench::kNonzeroSide}, at::kFloat).clone();
  for (auto _ : state) {
    auto idx = at::nonzero(x > 0.5);
    benchmark::DoNotOptimize(idx.data_ptr());
  }
}

void torch_count(benchmark::State& state) {
  at::set_num_threads(2);
  const auto x = torch_mask(bench::kDensities[state.range(0)]);
  for (auto _ : state) benchmark::DoNotOptimize(at::count_nonzero(x).item<std::int64_t>());
}

void torch_sweep(benchmark::State& state) {
  at::set_num_threads(2);
  auto mask = bench::sweep_mask(state.range(0));
  const auto x = at::from_blob(mask.data(), {state.range(0)}, at::kByte).to(at::kBool);
  for (auto _ : state) {
    auto idx = at::nonzero(x);
    benchmark::DoNotOptimize(idx.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

void register_torch_nonzero() {
  bench::register_densities("BM_NonzeroBool", "torch", torch_bool);
  bench::register_densities("BM_CountNonzero", "torch", torch_count);
  bench::register_sweep("BM_NonzeroSweep", "torch", torch_sweep);
  benchmark::RegisterBenchmark("BM_NonzeroFloatGt/torch", torch_expression)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}
