// SPDX-License-Identifier: BSD-3-Clause
// Ragged reductions and unsorted segment sums (issue 36) against libtorch 2.15 in the same
// process (bench_ragged_reduce_torch.cpp: torch.segment_reduce for rows, index_add_ and
// scatter_reduce_ for segments) and TensorFlow 2.21 timed from Python (bench/tf_ragged_reduce.py):
//   rr_sum/<peer>/0, rr_max/<peer>/0: 1e6 rows of lengths uniform in [0, 20], float32
//   seg_sum/<peer>/0: 1e7 float32 into 1e5 segments
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

void tessera_rows(benchmark::State& state, bool max, ts::Device device) {
  const auto r = ragged().to(device);
  for (auto _ : state) {
    auto out = max ? ts::ragged::reduce_max(r) : ts::ragged::reduce_sum(r);
    if (!device.is_cpu()) ts::synchronize(device);
    benchmark::DoNotOptimize(out.data());
  }
  bench::set_counters(state, r.values().numel(), 4 * (r.values().numel() + rr::kRows));
}

void tessera_segments(benchmark::State& state, ts::Device device) {
  const auto data = ts::Tensor<float>::from_vector(rr::segment_data(), device);
  const auto ids = ts::Tensor<std::int64_t>::from_vector(rr::segment_ids(), device);
  for (auto _ : state) {
    auto out = ts::unsorted_segment_sum(data, ids, rr::kSegments);
    if (!device.is_cpu()) ts::synchronize(device);
    benchmark::DoNotOptimize(out.data());
  }
  bench::set_counters(state, rr::kSegmentValues, 12 * rr::kSegmentValues);
}

const bool registered = [] {
  const auto add = [](const char* name, auto fn) {
    benchmark::RegisterBenchmark(name, fn)->UseRealTime()->Unit(benchmark::kMillisecond);
  };
  const ts::Device cpu = ts::Device::cpu();
  add("rr_sum/tessera/0", [cpu](benchmark::State& s) { tessera_rows(s, false, cpu); });
  add("rr_max/tessera/0", [cpu](benchmark::State& s) { tessera_rows(s, true, cpu); });
  add("seg_sum/tessera/0", [cpu](benchmark::State& s) { tessera_segments(s, cpu); });
  if (ts::cuda_available()) {  // the GPU kit's runs (--benchmark_filter=Cuda)
    const ts::Device gpu = ts::Device::cuda(0);
    add("rr_sum_Cuda/tessera/0", [gpu](benchmark::State& s) { tessera_rows(s, false, gpu); });
    add("rr_max_Cuda/tessera/0", [gpu](benchmark::State& s) { tessera_rows(s, true, gpu); });
    add("seg_sum_Cuda/tessera/0", [gpu](benchmark::State& s) { tessera_segments(s, gpu); });
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
