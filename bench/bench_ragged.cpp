// SPDX-License-Identifier: BSD-3-Clause
// ragged::range<int64_t> on the host vs the bound and the baseline the issue names:
//   fill     std::fill of the same bytes (values + row splits) into memory already mapped, one
//            thread: the write bandwidth one core reaches;
//   fill_omp the same fill split between all cores (OpenMP): the machine's write bandwidth;
//   serial   a plain serial loop (sizes, running offsets, fill) into preallocated memory, as
//            TensorFlow's CPU kernel does (and without paying for any allocation).
// BM_RaggedRange/<peer>/<case>: 0 = 1e6 rows of lengths uniform in [0, 20] (~1e7 values),
// 1 = 10 rows of 1e6 values. BM_RaggedRangeCuda/tessera/<case>: the same on a GPU.
//   build/bench/bench_ragged --benchmark_out=ragged.json && python3 bench/ratios.py ragged.json

#include <benchmark/benchmark.h>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

struct RangeCase {
  std::vector<std::int64_t> starts, limits, deltas;
  std::int64_t total = 0;
  std::int64_t bytes() const { return (total + static_cast<std::int64_t>(starts.size()) + 1) * 8; }
};

RangeCase make_case(std::int64_t which) {
  RangeCase c;
  if (which == 0) {
    std::mt19937_64 gen(6);
    std::uniform_int_distribution<int> length(0, 20);
    for (int i = 0; i < 1'000'000; ++i) {
      const std::int64_t start = length(gen) - 10;
      const std::int64_t n = length(gen);
      c.starts.push_back(start);
      c.limits.push_back(start + n);
      c.deltas.push_back(1);
      c.total += n;
    }
  } else {
    for (int i = 0; i < 10; ++i) {
      c.starts.push_back(i);
      c.limits.push_back(i + 3'000'000);
      c.deltas.push_back(3);
      c.total += 1'000'000;
    }
  }
  return c;
}

const RangeCase& range_case(std::int64_t which) {
  static const RangeCase cases[2] = {make_case(0), make_case(1)};
  return cases[which];
}

void set_counters(benchmark::State& state, const RangeCase& c) {
  state.SetItemsProcessed(state.iterations() * c.total);
  state.SetBytesProcessed(state.iterations() * c.bytes());
}

void tessera_range(benchmark::State& state, ts::Device device) {
  const auto& c = range_case(state.range(0));
  const auto starts = ts::Tensor<std::int64_t>::from_vector(c.starts, device);
  const auto limits = ts::Tensor<std::int64_t>::from_vector(c.limits, device);
  const auto deltas = ts::Tensor<std::int64_t>::from_vector(c.deltas, device);
  for (auto _ : state) {
    auto r = ts::ragged::range<std::int64_t>(starts, limits, deltas);
    if (!device.is_cpu()) ts::synchronize(device);
    benchmark::DoNotOptimize(r.values().data());
  }
  set_counters(state, c);
}

void serial_range(benchmark::State& state) {
  const auto& c = range_case(state.range(0));
  const auto n = static_cast<std::int64_t>(c.starts.size());
  std::vector<std::int64_t> splits(n + 1), values(c.total);
  for (auto _ : state) {
    splits[0] = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t start = c.starts[i], limit = c.limits[i], delta = c.deltas[i];
      std::int64_t size = 0;
      if (!((delta > 0 && limit < start) || (delta < 0 && limit > start))) {
        size = (std::abs(limit - start) + std::abs(delta) - 1) / std::abs(delta);
      }
      splits[i + 1] = splits[i] + size;
    }
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t value = c.starts[i];
      for (std::int64_t k = splits[i]; k < splits[i + 1]; ++k, value += c.deltas[i]) {
        values[k] = value;
      }
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, c);
}

void fill_bound(benchmark::State& state, bool parallel) {
  const auto& c = range_case(state.range(0));
  const std::int64_t words = c.bytes() / 8;
  std::vector<std::int64_t> buffer(words, 1);
  std::int64_t value = 0;
  for (auto _ : state) {
    ++value;
    if (parallel) {
#pragma omp parallel
      {
        const std::int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
        std::fill(buffer.data() + words * t / nt, buffer.data() + words * (t + 1) / nt, value);
      }
    } else {
      std::fill(buffer.begin(), buffer.end(), value);
    }
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, c);
}

template <class F>
void register_cases(const char* name, F fn) {
  for (std::int64_t which = 0; which < 2; ++which) {
    benchmark::RegisterBenchmark(name, fn)->Arg(which)->UseRealTime()->Unit(
        benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_cases("BM_RaggedRange/tessera",
                 [](benchmark::State& s) { tessera_range(s, ts::Device::cpu()); });
  register_cases("BM_RaggedRange/serial", serial_range);
  register_cases("BM_RaggedRange/fill", [](benchmark::State& s) { fill_bound(s, false); });
  register_cases("BM_RaggedRange/fill_omp", [](benchmark::State& s) { fill_bound(s, true); });
  if (ts::cuda_available()) {
    register_cases("BM_RaggedRangeCuda/tessera",
                   [](benchmark::State& s) { tessera_range(s, ts::Device::cuda(0)); });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
