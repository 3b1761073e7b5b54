// SPDX-License-Identifier: BSD-3-Clause
// The scatter engine's combines for the unsorted segment reductions on the host (one
// instantiation per combine and number dtype): every id names one output slice, applied in
// index order, so float results are the same bits run after run and at every thread count.

#include <cstdint>
#include <type_traits>

#include "backend/host/scatter_element_schedule.hpp"
#include "backend/segment_combine.hpp"
#include "backend/view_kernel.hpp"
#include "tessera/detail/scatter_host.hpp"
#include "tessera/ops/scatter.hpp"
#include "tessera/ops/segment.hpp"

namespace tessera::detail::segment_scatter {

template <SegmentId Id, class T>
std::int64_t combine_host(T* out, std::int64_t segments, std::int64_t slice,
                          const std::int64_t* ids, std::int64_t rows, const T* data) {
  const SegmentScatter<T> scatter(segments, slice, data, rows);
  // Negative ids (and ids >= segments: the caller raises for those) name no slice: skipped.
  if constexpr (Id == SegmentId::Sum) {
    // tensor_scatter_nd_add's instantiation (scatter.cpp) is this very call: not compiled twice.
    static_assert(std::is_same_v<combine_op_t<Id>, scatter_ops::Add>);
    return host_ops::scatter_nd<T, std::int64_t>(ScatterOpId::Add, out, nullptr, segments * slice,
                                                 scatter.geometry, ids, rows, scatter.updates,
                                                 false);
  } else {
    return scatter_host<combine_op_t<Id>>(
        out, static_cast<const T*>(nullptr), segments * slice, scatter.geometry, ids, rows,
        leaf_kernel_of(scatter.updates), Extents::of_view(scatter.updates), true, false);
  }
}

#define TESSERA_INSTANTIATE_SEGMENT_COMBINE_HOST(ID, T) \
  template std::int64_t combine_host<SegmentId::ID, T>( \
      T*, std::int64_t, std::int64_t, const std::int64_t*, std::int64_t, const T*);
TESSERA_FOR_EACH_SEGMENT_COMBINE(TESSERA_INSTANTIATE_SEGMENT_COMBINE_HOST)
#undef TESSERA_INSTANTIATE_SEGMENT_COMBINE_HOST

}  // namespace tessera::detail::segment_scatter
