// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file random_cases.hpp
/// The cases of bench_random (issue "random numbers"), shared by every peer: rand and randn of
/// 10^7 float32, randint of 10^7 int64, a zeros fill of the same bytes (the memory bound),
/// randperm(10^6), and multinomial of 1000 rows x 1000 weights, 10 samples without replacement.
/// Names read "<case>/<peer>".

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::random {

inline constexpr std::int64_t kElements = 10'000'000;
inline constexpr std::int64_t kPermutation = 1'000'000;
inline constexpr std::int64_t kRows = 1000;
inline constexpr std::int64_t kCategories = 1000;
inline constexpr std::int64_t kSamples = 10;

/// Case names, in registration order.
inline const std::vector<std::string>& names() {
  static const std::vector<std::string> s = {"rand_f32",  "randn_f32", "randint_i64",
                                             "zeros_f32", "randperm",  "multinomial"};
  return s;
}

using bench::register_once;

}  // namespace bench::random
