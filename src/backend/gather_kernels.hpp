// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The gather kernel: the one engine every gather-like op runs on (index with tensors, masks or
// nonzero's tuple, masked_select, index_select, gather, take, take_along_dim, gather_nd, cat,
// stack). An op only computes a GatherPlan — where each output element's source is — and the
// kernel copies. Instantiated per element width (a gather moves bytes; float and int32 share
// one kernel) and index type: the host's in src/backend/host/gather.cpp, the device's in
// src/backend/device/gather.cu. src/ops/indexing.cpp checks the arguments and builds plans.

#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"

namespace tessera::detail {

/// One index tensor of a gather: entry `e` picks position `e` (after the wrap of negative
/// entries when the plan wraps) along one source dimension of extent `extent`.
struct GatherIndex {
  const void* data = nullptr;           ///< the entries (int32 or int64, the kernel's I)
  std::int64_t strides[kMaxDims] = {};  ///< entry stride per output dimension (0: constant)
  std::int64_t extent = 0;              ///< extent of the source dimension it indexes
  std::int64_t src_stride = 0;          ///< element stride of that source dimension
};

/// Where every element of a gather's output comes from. Output element at coordinates c
/// (row-major over `shape`) is written at dst + Σ c[d] * dst_strides[d] and read from
/// src + Σ c[d] * src_strides[d] + Σ_k entry_k(c) * index[k].src_stride, where
/// entry_k(c) = index[k].data[Σ c[d] * index[k].strides[d]].
struct GatherPlan {
  int ndim = 1;                             ///< output rank, 1..kMaxDims (0-d: one extent 1)
  std::int64_t shape[kMaxDims] = {1};       ///< output extents
  std::int64_t dst_strides[kMaxDims] = {};  ///< output element strides
  std::int64_t src_strides[kMaxDims] = {};  ///< direct source strides (0: reached by an index)
  int nindex = 0;                           ///< index tensors in use
  GatherIndex index[kMaxDims];              ///< the index tensors
  bool wrap = false;      ///< an entry e < 0 means e + extent (once), as PyTorch's index/take
  bool zero_bad = false;  ///< an entry out of range gives zeros (TF's OutOfBounds::Ignore)
                          ///< instead of being reported
  /// Write each element's source offset (int64, 8-byte elements) instead of copying the
  /// element: the checked, wrapped positions an op hands on to another engine (index_put_'s
  /// scatter rows).
  bool emit_offsets = false;

  /// The number of output elements.
  TESSERA_HD std::int64_t numel() const {
    std::int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[d];
    return n;
  }
};

/// A trivially copyable element of `N` bytes: what a gather moves (copying it is a byte copy,
/// whatever dtype the bytes hold).
template <int N>
struct alignas(N) GatherElement {
  unsigned char bytes[N];
};

namespace host_ops {
/// Copies every output element of `plan` from `src` to `dst` (elements of W; with
/// plan.emit_offsets, W is 8 bytes and gets the source offset, src unused). Returns the
/// first (lowest) output position whose index entry is out of range, or -1; those positions
/// get zeros. Parallel over the output (results independent of the thread count).
template <class W, class I>
std::int64_t gather(const GatherPlan& plan, const W* src, W* dst);
}  // namespace host_ops

namespace cuda_ops {
/// host_ops::gather on device `device` (src and dst there). Reporting a bad entry waits for
/// the device; with plan.zero_bad it does not (returns -1 at once). A device failure raises
/// DeviceError naming `op`.
template <class W, class I>
std::int64_t gather(const char* op, int device, const GatherPlan& plan, const W* src, W* dst);
}  // namespace cuda_ops

/// Runs the gather `plan` of elements of T on `device` (index entries of type I): the element
/// width picks the kernel. Returns the first output position with an out-of-range entry, or -1.
template <class T, class I>
std::int64_t run_gather(const char* op, int device, bool on_cpu, const GatherPlan& plan,
                        const T* src, T* dst) {
  using W = GatherElement<static_cast<int>(sizeof(T))>;
  static_assert(sizeof(W) == sizeof(T) && alignof(W) <= alignof(T));
  const auto* s = reinterpret_cast<const W*>(src);
  auto* d = reinterpret_cast<W*>(dst);
  return on_cpu ? host_ops::gather<W, I>(plan, s, d)
                : cuda_ops::gather<W, I>(op, device, plan, s, d);
}

}  // namespace tessera::detail
