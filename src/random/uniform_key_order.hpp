// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// randperm's host ordering: the stable argsort of uniform 64-bit keys, by buckets rather than
// comparisons.

#include <cstdint>

namespace tessera::detail {

/// Below this many keys randperm's host path is the argsort itself.
inline constexpr std::int64_t kUniformOrderMin = 4096;

/// Writes into order[0, n) the permutation `argsort(keys, stable)` gives for n >=
/// kUniformOrderMin keys (key i: the unsigned value keys[i] ^ 2^63), which must be uniform for
/// speed (any keys give the exact answer).
void stable_order_of_uniform_keys(const std::int64_t* keys, std::int64_t n, std::int64_t* order);

}  // namespace tessera::detail
