// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file stats_cases.hpp
/// The inputs of bench_stats (tessera) and bench_stats_torch (libtorch): the same data for
/// both peers. unique: n int64 drawn from 10^5 values (with inverse and counts); bincount: n
/// int64 in [0, 10^5); histc: n float32 uniform in [-1, 1), 100 bins over [-1, 1].

#include <cstdint>
#include <random>
#include <vector>

#include "bench_data.hpp"

namespace bench::stats {

/// Distinct values of the unique and bincount inputs.
inline constexpr std::int64_t kDistinct = 100'000;
/// Bins of histc.
inline constexpr std::int64_t kBins = 100;

/// n int64 uniform in [0, kDistinct), the same for every peer.
inline std::vector<std::int64_t> random_ids(std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<std::int64_t> dist(0, kDistinct - 1);
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = dist(gen);
  return v;
}

}  // namespace bench::stats
