// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_shapes.cpp: the same cases as a PyTorch user writes them, on 2
// intra-op threads (TESSERA_BENCH_TORCH_THREADS overrides).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "shapes_cases.hpp"

namespace {

using bench::shapes::kFeatures;
using bench::shapes::kPoints;
using bench::shapes::kSide;

at::Tensor torch_of(std::vector<float> v, std::vector<std::int64_t> shape) {
  return at::from_blob(v.data(), shape, at::kFloat).clone();
}

void torch_case(benchmark::State& state, const std::string& name) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  const bool pairwise = name == "pairwise_sq";
  const std::int64_t rows = pairwise ? kPoints : kSide;
  const std::int64_t cols = pairwise ? kFeatures : kSide;
  const auto a = torch_of(bench::random_floats(rows * cols, 1), {rows, cols});
  const auto b = torch_of(bench::random_floats(rows * cols, 2), {rows, cols});
  for (auto _ : state) {
    if (name == "flip0") benchmark::DoNotOptimize(a.flip({0}).data_ptr());
    if (name == "flip01") benchmark::DoNotOptimize(a.flip({0, 1}).data_ptr());
    if (name == "roll") benchmark::DoNotOptimize(a.roll({100, -7}, {0, 1}).data_ptr());
    if (name == "repeat") benchmark::DoNotOptimize(a.repeat({2, 1}).data_ptr());
    if (name == "tril") benchmark::DoNotOptimize(a.tril().data_ptr());
    if (name == "sum_flip_mul") benchmark::DoNotOptimize((a.flip({0}) * b).sum().item<float>());
    if (name == "pairwise_sq") {
      const auto d = a.unsqueeze(1) - b.unsqueeze(0);
      benchmark::DoNotOptimize((d * d).sum(-1).data_ptr());
    }
    benchmark::ClobberMemory();
  }
}

}  // namespace

/// Called from bench_shapes.cpp's main when the torch peer is built.
void register_torch_shapes() {
  for (const auto& name : bench::shapes::names()) {
    bench::shapes::register_once(name, "libtorch",
                                 [name](benchmark::State& s) { torch_case(s, name); });
  }
}
