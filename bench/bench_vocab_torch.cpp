// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_vocab.cpp: the same cases as a PyTorch user writes them, on 2
// intra-op threads (TESSERA_BENCH_TORCH_THREADS overrides). Pointwise results go into a
// preallocated output (`*_out`); reductions return new tensors, as tessera's do.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "vocab_cases.hpp"

namespace {

using bench::set_counters;
using bench::vocab::kSide;

void set_torch_threads() {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
}

at::Tensor torch_of(std::vector<float> v, std::vector<std::int64_t> shape) {
  return at::from_blob(v.data(), shape, at::kFloat).clone();
}

void torch_pointwise(benchmark::State& state, const std::string& name) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto a = torch_of(bench::vocab::pointwise_input(name, n), {n});
  auto c = at::empty({n}, at::kFloat);
  for (auto _ : state) {
    if (name == "sin") at::sin_out(c, a);
    if (name == "exp") at::exp_out(c, a);
    if (name == "tanh") at::tanh_out(c, a);
    if (name == "log") at::log_out(c, a);
    if (name == "sigmoid") at::sigmoid_out(c, a);
    if (name == "pow2.5" || name == "pow2.5wide") at::pow_out(c, a, 2.5);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 8 * n);
}

void torch_reduction(benchmark::State& state, const std::string& name) {
  set_torch_threads();
  const auto a = torch_of(bench::random_floats(kSide * kSide, 1), {kSide, kSide});
  const auto b = torch_of(bench::random_floats(kSide, 2), {kSide});
  const auto t = a.t();
  for (auto _ : state) {
    if (name == "sum_dim0") benchmark::DoNotOptimize(a.sum(0).data_ptr());
    if (name == "sum_dim1") benchmark::DoNotOptimize(a.sum(1).data_ptr());
    if (name == "sum_dim1_t") benchmark::DoNotOptimize(t.sum(1).data_ptr());
    if (name == "amax_dim0") benchmark::DoNotOptimize(a.amax(0).data_ptr());
    if (name == "amax_dim1") benchmark::DoNotOptimize(a.amax(1).data_ptr());
    if (name == "amax_dim1_t") benchmark::DoNotOptimize(t.amax(1).data_ptr());
    if (name == "argmax_dim0") benchmark::DoNotOptimize(a.argmax(0).data_ptr());
    if (name == "argmax_dim1") benchmark::DoNotOptimize(a.argmax(1).data_ptr());
    if (name == "argmax_dim1_t") benchmark::DoNotOptimize(t.argmax(1).data_ptr());
    if (name == "mean_dim0") benchmark::DoNotOptimize(a.mean(0).data_ptr());
    if (name == "mean_dim1") benchmark::DoNotOptimize(a.mean(1).data_ptr());
    if (name == "mean_dim1_t") benchmark::DoNotOptimize(t.mean(1).data_ptr());
    if (name == "var_dim1") benchmark::DoNotOptimize(a.var(1).data_ptr());
    if (name == "cumsum_dim1") benchmark::DoNotOptimize(a.cumsum(1).data_ptr());
    if (name == "sum_ab_dim1") benchmark::DoNotOptimize((a * b).sum(1).data_ptr());
    benchmark::ClobberMemory();
  }
  set_counters(state, kSide * kSide, 4 * kSide * kSide);
}

}  // namespace

/// Called from bench_vocab.cpp's main when the torch peer is built.
void register_torch_vocab() {
  for (const auto& name : bench::vocab::pointwise_names()) {
    bench::vocab::register_pointwise(name, "libtorch",
                                     [name](benchmark::State& s) { torch_pointwise(s, name); });
  }
  for (const auto& name : bench::vocab::reduction_names()) {
    bench::vocab::register_reduction(name, "libtorch",
                                     [name](benchmark::State& s) { torch_reduction(s, name); });
  }
}
