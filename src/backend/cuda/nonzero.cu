// nonzero's CUDA kernels instantiated over plain tensors of every dtype, for host-compiled
// callers (nvcc-compiled callers instantiate them on their own expressions).

// tensor.hpp first, in its own block: it pulls in the expression machinery in dependency order.
#include "tessera/tensor.hpp"

#include "tessera/detail/nonzero_cuda.cuh"
#include "tessera/ops/nonzero.hpp"

namespace tessera::detail::cuda_ops {

namespace {
template <class T>
LeafKernel<T> leaf_of(const TensorView<T>& x, bool& linear) {
  LeafKernel<T> k{x.data, x.ndim, {}};
  for (int d = 0; d < x.ndim; ++d) k.strides[d] = x.strides[d];
  linear = x.is_contiguous();
  return k;
}
Extents extents_of(int ndim, const std::int64_t* shape) {
  Extents e;
  e.ndim = ndim;
  for (int d = 0; d < ndim; ++d) e.shape[d] = shape[d];
  return e;
}
}  // namespace

template <class T>
std::int64_t count_nonzero(int device, const TensorView<T>& x) {
  bool linear = false;
  const auto k = leaf_of(x, linear);
  return nonzero_count_cuda(device, k, extents_of(x.ndim, x.shape), linear);
}

template <class T>
void nonzero_write(int device, const TensorView<T>& x, const TensorView<std::int64_t>& out,
                   std::int64_t row_limit) {
  bool linear = false;
  const auto k = leaf_of(x, linear);
  nonzero_write_cuda(device, k, extents_of(x.ndim, x.shape), linear, out, row_limit);
}

#define TESSERA_INSTANTIATE_NONZERO(T)                                                       \
  template std::int64_t count_nonzero<T>(int, const TensorView<T>&);                         \
  template void nonzero_write<T>(int, const TensorView<T>&, const TensorView<std::int64_t>&, \
                                 std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_NONZERO)

}  // namespace tessera::detail::cuda_ops
