// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file nonzero_host.hpp
/// The host nonzero kernel: a parallel two-pass compaction over blocks of the input (count the
/// nonzeros of each block, scan the counts, write each block's indices at its offset). The
/// output order is the serial C order; nothing but the output is allocated, and the predicate
/// (`x > 0.5`) is evaluated inside both passes instead of through a mask tensor.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/host_stream_stores.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

/// Per-block row offsets of the output: block b writes rows [offsets[b], offsets[b + 1]).
struct NonzeroPlan {
  std::int64_t block = 0;
  std::vector<std::int64_t> offsets;
  std::int64_t total() const { return offsets.empty() ? 0 : offsets.back(); }
};

// Blocks of 64Ki elements: a few hundred tasks for a 4000x4000 input keep both cores busy,
// while the per-block state (counts, offsets) stays negligible next to the output.
inline constexpr std::int64_t kNonzeroBlock = std::int64_t{1} << 16;

/// Elements per chunk of the contiguous loops below: a chunk's count fits a byte and its
/// "any nonzero" test is one vectorised pass.
inline constexpr std::int64_t kNonzeroChunk = 64;

#if defined(__SSE2__) && defined(__x86_64__) && !defined(__CUDA_ARCH__)
/// 1: the byte loops below use SSE2 (x86-64 host code; emmintrin.h via host_stream_stores.hpp).
#define TESSERA_NONZERO_SSE2 1
#else
#define TESSERA_NONZERO_SSE2 0
#endif

/// Whether nonzero may test `K`'s elements as raw bytes: a tensor of a 1-byte dtype (bool,
/// uint8, int8; all integers, so an element is nonzero exactly when its byte is). Its contiguous
/// loops then compare 16 bytes per instruction instead of converting element by element.
template <class K>
inline constexpr bool kNonzeroBytes = false;
template <class T>
inline constexpr bool kNonzeroBytes<LeafKernel<T>> = sizeof(T) == 1 && Integral<T>;

/// The number of nonzero bytes in [p, p + n). With SSE2, 64 bytes a round: four compares with
/// zero whose -1 lanes are subtracted from byte counters (at most 4 a round), summed (psadbw)
/// every 63 rounds, before they could overflow. No per-element conversion and no horizontal
/// sum per chunk, so the counting pass runs at memory speed (the byte-wise loop it replaces
/// read a 4000x4000 bool at ~11 GB/s on the Xeon).
inline std::int64_t nonzero_count_bytes(const std::uint8_t* p, std::int64_t n) {
  std::int64_t zeros = 0, i = 0;
#if TESSERA_NONZERO_SSE2
  constexpr std::int64_t kRound = 64, kRounds = 255 / 4;
  const __m128i zero = _mm_setzero_si128();
  const auto is_zero = [&](std::int64_t at) {
    return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at)), zero);
  };
  while (n - i >= kRound) {
    const std::int64_t stop = i + kRound * std::min(kRounds, (n - i) / kRound);
    __m128i counts = zero;
    for (; i < stop; i += kRound) {
      const __m128i low = _mm_add_epi8(is_zero(i), is_zero(i + 16));
      const __m128i high = _mm_add_epi8(is_zero(i + 32), is_zero(i + 48));
      counts = _mm_sub_epi8(counts, _mm_add_epi8(low, high));
    }
    const __m128i sums = _mm_sad_epu8(counts, zero);
    zeros += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
  }
#endif
  for (; i < n; ++i) zeros += static_cast<std::int64_t>(p[i] == 0);
  return n - zeros;
}

/// The bytes of a kNonzeroBytes kernel from linear position i on.
template <class K>
const std::uint8_t* nonzero_bytes_at(const K& k, std::int64_t i) {
  return reinterpret_cast<const std::uint8_t*>(k.data) + i;
}

template <class K>
std::int64_t nonzero_count_range(const K& k, const Extents& extents, bool linear,
                                 std::int64_t begin, std::int64_t end) {
  std::int64_t count = 0;
  if constexpr (kNonzeroBytes<K>) {
    if (linear) return nonzero_count_bytes(nonzero_bytes_at(k, begin), end - begin);
  }
  if (linear) {
    // Byte-wide partial counts vectorise with GCC 12 (16 lanes per instruction); 32- and 64-bit
    // accumulators fed by the compares do not. A chunk of 64 cannot overflow a byte.
    static_assert(kNonzeroChunk < 256);
    std::int64_t i = begin;
    for (; i + kNonzeroChunk <= end; i += kNonzeroChunk) {
      std::uint8_t partial = 0;
      for (std::int64_t j = 0; j < kNonzeroChunk; ++j) {
        partial += static_cast<std::uint8_t>(k.linear(i + j) != 0);
      }
      count += partial;
    }
    for (; i < end; ++i) count += (k.linear(i) != 0);
  } else {
    std::int64_t index[kMaxDims];
    zero_dims(index);
    extents.unravel(begin, index);
    for (std::int64_t i = begin; i < end; ++i) {
      count += (k.at(index) != 0);
      extents.increment(index);
    }
  }
  return count;
}

/// Names nonzero's passes over one kind of input for host_adaptive_blocks (cost per block).
template <class K, int Pass>
struct NonzeroWork {};

/// Pass 1: counts per block and their exclusive scan. Both passes run their blocks on the
/// calling thread alone when a parallel region would cost more than it saves
/// (host_adaptive_blocks): 10^5 bools, half true, on 2 threads of a passive OpenMP pool took
/// 136-145 us in two regions and 46 us on one thread. The writing pass's cost per block
/// depends on the density, so each call prices it afresh (HostSplit::fresh).
template <class K>
NonzeroPlan nonzero_plan_host(const K& k, const Extents& extents, bool linear) {
  NonzeroPlan plan;
  const std::int64_t n = extents.numel();
  plan.block = kNonzeroBlock;
  const std::int64_t blocks = (n + plan.block - 1) / plan.block;
  plan.offsets.assign(static_cast<std::size_t>(blocks) + 1, 0);
  std::int64_t* counts = plan.offsets.data() + 1;
  const std::int64_t block = plan.block;
  host_adaptive_blocks<NonzeroWork<K, 1>>(
      blocks, [&k, &extents, linear, counts, block, n](std::int64_t b) {
        const std::int64_t begin = b * block;
        counts[b] = nonzero_count_range(k, extents, linear, begin, std::min(n, begin + block));
      });
  for (std::int64_t b = 0; b < blocks; ++b) plan.offsets[b + 1] += plan.offsets[b];
  return plan;
}

/// Bit j of the result says whether element `i + j` of a contiguous input is nonzero, for j in
/// [0, kNonzeroChunk). The flags are computed a byte each (that loop vectorises) and packed with
/// movemask where SSE2 exists.
template <class K>
std::uint64_t nonzero_mask_chunk(const K& k, std::int64_t i) {
  static_assert(kNonzeroChunk == 64);
#if TESSERA_NONZERO_SSE2
  // uint8/int8: compare the bytes with zero. Not bool: its bytes are already the 0/1 flags
  // below, and that loop was ~5 % faster in the dense pass (4000x4000 at 50 %).
  if constexpr (kNonzeroBytes<K> && !std::is_same_v<typename K::value_type, bool>) {
    const std::uint8_t* p = nonzero_bytes_at(k, i);
    std::uint64_t zeros = 0;
    for (int q = 0; q < 4; ++q) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * q));
      const auto bits =
          static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
      zeros |= std::uint64_t{bits} << (16 * q);
    }
    return ~zeros;
  }
#endif
  alignas(16) std::uint8_t flags[kNonzeroChunk];
  for (std::int64_t j = 0; j < kNonzeroChunk; ++j) {
    flags[j] = static_cast<std::uint8_t>(k.linear(i + j) != 0);
  }
  std::uint64_t mask = 0;
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  for (std::ptrdiff_t q = 0; q < 4; ++q) {
    // Flags are 0 or 1: shifting each byte's bit 0 to bit 7 lets movemask collect them.
    const __m128i bytes = _mm_load_si128(reinterpret_cast<const __m128i*>(flags + 16 * q));
    const auto bits = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_slli_epi16(bytes, 7)));
    mask |= std::uint64_t{bits} << (16 * q);
  }
#else
  for (std::int64_t j = 0; j < kNonzeroChunk; ++j) mask |= std::uint64_t{flags[j]} << j;
#endif
  return mask;
}

/// Whether a chunk of a contiguous input (kNonzeroChunk elements from i) holds a nonzero: the
/// sparse writing pass skips the chunks that do not after this one test. Bytes: the OR of the
/// chunk's four 16-byte vectors compared once with zero. (Testing four chunks at once before
/// these was slower at 0.1 % density: its exit branch mispredicts on 23 % of the groups.)
template <class K>
bool nonzero_chunk_any(const K& k, std::int64_t i) {
#if TESSERA_NONZERO_SSE2
  if constexpr (kNonzeroBytes<K>) {
    const auto* p = reinterpret_cast<const __m128i*>(nonzero_bytes_at(k, i));
    const __m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                     _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(any, _mm_setzero_si128())) != 0xFFFF;
  }
#endif
  std::uint8_t any = 0;  // a byte, not a bool: this form vectorises
  for (std::int64_t j = 0; j < kNonzeroChunk; ++j) {
    any |= static_cast<std::uint8_t>(k.linear(i + j) != 0);
  }
  return any != 0;
}

/// Output size from which the dense rows are written with non-temporal stores: far past what
/// any cache keeps, such an output only costs bandwidth, and a plain store first reads the line
/// it writes (a 4000x4000 input at 99 % writes 253 MB: 22 ms with plain stores, 13-19 ms
/// streaming, on the 2-core build machine).
inline constexpr std::int64_t kNonzeroStreamBytes = std::int64_t{32} << 20;

/// Chunks with at most this many zeros are written run by run (see nonzero_write_run); sparser
/// ones store set bit by set bit, which is cheaper once runs average a few elements.
inline constexpr int kNonzeroRunZeros = 3;

/// The number of zero bits of a chunk's mask when at most kNonzeroRunZeros, otherwise -1. Not
/// std::popcount: the baseline x86-64 target has no popcount instruction, and GCC calls a
/// library function instead, once per chunk (4000x4000 at 50 %, one thread: 22 -> 19-20 ms).
inline int nonzero_chunk_zeros(std::uint64_t mask) {
  std::uint64_t zeros = ~mask;
  int count = 0;
  for (; count < kNonzeroRunZeros && zeros != 0; ++count) zeros &= zeros - 1;
  return zeros == 0 ? count : -1;
}

/// Stores one index: with `Stream`, non-temporal (the line bypasses the caches; written in
/// order, a line's stores combine into one write to memory).
template <bool Stream>
[[gnu::always_inline]] inline void nonzero_store(std::int64_t* dst, std::int64_t value) {
#if TESSERA_HOST_STREAM_STORES
  if constexpr (Stream) {
    _mm_stream_si64(reinterpret_cast<long long*>(dst), static_cast<long long>(value));
    return;
  }
#endif
  *dst = value;
}

#if TESSERA_HOST_STREAM_STORES
/// Streams the (row, column) pair of every set bit of `mask` to the contiguous (rows, 2) output
/// `data` from `row` on (at most up to `row_end`): `base` holds the chunk's row index and first
/// column. Returns the next row.
inline std::int64_t nonzero_stream_pairs(std::int64_t* data, std::int64_t row, std::int64_t row_end,
                                         __m128i base, std::uint64_t mask) {
  for (; mask != 0 && row < row_end; ++row) {
    const auto offset = static_cast<long long>(std::countr_zero(mask));
    mask &= mask - 1;
    const __m128i pair = _mm_add_epi64(base, _mm_slli_si128(_mm_cvtsi64_si128(offset), 8));
    _mm_stream_si128(reinterpret_cast<__m128i*>(data + row * 2), pair);
  }
  return row;
}
#endif

/// Where pass 2 writes: the output's base, strides, and the row range of one block.
struct NonzeroRows {
  std::int64_t* data;
  std::int64_t row_stride;
  std::int64_t col_stride;
  std::int64_t row;
  std::int64_t row_end;
};

/// Stores one output row: the run's fixed outer indices, then the innermost index `column`.
/// Rank is a template parameter for ranks 1-3 (0 = any): a run-time loop over the prefix gets
/// turned into a memcpy call per row by GCC.
template <int Rank, bool Stream = false>
[[gnu::always_inline]] inline void nonzero_store_row(std::int64_t* dst, std::int64_t cs,
                                                     const std::int64_t* prefix, int last,
                                                     std::int64_t column) {
  if constexpr (Rank == 2) {
    nonzero_store<Stream>(dst, prefix[0]);
  } else if constexpr (Rank == 3) {
    nonzero_store<Stream>(dst, prefix[0]);
    nonzero_store<Stream>(dst + cs, prefix[1]);
  } else if constexpr (Rank == 0) {
    for (int d = 0; d < last; ++d) {
      nonzero_store<Stream>(dst + d * cs, prefix[d]);
      asm volatile("" ::: "memory");  // keeps GCC from calling memcpy per element
    }
  }
  nonzero_store<Stream>(dst + last * cs, column);
}

/// Writes the nonzeros of one innermost run [first, end) (outer indices `index[0..last)`,
/// columns starting at `column`). Everything the loop reads lives in locals or `__restrict`
/// memory, so the compiler keeps it in registers across the stores. With `Stream`, the dense
/// contiguous loop's rows are stored non-temporally (the caller fences).
template <bool Dense, int Rank, bool Stream, class K>
std::int64_t nonzero_write_run(const K& k, bool linear, std::int64_t* index, int last,
                               std::int64_t first, std::int64_t end, std::int64_t column,
                               NonzeroRows rows) {
  if constexpr (Rank > 0) last = Rank - 1;
  std::int64_t prefix[kMaxDims];
  for (int d = 0; d < last; ++d) prefix[d] = index[d];
  std::int64_t* __restrict const data = rows.data;
  const std::int64_t rs = rows.row_stride;
  const std::int64_t cs = rows.col_stride;
  std::int64_t row = rows.row;
  const std::int64_t row_end = rows.row_end;
  std::int64_t i = first;
  if constexpr (Dense) {
    // Dense and contiguous: each chunk's nonzeros become one mask, and only its set bits are
    // visited (count-trailing-zeros), so a store is issued per nonzero, not per element, and
    // no branch depends on the data.
    if (linear) {
#if TESSERA_HOST_STREAM_STORES
      if constexpr (Stream && Rank == 2) {
        // (row, column) pairs, contiguous and 16-byte aligned: one 16-byte store per row. A
        // chunk with few zeros (most chunks at high density) is written as the runs of
        // consecutive columns between its zeros, each run a loop of stores with no branch on
        // the data; visiting every set bit instead costs ~8 instructions a row, which made the
        // kernel compute-bound (4000x4000: 15-18 ms at 99 % density, 9-13 ms for an all-true
        // input, whose chunks were already written as runs).
        if (cs == 1 && rs == 2 && reinterpret_cast<std::uintptr_t>(data) % 16 == 0) {
          const __m128i next_column = _mm_set_epi64x(1, 0);
          for (; i + kNonzeroChunk <= end && row < row_end; i += kNonzeroChunk) {
            const std::int64_t chunk_column = column + (i - first);
            const __m128i base = _mm_set_epi64x(chunk_column, prefix[0]);
            std::uint64_t mask = nonzero_mask_chunk(k, i);
            const int zeros = nonzero_chunk_zeros(mask);
            const std::int64_t set = kNonzeroChunk - zeros;
            if (zeros >= 0 && row + set <= row_end) {
              std::int64_t* dst = data + row * 2;
              __m128i pair = base;
              std::int64_t j = 0;
              for (std::uint64_t zeros = ~mask;;) {
                const std::int64_t zero = zeros == 0 ? kNonzeroChunk : std::countr_zero(zeros);
                for (; j < zero; ++j) {
                  _mm_stream_si128(reinterpret_cast<__m128i*>(dst), pair);
                  dst += 2;
                  pair = _mm_add_epi64(pair, next_column);
                }
                if (zero == kNonzeroChunk) break;
                zeros &= zeros - 1;
                j = zero + 1;  // the zero's column is skipped
                pair = _mm_add_epi64(pair, next_column);
              }
              row += set;
              continue;
            }
            row = nonzero_stream_pairs(data, row, row_end, base, mask);
          }
          if (i < end && row < row_end) {
            // The run's last, partial chunk, streamed too: written with plain stores, its lines
            // shared the write-combining of the streamed rows before them.
            const std::int64_t tail = end - i;
            std::uint64_t mask = 0;
            for (std::int64_t j = 0; j < tail; ++j) {
              mask |= std::uint64_t{k.linear(i + j) != 0} << j;
            }
            const __m128i base = _mm_set_epi64x(column + (i - first), prefix[0]);
            row = nonzero_stream_pairs(data, row, row_end, base, mask);
            i = end;
          }
        }
      }
#endif
      for (; i + kNonzeroChunk <= end && row < row_end; i += kNonzeroChunk) {
        for (std::uint64_t mask = nonzero_mask_chunk(k, i); mask != 0 && row < row_end; ++row) {
          const std::int64_t at = column + (i - first) + std::countr_zero(mask);
          mask &= mask - 1;
          nonzero_store_row<Rank, Stream>(data + row * rs, cs, prefix, last, at);
        }
      }
      column += i - first;
    }
  }
  for (; i < end && row < row_end;) {
    std::int64_t stop = end;
    if constexpr (!Dense) {
      // Sparse: a chunk without a nonzero is skipped after one vectorised test; in a chunk with
      // one, only the set bits of its mask are visited (count-trailing-zeros), as in the dense
      // loop. Walking such a chunk element by element made the write pass 4x the count pass
      // at 0.1 % density, where 6 % of chunks hold a nonzero (4000x4000, one thread).
      if (linear && i + kNonzeroChunk <= end) {
        if (nonzero_chunk_any(k, i)) {
          for (std::uint64_t mask = nonzero_mask_chunk(k, i); mask != 0 && row < row_end; ++row) {
            const std::int64_t at = column + std::countr_zero(mask);
            mask &= mask - 1;
            nonzero_store_row<Rank>(data + row * rs, cs, prefix, last, at);
          }
        }
        i += kNonzeroChunk;
        column += kNonzeroChunk;
        continue;
      }
    }
    for (; i < stop && row < row_end; ++i, ++column) {
      bool nonzero;
      if (linear) {
        nonzero = k.linear(i) != 0;
      } else {
        index[last] = column;
        nonzero = k.at(index) != 0;
      }
      if constexpr (Dense && Stream) {
        // Streamed where the chunks before were (a partial chunk's plain stores would meet
        // their write-combined lines; see the rank-2 tail above), and only for nonzeros:
        // streaming stores are weakly ordered, so none is written to be overwritten.
        if (nonzero) nonzero_store_row<Rank, true>(data + row * rs, cs, prefix, last, column);
        row += static_cast<std::int64_t>(nonzero);
      } else if (Dense || nonzero) {
        nonzero_store_row<Rank>(data + row * rs, cs, prefix, last, column);
        row += Dense ? static_cast<std::int64_t>(nonzero) : 1;
      }
    }
  }
  return row;
}

template <bool Dense, bool Stream, class K>
std::int64_t nonzero_write_run_any_rank(const K& k, bool linear, std::int64_t* index, int last,
                                        std::int64_t first, std::int64_t end, std::int64_t column,
                                        NonzeroRows rows) {
  switch (last) {
    case 0:
      return nonzero_write_run<Dense, 1, Stream>(k, linear, index, last, first, end, column, rows);
    case 1:
      return nonzero_write_run<Dense, 2, Stream>(k, linear, index, last, first, end, column, rows);
    case 2:
      return nonzero_write_run<Dense, 3, Stream>(k, linear, index, last, first, end, column, rows);
    default:
      return nonzero_write_run<Dense, 0, Stream>(k, linear, index, last, first, end, column, rows);
  }
}

/// Pass 2: block b writes the multi-indices of its nonzeros at rows offsets[b]...; rows at or
/// beyond `row_limit` are skipped (nonzero_static). `out` is (rows, ndim) with any strides.
///
/// The block is walked one innermost-dimension run at a time, so the outer indices are fixed
/// within a run. Dense blocks write every element's index unconditionally and advance the row
/// only past nonzeros (no data-dependent branch); sparse blocks branch, which predicts well.
/// An output past kNonzeroStreamBytes is written with non-temporal stores where dense.
template <class K>
void nonzero_write_host(const K& k, const Extents& extents, bool linear, const NonzeroPlan& plan,
                        const TensorView<std::int64_t>& out, std::int64_t row_limit) {
  const std::int64_t n = extents.numel();
  const auto blocks = static_cast<std::int64_t>(plan.offsets.size()) - 1;
  const std::int64_t* offsets = plan.offsets.data();
  const std::int64_t block = plan.block;
  const int ndim = extents.ndim;
  if (ndim == 0) return;  // a 0-d input's rows have no columns to write
  const int last = ndim - 1;
  const std::int64_t inner = extents.shape[last];
  const NonzeroRows target{out.data, out.strides[0], out.ndim > 1 ? out.strides[1] : 0, 0, 0};
  const bool stream = kHostStreamStores && linear &&
                      std::min(plan.total(), row_limit) * ndim * 8 >= kNonzeroStreamBytes;
  host_adaptive_blocks<NonzeroWork<K, 2>, true>(blocks, [=, &k, &extents](std::int64_t b) {
    NonzeroRows rows = target;
    rows.row = offsets[b];
    rows.row_end = std::min(offsets[b + 1], row_limit);
    if (rows.row >= rows.row_end) return;
    // Dense enough that a branch per element would mispredict often.
    const bool dense = (offsets[b + 1] - offsets[b]) * 16 > block;
    const std::int64_t end = std::min(n, b * block + block);
    std::int64_t index[kMaxDims];
    zero_dims(index);
    extents.unravel(b * block, index);
    for (std::int64_t i = b * block; i < end && rows.row < rows.row_end;) {
      const std::int64_t run_end = std::min(end, i + (inner - index[last]));
      if (!dense) {
        rows.row = nonzero_write_run_any_rank<false, false>(k, linear, index, last, i, run_end,
                                                            index[last], rows);
      } else if (stream) {
        rows.row = nonzero_write_run_any_rank<true, true>(k, linear, index, last, i, run_end,
                                                          index[last], rows);
      } else {
        rows.row = nonzero_write_run_any_rank<true, false>(k, linear, index, last, i, run_end,
                                                           index[last], rows);
      }
      i = run_end;
      // Next run: the innermost index wraps, the outer ones carry.
      index[last] = inner - 1;
      extents.increment(index);
    }
    // Non-temporal stores are weakly ordered: they must be visible before the block's task
    // ends (the join that follows orders only ordinary stores).
    if (stream) stream_store_fence();
  });
}

}  // namespace tessera::detail
