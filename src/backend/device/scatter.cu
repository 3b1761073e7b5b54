// tensor_scatter_nd_*'s device kernels instantiated over tensors of updates of every dtype, for
// host-compiled callers (device-compiled callers instantiate them on their own expressions).

#include "backend/view_kernel.hpp"
#include "tessera/detail/scatter_device.cuh"
#include "tessera/ops/scatter.hpp"
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
