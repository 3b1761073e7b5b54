// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_complex.cpp: the same cases as a PyTorch user writes them, on 2
// intra-op threads (TESSERA_BENCH_TORCH_THREADS overrides), into a preallocated output where
// torch has an `_out` form.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "bench_data.hpp"

namespace {

void set_torch_threads() {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
}

at::Tensor complex_input(std::int64_t n) {
  const auto re = bench::random_floats(n, 1);
  const auto im = bench::random_floats(n, 2);
  std::vector<std::complex<float>> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::complex<float>(re[i], im[i]);
  return at::from_blob(v.data(), {n}, at::kComplexFloat).clone();
}

void torch_square_plus_one(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto z = complex_input(n);
  auto c = at::empty({n}, at::kComplexFloat);
  for (auto _ : state) {
    at::mul_out(c, z, z);
    c.add_(1.0);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, 16 * n);
}

void torch_exp(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto z = complex_input(n);
  auto c = at::empty({n}, at::kComplexFloat);
  for (auto _ : state) {
    at::exp_out(c, z);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  bench::set_counters(state, n, 16 * n);
}

void torch_sum(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto z = complex_input(n);
  for (auto _ : state) {
    auto s = z.sum().item<c10::complex<float>>();
    benchmark::DoNotOptimize(s);
  }
  bench::set_counters(state, n, 8 * n);
}

}  // namespace

void register_torch_complex() {
  bench::register_case("c64_square_plus_one", "libtorch", torch_square_plus_one);
  bench::register_case("c64_exp", "libtorch", torch_exp);
  bench::register_case("c64_sum", "libtorch", torch_sum);
}
