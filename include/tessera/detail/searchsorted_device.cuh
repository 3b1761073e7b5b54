// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file searchsorted_device.cuh
/// The device searchsorted kernel (device-compiled units only): one `thrust::for_each_n` over
/// the values, each answered by the shared element core `search_row` (PyTorch's probe order: the
/// exact answer on every row, NaN-ended ones included). Queued; nothing waits for the device.

#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "tessera/detail/search_kernels.hpp"
#include "tessera/expr/device_executor.cuh"
#include "tessera/expr/nodes.hpp"

namespace tessera::detail {

/// Answers value i into out.
template <bool Right, class C, class S, class K, class Index>
struct SearchValue {
  SearchRows<S> rows;
  K values;
  Extents extents;
  bool linear;
  std::int64_t per_row;
  TensorView<Index> out;
  bool out_linear;
  TESSERA_HD void operator()(std::int64_t i) const {
    std::int64_t index[kMaxDims];
    C v;
    if (linear) {
      v = static_cast<C>(values.linear(i));
    } else {
      extents.unravel(i, index);
      v = static_cast<C>(values.at(index));
    }
    const std::int64_t r = rows.lead_ndim == 0 ? 0 : i / per_row;
    const auto answer = static_cast<Index>(search_row<Right, C>(rows, r, v));
    if (out_linear) {
      out.data[i] = answer;
    } else {
      if (linear) extents.unravel(i, index);
      std::int64_t offset = 0;
      for (int d = 0; d < extents.ndim; ++d) offset += index[d] * out.strides[d];
      out.data[offset] = answer;
    }
  }
};

/// out[i] = searchsorted(rows, C(values(i))) for every element of `extents` (the values' shape).
template <class C, class S, class K, class Index>
void searchsorted_device(int device, const SearchRows<S>& rows, const K& values,
                         const Extents& extents, bool linear, std::int64_t per_row, bool right,
                         const TensorView<Index>& out) {
  const std::int64_t n = extents.numel();
  if (n == 0) return;
  device_call("searchsorted", device, [&] {
    DeviceWork work(device);
    const thrust::counting_iterator<std::int64_t> first(0);
    const bool out_linear = out.is_contiguous();
    if (right) {
      thrust::for_each_n(work.policy(), first, n,
                         SearchValue<true, C, S, K, Index>{rows, values, extents, linear, per_row,
                                                           out, out_linear});
    } else {
      thrust::for_each_n(work.policy(), first, n,
                         SearchValue<false, C, S, K, Index>{rows, values, extents, linear, per_row,
                                                            out, out_linear});
    }
  });
}

// searchsorted on the device executor (ops/searchsorted.hpp picks it by overload): the values
// expression is read inside the kernel.
inline namespace TESSERA_EVAL_NS {
template <class C, class Index, class S, class V>
void searchsorted_with(const DeviceExecutor& executor, const Tensor<S>&, const SearchRows<S>& rows,
                       const V& values, const Shape& values_shape, std::int64_t per_row, bool right,
                       const TensorView<Index>& result) {
  searchsorted_device<C>(executor.device, rows, expr_bind(values, values_shape),
                         Extents::of(values_shape), expr_linear(values, values_shape), per_row,
                         right, result);
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera::detail
