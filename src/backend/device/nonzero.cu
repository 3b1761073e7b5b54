// nonzero's device kernels instantiated over plain tensors of every dtype, for host-compiled
// callers (device-compiled callers instantiate them on their own expressions).

#include "backend/view_kernel.hpp"
#include "tessera/detail/nonzero_device.cuh"
#include "tessera/ops/nonzero.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::cuda_ops {

template <class T>
std::int64_t count_nonzero(int device, const TensorView<T>& x) {
  return nonzero_count_device(device, leaf_kernel_of(x), Extents::of_view(x), x.is_contiguous());
}

template <class T>
void nonzero_write(int device, const TensorView<T>& x, const TensorView<std::int64_t>& out,
                   std::int64_t row_limit) {
  nonzero_write_device(device, leaf_kernel_of(x), Extents::of_view(x), x.is_contiguous(), out,
                       row_limit);
}

#define TESSERA_INSTANTIATE_NONZERO(T)                                                       \
  template std::int64_t count_nonzero<T>(int, const TensorView<T>&);                         \
  template void nonzero_write<T>(int, const TensorView<T>&, const TensorView<std::int64_t>&, \
                                 std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_NONZERO)

}  // namespace tessera::detail::cuda_ops
