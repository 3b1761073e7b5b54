// SPDX-License-Identifier: BSD-3-Clause
// The device backend of the random streams: one thread per Philox block writes the elements
// that block feeds (src/backend/random_streams.inl), the same values the host writes.

#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "backend/random_fill.hpp"
#include "tessera/detail/device_work.cuh"

namespace tessera::detail::random_fill {

namespace {
template <class Dist>
struct BlockWriter {
  random_streams::Stream stream;
  Dist dist;
  typename Dist::value_type* out;
  std::int64_t n;
  TESSERA_HD void operator()(std::int64_t b) const {
    random_streams::write_block(stream, dist, static_cast<std::uint64_t>(b), out, n);
  }
};

}  // namespace

template <class Dist>
void device(int device, const random_streams::Stream& stream, const Dist& dist,
            typename Dist::value_type* out, std::int64_t n) {
  const std::int64_t blocks = random_streams::blocks_for<Dist>(n);
  if (blocks == 0) return;
  device_call("random", device, [&] {
    DeviceWork work(device);
    thrust::for_each_n(work.policy(), thrust::counting_iterator<std::int64_t>(0), blocks,
                       BlockWriter<Dist>{stream, dist, out, n});
  });
}

#define TESSERA_INSTANTIATE_RANDOM_DEVICE(D)                                  \
  template void device<unparen_t<void D>>(int, const random_streams::Stream&, \
                                          const unparen_t<void D>&,           \
                                          typename unparen_t<void D>::value_type*, std::int64_t);
TESSERA_FOR_EACH_RANDOM_DIST(TESSERA_INSTANTIATE_RANDOM_DEVICE)
#undef TESSERA_INSTANTIATE_RANDOM_DEVICE

}  // namespace tessera::detail::random_fill
