#pragma once
/// @file device_executor.cuh
/// Runs kernel functors on a device (device-compiled units only) as Thrust algorithms on the
/// device policy (`detail/device_work.cuh`): an elementwise pass is one `thrust::for_each_n`,
/// a reduction one `thrust::transform_reduce`. On CUDA the work is queued on the device's legacy
/// default stream and nothing waits except a reduction, whose result the host needs.

#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include "tessera/core/tensor_view.hpp"
#include "tessera/detail/device_work.cuh"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// out[i] = Out(k(i)); `linear` selects the contiguous fast path.
template <class Out, class K>
struct ElementwiseWrite {
  TensorView<Out> out;
  K k;
  Extents extents;
  bool linear;
  TESSERA_HD void operator()(std::int64_t i) const {
    if (linear) {
      out.data[i] = static_cast<Out>(k.linear(i));
    } else {
      std::int64_t index[kMaxDims];
      extents.unravel(i, index);
      std::int64_t offset = 0;
      for (int d = 0; d < extents.ndim; ++d) offset += index[d] * out.strides[d];
      out.data[offset] = static_cast<Out>(k.at(index));
    }
  }
};

/// Acc(k(i)), the input of a reduction.
template <class Acc, class K>
struct ReduceInput {
  K k;
  Extents extents;
  bool linear;
  TESSERA_HD Acc operator()(std::int64_t i) const {
    if (linear) return static_cast<Acc>(k.linear(i));
    std::int64_t index[kMaxDims];
    extents.unravel(i, index);
    return static_cast<Acc>(k.at(index));
  }
};

/// The device executor: the same interface as HostExecutor, on device `device`.
struct DeviceExecutor {
  int device = 0;

  template <class Out, class K>
  void run(const TensorView<Out>& out, const K& k, bool linear) const {
    const std::int64_t n = out.numel();
    if (n == 0) return;
    DeviceWork work(device);
    thrust::for_each_n(work.policy(), thrust::counting_iterator<std::int64_t>(0), n,
                       ElementwiseWrite<Out, K>{out, k, Extents::of_view(out), linear});
  }

  /// Needs the result on the host, so this waits for the device (one sync).
  template <class Acc, class K, class Combine>
  Acc reduce(const Extents& extents, const K& k, bool linear, Acc init, Combine combine) const {
    const std::int64_t n = extents.numel();
    if (n == 0) return init;
    DeviceWork work(device);
    return thrust::transform_reduce(work.policy(), thrust::counting_iterator<std::int64_t>(0),
                                    thrust::counting_iterator<std::int64_t>(n),
                                    ReduceInput<Acc, K>{k, extents, linear}, init, combine);
  }
};

}  // namespace tessera::detail
