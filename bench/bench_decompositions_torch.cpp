// SPDX-License-Identifier: BSD-3-Clause
// libtorch's side of bench_decompositions.cpp, in a process of its own: no tessera and no
// OpenBLAS here, so every LAPACK call is the wheel's MKL and tessera's LAPACKE calls in the
// other binary cannot resolve to it (linalg_cases.hpp). 2 intra-op threads
// (TESSERA_BENCH_TORCH_THREADS overrides); the same inputs' construction as tessera's.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "linalg_cases.hpp"

namespace {

using namespace bench::linalg;

void torch_case(benchmark::State& state, const std::string& name) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  at::manual_seed(1);
  const auto x = at::rand({512, 512}, at::kDouble);
  const auto spd = at::mm(x, x.t()) + 512.0 * at::eye(512, at::kDouble);
  const auto sym = x + x.t();
  const auto b = at::rand({512}, at::kDouble);
  if (name == "solve_f64_512")
    return time_calls(state, [&] { return at::linalg_solve(spd, b).data_ptr(); });
  if (name == "cholesky_f64_512") {
    return time_calls(state, [&] { return at::linalg_cholesky(spd).data_ptr(); });
  }
  if (name == "eigh_f64_512") {
    return time_calls(state, [&] { return std::get<0>(at::linalg_eigh(sym)).data_ptr(); });
  }
  if (name == "svd_f64_512") {
    return time_calls(state, [&] { return std::get<1>(at::linalg_svd(x)).data_ptr(); });
  }
  if (name == "inv_f64_10000x4") {
    const auto small = at::rand({10000, 4, 4}, at::kDouble) + 4.0 * at::eye(4, at::kDouble);
    return time_calls(state, [&] { return at::linalg_inv(small).data_ptr(); });
  }
  state.SkipWithError("no such libtorch case");
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const auto& name : decomposition_names()) {
    register_once(name, "libtorch", [name](benchmark::State& s) { torch_case(s, name); });
  }
  benchmark::AddCustomContext("torch_threads", std::to_string(at::get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
