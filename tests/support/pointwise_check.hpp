// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file pointwise_check.hpp
/// Shared by the pointwise tests: dtype dispatch by name, golden tensors on a device, and the
/// comparison rule (exact bits for exact functions, at most 4 ulp for transcendental ones).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "support/typed.hpp"

namespace tessera_test {

/// Calls `f(std::type_identity<T>{})` for the dtype named `name` ("float32", ...).
template <class F>
void with_dtype(const std::string& name, F&& f) {
  for_each_dtype<DTypes>([&](auto tag) {
    using T = typename decltype(tag)::type;
    if (ts::dtype_name(ts::dtype_v<T>) == name) f(tag);
  });
}

/// Distance in units in the last place between two finite or infinite floats of one type.
template <class F>
std::int64_t ulp_distance(F a, F b) {
  using Bits = std::conditional_t<sizeof(F) == 4, std::int32_t, std::int64_t>;
  Bits ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  // Map the sign-magnitude order onto a two's complement line.
  if (ia < 0) ia = std::numeric_limits<Bits>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<Bits>::min() - ib;
  const auto d = static_cast<long double>(ia) - static_cast<long double>(ib);
  return static_cast<std::int64_t>(d < 0 ? -d : d);
}

/// Element i of `got` against `want`: the same bits for exact functions (NaN matches NaN, the
/// sign of a zero counts unless `signless_zeros`: which of +0.0 and -0.0 a min or max returns
/// is unspecified in IEEE 754, and PyTorch's answer changes with its vectorisation), within
/// `ulps` for floats otherwise.
template <class R>
::testing::AssertionResult values_match(const std::vector<R>& got, const std::vector<R>& want,
                                        int ulps, const std::string& what,
                                        bool signless_zeros = false) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure()
           << what << ": " << got.size() << " values, expected " << want.size();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const R g = got[i];
    const R w = want[i];
    bool ok;
    if constexpr (std::is_floating_point_v<R>) {
      if (std::isnan(w) || std::isnan(g)) {
        ok = std::isnan(w) && std::isnan(g);
      } else if (w == 0 && g == 0) {
        ok = std::signbit(w) == std::signbit(g) || ulps > 0 || signless_zeros;
      } else {
        ok = ulps == 0 ? g == w : ulp_distance(g, w) <= ulps;
      }
    } else {
      ok = g == w;
    }
    if (!ok) {
      return ::testing::AssertionFailure()
             << what << ": element " << i << " is " << +g << ", expected " << +w
             << (ulps > 0 ? " (within " + std::to_string(ulps) + " ulp)" : " (exactly)");
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tessera_test
