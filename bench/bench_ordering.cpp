// SPDX-License-Identifier: BSD-3-Clause
// sort, argsort and topk(10) on float32: tessera against libtorch 2.15
// (bench_ordering_torch.cpp, when found), on the cases of ordering_cases.hpp:
// <op>_<rows>x<cols>/<peer>/<case index>.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>

#include "ordering_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_ordering();
#endif

namespace {

void tessera_ordering(benchmark::State& state) {
  const auto& c = bench::ordering::cases()[static_cast<std::size_t>(state.range(0))];
  const auto shape = bench::ordering::shape_of(c);
  const auto x = ts::Tensor<float>::from_vector(bench::random_floats(c.rows * c.cols, 1),
                                                ts::Shape(shape.begin(), shape.end()));
  const std::string op = c.op;
  for (auto _ : state) {
    if (op == "sort") {
      auto r = x.sort();
      benchmark::DoNotOptimize(r.values.data());
    } else if (op == "argsort") {
      auto r = x.argsort();
      benchmark::DoNotOptimize(r.data());
    } else {
      auto r = x.topk(10);
      benchmark::DoNotOptimize(r.values.data());
    }
    benchmark::ClobberMemory();
  }
  bench::ordering::set_ordering_counters(state, c);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::ordering::register_cases("tessera", tessera_ordering);
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_ordering();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
