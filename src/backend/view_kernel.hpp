// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file view_kernel.hpp
/// The leaf kernel of a plain tensor view (its extents: `Extents::of_view`): how the precompiled
/// backend instantiations (host and CUDA) feed a TensorView to kernels written for expressions.

#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

/// Reads `view` through its strides.
template <class T>
LeafKernel<T> leaf_kernel_of(const TensorView<T>& view) {
  LeafKernel<T> k{view.data, view.ndim, {}, nullptr, 0};
  for (int d = 0; d < view.ndim; ++d) k.strides[d] = view.strides[d];
  return k;
}

}  // namespace tessera::detail
