// SPDX-License-Identifier: BSD-3-Clause
// tensor_scatter_nd_*'s device kernels instantiated over tensors of updates of every dtype, for
// host-compiled callers (device-compiled callers instantiate them on their own expressions).

#include "backend/segment_combine.hpp"
#include "backend/view_kernel.hpp"
#include "tessera/detail/scatter_device.cuh"
#include "tessera/ops/scatter.hpp"
#include "tessera/ops/segment.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::cuda_ops {

template <class Index>
std::int64_t scatter_first_bad(int device, const ScatterGeometry& g, const Index* indices,
                               std::int64_t rows) {
  return scatter_first_bad_device(device, g, indices, rows);
}

template <class T, class Index>
void scatter_nd(int device, ScatterOpId op, T* out, const ScatterGeometry& g, const Index* indices,
                std::int64_t rows, const TensorView<T>& updates, bool deterministic) {
  const auto k = leaf_kernel_of(updates);
  const Extents extents = Extents::of_view(updates);
  const bool linear = updates.is_contiguous();
  with_scatter_op(op, [&](auto functor) {
    using Op = decltype(functor);
    // scatter.hpp rejects arithmetic on bool at compile time; only update reaches here.
    if constexpr (!std::is_same_v<T, bool> || std::is_same_v<Op, scatter_ops::Update>) {
      scatter_device<Op>(device, out, g, indices, rows, k, extents, linear, deterministic);
    }
  });
}

TESSERA_FOR_EACH_INDEX_DTYPE(TESSERA_INSTANTIATE_SCATTER_CHECK_CUDA)
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_SCATTER_CUDA)

}  // namespace tessera::detail::cuda_ops

namespace tessera::detail::segment_scatter {

// The unsorted segment reductions' combines: the engine's ordered path (duplicates in index
// order), so the device gives the host's bits.
template <SegmentId Id, class T>
void combine_cuda(int device, T* out, std::int64_t segments, std::int64_t slice,
                  const std::int64_t* ids, std::int64_t rows, const T* data) {
  const SegmentScatter<T> scatter(segments, slice, data, rows);
  scatter_device<combine_op_t<Id>>(device, out, scatter.geometry, ids, rows,
                                   leaf_kernel_of(scatter.updates),
                                   Extents::of_view(scatter.updates), true, true);
}

#define TESSERA_INSTANTIATE_SEGMENT_COMBINE_DEVICE(ID, T)                           \
  template void combine_cuda<SegmentId::ID, T>(int, T*, std::int64_t, std::int64_t, \
                                               const std::int64_t*, std::int64_t, const T*);
TESSERA_FOR_EACH_SEGMENT_COMBINE(TESSERA_INSTANTIATE_SEGMENT_COMBINE_DEVICE)
#undef TESSERA_INSTANTIATE_SEGMENT_COMBINE_DEVICE

}  // namespace tessera::detail::segment_scatter
