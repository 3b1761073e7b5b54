// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peer of bench_ragged_reduce.cpp on 2 intra-op threads
// (TESSERA_BENCH_TORCH_THREADS overrides): torch.segment_reduce(data, "sum" / "max",
// lengths=...) for the rows; for the segments index_add_ and scatter_reduce_ into the zeros they
// need (the fastest of the two is the peer the issue names).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "ragged_reduce_cases.hpp"

namespace rr = bench::ragged_reduce;

namespace {

void set_torch_threads() {
  const char* env = std::getenv("TESSERA_BENCH_TORCH_THREADS");
  at::set_num_threads(env != nullptr ? std::atoi(env) : 2);
}

template <class T>
at::Tensor torch_of(const std::vector<T>& v, at::ScalarType type) {
  return at::from_blob(const_cast<T*>(v.data()), {static_cast<std::int64_t>(v.size())}, type)
      .clone();
}

void torch_rows(benchmark::State& state, bool max) {
  set_torch_threads();
  const auto data = torch_of(rr::values(), at::kFloat);
  const auto lengths = torch_of(rr::lengths(), at::kLong);
  for (auto _ : state) {
    auto out = at::segment_reduce(data, max ? "max" : "sum", lengths);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  bench::set_counters(state, data.numel(), 4 * (data.numel() + rr::kRows));
}

void torch_segments(benchmark::State& state, bool index_add) {
  set_torch_threads();
  const auto data = torch_of(rr::segment_data(), at::kFloat);
  const auto ids = torch_of(rr::segment_ids(), at::kLong);
  for (auto _ : state) {
    auto out = at::zeros({rr::kSegments}, at::kFloat);
    if (index_add) {
      out.index_add_(0, ids, data);
    } else {
      out.scatter_reduce_(0, ids, data, "sum");
    }
    benchmark::DoNotOptimize(out.data_ptr());
  }
  bench::set_counters(state, rr::kSegmentValues, 12 * rr::kSegmentValues);
}

const bool registered = [] {
  benchmark::RegisterBenchmark("rr_sum/libtorch_segment_reduce/0", torch_rows, false)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("rr_max/libtorch_segment_reduce/0", torch_rows, true)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("seg_sum/libtorch_index_add/0", torch_segments, true)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("seg_sum/libtorch_scatter_reduce/0", torch_segments, false)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
