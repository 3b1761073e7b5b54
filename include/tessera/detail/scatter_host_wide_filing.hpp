#pragma once
/// @file scatter_host_wide_filing.hpp
/// The element schedule's two-list filing (scatter_host_elements.hpp) eight rows at a time with
/// 512-bit vectors, for 4-byte values: one compare checks eight indices, a second splits them
/// between the two parts, and each part's pairs are compressed into one register and stored
/// whole. The scalar filer spends about 3.5 cycles a row on this VM's cores (one load, two
/// stores and the list bookkeeping per row, instruction-bound); filing 10^7 rows on two threads
/// took 5.2-5.4 ms scalar and 3.9-4.0 ms wide in a standalone test.
///
/// Compiled in the library (src/backend/host/scatter_wide_filing.cpp) with the AVX-512F
/// instructions enabled for those functions alone, and used only when the running CPU has them:
/// callers compile no intrinsics, and on other CPUs (or other architectures) the functions file
/// nothing and the scalar filer does it all.

#include <atomic>
#include <cstdint>

namespace tessera::detail {

/// Free slots each block's region of the pair array keeps beyond its rows. A 512-bit store
/// writes eight pairs whatever the count it files: with eight spare slots the two lists' full
/// stores never reach each other's pairs (the free space between the lists is then at least 16
/// slots whenever a group of eight rows is filed).
inline constexpr std::int64_t kScatterFilingSlack = 8;

/// Files the element rows [lo, hi) of a block into two lists, eight rows at a time, as the
/// scalar ScatterTwoListFiler does: a row naming element `at` (index < `limit`) goes as the
/// pair (at, value bits) to the lower list (`lower[lower_count++]`) when `at < half`, else to the
/// upper list, which grows down (`upper_top[-upper_count++]`). Pairs are 8 bytes: the offset in
/// the low half, the 4-byte value's bits in the high half (ScatterPair of a 4-byte type on a
/// little-endian machine).
///
/// Stops before the first group of eight that holds a row naming no element, or before the
/// last `(hi - lo) % 8` rows, and returns that row: the scalar filer goes on from there with the
/// counts left here. Returns `lo` (filing nothing) when the CPU lacks AVX-512F or wide filing is
/// switched off (scatter_wide_filing_enabled). The region needs kScatterFilingSlack free slots
/// besides its rows.
std::int64_t scatter_file_two_lists_wide(const std::int64_t* indices,
                                         const std::uint32_t* value_bits, std::int64_t lo,
                                         std::int64_t hi, std::uint64_t limit, std::uint64_t half,
                                         std::uint64_t* lower, std::uint64_t* upper_top,
                                         std::int64_t& lower_count,
                                         std::int64_t& upper_count) noexcept;

/// The same for 32-bit indices (a negative index is a row naming no element).
std::int64_t scatter_file_two_lists_wide(const std::int32_t* indices,
                                         const std::uint32_t* value_bits, std::int64_t lo,
                                         std::int64_t hi, std::uint64_t limit, std::uint64_t half,
                                         std::uint64_t* lower, std::uint64_t* upper_top,
                                         std::int64_t& lower_count,
                                         std::int64_t& upper_count) noexcept;

/// Whether the running CPU has the instructions wide filing needs (AVX-512F).
bool scatter_wide_filing_available() noexcept;

/// Whether wide filing is used: scatter_wide_filing_available() at start. Writable, so that
/// tests can compare both filers on the same CPU; setting it on a CPU without AVX-512F has no
/// effect.
std::atomic<bool>& scatter_wide_filing_enabled() noexcept;

}  // namespace tessera::detail
