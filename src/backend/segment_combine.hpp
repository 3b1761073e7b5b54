// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The unsorted segment reductions' combines on the scatter engine (library-internal): which
// combine each reduction uses, the engine's view of the data, and the host and device entries
// (src/backend/host/segment_scatter.cpp, src/backend/device/scatter.cu).

#include <cstdint>
#include <type_traits>

#include "tessera/core/tensor_view.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/ops/segment.hpp"

namespace tessera::detail::segment_scatter {

/// The scatter engine's combine of a segment reduction id.
template <SegmentId Id>
using combine_op_t = std::conditional_t<
    Id == SegmentId::Prod, scatter_ops::Mul,
    std::conditional_t<
        Id == SegmentId::Max, scatter_ops::Maximum,
        std::conditional_t<Id == SegmentId::Min, scatter_ops::Minimum, scatter_ops::Add>>>;

/// The scatter engine's view of a segment combine: `rows` contiguous slices of `slice` elements
/// of data, into `segments` slices of the output.
template <class T>
struct SegmentScatter {
  ScatterGeometry geometry;
  TensorView<T> updates;
  SegmentScatter(std::int64_t segments, std::int64_t slice, const T* data, std::int64_t rows)
      : geometry(ScatterGeometry::of(Shape{segments, slice}, 1)) {
    updates.data = const_cast<T*>(data);  // read only: the engine reads updates
    updates.ndim = 2;
    updates.shape[0] = rows;
    updates.shape[1] = slice;
    updates.strides[0] = slice;
    updates.strides[1] = 1;
  }
};

/// Combines `rows` slices of `slice` elements of contiguous `data` into `out` (contiguous, of
/// `segments` slices) at `ids` (negative ids skipped), in index order: the host
/// (src/backend/host/segment_scatter.cpp) and the device (src/backend/device/scatter.cu). The
/// host returns the first row it skipped (`rows` if none): only then can an id be out of range.
template <SegmentId Id, class T>
std::int64_t combine_host(T* out, std::int64_t segments, std::int64_t slice,
                          const std::int64_t* ids, std::int64_t rows, const T* data);
/// The device twin of combine_host (queued, no wait).
template <SegmentId Id, class T>
void combine_cuda(int device, T* out, std::int64_t segments, std::int64_t slice,
                  const std::int64_t* ids, std::int64_t rows, const T* data);

/// Expands X(Id, T) for the combines the library instantiates (the mean is a sum and a count).
#define TESSERA_FOR_EACH_SEGMENT_COMBINE(X)                \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Sum)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Prod) \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Max)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Min)
}  // namespace tessera::detail::segment_scatter
