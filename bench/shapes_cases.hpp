// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file shapes_cases.hpp
/// The cases of bench_shapes (issue "shapes and views"), shared by every peer: flip, roll,
/// repeat and tril of a 4000 x 4000 float matrix, a flip consumed by a reduction, and the
/// pairwise-distance idiom `((x.unsqueeze(1) - y.unsqueeze(0))^2).sum(-1)` of 2000 x 64 by
/// 2000 x 64. Names read "<case>/<peer>".

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::shapes {

/// The side of the square matrix of the copy cases.
inline constexpr std::int64_t kSide = 4000;
/// Rows and features of the pairwise-distance case.
inline constexpr std::int64_t kPoints = 2000;
inline constexpr std::int64_t kFeatures = 64;

/// Case names, in registration order.
inline const std::vector<std::string>& names() {
  static const std::vector<std::string> s = {"flip0", "flip01",       "roll",       "repeat",
                                             "tril",  "sum_flip_mul", "pairwise_sq"};
  return s;
}

using bench::register_once;

}  // namespace bench::shapes
