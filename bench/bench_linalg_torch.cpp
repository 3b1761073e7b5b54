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

void torch_case(benchmark::State& state, const std::string& name) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  at::manual_seed(1);
  const auto a512 = at::rand({512, 512}), b512 = at::rand({512, 512});
  const auto d512 = a512.to(at::kDouble), e512 = b512.to(at::kDouble);
  const auto small_a = at::rand({4096, 8, 8}), small_b = at::rand({4096, 8, 8});
  const auto tall = at::rand({256, 1024}), wide = at::rand({256, 256});
  const auto ia = at::randint(0, 10, {256, 256}, at::kInt);
  const auto ib = at::randint(0, 10, {256, 256}, at::kInt);
  const auto ea = at::rand({64, 64, 64}), eb = at::rand({64, 64, 64});
  const auto pa = at::rand({2000, 64}), pb = at::rand({2000, 64});
  for (auto _ : state) {
    if (name == "mm_f32_512") benchmark::DoNotOptimize(at::mm(a512, b512).data_ptr());
    if (name == "mm_f64_512") benchmark::DoNotOptimize(at::mm(d512, e512).data_ptr());
    if (name == "bmm_f32_4096x8") benchmark::DoNotOptimize(at::bmm(small_a, small_b).data_ptr());
    if (name == "matmul_f32_tn_1024x256") {
      benchmark::DoNotOptimize(at::matmul(tall.t(), wide).data_ptr());
    }
    if (name == "mm_i32_256") benchmark::DoNotOptimize(at::mm(ia, ib).data_ptr());
    if (name == "einsum_bij_bjk_f32") {
      benchmark::DoNotOptimize(at::einsum("bij,bjk->bik", {ea, eb}).data_ptr());
    }
    if (name == "cdist_f32_2000x64") benchmark::DoNotOptimize(at::cdist(pa, pb).data_ptr());
    benchmark::ClobberMemory();
  }
}

}  // namespace

/// Called from bench_linalg.cpp's main when the torch peer is built.
void register_torch_linalg() {
  for (const auto& name : names()) {
    register_once(name, "libtorch", [name](benchmark::State& s) { torch_case(s, name); });
  }
}
