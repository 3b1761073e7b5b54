// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ragged_reduce_cases.hpp
/// The cases of bench_ragged_reduce (issue 36), shared by every peer: per-row sum and max of
/// 1e6 ragged rows of lengths uniform in [0, 20] (float32, ~1e7 values), and an unsorted
/// segment sum of 1e7 float32 into 1e5 segments (ids uniform). bench/tf_ragged_reduce.py times
/// TensorFlow on the same data (same generator, written to .npy by `--write-data`).

#include <cstdint>
#include <random>
#include <vector>

#include "bench_data.hpp"

namespace bench::ragged_reduce {

inline constexpr std::int64_t kRows = 1'000'000;
inline constexpr std::int64_t kSegmentValues = 10'000'000;
inline constexpr std::int64_t kSegments = 100'000;

/// Row lengths uniform in [0, 20].
inline const std::vector<std::int64_t>& lengths() {
  static const std::vector<std::int64_t> l = [] {
    std::mt19937_64 gen(36);
    std::uniform_int_distribution<std::int64_t> length(0, 20);
    std::vector<std::int64_t> v(kRows);
    for (auto& x : v) x = length(gen);
    return v;
  }();
  return l;
}
/// Row splits of lengths().
inline const std::vector<std::int64_t>& splits() {
  static const std::vector<std::int64_t> s = [] {
    std::vector<std::int64_t> v{0};
    for (const auto l : lengths()) v.push_back(v.back() + l);
    return v;
  }();
  return s;
}
/// The ragged values (splits().back() floats).
inline const std::vector<float>& values() {
  static const std::vector<float> v = random_floats(splits().back(), 37);
  return v;
}
/// Segment ids uniform in [0, kSegments).
inline const std::vector<std::int64_t>& segment_ids() {
  static const std::vector<std::int64_t> ids = [] {
    std::mt19937_64 gen(38);
    std::uniform_int_distribution<std::int64_t> id(0, kSegments - 1);
    std::vector<std::int64_t> v(kSegmentValues);
    for (auto& x : v) x = id(gen);
    return v;
  }();
  return ids;
}
/// The segment data.
inline const std::vector<float>& segment_data() {
  static const std::vector<float> v = random_floats(kSegmentValues, 39);
  return v;
}

}  // namespace bench::ragged_reduce
