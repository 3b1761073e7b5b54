// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_host_wide_filing.hpp
/// The element schedule's two-list filing (scatter_host_filing.hpp) eight rows at a time with
/// 512-bit vectors (four with 256-bit ones), for 4-byte values: one compare checks eight
/// indices, a second splits them between the two parts, and each part's pairs are compressed
/// into one register (AVX2: shuffled by a table) and stored whole. The scalar filer spends
/// about 3.5 cycles a row on the AMD EPYC VM's cores (one load, two stores and the list bookkeeping
/// per row, instruction-bound); filing 10^7 rows on two threads took 5.2-5.4 ms scalar and 3.9-4.0
/// ms wide in a standalone test.
///
/// Compiled in the library (src/backend/host/scatter_wide_filing.cpp) with the AVX-512F or
/// AVX2 instructions enabled for those functions alone, and used only when the running CPU has
/// them: callers compile no intrinsics, and on other CPUs (or other architectures) the functions
/// file nothing and the scalar filer does it all.

#include <atomic>
#include <cstdint>

namespace tessera::detail {

/// Free slots each block's region of the pair array keeps beyond its rows. A 512-bit store
/// writes eight pairs whatever the count it files: with eight spare slots the two lists' full
/// stores never reach each other's pairs (the free space between the lists is then at least 16
/// slots whenever a group of eight rows is filed).
inline constexpr std::int64_t kScatterFilingSlack = 8;

/// Files the element rows [lo, hi) of a block into two lists, eight (or four) rows at a time,
/// as the scalar ScatterTwoListFiler does: a row naming element `at` (index < `limit`) goes as
/// the pair (at, value bits) to the lower list (`lower[lower_count++]`) when `at < half`, else
/// to the upper list, which grows down (`upper_top[-upper_count++]`). Pairs are 8 bytes: the offset
/// in the low half, the 4-byte value's bits in the high half (ScatterPair of a 4-byte type on a
/// little-endian machine). `Index` is std::int64_t or std::int32_t (a negative 32-bit index
/// names no element), the two the library instantiates.
///
/// Stops before the first group that holds a row naming no element, or before the last rows
/// short of a group, and returns that row: the scalar filer goes on from there with the counts
/// left here. Returns `lo` (filing nothing) when the CPU has neither AVX-512F nor AVX2 or wide
/// filing is switched off (scatter_wide_filing_lanes). The region needs kScatterFilingSlack
/// free slots besides its rows.
template <class Index>
std::int64_t scatter_file_two_lists_wide(const Index* indices, const std::uint32_t* value_bits,
                                         std::int64_t lo, std::int64_t hi, std::uint64_t limit,
                                         std::uint64_t half, std::uint64_t* lower,
                                         std::uint64_t* upper_top, std::int64_t& lower_count,
                                         std::int64_t& upper_count) noexcept;

/// The rows the running CPU files at a time: 8 with AVX-512F, 4 with AVX2 (x86-64), else 0
/// (no wide filing).
int scatter_wide_filing_available_lanes() noexcept;

/// The rows wide filing takes at a time: 8, 4 or 0 (off), capped at what the CPU has. Starts at
/// TESSERA_SCATTER_FILING_LANES when set (read once; unparsable: 0), else at
/// scatter_wide_filing_available_lanes(). Writable, so that tests can compare every filer on
/// the same CPU.
std::atomic<int>& scatter_wide_filing_lanes() noexcept;

}  // namespace tessera::detail
