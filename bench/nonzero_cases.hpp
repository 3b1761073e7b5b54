// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file nonzero_cases.hpp
/// The nonzero benchmark cases, shared by every peer so all of them see the same data: a
/// 4000x4000 input at three densities, plus the float input of the `x > 0.5` expression case.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace bench {

inline constexpr std::int64_t kNonzeroSide = 4000;

/// Density (fraction nonzero) of each bool case, indexed by the benchmark argument.
inline constexpr double kDensities[] = {0.5, 0.99, 0.001};

/// A row-major side x side mask with `density` of its entries true (fixed seed).
inline std::vector<std::uint8_t> random_mask(double density, unsigned seed = 11) {
  std::mt19937_64 gen(seed);
  std::bernoulli_distribution keep(density);
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(kNonzeroSide * kNonzeroSide));
  for (auto& m : mask) m = keep(gen) ? 1 : 0;
  return mask;
}

/// side x side floats uniform in [0, 1): `x > 0.5` keeps about half.
inline std::vector<float> random_unit_floats(unsigned seed = 12) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(kNonzeroSide * kNonzeroSide));
  for (auto& x : v) x = dist(gen);
  return v;
}

/// Element counts of the size sweeps (throughput vs size in docs/benchmarks.md).
inline constexpr std::int64_t kSweepSizes[] = {10'000, 100'000, 1'000'000, 10'000'000};

/// n mask entries, half of them true (fixed seed): the input of the size sweep.
inline std::vector<std::uint8_t> sweep_mask(std::int64_t n, unsigned seed = 13) {
  std::mt19937_64 gen(seed);
  std::bernoulli_distribution keep(0.5);
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(n));
  for (auto& m : mask) m = keep(gen) ? 1 : 0;
  return mask;
}

/// Registers fn for every sweep size as "<family>/<peer>/<n>".
template <class F>
void register_sweep(const char* family, const char* peer, F fn) {
  const std::string name = std::string(family) + "/" + peer;
  for (const std::int64_t n : kSweepSizes) {
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(n)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

/// Registers the three bool densities as "<family>/<peer>/<density index>".
template <class F>
void register_densities(const char* family, const char* peer, F fn) {
  const std::string name = std::string(family) + "/" + peer;
  for (int i = 0; i < 3; ++i) {
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(i)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace bench
