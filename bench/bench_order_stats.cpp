// SPDX-License-Identifier: BSD-3-Clause
// quantile, median, softmax and log_softmax on float32: tessera against libtorch 2.15
// (bench_order_stats_torch.cpp, when found), on the cases of order_stats_cases.hpp:
// <op>_<rows>x<cols>/<peer>/<case index>.

#include <benchmark/benchmark.h>

#include <string>

#include "order_stats_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_order_stats();
#endif

namespace {

void tessera_order_stats(benchmark::State& state) {
  const auto& c = bench::order_stats::cases()[static_cast<std::size_t>(state.range(0))];
  const auto shape = bench::order_stats::shape_of(c);
  const auto x = ts::Tensor<float>::from_vector(bench::random_floats(c.rows * c.cols, 1),
                                                ts::Shape(shape.begin(), shape.end()));
  const std::string op = c.op;
  for (auto _ : state) {
    if (op == "quantile") {
      benchmark::DoNotOptimize(ts::quantile(x, 0.9));
    } else if (op == "median") {
      auto r = ts::median(x, 1);
      benchmark::DoNotOptimize(r.values.data());
    } else if (op == "softmax") {
      auto r = ts::softmax(x, 1);
      benchmark::DoNotOptimize(r.data());
    } else {
      auto r = ts::log_softmax(x, 1);
      benchmark::DoNotOptimize(r.data());
    }
    benchmark::ClobberMemory();
  }
  bench::order_stats::set_counters(state, c);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::order_stats::register_cases("tessera", tessera_order_stats);
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_order_stats();
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
