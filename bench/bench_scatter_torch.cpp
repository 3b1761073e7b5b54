// SPDX-License-Identifier: BSD-3-Clause
// The libtorch peers of bench_scatter.cpp (built only when CMake finds Torch), 2 threads: the
// fastest PyTorch spellings of a scatter-accumulate, each in place like tessera's
// scatter_nd_sub_ (they add; subtracting costs the same), and the copying form.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include "bench_data.hpp"  // names the libtorch version in the JSON context
#include "scatter_cases.hpp"

namespace {

struct TorchInputs {
  at::Tensor tensor;
  at::Tensor indices;  // (rows), int64
  at::Tensor updates;
};

TorchInputs torch_inputs(const bench::ScatterCase& c) {
  auto t = bench::scatter_tensor(c);
  auto i = bench::scatter_indices(c);
  auto u = bench::scatter_updates(c);
  const std::vector<std::int64_t> shape = c.width == 1
                                              ? std::vector<std::int64_t>{c.slices}
                                              : std::vector<std::int64_t>{c.slices, c.width};
  const std::vector<std::int64_t> ushape =
      c.width == 1 ? std::vector<std::int64_t>{c.rows} : std::vector<std::int64_t>{c.rows, c.width};
  return {at::from_blob(t.data(), shape, at::kFloat).clone(),
          at::from_blob(i.data(), {c.rows}, at::kLong).clone(),
          at::from_blob(u.data(), ushape, at::kFloat).clone()};
}

template <class F>
void run(benchmark::State& state, F op) {
  at::set_num_threads(2);
  const auto& c = bench::kScatterCases[state.range(0)];
  auto in = torch_inputs(c);
  for (auto _ : state) {
    op(in, c);
    benchmark::DoNotOptimize(in.tensor.data_ptr());
  }
  bench::set_scatter_counters(state, c);
}

void torch_scatter_add(benchmark::State& state) {
  run(state, [](TorchInputs& in, const bench::ScatterCase& c) {
    // scatter_add_ needs an index of the updates' shape: rows broadcast over the width.
    static at::Tensor index;
    if (!index.defined() || index.size(0) != c.rows) {
      index = c.width == 1 ? in.indices
                           : in.indices.unsqueeze(1).expand({c.rows, c.width}).contiguous();
    }
    in.tensor.scatter_add_(0, index, in.updates);
  });
}

void torch_index_add(benchmark::State& state) {
  run(state, [](TorchInputs& in, const bench::ScatterCase&) {
    in.tensor.index_add_(0, in.indices, in.updates);
  });
}

void torch_index_put(benchmark::State& state) {
  run(state, [](TorchInputs& in, const bench::ScatterCase&) {
    in.tensor.index_put_({in.indices}, in.updates, /*accumulate=*/true);
  });
}

// The copying forms (tessera_copy's peers): clone, then an in-place accumulate; index_add_
// is the fast one for row slices, index_put_ for elements.
void torch_copy_index_put(benchmark::State& state) {
  run(state, [](TorchInputs& in, const bench::ScatterCase&) {
    auto out = in.tensor.clone();
    out.index_put_({in.indices}, in.updates, /*accumulate=*/true);
    benchmark::DoNotOptimize(out.data_ptr());
  });
}

void torch_copy_index_add(benchmark::State& state) {
  run(state, [](TorchInputs& in, const bench::ScatterCase&) {
    auto out = in.tensor.clone();
    out.index_add_(0, in.indices, in.updates);
    benchmark::DoNotOptimize(out.data_ptr());
  });
}

}  // namespace

void register_torch_scatter() {
  bench::register_scatter_cases("BM_Scatter", "torch_scatter_add", torch_scatter_add);
  bench::register_scatter_cases("BM_Scatter", "torch_index_add", torch_index_add);
  bench::register_scatter_cases("BM_Scatter", "torch_index_put", torch_index_put);
  bench::register_scatter_cases("BM_Scatter", "torch_copy_index_put", torch_copy_index_put);
  bench::register_scatter_cases("BM_Scatter", "torch_copy_index_add", torch_copy_index_add);
}
