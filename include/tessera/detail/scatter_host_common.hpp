// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_host_common.hpp
/// What the host tensor_scatter_nd_* schedules share (scatter_host.hpp,
/// scatter_host_elements.hpp, scatter_host_slices_in_order.hpp): their tuning constants,
/// prefetches ahead of reads and read-modify-writes, and the parallel bounds check.

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "tessera/core/device.hpp"
#include "tessera/core/storage.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// Index rows per task of the bounds check.
inline constexpr std::int64_t kScatterCheckBlock = std::int64_t{1} << 16;
/// Work (update elements + copied elements) below which one thread does everything.
inline constexpr std::int64_t kScatterSerialWork = std::int64_t{1} << 15;
/// Index rows per claim in the first phase of the element schedule (a claim is two atomic adds
/// on lines all threads use: a few microseconds of work amortise them).
inline constexpr std::int64_t kScatterClaimRows = std::int64_t{1} << 13;
/// Index rows per round of the element schedule (at least; more with many threads): a round's
/// lists (about 4 MiB of filed rows) are applied while they are still in the last-level cache.
inline constexpr std::int64_t kScatterRoundRows = std::int64_t{1} << 19;
/// How many rows ahead the slice schedule asks for its slices.
inline constexpr std::int64_t kScatterPrefetchRows = 16;
/// How many rows ahead the read-modify-writes of the element schedule prefetch: 32 beat 16, 24
/// and 48 on the AMD EPYC VM (alternated builds, 1e7 rows into 1e6 floats).
inline constexpr std::int64_t kScatterElementPrefetchRows = 32;
/// Element updates from which the element schedule pays for filing.
inline constexpr std::int64_t kScatterElementRows = std::int64_t{1} << 16;
/// Slices up to this size are prefetched ahead in the slice schedule; longer ones are
/// sequential enough for the hardware prefetcher.
inline constexpr std::int64_t kScatterPrefetchSliceBytes = 1024;
/// The cache line the prefetches count in.
inline constexpr std::int64_t kScatterCacheLine = 64;

template <class T>
struct ScatterPair {
  std::uint32_t offset;  ///< the output element
  T value;
};

/// Stores the pair (at, u) at `to`. A pair of 4-byte values is put together in a general
/// register and stored at once: one store instead of two, on the filing loop's busiest port.
template <class T>
void scatter_store_pair(ScatterPair<T>* to, std::int64_t at, T u) {
  if constexpr (sizeof(T) == 4 && sizeof(ScatterPair<T>) == 8 &&
                std::endian::native == std::endian::little) {
    const std::uint64_t bits =
        static_cast<std::uint32_t>(at) | (std::uint64_t{std::bit_cast<std::uint32_t>(u)} << 32);
    std::memcpy(static_cast<void*>(to), &bits, sizeof bits);
  } else {
    *to = ScatterPair<T>{static_cast<std::uint32_t>(at), u};
  }
}

/// Asks for `lines` cache lines from the one holding `base[at]`, ahead of read-modify-writes
/// (`Write`) or reads. The lines past the element may lie past the array: the addresses are
/// formed as integers, and a prefetch never faults.
template <bool Write = true, class T>
inline void scatter_prefetch_lines_for_write(const T* base, std::int64_t at, std::int64_t lines) {
#if defined(__GNUC__)
  const std::uintptr_t address =
      reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(at) * sizeof(T);
  for (std::int64_t l = 0; l < lines; ++l) {
    const std::uintptr_t line = address + static_cast<std::uintptr_t>(l) * kScatterCacheLine;
    // NOLINTNEXTLINE(performance-no-int-to-ptr): an integer on purpose (see above)
    __builtin_prefetch(reinterpret_cast<const void*>(line), Write ? 1 : 0);
  }
#else
  (void)base;
  (void)at;
  (void)lines;
#endif
}

/// The same ahead of reads only.
template <class T>
inline void scatter_prefetch_lines_for_read(const T* base, std::int64_t at, std::int64_t lines) {
  scatter_prefetch_lines_for_write<false>(base, at, lines);
}

/// Asks for the cache line of `base[offset]` ahead of a read-modify-write (where the compiler
/// can). `offset` may name no element (a bad row): the address is formed as an integer, and a
/// prefetch never faults, so no branch is needed.
template <class T>
inline void scatter_prefetch_for_write(const T* base, std::int64_t offset) {
  scatter_prefetch_lines_for_write(base, offset, 1);
}

/// The lowest position of an index row that names no slice of `g`, or `rows` when all do.
template <class Index>
std::int64_t scatter_first_bad_row_host(const ScatterGeometry& g, const Index* indices,
                                        std::int64_t rows) {
  const std::int64_t blocks = (rows + kScatterCheckBlock - 1) / kScatterCheckBlock;
  if (blocks == 0) return rows;
  const auto firsts = std::make_unique<std::int64_t[]>(static_cast<std::size_t>(blocks));
  std::int64_t* const slots = firsts.get();
  host_parallel_for(blocks, [&g, indices, rows, slots](std::int64_t b) {
    const std::int64_t begin = b * kScatterCheckBlock;
    const std::int64_t end = std::min(rows, begin + kScatterCheckBlock);
    std::int64_t first = rows;
    for (std::int64_t i = begin; i < end; ++i) {
      if (g.slice_of(indices + i * g.k) < 0) {
        first = i;
        break;
      }
    }
    slots[b] = first;
  });
  // The first block with a bad row holds the lowest one: the message does not depend on timing.
  for (std::int64_t b = 0; b < blocks; ++b) {
    if (slots[b] != rows) return slots[b];
  }
  return rows;
}

}  // namespace tessera::detail
