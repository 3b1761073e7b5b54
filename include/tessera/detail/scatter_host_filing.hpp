// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_host_filing.hpp
/// How the element schedule (scatter_host_elements.hpp) files index rows by output part: the
/// split of the output into parts, and the filers that append (element, update) pairs to the
/// parts' lists, for two parts at once or for any number through a staging list.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tessera/detail/scatter_host_common.hpp"
#include "tessera/detail/scatter_host_wide_filing.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

/// How the element schedule splits the output into parts: part(at) = (at * mult) >> 32, for
/// outputs of fewer than 2^32 elements. A multiply and a shift instead of a division per row;
/// `bound[p]`, the first element of part p, is found once by binary search, so the parts a row
/// is filed into and the ranges phase 2 copies always agree.
struct ScatterParts {
  std::int64_t count = 1;
  std::uint64_t mult = 0;
  std::vector<std::int64_t> bound;  ///< count + 1 entries; bound[count] = numel

  /// `numel` > 0 (an output without elements has no parts to split).
  ScatterParts(std::int64_t parts, std::int64_t numel) : count(parts) {
    mult = (static_cast<std::uint64_t>(parts) << 32) / static_cast<std::uint64_t>(numel);
    bound.assign(static_cast<std::size_t>(parts) + 1, numel);
    bound[0] = 0;
    for (std::int64_t p = 1; p < parts; ++p) {
      std::int64_t lo = bound[static_cast<std::size_t>(p - 1)];
      std::int64_t hi = numel;  // the first element of a part >= p lies in [lo, hi]
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (of(mid) >= p) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      bound[static_cast<std::size_t>(p)] = lo;
    }
  }
  std::int64_t of(std::int64_t at) const { return part_of(mult, at); }
  /// The part of element `at` for a split's `mult` (what the filers carry instead of the split).
  static std::int64_t part_of(std::uint64_t mult, std::int64_t at) {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(at) * mult) >> 32);
  }
};

/// Filing for two parts, into one block's region of the pair array: the lower part's list
/// grows up from the region's start, the upper part's down from its end, so the two fit in the
/// block's rows (and the kScatterFilingSlack slots wide filing keeps free). Each pair is written
/// to the ends of both lists and only the list it belongs to moves on (the other's copy is
/// overwritten by that list's next pair, or lands between the lists): no branch (the part is a
/// coin toss) and no select, which files a row about 25 % faster than computing the one
/// address to write. The list ends are counts, so that wide filing
/// (scatter_file_two_lists_wide) can file a block's first rows and this filer the rest.
template <class T>
struct ScatterTwoListFiler {
  ScatterPair<T>* lower;         ///< the lower part's list, growing up from the region's start
  ScatterPair<T>* upper;         ///< the region's last slot, where the upper part's list starts
  std::int64_t half;             ///< the first element of the upper part
  std::int64_t lower_count = 0;  ///< pairs in the lower list
  std::int64_t filed = 0;        ///< pairs in both lists

  void operator()(std::int64_t at, T u) {
    scatter_store_pair(lower + lower_count, at, u);
    scatter_store_pair(upper - (filed - lower_count), at, u);
    lower_count += at < half ? 1 : 0;  // a setcc: a branch would mispredict half the rows
    ++filed;
  }
  /// Pairs in the upper list.
  std::int64_t upper_count() const { return filed - lower_count; }
};

/// Files the first rows of [lo, hi) with scatter_file_two_lists_wide when it applies (4-byte
/// values read from a contiguous tensor of the output's type, one index per row), leaving the
/// counts in `filer` for the scalar filer to go on from; returns the first row not filed.
template <class T, class Index, class K>
std::int64_t file_two_lists_wide(const Index* indices, const K& updates, std::int64_t lo,
                                 std::int64_t hi, const ScatterGeometry& g, bool linear,
                                 ScatterTwoListFiler<T>& filer) {
  if constexpr (sizeof(T) == 4 && sizeof(ScatterPair<T>) == 8 &&
                offsetof(ScatterPair<T>, value) == 4 &&
                std::endian::native == std::endian::little && std::is_same_v<K, LeafKernel<T>> &&
                (std::is_same_v<Index, std::int64_t> || std::is_same_v<Index, std::int32_t>)) {
    if (g.k != 1 || !linear) return lo;
    std::int64_t upper_count = 0;
    const std::int64_t next = scatter_file_two_lists_wide(
        indices, reinterpret_cast<const std::uint32_t*>(updates.data), lo, hi,
        static_cast<std::uint64_t>(g.extents[0]), static_cast<std::uint64_t>(filer.half),
        reinterpret_cast<std::uint64_t*>(filer.lower),
        reinterpret_cast<std::uint64_t*>(filer.upper), filer.lower_count, upper_count);
    filer.filed = filer.lower_count + upper_count;
    return next;
  } else {
    return lo;
  }
}

/// Filing for any number of parts, the first of two passes over a block: the pairs go in row
/// order to a staging list, and each part's pairs are counted. The second pass (in
/// scatter_element_schedule) moves them to their part's list; both passes stay in L1/L2.
template <class T>
struct ScatterStagingFiler {
  ScatterPair<T>* next;  ///< the staging list's end
  std::uint32_t* counts;
  std::uint64_t mult;

  void operator()(std::int64_t at, T u) {
    scatter_store_pair(next++, at, u);
    ++counts[ScatterParts::part_of(mult, at)];
  }
};

}  // namespace tessera::detail
