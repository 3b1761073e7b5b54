// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_random.cpp: the same cases with torch's CPU generator, on 2
// intra-op threads (TESSERA_BENCH_TORCH_THREADS overrides).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "random_cases.hpp"

namespace {

using namespace bench::random;

void torch_case(benchmark::State& state, const std::string& name) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  at::manual_seed(1);
  const auto weights = at::rand({kRows, kCategories});
  for (auto _ : state) {
    if (name == "rand_f32") benchmark::DoNotOptimize(at::rand({kElements}).data_ptr());
    if (name == "randn_f32") benchmark::DoNotOptimize(at::randn({kElements}).data_ptr());
    if (name == "randint_i64") {
      benchmark::DoNotOptimize(at::randint(0, 1000, {kElements}, at::kLong).data_ptr());
    }
    if (name == "zeros_f32") benchmark::DoNotOptimize(at::zeros({kElements}).data_ptr());
    if (name == "randperm") benchmark::DoNotOptimize(at::randperm(kPermutation).data_ptr());
    if (name == "multinomial") {
      benchmark::DoNotOptimize(at::multinomial(weights, kSamples, false).data_ptr());
    }
    benchmark::ClobberMemory();
  }
}

}  // namespace

/// Called from bench_random.cpp's main when the torch peer is built.
void register_torch_random() {
  for (const auto& name : names()) {
    register_once(name, "libtorch", [name](benchmark::State& s) { torch_case(s, name); });
  }
}
