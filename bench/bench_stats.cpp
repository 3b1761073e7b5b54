// SPDX-License-Identifier: BSD-3-Clause
// unique (with inverse and counts), bincount and histc: tessera against libtorch 2.15
// (bench_stats_torch.cpp, when found), on the inputs of stats_cases.hpp:
// <op>/<peer>/<n> for n in bench::sizes().

#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>

#include "stats_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_stats();
#endif

namespace {

void tessera_unique(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto x = ts::Tensor<std::int64_t>::from_vector(bench::stats::random_ids(n, 1));
  for (auto _ : state) {
    auto r = ts::unique(x, {.return_inverse = true, .return_counts = true});
    benchmark::DoNotOptimize(r.values.data());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, n * 16);
}

void tessera_bincount(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto x = ts::Tensor<std::int64_t>::from_vector(bench::stats::random_ids(n, 2));
  for (auto _ : state) {
    auto r = ts::bincount(x);
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, n * 8);
}

void tessera_histc(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto x = ts::Tensor<float>::from_vector(bench::random_floats(n, 3));
  for (auto _ : state) {
    auto r = ts::histc(x, bench::stats::kBins, -1.0, 1.0);
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, n * 4);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::register_case("unique", "tessera", tessera_unique);
  bench::register_case("bincount", "tessera", tessera_bincount);
  bench::register_case("histc", "tessera", tessera_histc);
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_stats();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
