// The host gather kernel, instantiated per element width and index type. The output is cut
// into contiguous parts (host_adaptive_for); each part walks its positions along the innermost
// output dimension in runs, computing the offsets once per run and then stepping them. A run
// whose index entries are constant along it (a slice gather: index_select over rows,
// gather_nd of slices, cat) resolves its entries once and copies the run; otherwise each
// element reads its entries.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>

#include "backend/gather_kernels.hpp"
#include "tessera/expr/host_parallel.hpp"

namespace tessera::detail::host_ops {

namespace {

/// Work below this many output elements stays on the calling thread.
constexpr std::int64_t kSerialElements = 1 << 15;

/// Names the gather's work for host_adaptive_for's records.
struct GatherWork {};

/// The source offset contributed by the entries at `pos` (one per index), or false when an
/// entry is out of range.
template <class I>
bool resolve(const GatherPlan& plan, const std::int64_t* pos, std::int64_t& offset) {
  for (int k = 0; k < plan.nindex; ++k) {
    const GatherIndex& index = plan.index[k];
    auto e = static_cast<std::int64_t>(static_cast<const I*>(index.data)[pos[k]]);
    if (plan.wrap && e < 0) e += index.extent;
    if (e < 0 || e >= index.extent) return false;
    offset += e * index.src_stride;
  }
  return true;
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

/// Copies output positions [begin, end); returns the first with a bad entry, or -1.
template <bool Emit, class W, class I>
std::int64_t gather_part(const GatherPlan& plan, const W* src, W* dst, std::int64_t begin,
                         std::int64_t end) {
  const int nd = plan.ndim, last = nd - 1, ni = plan.nindex;
  std::int64_t c[kMaxDims];
  for (std::int64_t rest = begin, d = last; d >= 0; --d) {
    c[d] = rest % plan.shape[d];
    rest /= plan.shape[d];
  }
  bool varies = false;  // some index entry changes along the innermost dimension
  for (int k = 0; k < ni; ++k) varies = varies || plan.index[k].strides[last] != 0;
  const std::int64_t ss = plan.src_strides[last], ds = plan.dst_strides[last];
  std::int64_t first_bad = -1;
  for (std::int64_t p = begin; p < end;) {
    const std::int64_t run = std::min(end - p, plan.shape[last] - c[last]);
    std::int64_t so = 0, dof = 0, pos[kMaxDims];
    for (int d = 0; d < nd; ++d) {
      so += c[d] * plan.src_strides[d];
      dof += c[d] * plan.dst_strides[d];
    }
    for (int k = 0; k < ni; ++k) {
      pos[k] = 0;
      for (int d = 0; d < nd; ++d) pos[k] += c[d] * plan.index[k].strides[d];
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
  return first_bad;
}

}  // namespace

template <class W, class I>
std::int64_t gather(const GatherPlan& plan, const W* src, W* dst) {
  const std::int64_t n = plan.numel();
  std::atomic<std::int64_t> first_bad{std::numeric_limits<std::int64_t>::max()};
  host_adaptive_for<GatherWork>(
      n, HostSplit{kSerialElements, 1 << 13, 64, false}, [&](std::int64_t begin, std::int64_t end) {
        std::int64_t bad = -1;
        if constexpr (sizeof(W) == sizeof(std::int64_t)) {
          bad = plan.emit_offsets ? gather_part<true, W, I>(plan, src, dst, begin, end)
                                  : gather_part<false, W, I>(plan, src, dst, begin, end);
        } else {
          bad = gather_part<false, W, I>(plan, src, dst, begin, end);
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
