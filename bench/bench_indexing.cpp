// SPDX-License-Identifier: BSD-3-Clause
// Indexing and gathering on float32: tessera against libtorch 2.15 (bench_indexing_torch.cpp,
// when found), on the cases of indexing_cases.hpp: <case>/<peer>/<case index>.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>

#include "indexing_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;
namespace ix = bench::indexing;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_indexing();
#endif

namespace {

void tessera_indexing(benchmark::State& state) {
  const auto c = static_cast<std::size_t>(state.range(0));
  std::int64_t out = 0;
  if (c < 2) {
    const auto x = ts::Tensor<float>::from_vector(ix::half_zero(), {ix::kSide, ix::kSide});
    const ts::Tensor<bool> mask = x != 0.0f;
    for (auto _ : state) {
      auto r = c == 0 ? x.index(x.nonzero(ts::as_tuple)) : x.masked_select(mask);
      out = r.numel();
      benchmark::DoNotOptimize(r.data());
      benchmark::ClobberMemory();
    }
  } else {
    const auto x = ts::Tensor<float>::from_vector(bench::random_floats(ix::kRows * ix::kCols, 1),
                                                  {ix::kRows, ix::kCols});
    const auto rows =
        ts::Tensor<std::int64_t>::from_vector(ix::random_entries(ix::kRows, ix::kRows, 2));
    const auto cols = ts::Tensor<std::int64_t>::from_vector(
        ix::random_entries(ix::kRows * ix::kCols, ix::kCols, 5), {ix::kRows, ix::kCols});
    const auto pairs = ts::Tensor<std::int64_t>::from_vector(ix::pairs(), {ix::kRows, 2});
    for (auto _ : state) {
      ts::Tensor<float> r;
      if (c == 2) r = x.index_select(0, rows);
      if (c == 3) r = x.gather(1, cols);
      if (c == 4) r = x.take_along_dim(cols, 1);
      if (c == 5) r = x.gather_nd(pairs);
      out = r.numel();
      benchmark::DoNotOptimize(r.data());
      benchmark::ClobberMemory();
    }
  }
  ix::set_indexing_counters(state, c, out);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ix::register_cases("tessera", tessera_indexing);
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_indexing();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
