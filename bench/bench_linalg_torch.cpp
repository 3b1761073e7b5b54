// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_linalg.cpp: the same cases with ATen's CPU kernels, on 2 intra-op
// threads (TESSERA_BENCH_TORCH_THREADS overrides).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "linalg_cases.hpp"

namespace {

using namespace bench::linalg;

int torch_threads() {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  return env != nullptr ? std::atoi(env) : 2;
}

template <class F>
void run(benchmark::State& state, const std::string& name, F call) {
  time_calls(state, [&] { return call().data_ptr(); });
  report_flops(state, name, torch_threads());
}

void torch_case(benchmark::State& state, const std::string& name) {
  at::set_num_threads(torch_threads());
  at::manual_seed(1);
  if (name.rfind("mm_f", 0) == 0) {
    const std::int64_t n = std::stoll(name.substr(7));
    const auto a = at::rand({n, n}), b = at::rand({n, n});
    if (name[5] == '3') return run(state, name, [&] { return at::mm(a, b); });
    const auto da = a.to(at::kDouble), db = b.to(at::kDouble);
    return run(state, name, [&] { return at::mm(da, db); });
  }
  if (name == "matmul_f32_tn_1024") {
    const auto a = at::rand({1024, 1024}), b = at::rand({1024, 1024});
    return run(state, name, [&] { return at::matmul(a.t(), b); });
  }
  if (name == "bmm_f32_10000x8" || name == "einsum_bij_bjk_f32_10000x8") {
    const auto a = at::rand({10000, 8, 8}), b = at::rand({10000, 8, 8});
    if (name[0] == 'b') return run(state, name, [&] { return at::bmm(a, b); });
    return run(state, name, [&] { return at::einsum("bij,bjk->bik", {a, b}); });
  }
  if (name == "mm_i32_512") {
    const auto a = at::randint(0, 10, {512, 512}, at::kInt);
    const auto b = at::randint(0, 10, {512, 512}, at::kInt);
    return run(state, name, [&] { return at::mm(a, b); });
  }
  if (name == "einsum_bij_bjk_f32") {
    const auto a = at::rand({64, 64, 64}), b = at::rand({64, 64, 64});
    return run(state, name, [&] { return at::einsum("bij,bjk->bik", {a, b}); });
  }
  if (name == "cdist_f32_2000x64") {
    const auto a = at::rand({2000, 64}), b = at::rand({2000, 64});
    return run(state, name, [&] { return at::cdist(a, b); });
  }
  state.SkipWithError("no such libtorch case");
}

}  // namespace

/// Called from bench_linalg.cpp's main when the torch peer is built.
void register_torch_linalg() {
  for (const auto& name : names()) {
    register_once(name, "libtorch", [name](benchmark::State& s) { torch_case(s, name); });
  }
}
