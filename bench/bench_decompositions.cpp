// SPDX-License-Identifier: BSD-3-Clause
// Decompositions (issue 46) on tessera: LAPACKE on OpenBLAS. libtorch's side is
// bench_decompositions_torch, a process of its own (linalg_cases.hpp says why); compare the two
// JSON outputs with bench/ratios.py. Inputs: X uniform in [0, 1); symmetric positive definite
// A = X Xᵀ + n I for solve and cholesky, A = X + Xᵀ for eigh, X for svd.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>

#include "linalg_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

using namespace bench::linalg;

void tessera_case(benchmark::State& state, const std::string& name) {
  ts::Generator gen(1);
  const auto x = ts::rand<double>({512, 512}, gen);
  const ts::Tensor<double> spd = ts::mm(x, x.t()) + 512.0 * ts::Tensor<double>::eye(512);
  const ts::Tensor<double> sym = x + x.t();
  const auto b = ts::rand<double>({512}, gen);
  if (name == "solve_f64_512") {
    return time_calls(state, [&] { return ts::linalg::solve(spd, b).data_ptr(); });
  }
  if (name == "cholesky_f64_512") {
    return time_calls(state, [&] { return ts::linalg::cholesky(spd).data_ptr(); });
  }
  if (name == "eigh_f64_512") {
    return time_calls(state, [&] { return ts::linalg::eigh(sym).eigenvalues.data_ptr(); });
  }
  if (name == "svd_f64_512") {
    return time_calls(state, [&] { return ts::linalg::svd(x).S.data_ptr(); });
  }
  if (name == "inv_f64_10000x4") {
    const ts::Tensor<double> small =
        ts::rand<double>({10000, 4, 4}, gen) + 4.0 * ts::Tensor<double>::eye(4);
    return time_calls(state, [&] { return ts::linalg::inv(small).data_ptr(); });
  }
  state.SkipWithError("no such tessera case");
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const auto& name : decomposition_names()) {
    register_once(name, "tessera", [name](benchmark::State& s) { tessera_case(s, name); });
  }
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
