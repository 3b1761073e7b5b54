// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file device_executor.cuh
/// Runs kernel functors on a device (device-compiled units only) as Thrust algorithms on the
/// device policy (`detail/device_work.cuh`): an elementwise pass is one `thrust::for_each_n`,
/// a reduction a few (`device_reduce`). On CUDA the work is queued on the device's legacy
/// default stream and nothing waits except a reduction, whose result the host needs.

#include <cstdint>

#include <algorithm>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

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

/// Partial p of a reduction: combines inputs p, p + parts, p + 2 parts, ... in that order
/// (neighbouring partials read neighbouring elements: coalesced on a GPU).
template <class Acc, class Input, class Combine>
struct StridedPartial {
  Input input;
  std::int64_t n;
  std::int64_t parts;
  Acc init;
  Combine combine;
  Acc* partials;
  TESSERA_HD void operator()(std::int64_t p) const {
    Acc acc = init;
    for (std::int64_t i = p; i < n; i += parts) acc = combine(acc, input(i));
    partials[p] = acc;
  }
};

/// out[q] combines in[q * width, (q + 1) * width) in order.
template <class Acc, class Combine>
struct CombineRun {
  const Acc* in;
  Acc* out;
  std::int64_t count;
  std::int64_t width;
  Acc init;
  Combine combine;
  TESSERA_HD void operator()(std::int64_t q) const {
    Acc acc = init;
    const std::int64_t end = (q + 1) * width < count ? (q + 1) * width : count;
    for (std::int64_t i = q * width; i < end; ++i) acc = combine(acc, in[i]);
    out[q] = acc;
  }
};

/// Combines input(i) for i in [0, n) on `device` and returns the result (waits for the device).
/// The order of combination depends on n alone (strided partials, then runs of 256 partials),
/// so a reduction gives the same bits on every device and at every thread count. Written with
/// for_each_n rather than transform_reduce: the same speed class on a GPU (every thread streams
/// coalesced reads), a fraction of the compile time per instantiation, and no temporaries.
template <class Acc, class Input, class Combine>
Acc device_reduce(int device, std::int64_t n, const Input& input, Acc init, Combine combine) {
  if (n <= 0) return init;
  constexpr std::int64_t kParts = 65536;
  constexpr std::int64_t kRun = 256;
  const std::int64_t parts = std::min(n, kParts);
  DeviceWork work(device);
  DeviceBuffer<Acc> buffer(parts + (parts + kRun - 1) / kRun, device);
  Acc* in = buffer.data();
  Acc* out = in + parts;
  const thrust::counting_iterator<std::int64_t> first(0);
  thrust::for_each_n(work.policy(), first, parts,
                     StridedPartial<Acc, Input, Combine>{input, n, parts, init, combine, in});
  for (std::int64_t count = parts; count > 1;) {
    const std::int64_t next = (count + kRun - 1) / kRun;
    thrust::for_each_n(work.policy(), first, next,
                       CombineRun<Acc, Combine>{in, out, count, kRun, init, combine});
    std::swap(in, out);
    count = next;
  }
  Acc result = init;
  device_runtime::copy_to_host(&result, in, sizeof(Acc), device);
  return result;
}

/// The device executor: the same interface as HostExecutor, on device `device`.
struct DeviceExecutor {
  int device = 0;

  template <class Out, class K>
  void run(const TensorView<Out>& out, const K& k, bool linear) const {
    const std::int64_t n = out.numel();
    if (n == 0) return;
    device_call("evaluate", device, [&] {
      DeviceWork work(device);
      thrust::for_each_n(work.policy(), thrust::counting_iterator<std::int64_t>(0), n,
                         ElementwiseWrite<Out, K>{out, k, Extents::of_view(out), linear});
    });
  }

  /// Needs the result on the host, so this waits for the device (one sync).
  template <class Acc, class K, class Combine>
  Acc reduce(const Extents& extents, const K& k, bool linear, Acc init, Combine combine) const {
    return device_call("reduce", device, [&] {
      return device_reduce(device, extents.numel(), ReduceInput<Acc, K>{k, extents, linear}, init,
                           combine);
    });
  }
};

}  // namespace tessera::detail
