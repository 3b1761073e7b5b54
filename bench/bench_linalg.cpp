// SPDX-License-Identifier: BSD-3-Clause
// Matrix products (issue 46): tessera's product engine against libtorch (bench_linalg_torch.cpp)
// and a direct cblas call on the same OpenBLAS (bench_linalg_cblas.cpp), in one process.
// Inputs are uniform in [0, 1) (integers in [0, 10)), drawn once per case.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <string>

#include "linalg_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_linalg();  // bench_linalg_torch.cpp
#endif
#if defined(TESSERA_BENCH_WITH_CBLAS)
void register_cblas_linalg();  // bench_linalg_cblas.cpp
#endif

namespace {

using namespace bench::linalg;

/// Runs `call` as the case's loop body.
template <class F>
void run(benchmark::State& state, const std::string& name, F call) {
  time_calls(state, [&] { return call().data_ptr(); });
  report_flops(state, name, omp_get_max_threads());
}

void tessera_case(benchmark::State& state, const std::string& name) {
  ts::Generator gen(1);
  if (name.rfind("mm_f", 0) == 0) {
    const std::int64_t n = std::stoll(name.substr(7));
    const auto a = ts::rand<float>({n, n}, gen), b = ts::rand<float>({n, n}, gen);
    if (name[5] == '3') return run(state, name, [&] { return ts::mm(a, b); });
    const auto da = a.cast<double>(), db = b.cast<double>();
    return run(state, name, [&] { return ts::mm(da, db); });
  }
  if (name == "matmul_f32_tn_1024") {
    const auto a = ts::rand<float>({1024, 1024}, gen), b = ts::rand<float>({1024, 1024}, gen);
    return run(state, name, [&] { return ts::matmul(a.t(), b); });
  }
  if (name == "bmm_f32_10000x8" || name == "einsum_bij_bjk_f32_10000x8") {
    const auto a = ts::rand<float>({10000, 8, 8}, gen), b = ts::rand<float>({10000, 8, 8}, gen);
    if (name[0] == 'b') return run(state, name, [&] { return ts::bmm(a, b); });
    return run(state, name, [&] { return ts::einsum("bij,bjk->bik", {a, b}); });
  }
  if (name == "mm_i32_512") {
    const auto a = ts::randint<std::int32_t>(0, 10, {512, 512}, gen);
    const auto b = ts::randint<std::int32_t>(0, 10, {512, 512}, gen);
    return run(state, name, [&] { return ts::mm(a, b); });
  }
  if (name == "einsum_bij_bjk_f32") {
    const auto a = ts::rand<float>({64, 64, 64}, gen), b = ts::rand<float>({64, 64, 64}, gen);
    return run(state, name, [&] { return ts::einsum("bij,bjk->bik", {a, b}); });
  }
  if (name == "cdist_f32_2000x64") {
    const auto a = ts::rand<float>({2000, 64}, gen), b = ts::rand<float>({2000, 64}, gen);
    return run(state, name, [&] { return ts::cdist(a, b); });
  }
  state.SkipWithError("no such tessera case");
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const auto& name : names()) {
    register_once(name, "tessera", [name](benchmark::State& s) { tessera_case(s, name); });
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_linalg();
#endif
#if defined(TESSERA_BENCH_WITH_CBLAS)
  register_cblas_linalg();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::AddCustomContext("fp32_peak_gflops",
                              std::to_string(peak_gflops(32, omp_get_max_threads())));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
