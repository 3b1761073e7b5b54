// Ragged reductions and unsorted segment sums (issue 36) against libtorch 2.15 in the same
// process (bench_ragged_reduce_torch.cpp: torch.segment_reduce for rows, index_add_ and
// scatter_reduce_ for segments) and TensorFlow 2.21 timed from Python (bench/tf_ragged_reduce.py):
//   rr_sum/<peer>, rr_max/<peer>: 1e6 rows of lengths uniform in [0, 20], float32
//   seg_sum/<peer>: 1e7 float32 into 1e5 segments
//   build/bench/bench_ragged_reduce --benchmark_out=rr.json && python3 bench/ratios.py rr.json

#include <benchmark/benchmark.h>

#include <cstdint>

#include "ragged_reduce_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;
namespace rr = bench::ragged_reduce;

namespace {

const ts::RaggedTensor<float>& ragged() {
  static const auto r =
      ts::RaggedTensor<float>::from_row_splits(ts::Tensor<float>::from_vector(rr::values()),
                                               ts::Tensor<std::int64_t>::from_vector(rr::splits()));
  return r;
}

void tessera_rows(benchmark::State& state, bool max) {
  const auto& r = ragged();
  for (auto _ : state) {
    auto out = max ? ts::ragged::reduce_max(r) : ts::ragged::reduce_sum(r);
    benchmark::DoNotOptimize(out.data());
  }
  bench::set_counters(state, r.values().numel(), 4 * (r.values().numel() + rr::kRows));
}

void tessera_segments(benchmark::State& state) {
  const auto data = ts::Tensor<float>::from_vector(rr::segment_data());
  const auto ids = ts::Tensor<std::int64_t>::from_vector(rr::segment_ids());
  for (auto _ : state) {
    auto out = ts::unsorted_segment_sum(data, ids, rr::kSegments);
    benchmark::DoNotOptimize(out.data());
  }
  bench::set_counters(state, rr::kSegmentValues, 12 * rr::kSegmentValues);
}

const bool registered = [] {
  benchmark::RegisterBenchmark("rr_sum/tessera", tessera_rows, false)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("rr_max/tessera", tessera_rows, true)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("seg_sum/tessera", tessera_segments)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
