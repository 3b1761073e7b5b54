// SPDX-License-Identifier: BSD-3-Clause
// Elementwise expressions and a fused reduction: tessera against hand-written loops (serial,
// and OpenMP on every core as the floor) and xtensor, optionally libtorch
// (bench_expr_torch.cpp). Names read "<case>/<peer>/<elements>", e.g.
// BM_FusedExpr/tessera/1000000; bench/ratios.py turns the JSON output into ratio tables.
//
// Cases (float32, output preallocated, so every peer measures the evaluation alone):
//   BM_FusedExpr      c = a * b + 2 * a - sqrt(abs(b))          (n)
//   BM_Broadcast      c = x + row                               (n / 1000, 1000) + (1000)
//   BM_Transposed     c = a.T + b                               (side, side), side = sqrt(n)
//   BM_SumProduct     s = sum(a * b)                            (n), accumulated in double
//   BM_Cast           c = cast<double>(a) * 2.0 + 1.0           (n) float -> double

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>

#include "bench_data.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_benchmarks();  // bench_expr_torch.cpp
#endif

namespace {

using bench::random_floats;
using bench::set_counters;

// ---- tessera ----------------------------------------------------------------------------

ts::Tensor<float> tensor_of(const std::vector<float>& v, const ts::Shape& shape) {
  return ts::Tensor<float>::from_vector(v, shape);
}

void tessera_fused(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = tensor_of(random_floats(n, 1), {n});
  const auto b = tensor_of(random_floats(n, 2), {n});
  auto c = ts::Tensor<float>::empty({n});
  for (auto _ : state) {
    c = a * b + 2.0f * a - ts::sqrt(ts::abs(b));
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

void tessera_broadcast(benchmark::State& state) {
  const std::int64_t rows = state.range(0) / bench::kCols;
  const auto x = tensor_of(random_floats(rows * bench::kCols, 1), {rows, bench::kCols});
  const auto row = tensor_of(random_floats(bench::kCols, 2), {bench::kCols});
  auto c = ts::Tensor<float>::empty({rows, bench::kCols});
  for (auto _ : state) {
    c = x + row;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, rows * bench::kCols, 8 * rows * bench::kCols);
}

void tessera_transposed(benchmark::State& state) {
  const std::int64_t s = bench::square_side(state.range(0));
  const auto a = tensor_of(random_floats(s * s, 1), {s, s});
  const auto b = tensor_of(random_floats(s * s, 2), {s, s});
  auto c = ts::Tensor<float>::empty({s, s});
  for (auto _ : state) {
    c = a.transpose(0, 1) + b;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, s * s, 12 * s * s);
}

void tessera_sum_product(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = tensor_of(random_floats(n, 1), {n});
  const auto b = tensor_of(random_floats(n, 2), {n});
  for (auto _ : state) benchmark::DoNotOptimize(ts::sum(a * b));
  set_counters(state, n, 8 * n);
}

void tessera_cast(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = tensor_of(random_floats(n, 1), {n});
  auto c = ts::Tensor<double>::empty({n});
  for (auto _ : state) {
    c = ts::cast<double>(a) * 2.0 + 1.0;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

// ---- hand-written loops: serial, and OpenMP parallel-for over all cores -------------------

/// Runs body(i) for i in [0, n): a plain loop, or an OpenMP parallel-for (static schedule).
template <bool Parallel, class F>
inline void for_each_index(std::int64_t n, const F& body) {
  if constexpr (Parallel) {
#pragma omp parallel for
    for (std::int64_t i = 0; i < n; ++i) body(i);
  } else {
    for (std::int64_t i = 0; i < n; ++i) body(i);
  }
}

template <bool Parallel>
void loop_fused(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = random_floats(n, 1);
  const auto b = random_floats(n, 2);
  std::vector<float> c(static_cast<std::size_t>(n));
  const float* pa = a.data();
  const float* pb = b.data();
  float* pc = c.data();
  for (auto _ : state) {
    for_each_index<Parallel>(n, [=](std::int64_t i) {
      pc[i] = pa[i] * pb[i] + 2.0f * pa[i] - std::sqrt(std::fabs(pb[i]));
    });
    benchmark::DoNotOptimize(pc);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

template <bool Parallel>
void loop_broadcast(benchmark::State& state) {
  const std::int64_t rows = state.range(0) / bench::kCols;
  const std::int64_t cols = bench::kCols;
  const auto x = random_floats(rows * cols, 1);
  const auto row = random_floats(cols, 2);
  std::vector<float> c(static_cast<std::size_t>(rows * cols));
  const float* px = x.data();
  const float* pr = row.data();
  float* pc = c.data();
  for (auto _ : state) {
    for_each_index<Parallel>(rows, [=](std::int64_t i) {
      for (std::int64_t j = 0; j < cols; ++j) pc[i * cols + j] = px[i * cols + j] + pr[j];
    });
    benchmark::DoNotOptimize(pc);
    benchmark::ClobberMemory();
  }
  set_counters(state, rows * cols, 8 * rows * cols);
}

template <bool Parallel>
void loop_transposed(benchmark::State& state) {
  const std::int64_t s = bench::square_side(state.range(0));
  const auto a = random_floats(s * s, 1);
  const auto b = random_floats(s * s, 2);
  std::vector<float> c(static_cast<std::size_t>(s * s));
  const float* pa = a.data();
  const float* pb = b.data();
  float* pc = c.data();
  for (auto _ : state) {
    // The loop a user writes: output order, the transposed operand read with stride s.
    for_each_index<Parallel>(s, [=](std::int64_t i) {
      for (std::int64_t j = 0; j < s; ++j) pc[i * s + j] = pa[j * s + i] + pb[i * s + j];
    });
    benchmark::DoNotOptimize(pc);
    benchmark::ClobberMemory();
  }
  set_counters(state, s * s, 12 * s * s);
}

template <bool Parallel>
void loop_sum_product(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = random_floats(n, 1);
  const auto b = random_floats(n, 2);
  const float* pa = a.data();
  const float* pb = b.data();
  for (auto _ : state) {
    double total = 0.0;
    if constexpr (Parallel) {
#pragma omp parallel for reduction(+ : total)
      for (std::int64_t i = 0; i < n; ++i) total += static_cast<double>(pa[i] * pb[i]);
    } else {
      for (std::int64_t i = 0; i < n; ++i) total += static_cast<double>(pa[i] * pb[i]);
    }
    benchmark::DoNotOptimize(total);
  }
  set_counters(state, n, 8 * n);
}

template <bool Parallel>
void loop_cast(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = random_floats(n, 1);
  std::vector<double> c(static_cast<std::size_t>(n));
  const float* pa = a.data();
  double* pc = c.data();
  for (auto _ : state) {
    for_each_index<Parallel>(
        n, [=](std::int64_t i) { pc[i] = static_cast<double>(pa[i]) * 2.0 + 1.0; });
    benchmark::DoNotOptimize(pc);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

// ---- xtensor (serial: xtensor 0.24 parallelises only with TBB) -------------------------------

xt::xtensor<float, 1> xt_vector(std::int64_t n, unsigned seed) {
  const auto v = random_floats(n, seed);
  return xt::adapt(v, {static_cast<std::size_t>(n)});
}

xt::xtensor<float, 2> xt_matrix(std::int64_t rows, std::int64_t cols, unsigned seed) {
  const auto v = random_floats(rows * cols, seed);
  return xt::adapt(v, {static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)});
}

void xtensor_fused(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = xt_vector(n, 1);
  const auto b = xt_vector(n, 2);
  xt::xtensor<float, 1> c = xt::empty<float>({static_cast<std::size_t>(n)});
  for (auto _ : state) {
    xt::noalias(c) = a * b + 2.0f * a - xt::sqrt(xt::abs(b));
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

void xtensor_broadcast(benchmark::State& state) {
  const std::int64_t rows = state.range(0) / bench::kCols;
  const auto x = xt_matrix(rows, bench::kCols, 1);
  const auto row = xt_vector(bench::kCols, 2);
  xt::xtensor<float, 2> c = xt::empty_like(x);
  for (auto _ : state) {
    xt::noalias(c) = x + row;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, rows * bench::kCols, 8 * rows * bench::kCols);
}

void xtensor_transposed(benchmark::State& state) {
  const std::int64_t s = bench::square_side(state.range(0));
  const auto a = xt_matrix(s, s, 1);
  const auto b = xt_matrix(s, s, 2);
  xt::xtensor<float, 2> c = xt::empty_like(a);
  for (auto _ : state) {
    xt::noalias(c) = xt::transpose(a) + b;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, s * s, 12 * s * s);
}

void xtensor_sum_product(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = xt_vector(n, 1);
  const auto b = xt_vector(n, 2);
  // Accumulates in double, as tessera and the loops do.
  for (auto _ : state) benchmark::DoNotOptimize(xt::sum<double>(a * b)());
  set_counters(state, n, 8 * n);
}

void xtensor_cast(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = xt_vector(n, 1);
  xt::xtensor<double, 1> c = xt::empty<double>({static_cast<std::size_t>(n)});
  for (auto _ : state) {
    xt::noalias(c) = xt::cast<double>(a) * 2.0 + 1.0;
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 12 * n);
}

void register_benchmarks() {
  using bench::register_case;
  register_case("BM_FusedExpr", "tessera", tessera_fused);
  register_case("BM_FusedExpr", "loop_serial", loop_fused<false>);
  register_case("BM_FusedExpr", "loop_omp", loop_fused<true>);
  register_case("BM_FusedExpr", "xtensor", xtensor_fused);
  register_case("BM_Broadcast", "tessera", tessera_broadcast);
  register_case("BM_Broadcast", "loop_serial", loop_broadcast<false>);
  register_case("BM_Broadcast", "loop_omp", loop_broadcast<true>);
  register_case("BM_Broadcast", "xtensor", xtensor_broadcast);
  register_case("BM_Transposed", "tessera", tessera_transposed);
  register_case("BM_Transposed", "loop_serial", loop_transposed<false>);
  register_case("BM_Transposed", "loop_omp", loop_transposed<true>);
  register_case("BM_Transposed", "xtensor", xtensor_transposed);
  register_case("BM_SumProduct", "tessera", tessera_sum_product);
  register_case("BM_SumProduct", "loop_serial", loop_sum_product<false>);
  register_case("BM_SumProduct", "loop_omp", loop_sum_product<true>);
  register_case("BM_SumProduct", "xtensor", xtensor_sum_product);
  register_case("BM_Cast", "tessera", tessera_cast);
  register_case("BM_Cast", "loop_serial", loop_cast<false>);
  register_case("BM_Cast", "loop_omp", loop_cast<true>);
  register_case("BM_Cast", "xtensor", xtensor_cast);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_benchmarks();
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_benchmarks();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
