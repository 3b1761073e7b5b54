// SPDX-License-Identifier: BSD-3-Clause
// Shapes and views (issue 48): tessera's copies in a new layout (flip, roll, repeat, tril), a
// flip consumed by a reduction, and the pairwise-distance idiom against libtorch
// (bench_shapes_torch.cpp) in the same process; bench/ratios.py turns the JSON output into
// ratio tables. Copies return new tensors in both peers.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <string>

#include "shapes_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_shapes();  // bench_shapes_torch.cpp
#endif

namespace {

using bench::shapes::kFeatures;
using bench::shapes::kPoints;
using bench::shapes::kSide;

void tessera_case(benchmark::State& state, const std::string& name) {
  const bool pairwise = name == "pairwise_sq";
  const auto a = pairwise ? ts::Tensor<float>::from_vector(
                                bench::random_floats(kPoints * kFeatures, 1), {kPoints, kFeatures})
                          : ts::Tensor<float>::from_vector(bench::random_floats(kSide * kSide, 1),
                                                           {kSide, kSide});
  const auto b = pairwise ? ts::Tensor<float>::from_vector(
                                bench::random_floats(kPoints * kFeatures, 2), {kPoints, kFeatures})
                          : ts::Tensor<float>::from_vector(bench::random_floats(kSide * kSide, 2),
                                                           {kSide, kSide});
  for (auto _ : state) {
    if (name == "flip0") benchmark::DoNotOptimize(a.flip({0}).data_ptr());
    if (name == "flip01") benchmark::DoNotOptimize(a.flip({0, 1}).data_ptr());
    if (name == "roll") benchmark::DoNotOptimize(ts::roll(a, {100, -7}, {0, 1}).data_ptr());
    if (name == "repeat") benchmark::DoNotOptimize(a.repeat({2, 1}).data_ptr());
    if (name == "tril") benchmark::DoNotOptimize(ts::tril(a).data_ptr());
    if (name == "sum_flip_mul") benchmark::DoNotOptimize(ts::sum(a.flip({0}) * b));
    if (name == "pairwise_sq") {
      const auto d = a.unsqueeze(1) - b.unsqueeze(0);
      benchmark::DoNotOptimize(ts::sum(d * d, -1).data_ptr());
    }
    benchmark::ClobberMemory();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const auto& name : bench::shapes::names()) {
    bench::shapes::register_once(name, "tessera",
                                 [name](benchmark::State& s) { tessera_case(s, name); });
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_shapes();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
