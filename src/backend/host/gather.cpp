// SPDX-License-Identifier: BSD-3-Clause
// The host gather kernel, instantiated per element width and index type. The output is cut
// into contiguous parts (host_adaptive_for); each part walks its positions along the innermost
// output dimension in runs, computing the offsets once per run and then stepping them. A run
// whose index entries are constant along it (a slice gather: index_select over rows,
// gather_nd of slices, cat) resolves its entries once and copies the run; otherwise each
// element reads its entries. Slices contiguous in source and destination that some index
// picks (index_select(0, rows), x[rows], gather_nd of slices) are copied row after row by
// copy_rows: no per-run coordinate bookkeeping, the source rows of later entries prefetched.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>

#include "backend/gather_kernels.hpp"
#include "tessera/expr/host_parallel.hpp"
#include "tessera/expr/host_stream_stores.hpp"

namespace tessera::detail::host_ops {

namespace {

/// Work below this many output elements stays on the calling thread.
constexpr std::int64_t kSerialElements = 1 << 15;

/// Names the gather's work for host_adaptive_for's records.
struct GatherWork {};

/// Adds to `offset` the source offset of the entries `j` steps along output dim `dim` from
/// `pos` (one position per index); false when an entry is out of range. NI: the number of
/// index tensors when known at compile time (1: the common row gather), 0: plan.nindex.
template <int NI, class I>
[[gnu::always_inline]] inline bool resolve_at(const GatherPlan& plan, const std::int64_t* pos,
                                              int dim, std::int64_t j, std::int64_t& offset) {
  const int ni = NI > 0 ? NI : plan.nindex;
  for (int k = 0; k < ni; ++k) {
    const GatherIndex& index = plan.index[k];
    const I* entries = static_cast<const I*>(index.data);
    auto e = static_cast<std::int64_t>(entries[pos[k] + j * index.strides[dim]]);
    if (plan.wrap && e < 0) e += index.extent;
    if (e < 0 || e >= index.extent) return false;
    offset += e * index.src_stride;
  }
  return true;
}

/// The source offset contributed by the entries at `pos` (one per index), or false when an
/// entry is out of range.
template <class I>
bool resolve(const GatherPlan& plan, const std::int64_t* pos, std::int64_t& offset) {
  return resolve_at<0, I>(plan, pos, 0, 0, offset);
}

/// Rows ahead whose source is prefetched in copy_rows. A random row of 64 bytes is a cache
/// miss of ~100 ns; copying one takes a few ns, so the miss must start a few dozen rows early
/// for the copy never to wait on it.
constexpr std::int64_t kPrefetchRows = 24;

/// Source bytes of a row prefetched at most: longer rows are read sequentially, which the
/// hardware prefetcher follows once the first lines have come.
constexpr std::size_t kPrefetchBytes = 256;

/// Asks for the cache lines of the slice at `from` (`bytes` long, at most kPrefetchBytes).
inline void prefetch_slice(const unsigned char* from, std::size_t bytes) {
  const std::size_t span = std::min(bytes, kPrefetchBytes);
  for (std::size_t b = 0; b < span; b += kStreamLineBytes) __builtin_prefetch(from + b);
  __builtin_prefetch(from + span - 1);  // the last line of a slice that straddles lines
}

/// Copies one contiguous slice of `bytes` bytes (the buffers do not overlap: a gather writes a
/// new tensor). Whole 64-byte blocks (a row of 16 floats is one) are fixed-size copies, which
/// compile to vector loads and stores instead of a call; with Stream (`to` 16-byte aligned),
/// the blocks bypass the caches (see copy_rows). The tail of a slice that is not a multiple of
/// 64 bytes is one variable-size copy.
template <bool Stream>
[[gnu::always_inline]] inline void copy_slice(unsigned char* to, const unsigned char* from,
                                              std::size_t bytes) {
  std::size_t b = 0;
  for (; b + kStreamLineBytes <= bytes; b += kStreamLineBytes) {
#if TESSERA_HOST_STREAM_STORES
    if constexpr (Stream) {
      for (std::size_t q = 0; q < kStreamLineBytes; q += sizeof(__m128i)) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + b + q));
        _mm_stream_si128(reinterpret_cast<__m128i*>(to + b + q), v);
      }
      continue;
    }
#endif
    std::memcpy(to + b, from + b, kStreamLineBytes);
  }
  if (b < bytes) std::memcpy(to + b, from + b, bytes - b);
}

/// Copies `rows` slices of `len` contiguous elements along output dim `dim`, starting at the
/// offsets `so`, `dof` and index positions `pos`; a row whose entry is out of range gets zeros.
/// Returns the first such row, or -1. Each row's source is resolved once, and the rows
/// kPrefetchRows ahead are prefetched, so that the random reads of a row gather overlap.
/// With Stream (the caller checked that every row fills whole aligned lines), the output
/// bypasses the caches: a gather too large for them would otherwise read every output line
/// before writing it. Out of line: it runs once per stretch of rows.
template <bool Stream, int NI, class W, class I>
[[gnu::noinline]] std::int64_t copy_rows(const GatherPlan& plan, const W* src, W* dst,
                                         std::int64_t so, std::int64_t dof, const std::int64_t* pos,
                                         int dim, std::int64_t rows, std::int64_t len) {
  const std::int64_t srs = plan.src_strides[dim], drs = plan.dst_strides[dim];
  const auto bytes = static_cast<std::size_t>(len) * sizeof(W);
  const auto* from = reinterpret_cast<const unsigned char*>(src);
  std::int64_t first_bad = -1;
  for (std::int64_t j = 0; j < rows; ++j) {
    if (const std::int64_t ahead = j + kPrefetchRows; ahead < rows) {
      std::int64_t offset = so + ahead * srs;
      if (resolve_at<NI, I>(plan, pos, dim, ahead, offset)) {
        prefetch_slice(from + offset * static_cast<std::int64_t>(sizeof(W)), bytes);
      }
    }
    std::int64_t offset = so + j * srs;
    W* to = dst + dof + j * drs;
    if (resolve_at<NI, I>(plan, pos, dim, j, offset)) {
      copy_slice<Stream>(reinterpret_cast<unsigned char*>(to),
                         from + offset * static_cast<std::int64_t>(sizeof(W)), bytes);
    } else {
      if (first_bad < 0) first_bad = j;
      std::fill(to, to + len, W{});
    }
  }
  return first_bad;
}

/// dst = the element at `offset`, or (Emit) the offset itself.
template <bool Emit, class W>
void put(W& dst, const W* src, std::int64_t offset) {
  if constexpr (Emit) {
    static_assert(sizeof(W) == sizeof offset);
    std::memcpy(&dst, &offset, sizeof offset);
  } else {
    dst = src[offset];
  }
}

/// Whether `plan` picks whole innermost runs contiguous in source and destination along an
/// outer dim (index_select(0, rows), x[rows], gather_nd of slices): copy_rows copies them.
inline bool row_gather(const GatherPlan& plan) {
  const int last = plan.ndim - 1;
  bool varies = false;
  for (int k = 0; k < plan.nindex; ++k) varies = varies || plan.index[k].strides[last] != 0;
  return !plan.emit_offsets && plan.ndim >= 2 && plan.nindex >= 1 && !varies &&
         plan.src_strides[last] == 1 && plan.dst_strides[last] == 1;
}

/// Copies output positions [begin, end); returns the first with a bad entry, or -1. Rows: the
/// plan is a row_gather; `stream`: its output is large enough for copy_rows to bypass the
/// caches where its rows allow. (Plans of element gathers get an instantiation without the row
/// path: with it, the element loops below ran ~10 % slower, gather(1, idx) of 1e6 x 16.)
template <bool Emit, bool Rows, class W, class I>
std::int64_t gather_part(const GatherPlan& plan, const W* src, W* dst, std::int64_t begin,
                         std::int64_t end, bool stream) {
  const int nd = plan.ndim, last = nd - 1, ni = plan.nindex;
  std::int64_t c[kMaxDims];
  for (std::int64_t rest = begin, d = last; d >= 0; --d) {
    c[d] = rest % plan.shape[d];
    rest /= plan.shape[d];
  }
  bool varies = false;  // some index entry changes along the innermost dimension
  for (int k = 0; k < ni; ++k) varies = varies || plan.index[k].strides[last] != 0;
  const std::int64_t ss = plan.src_strides[last], ds = plan.dst_strides[last];
  const std::int64_t len = plan.shape[last];
  // Rows are streamed when every row fills whole aligned lines.
  const int outer = last - 1;
  const auto line = static_cast<std::int64_t>(kStreamLineBytes);
  const auto row_bytes = len * static_cast<std::int64_t>(sizeof(W));
  stream = Rows && stream && row_bytes % line == 0 &&
           plan.dst_strides[std::max(outer, 0)] * static_cast<std::int64_t>(sizeof(W)) % line == 0;
  std::int64_t first_bad = -1;
  for (std::int64_t p = begin; p < end;) {
    const std::int64_t run = std::min(end - p, len - c[last]);
    std::int64_t so = 0, dof = 0, pos[kMaxDims];
    for (int d = 0; d < nd; ++d) {
      so += c[d] * plan.src_strides[d];
      dof += c[d] * plan.dst_strides[d];
    }
    for (int k = 0; k < ni; ++k) {
      pos[k] = 0;
      for (int d = 0; d < nd; ++d) pos[k] += c[d] * plan.index[k].strides[d];
    }
    if constexpr (Rows) {
      if (c[last] == 0 && end - p >= len) {
        // The whole rows left of this part along `outer` (up to where it wraps).
        const std::int64_t rows = std::min((end - p) / len, plan.shape[outer] - c[outer]);
        const bool aligned = reinterpret_cast<std::uintptr_t>(dst + dof) % kStreamLineBytes == 0;
        std::int64_t bad = -1;
        if (stream && aligned) {
          bad = ni == 1 ? copy_rows<true, 1, W, I>(plan, src, dst, so, dof, pos, outer, rows, len)
                        : copy_rows<true, 0, W, I>(plan, src, dst, so, dof, pos, outer, rows, len);
        } else {
          bad = ni == 1 ? copy_rows<false, 1, W, I>(plan, src, dst, so, dof, pos, outer, rows, len)
                        : copy_rows<false, 0, W, I>(plan, src, dst, so, dof, pos, outer, rows, len);
        }
        if (bad >= 0 && first_bad < 0) first_bad = p + bad * len;
        p += rows * len;
        c[outer] += rows;
        for (int d = outer; d > 0 && c[d] == plan.shape[d]; --d) {
          c[d] = 0;
          ++c[d - 1];
        }
        continue;
      }
    }
    if (!varies) {
      std::int64_t offset = so;
      if (resolve<I>(plan, pos, offset)) {
        W* to = dst + dof;
        if (Emit) {
          for (std::int64_t j = 0; j < run; ++j) put<Emit>(to[j * ds], src, offset + j * ss);
        } else if (ss == 1 && ds == 1) {
          std::copy(src + offset, src + offset + run, to);
        } else {
          for (std::int64_t j = 0; j < run; ++j) to[j * ds] = src[offset + j * ss];
        }
      } else {
        if (first_bad < 0) first_bad = p;
        for (std::int64_t j = 0; j < run; ++j) dst[dof + j * ds] = W{};
      }
    } else if (ni == 1) {  // the common per-element gather: one index tensor
      const GatherIndex& index = plan.index[0];
      const I* entries = static_cast<const I*>(index.data) + pos[0];
      const std::int64_t es = index.strides[last], extent = index.extent;
      const std::int64_t sstride = index.src_stride;
      for (std::int64_t j = 0; j < run; ++j) {
        auto e = static_cast<std::int64_t>(entries[j * es]);
        if (plan.wrap && e < 0) e += extent;
        if (e >= 0 && e < extent) {
          put<Emit>(dst[dof + j * ds], src, so + j * ss + e * sstride);
        } else {
          if (first_bad < 0) first_bad = p + j;
          dst[dof + j * ds] = W{};
        }
      }
    } else {
      for (std::int64_t j = 0; j < run; ++j) {
        std::int64_t offset = so + j * ss, at[kMaxDims];
        for (int k = 0; k < ni; ++k) at[k] = pos[k] + j * plan.index[k].strides[last];
        if (resolve<I>(plan, at, offset)) {
          put<Emit>(dst[dof + j * ds], src, offset);
        } else {
          if (first_bad < 0) first_bad = p + j;
          dst[dof + j * ds] = W{};
        }
      }
    }
    p += run;
    c[last] += run;
    for (int d = last; d > 0 && c[d] == plan.shape[d]; --d) {
      c[d] = 0;
      ++c[d - 1];
    }
  }
  // Streaming stores are weakly ordered: visible before the part ends (the join that follows
  // orders only ordinary stores).
  if (stream) stream_store_fence();
  return first_bad;
}

}  // namespace

template <class W, class I>
std::int64_t gather(const GatherPlan& plan, const W* src, W* dst) {
  const std::int64_t n = plan.numel();
  // Large outputs only: one that stays in cache is read back faster from there
  // (host_stream_stores.hpp).
  const bool rows = row_gather(plan);
  const bool stream = rows && host_streams_output<W>(n * static_cast<std::int64_t>(sizeof(W)));
  std::atomic<std::int64_t> first_bad{std::numeric_limits<std::int64_t>::max()};
  host_adaptive_for<GatherWork>(
      n, HostSplit{kSerialElements, 1 << 13, 64, false}, [&](std::int64_t begin, std::int64_t end) {
        std::int64_t bad = -1;
        if constexpr (sizeof(W) == sizeof(std::int64_t)) {
          bad = plan.emit_offsets
                    ? gather_part<true, false, W, I>(plan, src, dst, begin, end, false)
                : rows ? gather_part<false, true, W, I>(plan, src, dst, begin, end, stream)
                       : gather_part<false, false, W, I>(plan, src, dst, begin, end, false);
        } else {
          bad = rows ? gather_part<false, true, W, I>(plan, src, dst, begin, end, stream)
                     : gather_part<false, false, W, I>(plan, src, dst, begin, end, false);
        }
        if (bad < 0) return;
        std::int64_t seen = first_bad.load(std::memory_order_relaxed);
        while (bad < seen &&
               !first_bad.compare_exchange_weak(seen, bad, std::memory_order_relaxed)) {
        }
      });
  const std::int64_t bad = first_bad.load(std::memory_order_relaxed);
  return plan.zero_bad || bad == std::numeric_limits<std::int64_t>::max() ? -1 : bad;
}

#define TESSERA_INSTANTIATE_GATHER_HOST(N)                            \
  template std::int64_t gather<GatherElement<N>, std::int32_t>(       \
      const GatherPlan&, const GatherElement<N>*, GatherElement<N>*); \
  template std::int64_t gather<GatherElement<N>, std::int64_t>(       \
      const GatherPlan&, const GatherElement<N>*, GatherElement<N>*);
TESSERA_INSTANTIATE_GATHER_HOST(1)
TESSERA_INSTANTIATE_GATHER_HOST(2)
TESSERA_INSTANTIATE_GATHER_HOST(4)
TESSERA_INSTANTIATE_GATHER_HOST(8)
#undef TESSERA_INSTANTIATE_GATHER_HOST

}  // namespace tessera::detail::host_ops
