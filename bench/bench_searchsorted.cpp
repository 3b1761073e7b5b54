// SPDX-License-Identifier: BSD-3-Clause
// searchsorted and bucketize on float32: tessera vs a serial std::lower_bound loop (the floor)
// and libtorch (bench_searchsorted_torch.cpp, when found), on the cases of search_cases.hpp.
// BM_Searchsorted/<peer>/<case index>: 0 N=1e3 M=1e7, 1 N=1e6 M=1e7, 2 N=1e6 M=1e7 sorted
// values, 3 batched 1000 rows of 1000 with 1000 rows of 1e4 values. BM_Bucketize/<peer>/0:
// 1e3 boundaries, 1e7 inputs. BM_SearchsortedCuda/tessera/<case>: the same cases on a GPU.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "search_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

ts::Shape sequence_shape(const bench::SearchCase& c) {
  return c.rows == 1 ? ts::Shape{c.length} : ts::Shape{c.rows, c.length};
}
ts::Shape values_shape(const bench::SearchCase& c) {
  return c.rows == 1 ? ts::Shape{c.values} : ts::Shape{c.rows, c.values};
}

void tessera_searchsorted(benchmark::State& state) {
  const auto& c = bench::kSearchCases[state.range(0)];
  const auto seq = ts::Tensor<float>::from_vector(bench::sorted_sequence(c), sequence_shape(c));
  const auto values = ts::Tensor<float>::from_vector(bench::search_values(c), values_shape(c));
  for (auto _ : state) {
    auto idx = seq.searchsorted(values);
    benchmark::DoNotOptimize(idx.data());
  }
  bench::set_search_counters(state, c);
}

// The CUDA path (registered only where a GPU is usable): inputs on the GPU, the clock stops
// once the queued search has finished.
void tessera_searchsorted_cuda(benchmark::State& state) {
  const auto& c = bench::kSearchCases[state.range(0)];
  const auto gpu = ts::Device::cuda();
  const auto seq =
      ts::Tensor<float>::from_vector(bench::sorted_sequence(c), sequence_shape(c)).to(gpu);
  const auto values =
      ts::Tensor<float>::from_vector(bench::search_values(c), values_shape(c)).to(gpu);
  for (auto _ : state) {
    auto idx = seq.searchsorted(values);
    ts::synchronize(gpu);
    benchmark::DoNotOptimize(idx.data());
  }
  bench::set_search_counters(state, c);
}

void serial_searchsorted(benchmark::State& state) {
  const auto& c = bench::kSearchCases[state.range(0)];
  const auto seq = bench::sorted_sequence(c);
  const auto values = bench::search_values(c);
  for (auto _ : state) {
    std::vector<std::int64_t> idx(values.size());
    for (std::int64_t r = 0; r < c.rows; ++r) {
      const float* row = seq.data() + r * c.length;
      for (std::int64_t i = r * c.values; i < (r + 1) * c.values; ++i) {
        idx[static_cast<std::size_t>(i)] =
            std::lower_bound(row, row + c.length, values[static_cast<std::size_t>(i)]) - row;
      }
    }
    benchmark::DoNotOptimize(idx.data());
  }
  bench::set_search_counters(state, c);
}

void tessera_bucketize(benchmark::State& state) {
  const auto& c = bench::kBucketizeCase;
  const auto boundaries = ts::Tensor<float>::from_vector(bench::sorted_sequence(c), {c.length});
  const auto x = ts::Tensor<float>::from_vector(bench::search_values(c), {c.values});
  for (auto _ : state) {
    auto idx = x.bucketize(boundaries);
    benchmark::DoNotOptimize(idx.data());
  }
  bench::set_search_counters(state, c);
}

void tessera_bucketize_sweep(benchmark::State& state) {
  const auto c = bench::bucketize_sweep_case(state.range(0));
  const auto boundaries = ts::Tensor<float>::from_vector(bench::sorted_sequence(c), {c.length});
  const auto x = ts::Tensor<float>::from_vector(bench::search_values(c), {c.values});
  for (auto _ : state) {
    auto idx = x.bucketize(boundaries);
    benchmark::DoNotOptimize(idx.data());
  }
  bench::set_search_counters(state, c);
}

}  // namespace

int main(int argc, char** argv) {
  bench::register_search_cases("BM_Searchsorted", "tessera", tessera_searchsorted);
  bench::register_search_cases("BM_Searchsorted", "serial", serial_searchsorted);
  benchmark::RegisterBenchmark("BM_Bucketize/tessera", tessera_bucketize)
      ->Arg(0)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  bench::register_bucketize_sweep("BM_BucketizeSweep", "tessera", tessera_bucketize_sweep);
  if (ts::cuda_available()) {
    bench::register_search_cases("BM_SearchsortedCuda", "tessera", tessera_searchsorted_cuda);
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  void register_torch_searchsorted();
  register_torch_searchsorted();
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
