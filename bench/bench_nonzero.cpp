// SPDX-License-Identifier: BSD-3-Clause
// nonzero on a 4000x4000 input: tessera (two-pass parallel compaction, predicate fused) vs a
// serial std:: loop (the floor) and libtorch (bench_nonzero_torch.cpp, when found). Counters:
// rows found, and for tessera the peak host memory of one call beyond its inputs, relative to
// the output size (the bound: output + 5% + a small constant).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "nonzero_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

ts::Tensor<bool> mask_tensor(double density) {
  const auto mask = bench::random_mask(density);
  auto t = ts::Tensor<bool>::empty({bench::kNonzeroSide, bench::kNonzeroSide});
  for (std::size_t i = 0; i < mask.size(); ++i) t.data()[i] = mask[i] != 0;
  return t;
}

/// Runs `op` once outside the timing loop to record the peak memory it needs.
template <class Op>
void report_peak(benchmark::State& state, Op op) {
  const auto cpu = ts::Device::cpu();
  ts::reset_peak_memory_stats(cpu);
  const auto before = ts::memory_stats(cpu).current_bytes;
  const auto result = op();
  const double extra = static_cast<double>(ts::memory_stats(cpu).peak_bytes - before);
  const double output = static_cast<double>(result.numel()) * sizeof(std::int64_t);
  state.counters["rows"] = static_cast<double>(result.size(0));
  state.counters["peak_over_output"] = output > 0 ? extra / output : extra;
}

void tessera_bool(benchmark::State& state) {
  const auto x = mask_tensor(bench::kDensities[state.range(0)]);
  report_peak(state, [&] { return x.nonzero(); });
  for (auto _ : state) {
    auto idx = x.nonzero();
    benchmark::DoNotOptimize(idx.data());
  }
}

void serial_bool(benchmark::State& state) {
  const auto mask = bench::random_mask(bench::kDensities[state.range(0)]);
  const std::int64_t side = bench::kNonzeroSide;
  for (auto _ : state) {
    std::vector<std::int64_t> rows;
    for (std::int64_t i = 0; i < side; ++i) {
      for (std::int64_t j = 0; j < side; ++j) {
        if (mask[static_cast<std::size_t>(i * side + j)]) {
          rows.push_back(i);
          rows.push_back(j);
        }
      }
    }
    benchmark::DoNotOptimize(rows.data());
  }
}

void tessera_expression(benchmark::State& state) {
  const auto values = bench::random_unit_floats();
  const auto x = ts::Tensor<float>::from_vector(values, {bench::kNonzeroSide, bench::kNonzeroSide});
  report_peak(state, [&] { return (x > 0.5f).nonzero(); });
  for (auto _ : state) {
    auto idx = (x > 0.5f).nonzero();
    benchmark::DoNotOptimize(idx.data());
  }
}

// The CUDA cases (registered only where a GPU is usable): nonzero waits once for its count;
// nonzero_static never waits, so the clock stops after an explicit synchronize.
void tessera_bool_cuda(benchmark::State& state) {
  const auto gpu = ts::Device::cuda();
  const auto x = mask_tensor(bench::kDensities[state.range(0)]).to(gpu);
  for (auto _ : state) {
    auto idx = x.nonzero();
    ts::synchronize(gpu);
    benchmark::DoNotOptimize(idx.data());
  }
}

void tessera_static_cuda(benchmark::State& state) {
  const auto gpu = ts::Device::cuda();
  const auto x = mask_tensor(bench::kDensities[state.range(0)]).to(gpu);
  const std::int64_t size = x.count_nonzero();
  for (auto _ : state) {
    auto idx = x.nonzero_static(size);
    ts::synchronize(gpu);
    benchmark::DoNotOptimize(idx.data());
  }
}

void tessera_expression_cuda(benchmark::State& state) {
  const auto gpu = ts::Device::cuda();
  const auto values = bench::random_unit_floats();
  const auto x =
      ts::Tensor<float>::from_vector(values, {bench::kNonzeroSide, bench::kNonzeroSide}).to(gpu);
  for (auto _ : state) {
    auto idx = (x > 0.5f).nonzero();
    ts::synchronize(gpu);
    benchmark::DoNotOptimize(idx.data());
  }
}

// Size sweep: a 1-d bool mask of n elements, half of them true.
void tessera_sweep(benchmark::State& state) {
  const auto mask = bench::sweep_mask(state.range(0));
  auto x = ts::Tensor<bool>::empty({state.range(0)});
  for (std::size_t i = 0; i < mask.size(); ++i) x.data()[i] = mask[i] != 0;
  for (auto _ : state) {
    auto idx = x.nonzero();
    benchmark::DoNotOptimize(idx.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void tessera_count(benchmark::State& state) {
  const auto x = mask_tensor(bench::kDensities[state.range(0)]);
  for (auto _ : state) benchmark::DoNotOptimize(x.count_nonzero());
}

}  // namespace

int main(int argc, char** argv) {
  bench::register_densities("BM_NonzeroBool", "tessera", tessera_bool);
  bench::register_densities("BM_NonzeroBool", "serial", serial_bool);
  bench::register_densities("BM_CountNonzero", "tessera", tessera_count);
  bench::register_sweep("BM_NonzeroSweep", "tessera", tessera_sweep);
  benchmark::RegisterBenchmark("BM_NonzeroFloatGt/tessera", tessera_expression)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  if (ts::cuda_available()) {
    bench::register_densities("BM_NonzeroCuda", "tessera", tessera_bool_cuda);
    bench::register_densities("BM_NonzeroStaticCuda", "tessera", tessera_static_cuda);
    benchmark::RegisterBenchmark("BM_NonzeroFloatGtCuda/tessera", tessera_expression_cuda)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  void register_torch_nonzero();
  register_torch_nonzero();
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
