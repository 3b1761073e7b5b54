// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_indexing.cpp: the same cases as a PyTorch user writes them
// (x[x.nonzero(as_tuple=True)], torch.masked_select, index_select, gather, take_along_dim,
// x[idx[:, 0], idx[:, 1]] for gather_nd), on 2 intra-op threads (TESSERA_BENCH_TORCH_THREADS
// overrides).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "indexing_cases.hpp"

namespace ix = bench::indexing;

namespace {

at::Tensor long_tensor(std::vector<std::int64_t> v, std::vector<std::int64_t> shape) {
  return at::from_blob(v.data(), shape, at::kLong).clone();
}

void torch_indexing(benchmark::State& state) {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
  const auto c = static_cast<std::size_t>(state.range(0));
  std::int64_t out = 0;
  if (c < 2) {
    auto v = ix::half_zero();
    const auto x = at::from_blob(v.data(), {ix::kSide, ix::kSide}, at::kFloat).clone();
    const auto mask = x != 0;
    for (auto _ : state) {
      at::Tensor r;
      if (c == 0) {
        const auto nz = at::nonzero_numpy(x);
        r = x.index(c10::List<c10::optional<at::Tensor>>(
            std::vector<c10::optional<at::Tensor>>(nz.begin(), nz.end())));
      } else {
        r = at::masked_select(x, mask);
      }
      out = r.numel();
      benchmark::DoNotOptimize(r.data_ptr());
      benchmark::ClobberMemory();
    }
  } else {
    auto v = bench::random_floats(ix::kRows * ix::kCols, 1);
    const auto x = at::from_blob(v.data(), {ix::kRows, ix::kCols}, at::kFloat).clone();
    const auto rows = long_tensor(ix::random_entries(ix::kRows, ix::kRows, 2), {ix::kRows});
    const auto cols = long_tensor(ix::random_entries(ix::kRows * ix::kCols, ix::kCols, 5),
                                  {ix::kRows, ix::kCols});
    const auto pairs = long_tensor(ix::pairs(), {ix::kRows, 2});
    for (auto _ : state) {
      at::Tensor r;
      if (c == 2) r = at::index_select(x, 0, rows);
      if (c == 3) r = at::gather(x, 1, cols);
      if (c == 4) r = at::take_along_dim(x, cols, 1);
      if (c == 5) {
        r = x.index(c10::List<c10::optional<at::Tensor>>(
            std::vector<c10::optional<at::Tensor>>{pairs.select(1, 0), pairs.select(1, 1)}));
      }
      out = r.numel();
      benchmark::DoNotOptimize(r.data_ptr());
      benchmark::ClobberMemory();
    }
  }
  ix::set_indexing_counters(state, c, out);
}

}  // namespace

/// Called from bench_indexing.cpp's main when the torch peer is built.
void register_torch_indexing() { ix::register_cases("libtorch", torch_indexing); }
