// SPDX-License-Identifier: BSD-3-Clause
// The device gather kernel, on Thrust, instantiated per element width and index type: one
// thread per output element computes its coordinates, its source offset and copies. A bad
// index entry writes zeros and, unless the plan zeroes bad entries silently, lowers a device
// flag to its position; only then does the host wait, to read the flag.

#include <cstdint>
#include <cstring>
#include <limits>

#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <cuda/atomic>

#include "backend/gather_kernels.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/detail/device_work.cuh"

namespace tessera::detail::cuda_ops {

namespace {

template <class W, class I>
struct GatherOne {
  GatherPlan plan;
  const W* src;
  W* dst;
  std::int64_t* first_bad;  // null: bad entries are zeroed silently
  TESSERA_HD void operator()(std::int64_t p) const {
    std::int64_t rest = p, so = 0, dof = 0, pos[kMaxDims] = {};
    for (int d = plan.ndim - 1; d >= 0; --d) {
      const std::int64_t c = rest % plan.shape[d];
      rest /= plan.shape[d];
      so += c * plan.src_strides[d];
      dof += c * plan.dst_strides[d];
      for (int k = 0; k < plan.nindex; ++k) pos[k] += c * plan.index[k].strides[d];
    }
    for (int k = 0; k < plan.nindex; ++k) {
      const GatherIndex& index = plan.index[k];
      auto e = static_cast<std::int64_t>(static_cast<const I*>(index.data)[pos[k]]);
      if (plan.wrap && e < 0) e += index.extent;
      if (e < 0 || e >= index.extent) {
        dst[dof] = W{};
        if (first_bad != nullptr) {
          cuda::atomic_ref<std::int64_t, cuda::thread_scope_device>(*first_bad)
              .fetch_min(p, cuda::std::memory_order_relaxed);
        }
        return;
      }
      so += e * index.src_stride;
    }
    if constexpr (sizeof(W) == sizeof(std::int64_t)) {
      if (plan.emit_offsets) {
        memcpy(&dst[dof], &so, sizeof so);
        return;
      }
    }
    dst[dof] = src[so];
  }
};

}  // namespace

template <class W, class I>
std::int64_t gather(const char* op, int device, const GatherPlan& plan, const W* src, W* dst) {
  const std::int64_t n = plan.numel();
  if (n == 0) return -1;
  return device_call(op, device, [&]() -> std::int64_t {
    DeviceWork work(device);
    const thrust::counting_iterator<std::int64_t> first(0);
    if (plan.zero_bad || plan.nindex == 0) {
      thrust::for_each_n(work.policy(), first, n, GatherOne<W, I>{plan, src, dst, nullptr});
      return -1;
    }
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    DeviceBuffer<std::int64_t> flag(1, device);
    thrust::fill_n(work.policy(), flag.data(), 1, kNone);
    thrust::for_each_n(work.policy(), first, n, GatherOne<W, I>{plan, src, dst, flag.data()});
    std::int64_t bad = kNone;
    device_runtime::copy_to_host(&bad, flag.data(), sizeof bad, device);
    return bad == kNone ? -1 : bad;
  });
}

#define TESSERA_INSTANTIATE_GATHER_CUDA(N)                                              \
  template std::int64_t gather<GatherElement<N>, std::int32_t>(                         \
      const char*, int, const GatherPlan&, const GatherElement<N>*, GatherElement<N>*); \
  template std::int64_t gather<GatherElement<N>, std::int64_t>(                         \
      const char*, int, const GatherPlan&, const GatherElement<N>*, GatherElement<N>*);
TESSERA_INSTANTIATE_GATHER_CUDA(1)
TESSERA_INSTANTIATE_GATHER_CUDA(2)
TESSERA_INSTANTIATE_GATHER_CUDA(4)
TESSERA_INSTANTIATE_GATHER_CUDA(8)
#undef TESSERA_INSTANTIATE_GATHER_CUDA

}  // namespace tessera::detail::cuda_ops
