// SPDX-License-Identifier: BSD-3-Clause
// The framework vocabulary (issue "framework vocabulary, part 1"): pointwise functions and
// reductions over dimensions, tessera against xtensor (xsimd) and, when built, libtorch
// (bench_vocab_torch.cpp) in the same process. Names read "<case>/<peer>/<elements>", e.g.
// pw_sin/tessera/1000000 or red_sum_dim1/libtorch/16000000; bench/ratios.py turns the JSON
// output into ratio tables. Outputs are preallocated where the peer allows (tessera assigns
// into an existing tensor; a reduction's result is a new tensor in every peer).

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>

#include "tessera/tessera.hpp"
#include "vocab_cases.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_vocab();  // bench_vocab_torch.cpp
#endif

namespace {

using bench::random_floats;
using bench::set_counters;
using bench::vocab::kSide;
using bench::vocab::pointwise_input;

// ---- tessera ----------------------------------------------------------------------------

void tessera_pointwise(benchmark::State& state, const std::string& name) {
  const std::int64_t n = state.range(0);
  const auto a = ts::Tensor<float>::from_vector(pointwise_input(name, n), {n});
  auto c = ts::Tensor<float>::empty({n});
  for (auto _ : state) {
    if (name == "sin") c = ts::sin(a);
    if (name == "exp") c = ts::exp(a);
    if (name == "tanh") c = ts::tanh(a);
    if (name == "log") c = ts::log(a);
    if (name == "sigmoid") c = ts::sigmoid(a);
    if (name == "pow2.5" || name == "pow2.5wide") c = ts::pow(a, 2.5f);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 8 * n);
}

void tessera_reduction(benchmark::State& state, const std::string& name) {
  const auto a = ts::Tensor<float>::from_vector(random_floats(kSide * kSide, 1), {kSide, kSide});
  const auto b = ts::Tensor<float>::from_vector(random_floats(kSide, 2), {kSide});
  const auto t = a.transpose(0, 1);
  for (auto _ : state) {
    if (name == "sum_dim0") benchmark::DoNotOptimize(ts::sum(a, 0).data());
    if (name == "sum_dim1") benchmark::DoNotOptimize(ts::sum(a, 1).data());
    if (name == "sum_dim1_t") benchmark::DoNotOptimize(ts::sum(t, 1).data());
    if (name == "amax_dim0") benchmark::DoNotOptimize(ts::amax(a, 0).data());
    if (name == "amax_dim1") benchmark::DoNotOptimize(ts::amax(a, 1).data());
    if (name == "amax_dim1_t") benchmark::DoNotOptimize(ts::amax(t, 1).data());
    if (name == "argmax_dim0") benchmark::DoNotOptimize(ts::argmax(a, 0).data());
    if (name == "argmax_dim1") benchmark::DoNotOptimize(ts::argmax(a, 1).data());
    if (name == "argmax_dim1_t") benchmark::DoNotOptimize(ts::argmax(t, 1).data());
    if (name == "mean_dim0") benchmark::DoNotOptimize(ts::mean(a, 0).data());
    if (name == "mean_dim1") benchmark::DoNotOptimize(ts::mean(a, 1).data());
    if (name == "mean_dim1_t") benchmark::DoNotOptimize(ts::mean(t, 1).data());
    if (name == "var_dim1") benchmark::DoNotOptimize(ts::var(a, 1).data());
    if (name == "cumsum_dim1") benchmark::DoNotOptimize(ts::cumsum(a, 1).data());
    if (name == "sum_ab_dim1") benchmark::DoNotOptimize(ts::sum(a * b, 1).data());
    benchmark::ClobberMemory();
  }
  set_counters(state, kSide * kSide, 4 * kSide * kSide);
}

// ---- xtensor (serial: xtensor parallelises only with TBB) ----------------------------------

void xtensor_pointwise(benchmark::State& state, const std::string& name) {
  const std::int64_t n = state.range(0);
  const auto v = pointwise_input(name, n);
  const xt::xtensor<float, 1> a = xt::adapt(v, {static_cast<std::size_t>(n)});
  xt::xtensor<float, 1> c = xt::empty<float>({static_cast<std::size_t>(n)});
  for (auto _ : state) {
    if (name == "sin") xt::noalias(c) = xt::sin(a);
    if (name == "exp") xt::noalias(c) = xt::exp(a);
    if (name == "tanh") xt::noalias(c) = xt::tanh(a);
    if (name == "log") xt::noalias(c) = xt::log(a);
    if (name == "sigmoid") xt::noalias(c) = 1.0f / (1.0f + xt::exp(-a));
    if (name == "pow2.5" || name == "pow2.5wide") xt::noalias(c) = xt::pow(a, 2.5f);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 8 * n);
}

void register_benchmarks() {
  for (const auto& name : bench::vocab::pointwise_names()) {
    bench::vocab::register_pointwise(name, "tessera",
                                     [name](benchmark::State& s) { tessera_pointwise(s, name); });
    bench::vocab::register_pointwise(name, "xtensor",
                                     [name](benchmark::State& s) { xtensor_pointwise(s, name); });
  }
  for (const auto& name : bench::vocab::reduction_names()) {
    bench::vocab::register_reduction(name, "tessera",
                                     [name](benchmark::State& s) { tessera_reduction(s, name); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_benchmarks();
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_vocab();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
