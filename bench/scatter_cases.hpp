// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_cases.hpp
/// The tensor_scatter_nd cases every peer runs, on the same data:
/// 0 elements: 1e7 random int64 indices (many duplicates) into a 1e6 float32 tensor;
/// 1 rows: 1e5 random row indices, updates of width 64, into a (1e5, 64) float32 tensor;
/// 2 rows, unique and sorted (0, 1, ..., 1e5 - 1).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench {

struct ScatterCase {
  std::int64_t rows;    ///< index rows (updates)
  std::int64_t slices;  ///< first extent of the tensor
  std::int64_t width;   ///< slice width (1: element updates)
  bool unique_sorted;
};

inline constexpr ScatterCase kScatterCases[] = {
    {10'000'000, 1'000'000, 1, false},
    {100'000, 100'000, 64, false},
    {100'000, 100'000, 64, true},
};

inline std::vector<std::int64_t> scatter_indices(const ScatterCase& c) {
  std::vector<std::int64_t> idx(static_cast<std::size_t>(c.rows));
  if (c.unique_sorted) {
    std::iota(idx.begin(), idx.end(), std::int64_t{0});
    return idx;
  }
  std::mt19937_64 gen(42);
  std::uniform_int_distribution<std::int64_t> dist(0, c.slices - 1);
  for (auto& i : idx) i = dist(gen);
  return idx;
}

inline std::vector<float> scatter_updates(const ScatterCase& c) {
  return random_floats(c.rows * c.width, 7);
}

inline std::vector<float> scatter_tensor(const ScatterCase& c) {
  return random_floats(c.slices * c.width, 9);
}

/// The reuse case (issue 35): 1e6 element updates (random, duplicates included) added into
/// a fresh float32 tensor of 2^24 zeros, as a histogram is built.
inline constexpr std::int64_t kReuseSize = std::int64_t{1} << 24;
inline constexpr std::int64_t kReuseRows = 1'000'000;

inline std::vector<std::int64_t> reuse_indices() {
  std::mt19937_64 gen(42);
  std::uniform_int_distribution<std::int64_t> dist(0, kReuseSize - 1);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(kReuseRows));
  for (auto& i : idx) i = dist(gen);
  return idx;
}

/// items = update elements; bytes = updates + indices read once, touched elements written.
inline void set_scatter_counters(benchmark::State& state, const ScatterCase& c) {
  set_counters(state, c.rows * c.width, c.rows * c.width * 4 + c.rows * 8 + c.rows * c.width * 4);
}

/// Registers `fn` as "<family>/<peer>/<case>" for every case.
template <class F>
void register_scatter_cases(const char* family, const char* peer, F fn) {
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(std::size(kScatterCases)); ++i) {
    const std::string name = std::string(family) + "/" + peer;
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(i)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace bench
