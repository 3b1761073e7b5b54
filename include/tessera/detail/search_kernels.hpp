// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file search_kernels.hpp
/// The searches behind searchsorted and bucketize, written once for host and device code.
///
/// Every search answers PyTorch's question: the number of leading row elements x that come
/// before the value v, where "before" is `!(x >= v)` (left) or `!(x > v)` (right). On a
/// monotone row (sorted, NaNs only at its end or none at all) that count is the unique
/// partition point, so any probe order gives it; `torch_search` keeps PyTorch's exact probe
/// order for the rows where the answer depends on it (rows that end in NaN).

#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"

namespace tessera::detail {

/// The rows a searchsorted searches: one row for every value (a 1-d sequence, lead_ndim == 0)
/// or row r for the values of row r (an n-d sequence; its leading dims are the values'). Rows
/// are strided; with a sorter, element j of row r is data[row r + sorter[row r + j] * stride].
template <class S>
struct SearchRows {
  const S* data = nullptr;
  std::int64_t length = 0;  ///< elements per row (the sequence's last extent)
  std::int64_t stride = 1;  ///< element stride along a row
  int lead_ndim = 0;
  std::int64_t lead_shape[kMaxDims] = {};
  std::int64_t lead_strides[kMaxDims] = {};
  const std::int64_t* sorter = nullptr;  ///< optional, same shape as the sequence
  std::int64_t sorter_stride = 1;
  std::int64_t sorter_lead_strides[kMaxDims] = {};

  /// Offsets (elements) of row r in the sequence and in the sorter.
  TESSERA_HD void row_offsets(std::int64_t r, std::int64_t& row, std::int64_t& sorted) const {
    row = 0;
    sorted = 0;
    for (int d = lead_ndim - 1; d >= 0; --d) {
      const std::int64_t i = r % lead_shape[d];
      r /= lead_shape[d];
      row += i * lead_strides[d];
      sorted += i * sorter_lead_strides[d];
    }
  }
};

/// `x` comes before `v` in PyTorch's searchsorted (left: `!(x >= v)`, right: `!(x > v)`).
template <bool Right, class C>
TESSERA_HD inline bool comes_before(C x, C v) {
  if constexpr (Right) {
    return !(x > v);
  } else {
    return !(x >= v);
  }
}

/// PyTorch's binary search (`cus_lower_bound` / `cus_upper_bound`), probe for probe:
/// `mid = start + (end - start) / 2`. `probe(j)` returns row element j in the compare type.
template <bool Right, class C, class Probe>
TESSERA_HD inline std::int64_t torch_search(const Probe& probe, std::int64_t length, C v) {
  std::int64_t start = 0;
  std::int64_t end = length;
  while (start < end) {
    const std::int64_t mid = start + ((end - start) >> 1);
    if (comes_before<Right>(static_cast<C>(probe(mid)), v)) {
      start = mid + 1;
    } else {
      end = mid;
    }
  }
  return start;
}

/// The answer for v in row r of any layout (strided, with or without a sorter), by PyTorch's
/// probe order, so it is exact on every row.
template <bool Right, class C, class S>
TESSERA_HD inline std::int64_t search_row(const SearchRows<S>& rows, std::int64_t r, C v) {
  std::int64_t row = 0;
  std::int64_t sorted = 0;
  rows.row_offsets(r, row, sorted);
  const S* base = rows.data + row;
  const std::int64_t stride = rows.stride;
  if (rows.sorter != nullptr) {
    const std::int64_t* order = rows.sorter + sorted;
    const std::int64_t order_stride = rows.sorter_stride;
    return torch_search<Right>(
        [=](std::int64_t j) { return base[order[j * order_stride] * stride]; }, rows.length, v);
  }
  return torch_search<Right>([=](std::int64_t j) { return base[j * stride]; }, rows.length, v);
}

/// The partition point of a monotone contiguous row without branches on the data: the step is
/// arithmetic (`base += before * half`), which GCC keeps branch-free where a ternary becomes a
/// jump. length may be 0.
template <bool Right, class C>
inline std::int64_t branchless_search(const C* row, std::int64_t length, C v) {
  if (length == 0) return 0;
  std::int64_t base = 0;
  std::int64_t n = length;
  while (n > 1) {
    const std::int64_t half = n >> 1;
    base += static_cast<std::int64_t>(comes_before<Right>(row[base + half], v)) * half;
    n -= half;
  }
  return base + static_cast<std::int64_t>(comes_before<Right>(row[base], v));
}

/// branchless_search for G values at once over one row: the G probes of a step are
/// independent loads, so their cache misses overlap instead of queueing (the row is the same
/// for all, so every value takes the same number of steps). length >= 1. Each value keeps a
/// pointer that a select moves: with G of them GCC emits a compare and a cmov per probe (4
/// instructions), where `base += before * half` took 8 and spilled the bases (N = 1e3 floats:
/// 5.1-5.8 ns per value, down from 6.9-9.8, one thread).
template <bool Right, int G, class C>
inline void branchless_search_group(const C* row, std::int64_t length, const C* values,
                                    std::int64_t* result) {
  const C* base[G];
  for (int g = 0; g < G; ++g) base[g] = row;
  std::int64_t n = length;
  while (n > 1) {
    const std::int64_t half = n >> 1;
    for (int g = 0; g < G; ++g) {
      base[g] = comes_before<Right>(base[g][half], values[g]) ? base[g] + half : base[g];
    }
    n -= half;
  }
  for (int g = 0; g < G; ++g) {
    result[g] =
        (base[g] - row) + static_cast<std::int64_t>(comes_before<Right>(*base[g], values[g]));
  }
}

/// The partition point for v on a monotone row, given that it is at least `from` (the answer
/// for a smaller value): gallops 1, 2, 4, ... elements ahead, then searches the last gap. A run
/// of sorted values costs O(log gap) each instead of O(log length).
template <bool Right, class C>
inline std::int64_t gallop_search(const C* row, std::int64_t length, std::int64_t from, C v) {
  if (from >= length || !comes_before<Right>(row[from], v)) return from;
  std::int64_t known = from;  // row[known] comes before v
  std::int64_t step = 1;
  std::int64_t limit = length;
  while (true) {
    const std::int64_t next = known + step;
    if (next >= length) break;
    if (!comes_before<Right>(row[next], v)) {
      limit = next;
      break;
    }
    known = next;
    step <<= 1;
  }
  return known + 1 + branchless_search<Right>(row + known + 1, limit - known - 1, v);
}

}  // namespace tessera::detail
