// SPDX-License-Identifier: BSD-3-Clause
// Random numbers (issue 47): tessera's counter-based streams against libtorch's generators
// (bench_random_torch.cpp) in the same process, and a zeros fill of the same size, which shows
// how close rand runs to the memory bound. bench/ratios.py turns the JSON into ratio tables.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <string>

#include "random_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_random();  // bench_random_torch.cpp
#endif

namespace {

using namespace bench::random;

void tessera_case(benchmark::State& state, const std::string& name) {
  ts::Generator gen(1);
  const auto weights = ts::rand<float>({kRows, kCategories}, gen);
  for (auto _ : state) {
    if (name == "rand_f32") benchmark::DoNotOptimize(ts::rand<float>({kElements}, gen).data_ptr());
    if (name == "randn_f32")
      benchmark::DoNotOptimize(ts::randn<float>({kElements}, gen).data_ptr());
    if (name == "randint_i64") {
      benchmark::DoNotOptimize(ts::randint<std::int64_t>(0, 1000, {kElements}, gen).data_ptr());
    }
    if (name == "zeros_f32")
      benchmark::DoNotOptimize(ts::Tensor<float>::zeros({kElements}).data_ptr());
    if (name == "randperm") benchmark::DoNotOptimize(ts::randperm(kPermutation, gen).data_ptr());
    if (name == "multinomial") {
      benchmark::DoNotOptimize(ts::multinomial(weights, kSamples, false, gen).data_ptr());
    }
    benchmark::ClobberMemory();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const auto& name : names()) {
    register_once(name, "tessera", [name](benchmark::State& s) { tessera_case(s, name); });
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_random();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
