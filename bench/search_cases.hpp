// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file search_cases.hpp
/// The searchsorted/bucketize benchmark cases, shared by every peer so all of them see the same
/// data: float32 uniform in [0, 1), sequences sorted, fixed seeds. The benchmark argument picks
/// the case; names read "<family>/<peer>/<case index>".

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace bench {

struct SearchCase {
  const char* name;
  std::int64_t rows;    ///< sequence rows (1: a 1-d sequence)
  std::int64_t length;  ///< sequence elements per row
  std::int64_t values;  ///< values per row (all values when rows == 1)
  bool sorted_values;   ///< values sorted ascending (per row)
};

/// The cases: N=1e3 / 1e6 sequences with 1e7 values, 1e7 sorted values, batched rows.
inline constexpr SearchCase kSearchCases[] = {
    {"N1e3_M1e7", 1, 1'000, 10'000'000, false},
    {"N1e6_M1e7", 1, 1'000'000, 10'000'000, false},
    {"N1e6_M1e7_sorted", 1, 1'000'000, 10'000'000, true},
    {"batched_1000x1000_1000x1e4", 1'000, 1'000, 10'000, false},
};
/// bucketize: 1e3 boundaries, 1e7 inputs.
inline constexpr SearchCase kBucketizeCase = {"N1e3_M1e7", 1, 1'000, 10'000'000, false};

/// rows x length sorted floats (each row sorted).
inline std::vector<float> sorted_sequence(const SearchCase& c, unsigned seed = 21) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(c.rows * c.length));
  for (auto& x : v) x = dist(gen);
  for (std::int64_t r = 0; r < c.rows; ++r) {
    std::sort(v.begin() + r * c.length, v.begin() + (r + 1) * c.length);
  }
  return v;
}

/// rows x values floats (each row sorted when the case says so).
inline std::vector<float> search_values(const SearchCase& c, unsigned seed = 22) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(c.rows * c.values));
  for (auto& x : v) x = dist(gen);
  if (c.sorted_values) {
    for (std::int64_t r = 0; r < c.rows; ++r) {
      std::sort(v.begin() + r * c.values, v.begin() + (r + 1) * c.values);
    }
  }
  return v;
}

/// The size sweep of bucketize (throughput vs size in docs/benchmarks.md): 1e3 boundaries,
/// n values for each n here.
inline constexpr std::int64_t kBucketizeSweep[] = {10'000, 100'000, 1'000'000, 10'000'000};
inline SearchCase bucketize_sweep_case(std::int64_t n) { return {"sweep", 1, 1'000, n, false}; }

/// Registers fn for every sweep size as "<family>/<peer>/<n>".
template <class F>
void register_bucketize_sweep(const char* family, const char* peer, F fn) {
  const std::string name = std::string(family) + "/" + peer;
  for (const std::int64_t n : kBucketizeSweep) {
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(n)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

/// Items (values searched) per second beside the times.
inline void set_search_counters(benchmark::State& state, const SearchCase& c) {
  state.SetItemsProcessed(state.iterations() * c.rows * c.values);
}

/// Registers fn(state) for every searchsorted case as "<family>/<peer>/<index>".
template <class F>
void register_search_cases(const char* family, const char* peer, F fn) {
  const std::string name = std::string(family) + "/" + peer;
  for (int i = 0; i < static_cast<int>(std::size(kSearchCases)); ++i) {
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(i)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace bench
