// SPDX-License-Identifier: BSD-3-Clause
// tensor_scatter_nd_sub on float32: tessera (in place and copying) vs a serial loop
// (TensorFlow's CPU algorithm), a memcpy of the updates (the floor of the unique-sorted case)
// and libtorch (bench_scatter_torch.cpp, when found), on the cases of scatter_cases.hpp.
// BM_Scatter/<peer>/<case>: 0 = 1e7 element updates into 1e6, 1 = 1e5 random rows of 64,
// 2 = 1e5 unique sorted rows of 64. BM_ScatterCuda/tessera[_deterministic]/<case> on a GPU.
// BM_ScatterReuse/<peer>/0: zeros(2^24).tensor_scatter_nd_add of 1e6 updates, the zeros a
// temporary whose memory the result takes over (tessera) or held by a second handle, so that
// the scatter copies it (tessera_copy); counter peak_tensors: the peak tessera memory of one
// call (zeros included) beyond what existed before, in tensors of 2^24 floats.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "scatter_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

struct Inputs {
  ts::Tensor<float> tensor;
  ts::Tensor<std::int64_t> indices;
  ts::Tensor<float> updates;
};

Inputs inputs(const bench::ScatterCase& c, ts::Device device = ts::Device::cpu()) {
  const ts::Shape shape = c.width == 1 ? ts::Shape{c.slices} : ts::Shape{c.slices, c.width};
  const ts::Shape ushape = c.width == 1 ? ts::Shape{c.rows} : ts::Shape{c.rows, c.width};
  return {ts::Tensor<float>::from_vector(bench::scatter_tensor(c), shape).to(device),
          ts::Tensor<std::int64_t>::from_vector(bench::scatter_indices(c), {c.rows, 1}).to(device),
          ts::Tensor<float>::from_vector(bench::scatter_updates(c), ushape).to(device)};
}

// In place: checks every index, then scatters (deterministic, TensorFlow's bits).
void tessera_in_place(benchmark::State& state) {
  const auto& c = bench::kScatterCases[state.range(0)];
  auto in = inputs(c);
  for (auto _ : state) {
    in.tensor.scatter_nd_sub_(in.indices, in.updates);
    benchmark::DoNotOptimize(in.tensor.data());
  }
  bench::set_scatter_counters(state, c);
}

// The copying form (TensorFlow's tensor_scatter_nd_sub): copy, check and scatter in one pass.
void tessera_copy(benchmark::State& state) {
  const auto& c = bench::kScatterCases[state.range(0)];
  const auto in = inputs(c);
  for (auto _ : state) {
    auto out = in.tensor.tensor_scatter_nd_sub(in.indices, in.updates);
    benchmark::DoNotOptimize(out.data());
  }
  bench::set_scatter_counters(state, c);
}

void serial_loop(benchmark::State& state) {
  const auto& c = bench::kScatterCases[state.range(0)];
  auto tensor = bench::scatter_tensor(c);
  const auto indices = bench::scatter_indices(c);
  const auto updates = bench::scatter_updates(c);
  for (auto _ : state) {
    for (std::int64_t i = 0; i < c.rows; ++i) {
      const std::int64_t at = indices[static_cast<std::size_t>(i)];
      if (at < 0 || at >= c.slices) state.SkipWithError("bad index");
      float* dst = tensor.data() + at * c.width;
      const float* src = updates.data() + i * c.width;
      for (std::int64_t j = 0; j < c.width; ++j) dst[j] -= src[j];
    }
    benchmark::DoNotOptimize(tensor.data());
  }
  bench::set_scatter_counters(state, c);
}

void memcpy_updates(benchmark::State& state) {
  const auto& c = bench::kScatterCases[state.range(0)];
  const auto updates = bench::scatter_updates(c);
  std::vector<float> out(updates.size());
  for (auto _ : state) {
    std::memcpy(out.data(), updates.data(), updates.size() * sizeof(float));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bench::set_scatter_counters(state, c);
}

void tessera_cuda(benchmark::State& state, bool deterministic) {
  const auto& c = bench::kScatterCases[state.range(0)];
  const auto gpu = ts::Device::cuda();
  auto in = inputs(c, gpu);
  for (auto _ : state) {
    in.tensor.scatter_nd_sub_(in.indices, in.updates, {.deterministic = deterministic});
    ts::synchronize(gpu);
  }
  bench::set_scatter_counters(state, c);
}

/// zeros(2^24).tensor_scatter_nd_add(indices, updates): `reuse` on the temporary itself, else
/// through a second handle (the copying form). Peak memory from one call outside the loop.
void tessera_reuse(benchmark::State& state, bool reuse) {
  const auto indices =
      ts::Tensor<std::int64_t>::from_vector(bench::reuse_indices(), {bench::kReuseRows, 1});
  const auto updates = ts::Tensor<float>::from_vector(bench::random_floats(bench::kReuseRows, 7));
  const auto run = [&] {
    if (reuse) {
      return ts::Tensor<float>::zeros({bench::kReuseSize}).tensor_scatter_nd_add(indices, updates);
    }
    const auto zeros = ts::Tensor<float>::zeros({bench::kReuseSize});
    return zeros.tensor_scatter_nd_add(indices, updates);
  };
  const auto cpu = ts::Device::cpu();
  ts::reset_peak_memory_stats(cpu);
  const auto before = ts::memory_stats(cpu).current_bytes;
  (void)run();
  const double extra = static_cast<double>(ts::memory_stats(cpu).peak_bytes - before);
  state.counters["peak_tensors"] = extra / (static_cast<double>(bench::kReuseSize) * sizeof(float));
  for (auto _ : state) {
    auto out = run();
    benchmark::DoNotOptimize(out.data());
  }
  bench::set_counters(state, bench::kReuseRows, bench::kReuseRows * (4 + 8 + 4));
}

}  // namespace

int main(int argc, char** argv) {
  bench::register_scatter_cases("BM_Scatter", "tessera", tessera_in_place);
  bench::register_scatter_cases("BM_Scatter", "tessera_copy", tessera_copy);
  bench::register_scatter_cases("BM_Scatter", "serial", serial_loop);
  bench::register_scatter_cases("BM_Scatter", "memcpy", memcpy_updates);
  for (const bool reuse : {true, false}) {
    benchmark::RegisterBenchmark(reuse ? "BM_ScatterReuse/tessera" : "BM_ScatterReuse/tessera_copy",
                                 [reuse](benchmark::State& s) { tessera_reuse(s, reuse); })
        ->Arg(0)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  if (ts::cuda_available()) {
    bench::register_scatter_cases("BM_ScatterCuda", "tessera",
                                  [](benchmark::State& s) { tessera_cuda(s, false); });
    bench::register_scatter_cases("BM_ScatterCuda", "tessera_deterministic",
                                  [](benchmark::State& s) { tessera_cuda(s, true); });
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  void register_torch_scatter();
  register_torch_scatter();
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
