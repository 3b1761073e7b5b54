// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file search_reference.hpp
/// The reference of the searchsorted/bucketize fuzz targets: PyTorch's binary search written out
/// (docs/ops/searchsorted.md: left steps past x while `!(x >= v)`, right while `!(x > v)`, `mid =
/// lo + (hi - lo) / 2`), and the test of whether a row is sorted enough for that answer to be the
/// specified one.

#include <cstdint>
#include <type_traits>
#include <vector>

namespace tessera_fuzz {

template <class C>
bool is_nan(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return x != x;
  } else {
    (void)x;
    return false;
  }
}

/// Sorted as docs/ops/searchsorted.md means it: non-decreasing, NaN only in a suffix. Only for such
/// rows is the answer specified; for others it must merely lie in [0, row length].
template <class C>
bool row_is_sorted(const std::vector<C>& row) {
  std::size_t n = row.size();
  while (n > 0 && is_nan(row[n - 1])) --n;
  for (std::size_t i = 0; i < n; ++i) {
    if (is_nan(row[i])) return false;
    if (i > 0 && row[i] < row[i - 1]) return false;
  }
  return true;
}

/// PyTorch's search of `v` in `row` (compare type C).
template <class C>
std::int64_t reference_search(const std::vector<C>& row, C v, bool right) {
  std::int64_t lo = 0;
  std::int64_t hi = static_cast<std::int64_t>(row.size());
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const C x = row[static_cast<std::size_t>(mid)];
    const bool past = right ? !(x > v) : !(x >= v);
    if (past) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace tessera_fuzz
