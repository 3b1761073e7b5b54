// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_expr.cpp (built only when CMake finds Torch): the same cases,
// written as a PyTorch user would, on 2 intra-op threads (see set_torch_threads). Eager libtorch
// materialises every intermediate; the final op writes into a preallocated output (`*_out`) like
// the other peers.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "bench_data.hpp"

namespace {

using bench::set_counters;

/// libtorch's intra-op threads: 2 (the machine the numbers were taken on has 2 cores), or
/// TESSERA_BENCH_TORCH_THREADS, e.g. 1 to compare single-core efficiency with OMP_NUM_THREADS=1.
void set_torch_threads() {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
}

/// A float tensor of `shape` holding bench::random_floats (the data every peer uses).
at::Tensor torch_of(std::vector<std::int64_t> shape, unsigned seed) {
  std::int64_t n = 1;
  for (const auto d : shape) n *= d;
  auto v = bench::random_floats(n, seed);
  return at::from_blob(v.data(), shape, at::kFloat).clone();
}

void torch_fused(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto a = torch_of({n}, 1);
  const auto b = torch_of({n}, 2);
  auto c = at::empty({n}, at::kFloat);
  for (auto _ : state) {
    at::sub_out(c, a * b + 2.0f * a, at::sqrt(at::abs(b)));
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

void torch_broadcast(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t rows = state.range(0) / bench::kCols;
  const auto x = torch_of({rows, bench::kCols}, 1);
  const auto row = torch_of({bench::kCols}, 2);
  auto c = at::empty({rows, bench::kCols}, at::kFloat);
  for (auto _ : state) {
    at::add_out(c, x, row);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  set_counters(state, rows * bench::kCols, 8 * rows * bench::kCols);
}

void torch_transposed(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t s = bench::square_side(state.range(0));
  const auto a = torch_of({s, s}, 1);
  const auto b = torch_of({s, s}, 2);
  auto c = at::empty({s, s}, at::kFloat);
  for (auto _ : state) {
    at::add_out(c, a.t(), b);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  set_counters(state, s * s, 12 * s * s);
}

void torch_sum_product(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto a = torch_of({n}, 1);
  const auto b = torch_of({n}, 2);
  // torch.sum(a * b): materialises the product, then reduces (float accumulation, cascaded).
  for (auto _ : state) benchmark::DoNotOptimize((a * b).sum().item<float>());
  set_counters(state, n, 8 * n);
}

void torch_cast(benchmark::State& state) {
  set_torch_threads();
  const std::int64_t n = state.range(0);
  const auto a = torch_of({n}, 1);
  const auto one = at::scalar_tensor(1.0, at::kDouble);
  auto c = at::empty({n}, at::kDouble);
  for (auto _ : state) {
    at::add_out(c, a.to(at::kDouble) * 2.0, one);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

}  // namespace

/// Called from bench_expr.cpp's main when the torch peer is built.
void register_torch_benchmarks() {
  using bench::register_case;
  register_case("BM_FusedExpr", "libtorch", torch_fused);
  register_case("BM_Broadcast", "libtorch", torch_broadcast);
  register_case("BM_Transposed", "libtorch", torch_transposed);
  register_case("BM_SumProduct", "libtorch", torch_sum_product);
  register_case("BM_Cast", "libtorch", torch_cast);
}
