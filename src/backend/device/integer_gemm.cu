// SPDX-License-Identifier: BSD-3-Clause
// The library's own integer and bool matrix product on a device: one thread per output tile
// (src/backend/integer_gemm_kernel.hpp), the same values the host writes.

#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "backend/integer_gemm_kernel.hpp"
#include "tessera/detail/device_work.cuh"

namespace tessera::detail::cuda_ops {

template <class T>
void integer_gemm(int device, const GemmCall& call) {
  if (call.batch() == 0 || call.m == 0 || call.n == 0) return;
  const IntegerGemmTiles<T> tiles = integer_gemm_tiles<T>(call);
  device_call("matmul", device, [&] {
    DeviceWork work(device);
    thrust::for_each_n(work.policy(), thrust::counting_iterator<std::int64_t>(0), tiles.count(),
                       tiles);
  });
}

#define TESSERA_INSTANTIATE_INTEGER_GEMM_DEVICE(T) \
  template void integer_gemm<T>(int, const GemmCall&);
TESSERA_FOR_EACH_INTEGER_GEMM_DTYPE(TESSERA_INSTANTIATE_INTEGER_GEMM_DEVICE)
#undef TESSERA_INSTANTIATE_INTEGER_GEMM_DEVICE

}  // namespace tessera::detail::cuda_ops
