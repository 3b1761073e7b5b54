// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file linalg_cases.hpp
/// The cases of bench_linalg and bench_decompositions (issue 46), shared by every peer. Names
/// read "<case>/<peer>".
///
/// Products (bench_linalg: tessera, libtorch and a direct cblas call on the library's OpenBLAS,
/// one process; GFLOPS and the fraction of FP32 or FP64 peak as counters):
/// - mm_f32_N, mm_f64_N (N = 256, 1024, 2048): one N x N product;
/// - matmul_f32_tn_1024: a transposed left operand (read in place with a flag), against
///   mm_f32_1024;
/// - bmm_f32_10000x8 and einsum_bij_bjk_f32_10000x8: 10000 products of 8 x 8;
/// - mm_i32_512: an integer product (the library's own kernel; libtorch's CPU kernel);
/// - einsum_bij_bjk_f32: "bij,bjk->bik", 64 x (64 x 64)(64 x 64);
/// - cdist_f32_2000x64: cdist of 2000 x 64 by 2000 x 64 (p = 2, the product form).
///
/// Decompositions of 512 x 512 float64 (bench_decompositions, libtorch in a process of its
/// own: the libtorch wheel exports MKL's Fortran LAPACK symbols, dpotrf_, dsyevd_, dgesdd_, ...,
/// and in one process with it LAPACKE's calls would resolve to MKL): solve_f64_512 (one right-
/// hand side), cholesky_f64_512, eigh_f64_512, svd_f64_512; inv_f64_10000x4 (10000 of 4 x 4).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::linalg {

/// Product case names, in registration order.
inline const std::vector<std::string>& names() {
  static const std::vector<std::string> s = {
      "mm_f32_256",         "mm_f32_1024",        "mm_f32_2048",
      "mm_f64_256",         "mm_f64_1024",        "mm_f64_2048",
      "matmul_f32_tn_1024", "bmm_f32_10000x8",    "einsum_bij_bjk_f32_10000x8",
      "mm_i32_512",         "einsum_bij_bjk_f32", "cdist_f32_2000x64"};
  return s;
}

/// Decomposition case names.
inline const std::vector<std::string>& decomposition_names() {
  static const std::vector<std::string> s = {"solve_f64_512", "cholesky_f64_512", "eigh_f64_512",
                                             "svd_f64_512", "inv_f64_10000x4"};
  return s;
}

/// Floating-point operations of one call of a product case (0 where not a plain GEMM count).
inline double flops(const std::string& name) {
  if (name.rfind("mm_f", 0) == 0) {  // mm_f32_N, mm_f64_N
    const auto n = static_cast<double>(std::stoll(name.substr(7)));
    return 2.0 * n * n * n;
  }
  if (name == "matmul_f32_tn_1024") return 2.0 * 1024.0 * 1024.0 * 1024.0;
  if (name == "bmm_f32_10000x8" || name == "einsum_bij_bjk_f32_10000x8") {
    return 2.0 * 10000.0 * 8 * 8 * 8;
  }
  return 0.0;
}

/// This machine's peak GFLOPS for `bits`-bit floats, as the issue defines it: cores x 2 FMA
/// units x lanes of a 512-bit vector x 2 flops x the clock /proc/cpuinfo reports (the first
/// "cpu MHz"); `cores` = the threads the benchmark uses.
inline double peak_gflops(int bits, int cores) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  double mhz = 0.0;
  while (std::getline(in, line)) {
    if (line.rfind("cpu MHz", 0) == 0) {
      mhz = std::stod(line.substr(line.find(':') + 1));
      break;
    }
  }
  return cores * 2.0 * (512.0 / bits) * 2.0 * mhz / 1000.0;
}

/// Times `call()` (it returns a pointer into its result, kept from the optimiser) as the case's
/// loop body.
template <class F>
void time_calls(benchmark::State& state, F call) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(call());
    benchmark::ClobberMemory();
  }
}

/// Sets the GFLOPS and peak-fraction counters of a product case.
inline void report_flops(benchmark::State& state, const std::string& name, int cores) {
  const double f = flops(name);
  if (f <= 0.0) return;
  const int bits = name.find("f64") != std::string::npos ? 64 : 32;
  state.counters["GFLOPS"] =
      benchmark::Counter(f * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["peak"] = benchmark::Counter(f * 1e-9 / peak_gflops(bits, cores),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

using bench::register_once;

}  // namespace bench::linalg
