// SPDX-License-Identifier: BSD-3-Clause
// searchsorted's device kernel instantiated for host-compiled callers: rows and values already
// in the compare type C, answers as int32 or int64 (device-compiled callers instantiate the same
// kernel on their own value expressions).

#include "backend/view_kernel.hpp"
#include "tessera/detail/searchsorted_device.cuh"
#include "tessera/ops/searchsorted.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::cuda_ops {

template <class C, class Index>
void searchsorted(int device, const SearchRows<C>& rows, const TensorView<C>& values,
                  std::int64_t per_row, bool right, const TensorView<Index>& out) {
  searchsorted_device<C>(device, rows, leaf_kernel_of(values), Extents::of_view(values),
                         values.is_contiguous(), per_row, right, out);
}

TESSERA_FOR_EACH_NUMERIC_DTYPE(TESSERA_INSTANTIATE_SEARCHSORTED_CUDA)

}  // namespace tessera::detail::cuda_ops
