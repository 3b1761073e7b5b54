// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file extent_product.hpp
/// Products of extents that never overflow a signed type (issue 19: a zero-element shape such
/// as (2^40, 2^40, 0) multiplied left to right overflowed int64 before reaching its 0).

#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera::detail {

/// a * b in two's complement (wraps instead of overflowing): for products of extents whose
/// result is only used when it fits, such as strides beside a zero extent.
TESSERA_HD constexpr std::int64_t wrapping_mul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

/// The number of elements of `n` extents: 0 when any extent is 0, whatever the others; 1 for
/// none. Shapes are checked to fit int64 when a tensor is made, so the product of a tensor's
/// extents is exact; for an unchecked shape it wraps instead of being undefined.
TESSERA_HD constexpr std::int64_t extent_product(const std::int64_t* extents, int n) {
  std::int64_t product = 1;
  for (int d = 0; d < n; ++d) {
    if (extents[d] == 0) return 0;
  }
  for (int d = 0; d < n; ++d) product = wrapping_mul(product, extents[d]);
  return product;
}

}  // namespace tessera::detail
