// SPDX-License-Identifier: BSD-3-Clause
// Thread safety: several threads call every operation on the same const tensors at once, and
// each gets the results one thread got alone. Built with -fsanitize=thread by scripts/tsan.sh
// (OMP_NUM_THREADS=1 there, so the only threads are these), and part of the normal suite too.

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using ts::Tensor;

/// Everything one thread computes from the shared inputs, flattened for comparison.
struct Results {
  std::vector<std::int64_t> search, search_sorter, bucket, nonzero, nonzero_static;
  std::int64_t count = 0;
  std::vector<float> scatter, scatter_in_place;
  std::vector<std::int64_t> ragged_values, ragged_splits, from_rowids;
  bool operator==(const Results&) const = default;
};

struct Inputs {
  Tensor<float> seq = Tensor<float>::arange(0, 4000, 1).reshape({4, 1000});
  Tensor<float> values = Tensor<float>(Tensor<float>::arange(0, 800, 1) * 5.0f).reshape({4, 200});
  Tensor<std::int64_t> sorter = Tensor<std::int64_t>::arange(0, 1000, 1);
  Tensor<float> boundaries = ts::tensor<float>({10, 100, 1000, 3000});
  Tensor<float> mask = Tensor<float>(ts::cast<float>(Tensor<float>::arange(0, 5000, 1) > 2500.0f))
                           .reshape({50, 100});
  Tensor<float> tensor = Tensor<float>::zeros({64, 8});
  // Rows 7i mod 64: every row of the tensor is hit several times (duplicates accumulate).
  Tensor<std::int64_t> indices =
      Tensor<std::int64_t>(Tensor<std::int64_t>::arange(0, 256, 1) * std::int64_t{7})
          .reshape({256, 1});
  Tensor<float> updates = Tensor<float>::ones({256, 8});
  Tensor<std::int64_t> limits = Tensor<std::int64_t>::arange(0, 300, 1);
  Tensor<float> ragged_values = Tensor<float>::ones({6});
  Tensor<std::int64_t> rowids = ts::tensor<std::int64_t>({0, 0, 2, 2, 2, 5});
};

Results compute(const Inputs& in) {
  Results r;
  r.search = in.seq.searchsorted(in.values).to_vector();
  ts::SearchSortedOptions with_sorter;
  with_sorter.sorter = in.sorter;
  r.search_sorter =
      in.seq.select(0, 2).searchsorted(in.values.select(0, 1), with_sorter).to_vector();
  r.bucket = in.values.bucketize(in.boundaries, true).to_vector();
  r.nonzero = in.mask.nonzero().to_vector();
  r.nonzero_static = in.mask.nonzero_static(100).to_vector();
  r.count = in.mask.count_nonzero();
  const auto idx = ts::eval(in.indices - (in.indices / 64) * 64);
  r.scatter = in.tensor.tensor_scatter_nd_add(idx, in.updates).to_vector();
  auto own = in.tensor.clone();
  own.scatter_nd_sub_(idx, in.updates,
                      {.out_of_bounds = ts::OutOfBounds::Error, .deterministic = true});
  r.scatter_in_place = own.to_vector();
  const auto ragged = ts::ragged::range<std::int64_t>(in.limits);
  r.ragged_values = ragged.values().to_vector();
  r.ragged_splits = ragged.row_splits().to_vector();
  r.from_rowids = ts::RaggedTensor<float>::from_value_rowids(in.ragged_values, in.rowids)
                      .row_splits()
                      .to_vector();
  return r;
}

TEST(ConcurrentReads, SameConstTensorsFromEightThreadsGiveIdenticalResults) {
  const Inputs inputs;
  const Results alone = compute(inputs);
  ASSERT_EQ(alone.count, 2499);
  constexpr int kThreads = 8;
  constexpr int kRounds = 3;
  std::vector<Results> got(kThreads * kRounds);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kRounds; ++k) got[t * kRounds + k] = compute(inputs);
    });
  }
  for (auto& th : threads) th.join();
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(got[i] == alone) << "thread result " << i;
  // Nothing wrote into the shared inputs.
  EXPECT_TRUE(compute(inputs) == alone);
  EXPECT_EQ(inputs.tensor.to_vector(), std::vector<float>(64 * 8, 0.0f));
}

}  // namespace
