// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The scatter engine's element schedule over tensors of updates (LeafKernel), one instantiation
// per dtype and index type for the library's host units: scatter.cpp compiles it, and the other
// units that scatter tensors (segment_scatter.cpp) link to it instead of compiling their own.

#include <cstdint>

#include "tessera/core/dtype.hpp"
#include "tessera/detail/scatter_host_elements.hpp"
#include "tessera/expr/kernels.hpp"

/// The element schedule of T over indices of Index and a tensor of updates.
#define TESSERA_SCATTER_ELEMENT_SCHEDULE(T, Index)                                                 \
  std::int64_t                                                                                     \
  tessera::detail::scatter_element_schedule<T, Index, tessera::detail::LeafKernel<T>>(             \
      const tessera::detail::ScatterElementSteps<T, Index, tessera::detail::LeafKernel<T>>&, T*,   \
      const T*, std::int64_t, const tessera::detail::ScatterGeometry&, const Index*, std::int64_t, \
      const tessera::detail::LeafKernel<T>&, const tessera::detail::Extents&, bool, bool)

#define TESSERA_EXTERN_SCATTER_ELEMENT_SCHEDULE(T)                   \
  extern template TESSERA_SCATTER_ELEMENT_SCHEDULE(T, std::int32_t); \
  extern template TESSERA_SCATTER_ELEMENT_SCHEDULE(T, std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_EXTERN_SCATTER_ELEMENT_SCHEDULE)
#undef TESSERA_EXTERN_SCATTER_ELEMENT_SCHEDULE
