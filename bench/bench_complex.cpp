// SPDX-License-Identifier: BSD-3-Clause
// Complex numbers (issue 62): `z * z + 1` and `exp(z)` fused into a preallocated complex64
// output, and `sum(z)`, at 1e4, 1e6 and 1e7 elements, tessera against libtorch
// (bench_complex_torch.cpp) in the same process. Names read "<case>/<peer>/<elements>";
// bench/ratios.py turns the JSON output into ratio tables.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_complex();  // bench_complex_torch.cpp
#endif

namespace {

/// n complex64 values, real and imaginary parts uniform in [-1, 1) (the same on every peer).
ts::Tensor<ts::complex64> complex_input(std::int64_t n) {
  const auto re = bench::random_floats(n, 1);
  const auto im = bench::random_floats(n, 2);
  std::vector<ts::complex64> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = ts::complex64(re[i], im[i]);
  return ts::Tensor<ts::complex64>::from_vector(v, {n});
}

void tessera_square_plus_one(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto z = complex_input(n);
  auto c = ts::Tensor<ts::complex64>::empty({n});
  for (auto _ : state) {
    c = z * z + 1.0f;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, 16 * n);
}

void tessera_exp(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto z = complex_input(n);
  auto c = ts::Tensor<ts::complex64>::empty({n});
  for (auto _ : state) {
    c = ts::exp(z);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, 16 * n);
}

void tessera_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto z = complex_input(n);
  for (auto _ : state) {
    ts::complex64 s = ts::sum(z);
    benchmark::DoNotOptimize(s);
  }
  bench::set_counters(state, n, 8 * n);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bench::register_case("c64_square_plus_one", "tessera", tessera_square_plus_one);
  bench::register_case("c64_exp", "tessera", tessera_exp);
  bench::register_case("c64_sum", "tessera", tessera_sum);
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_complex();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
