// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file vocab_cases.hpp
/// The cases of bench_vocab (issue "framework vocabulary, part 1"), shared by every peer: the
/// pointwise functions on 1e6 and 1e7 floats, and reductions over dimensions and scans of a
/// 4000 x 4000 float matrix (contiguous, and transposed).

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::vocab {

/// Pointwise sizes.
inline const std::vector<std::int64_t>& pointwise_sizes() {
  static const std::vector<std::int64_t> s = {1'000'000, 10'000'000};
  return s;
}
/// The side of the reduced matrix.
inline constexpr std::int64_t kSide = 4000;

/// n floats in [0.5, 1.5): valid for log and for pow with a fractional exponent, the same for
/// every peer.
inline std::vector<float> positive_floats(std::int64_t n, unsigned seed) {
  auto v = random_floats(n, seed);
  for (float& x : v) x = 1.0f + 0.5f * x;
  return v;
}

/// n floats in [0, 4): pow's bases over many binades (down to about 2^-22), where |2.5 log x|
/// is mostly above 1, unlike in positive_floats (issue 51 item 7: tessera's pow took a slower
/// path there).
inline std::vector<float> wide_positive_floats(std::int64_t n, unsigned seed) {
  auto v = random_floats(n, seed);
  for (float& x : v) x = 2.0f + 2.0f * x;
  return v;
}

/// Pointwise function names, in registration order.
inline const std::vector<std::string>& pointwise_names() {
  static const std::vector<std::string> s = {"sin",     "exp",    "tanh",      "log",
                                             "sigmoid", "pow2.5", "pow2.5wide"};
  return s;
}

/// The input of pointwise function `name`, the same for every peer: positive for log and pow.
inline std::vector<float> pointwise_input(const std::string& name, std::int64_t n) {
  if (name == "pow2.5wide") return wide_positive_floats(n, 1);
  if (name == "log" || name == "pow2.5") return positive_floats(n, 1);
  return random_floats(n, 1);
}
/// Reduction case names: op_dim (`t`: of the transposed matrix).
inline const std::vector<std::string>& reduction_names() {
  static const std::vector<std::string> s = {
      "sum_dim0",    "sum_dim1",    "sum_dim1_t",  "amax_dim0",     "amax_dim1",
      "amax_dim1_t", "argmax_dim0", "argmax_dim1", "argmax_dim1_t", "mean_dim0",
      "mean_dim1",   "mean_dim1_t", "var_dim1",    "cumsum_dim1",   "sum_ab_dim1"};
  return s;
}

/// Registers `fn(state)` for pointwise function `name` as "pw_<name>/<peer>/<n>".
template <class F>
void register_pointwise(const std::string& name, const char* peer, F fn) {
  for (const std::int64_t n : pointwise_sizes()) {
    benchmark::RegisterBenchmark(("pw_" + name + "/" + peer).c_str(), fn)
        ->Arg(n)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}
/// Registers `fn(state)` for reduction `name` as "red_<name>/<peer>/<side * side>".
template <class F>
void register_reduction(const std::string& name, const char* peer, F fn) {
  benchmark::RegisterBenchmark(("red_" + name + "/" + peer).c_str(), fn)
      ->Arg(kSide * kSide)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace bench::vocab
