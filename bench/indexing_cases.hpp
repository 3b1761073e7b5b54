// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file indexing_cases.hpp
/// The cases of bench_indexing (issue 35), shared by every peer: the nonzero values of a
/// 4000 x 4000 float32 at 50 % density (`x[x.nonzero(as_tuple=True)]`) and masked_select of it,
/// and gathers over 1e6 rows of 16 floats: index_select of 1e6 random rows, gather and
/// take_along_dim of 16 random columns per row, gather_nd of 1e6 random (row, column) pairs
/// (PyTorch: `x[idx[:, 0], idx[:, 1]]`). Data from bench_data.hpp, the same for every peer.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::indexing {

/// The cases, in registration order; the benchmark's argument is the index.
inline const std::vector<std::string>& cases() {
  static const std::vector<std::string> c = {"index_nonzero_4000x4000", "masked_select_4000x4000",
                                             "index_select_1e6x16",     "gather_1e6x16",
                                             "take_along_dim_1e6x16",   "gather_nd_1e6"};
  return c;
}

inline constexpr std::int64_t kSide = 4000;     ///< the masked matrix's side
inline constexpr std::int64_t kRows = 1000000;  ///< rows of the gathered matrix
inline constexpr std::int64_t kCols = 16;       ///< its columns

/// The 4000 x 4000 matrix with half its elements zero (uniform in [-1, 1), negatives zeroed).
inline std::vector<float> half_zero() {
  auto v = random_floats(kSide * kSide, 7);
  for (auto& e : v) e = e > 0.0f ? e : 0.0f;
  return v;
}

/// `n` int64 entries uniform in [0, bound).
inline std::vector<std::int64_t> random_entries(std::int64_t n, std::int64_t bound, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> dist(0, bound - 1);
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (auto& e : v) e = dist(rng);
  return v;
}

/// gather_nd's (row, column) pairs, row-major (1e6 x 2).
inline std::vector<std::int64_t> pairs() {
  const auto r = random_entries(kRows, kRows, 3);
  const auto c = random_entries(kRows, kCols, 4);
  std::vector<std::int64_t> v(static_cast<std::size_t>(2 * kRows));
  for (std::size_t i = 0; i < r.size(); ++i) {
    v[2 * i] = r[i];
    v[2 * i + 1] = c[i];
  }
  return v;
}

/// Registers `fn(state)` for every case as "<case>/<peer>/<index>".
template <class F>
void register_cases(const char* peer, F fn) {
  for (std::size_t i = 0; i < cases().size(); ++i) {
    const std::string name = cases()[i] + "/" + peer;
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(static_cast<std::int64_t>(i))
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

/// Output elements per iteration (bytes: the output's floats and the index entries read).
inline void set_indexing_counters(benchmark::State& state, std::size_t c, std::int64_t out) {
  const std::int64_t n = c < 2 ? kSide * kSide : out;
  set_counters(state, n, 4 * n + 8 * out);
}

}  // namespace bench::indexing
