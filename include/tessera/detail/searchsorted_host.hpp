// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file searchsorted_host.hpp
/// The host searchsorted kernel. The values are cut into blocks (shared among the threads where
/// that pays);
/// a block first evaluates its values (a tensor or any expression, read in place), then
/// searches them row segment by row segment with the fastest search that is exact there:
/// - a sorted run of values merges into the row (gallop from the previous answer);
/// - otherwise groups of 16 branch-free searches run interleaved, overlapping their misses;
/// - rows ending in NaN, strided rows and sorters take PyTorch's own probe order.

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tessera/core/tensor_view.hpp"
#include "tessera/detail/search_kernels.hpp"
#include "tessera/expr/functors.hpp"
#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

/// Values per task: small enough that the values and answers of a block stay in L1/L2, large
/// enough that a sorted run amortises its first full search.
inline constexpr std::int64_t kSearchBlock = 2048;
/// Searches interleaved per group.
inline constexpr int kSearchGroup = 16;

/// True when v[0] <= v[1] <= ... (NaN anywhere makes it false).
template <class C>
bool is_sorted_run(const C* v, std::int64_t count) {
  for (std::int64_t k = 1; k < count; ++k) {
    if (!(v[k - 1] <= v[k])) return false;
  }
  return true;
}

/// Answers `count` values against one contiguous, monotone row.
template <bool Right, class C>
void search_contiguous_row(const C* row, std::int64_t length, const C* values, std::int64_t count,
                           std::int64_t* result) {
  if (count >= 8 && is_sorted_run(values, count)) {
    std::int64_t at = branchless_search<Right>(row, length, values[0]);
    result[0] = at;
    for (std::int64_t k = 1; k < count; ++k) {
      at = gallop_search<Right>(row, length, at, values[k]);
      result[k] = at;
    }
    return;
  }
  std::int64_t k = 0;
  for (; k + kSearchGroup <= count; k += kSearchGroup) {
    branchless_search_group<Right, kSearchGroup>(row, length, values + k, result + k);
  }
  for (; k < count; ++k) result[k] = branchless_search<Right>(row, length, values[k]);
}

/// Answers the values [first, first + count) of row r.
template <bool Right, class C, class S>
void search_segment(const SearchRows<S>& rows, std::int64_t r, const C* values, std::int64_t count,
                    std::int64_t* result) {
  if (rows.length == 0) {
    std::fill(result, result + count, std::int64_t{0});
    return;
  }
  if constexpr (std::is_same_v<S, C>) {
    if (rows.sorter == nullptr && rows.stride == 1) {
      std::int64_t offset = 0;
      std::int64_t unused = 0;
      rows.row_offsets(r, offset, unused);
      const C* row = rows.data + offset;
      // A NaN at the end makes the row non-monotone under PyTorch's test: keep its probe order.
      if (!is_nan(row[rows.length - 1])) {
        search_contiguous_row<Right>(row, rows.length, values, count, result);
        return;
      }
    }
  }
  for (std::int64_t k = 0; k < count; ++k) result[k] = search_row<Right>(rows, r, values[k]);
}

/// Names one kind of search for host_adaptive_blocks (its cost per block of values).
template <bool Right, class C, class S, class K, class Index>
struct SearchWork {};

/// out[i] = searchsorted(rows, C(values(i))) for every element i of `extents` (the values'
/// shape). `per_row` is the values' last extent when the sequence is n-d. Blocks run on the
/// calling thread alone when a parallel region would cost more than it saves
/// (host_adaptive_blocks): 10^4 values in 10^3 boundaries on 2 threads of a passive OpenMP pool
/// took 75-86 us in one region and 37-39 us on one thread. The cost per block depends on the
/// sequence's length, so each call prices it afresh (HostSplit::fresh).
template <bool Right, class C, class S, class K, class Index>
void searchsorted_host(const SearchRows<S>& rows, const K& values, const Extents& extents,
                       bool linear, std::int64_t per_row, const TensorView<Index>& out) {
  const std::int64_t n = extents.numel();
  if (n == 0) return;
  const std::int64_t blocks = (n + kSearchBlock - 1) / kSearchBlock;
  const bool out_linear = out.is_contiguous();
  host_adaptive_blocks<SearchWork<Right, C, S, K, Index>, true>(blocks, [&](std::int64_t b) {
    const std::int64_t begin = b * kSearchBlock;
    const std::int64_t end = std::min(n, begin + kSearchBlock);
    const std::int64_t count = end - begin;
    C v_buffer[kSearchBlock];
    std::int64_t result_buffer[kSearchBlock];
    // Contiguous values already in the compare type are searched where they are, and int64
    // answers for a contiguous out are written where they belong: copying both through the
    // buffers was 15 % of a search of 1e7 floats in 1e3 (the out never shares memory with an
    // input: searchsorted_into gives the kernel a fresh result then).
    const C* v = v_buffer;
    std::int64_t* result = result_buffer;
    if constexpr (std::is_same_v<K, LeafKernel<C>>) {
      if (linear) v = values.data + begin;
    }
    if constexpr (std::is_same_v<Index, std::int64_t>) {
      if (out_linear) result = out.data + begin;
    }
    if (v == v_buffer) {
      if (linear) {
        for (std::int64_t i = 0; i < count; ++i) {
          v_buffer[i] = static_cast<C>(values.linear(begin + i));
        }
      } else {
        std::int64_t index[kMaxDims];
        zero_dims(index);
        extents.unravel(begin, index);
        for (std::int64_t i = 0; i < count; ++i) {
          v_buffer[i] = static_cast<C>(values.at(index));
          extents.increment(index);
        }
      }
    }
    if (rows.lead_ndim == 0) {
      search_segment<Right>(rows, 0, v, count, result);
    } else {
      for (std::int64_t i = begin; i < end;) {
        const std::int64_t r = i / per_row;
        const std::int64_t stop = std::min(end, (r + 1) * per_row);
        search_segment<Right>(rows, r, v + (i - begin), stop - i, result + (i - begin));
        i = stop;
      }
    }
    if (result == result_buffer) {
      if (out_linear) {
        for (std::int64_t i = 0; i < count; ++i) {
          out.data[begin + i] = static_cast<Index>(result[i]);
        }
      } else {
        std::int64_t index[kMaxDims];
        zero_dims(index);
        extents.unravel(begin, index);
        for (std::int64_t i = 0; i < count; ++i) {
          std::int64_t offset = 0;
          for (int d = 0; d < out.ndim; ++d) offset += index[d] * out.strides[d];
          out.data[offset] = static_cast<Index>(result[i]);
          extents.increment(index);
        }
      }
    }
  });
}

}  // namespace tessera::detail
