// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file host_threads.hpp
/// Runs a test body at several host thread counts (the OpenMP host system's pool size).

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <type_traits>

#include "tessera/config.hpp"

#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
#include <omp.h>
#endif

namespace tessera_test {

/// Runs `body` (given the thread count, if it takes one) with the host pool at each of
/// `counts` threads, naming the count in failures; the pool's size is restored afterwards. On
/// a host system other than OpenMP, once, with the thread count 1.
template <class Body>
void with_host_threads(std::initializer_list<int> counts, Body body) {
  const auto run = [&body](int threads) {
    if constexpr (std::is_invocable_v<Body&, int>) {
      body(threads);
    } else {
      body();
    }
  };
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  const int before = omp_get_max_threads();
  for (int threads : counts) {
    omp_set_num_threads(threads);
    SCOPED_TRACE("host threads " + std::to_string(threads));
    run(threads);
  }
  omp_set_num_threads(before);
#else
  (void)counts;
  run(1);
#endif
}

}  // namespace tessera_test
