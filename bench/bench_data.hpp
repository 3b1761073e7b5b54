// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file bench_data.hpp
/// Shared by the expression benchmarks of every peer, so that all of them run the same cases
/// on the same sizes and the same data.

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace bench {

#ifdef TESSERA_BENCH_TORCH_VERSION
/// Names the libtorch peer's version in the JSON context ("libtorch_version"), where
/// tools/bench_report.py reads it; initialised before main, so before the context is printed.
inline const bool torch_version_in_context =
    (benchmark::AddCustomContext("libtorch_version", TESSERA_BENCH_TORCH_VERSION), true);
#endif

/// Total elements of every case: small (fits L1/L2, dominated by overhead), L3-ish, DRAM.
inline const std::vector<std::int64_t>& sizes() {
  static const std::vector<std::int64_t> s = {10'000, 1'000'000, 10'000'000};
  return s;
}

/// The broadcast case is (rows, kCols) + (kCols): rows = n / kCols.
inline constexpr std::int64_t kCols = 1000;

/// The transposed case is (side, side): side = round(sqrt(n)).
inline std::int64_t square_side(std::int64_t n) {
  return static_cast<std::int64_t>(std::lround(std::sqrt(static_cast<double>(n))));
}

/// n floats uniform in [-1, 1), the same for a given seed on every peer.
inline std::vector<float> random_floats(std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = dist(gen);
  return v;
}

/// Reports elements and bytes moved per iteration (bytes = every input read once plus the
/// output written once), so Google Benchmark prints items/s and bytes/s beside the times.
inline void set_counters(benchmark::State& state, std::int64_t elements, std::int64_t bytes) {
  state.SetItemsProcessed(state.iterations() * elements);
  state.SetBytesProcessed(state.iterations() * bytes);
}

/// Registers `fn(state, n)` as "<family>/<peer>/<n>" for every size. Wall-clock time, since
/// several peers run on more than one thread.
template <class F>
void register_case(const char* family, const char* peer, F fn) {
  for (const std::int64_t n : sizes()) {
    const std::string name = std::string(family) + "/" + peer;
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(n)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

/// Registers `fn(state)` as "<name>/<peer>": a case of one size, wall-clock time.
template <class F>
void register_once(const std::string& name, const char* peer, F fn) {
  benchmark::RegisterBenchmark((name + "/" + peer).c_str(), fn)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace bench
