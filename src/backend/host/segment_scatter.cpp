// The scatter engine's combines for the unsorted segment reductions on the host (one
// instantiation per combine and number dtype): every id names one output slice, applied in
// index order, so float results are the same bits run after run and at every thread count.

#include <cstdint>

#include "backend/view_kernel.hpp"
#include "tessera/detail/scatter_host.hpp"
#include "tessera/ops/segment.hpp"

namespace tessera::detail::segment_scatter {

template <SegmentId Id, class T>
void combine_host(T* out, std::int64_t segments, std::int64_t slice, const std::int64_t* ids,
                  std::int64_t rows, const T* data) {
  const Shape out_shape{segments, slice};
  const auto g = ScatterGeometry::of(out_shape, 1);
  TensorView<T> view;
  view.data = const_cast<T*>(data);
  view.ndim = 2;
  view.shape[0] = rows;
  view.shape[1] = slice;
  view.strides[0] = slice;
  view.strides[1] = 1;
  // Ids >= segments were refused before; negative ids name no slice and are skipped.
  scatter_host<combine_op_t<Id>>(out, static_cast<const T*>(nullptr), segments * slice, g, ids,
                                 rows, leaf_kernel_of(view), Extents::of_view(view), true, false);
}

#define TESSERA_INSTANTIATE_SEGMENT_COMBINE_HOST(ID, T)                        \
  template void combine_host<SegmentId::ID, T>(T*, std::int64_t, std::int64_t, \
                                               const std::int64_t*, std::int64_t, const T*);
TESSERA_FOR_EACH_SEGMENT_COMBINE(TESSERA_INSTANTIATE_SEGMENT_COMBINE_HOST)
#undef TESSERA_INSTANTIATE_SEGMENT_COMBINE_HOST

}  // namespace tessera::detail::segment_scatter
