// SPDX-License-Identifier: BSD-3-Clause
// The direct-BLAS peer of bench_linalg.cpp: cblas_sgemm / cblas_dgemm on the OpenBLAS the
// library links, into a buffer allocated once, so that tessera's time over it is the product
// engine's own overhead (shapes, the output's allocation, dispatch).

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "linalg_cases.hpp"

namespace {

using namespace bench::linalg;

template <class T>
void gemm_case(benchmark::State& state, const std::string& name, std::int64_t n, bool trans_a) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<T> u(0, 1);
  std::vector<T> a(static_cast<std::size_t>(n * n)), b(a.size()), c(a.size());
  for (auto& v : a) v = u(rng);
  for (auto& v : b) v = u(rng);
  const auto ta = trans_a ? CblasTrans : CblasNoTrans;
  const auto m = static_cast<blasint>(n);
  for (auto _ : state) {
    if constexpr (sizeof(T) == 4) {
      cblas_sgemm(CblasRowMajor, ta, CblasNoTrans, m, m, m, 1.0f, a.data(), m, b.data(), m, 0.0f,
                  c.data(), m);
    } else {
      cblas_dgemm(CblasRowMajor, ta, CblasNoTrans, m, m, m, 1.0, a.data(), m, b.data(), m, 0.0,
                  c.data(), m);
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  report_flops(state, name, omp_get_max_threads());
}

}  // namespace

/// Called from bench_linalg.cpp's main when OpenBLAS's cblas.h is found.
void register_cblas_linalg() {
  for (const auto& name : names()) {
    if (name.rfind("mm_f", 0) == 0) {
      const std::int64_t n = std::stoll(name.substr(7));
      if (name[5] == '3') {
        register_once(name, "cblas",
                      [name, n](benchmark::State& s) { gemm_case<float>(s, name, n, false); });
      } else {
        register_once(name, "cblas",
                      [name, n](benchmark::State& s) { gemm_case<double>(s, name, n, false); });
      }
    }
    if (name == "matmul_f32_tn_1024") {
      register_once(name, "cblas",
                    [name](benchmark::State& s) { gemm_case<float>(s, name, 1024, true); });
    }
  }
}
