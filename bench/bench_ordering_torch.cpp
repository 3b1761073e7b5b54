// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_ordering.cpp: the same cases as a PyTorch user writes them
// (torch.sort / argsort stable, as tessera always is; topk sorted), on 2 intra-op threads
// (TESSERA_BENCH_TORCH_THREADS overrides).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ordering_cases.hpp"

namespace {

void torch_ordering(benchmark::State& state) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  const auto& c = bench::ordering::cases()[static_cast<std::size_t>(state.range(0))];
  auto values = bench::random_floats(c.rows * c.cols, 1);
  const auto x = at::from_blob(values.data(), bench::ordering::shape_of(c), at::kFloat).clone();
  const std::string op = c.op;
  for (auto _ : state) {
    if (op == "sort") {
      auto r = at::sort(x, /*stable*/ true, /*dim*/ -1, /*descending*/ false);
      benchmark::DoNotOptimize(std::get<0>(r).data_ptr());
    } else if (op == "argsort") {
      auto r = at::argsort(x, /*stable*/ true, /*dim*/ -1, /*descending*/ false);
      benchmark::DoNotOptimize(r.data_ptr());
    } else {
      auto r = at::topk(x, 10);
      benchmark::DoNotOptimize(std::get<0>(r).data_ptr());
    }
    benchmark::ClobberMemory();
  }
  bench::ordering::set_ordering_counters(state, c);
}

}  // namespace

/// Called from bench_ordering.cpp's main when the torch peer is built.
void register_torch_ordering() { bench::ordering::register_cases("libtorch", torch_ordering); }
