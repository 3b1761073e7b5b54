// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_device.cuh
/// The reduction engine on the device (device-compiled units only): one Thrust `for_each_n`
/// over the outputs (each folds its elements in the engine's order, reduce_engine.hpp) or over
/// the lines of a scan. The same op structs and the same order as the host, hence the same
/// bits. Nothing waits for the device.

#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "tessera/detail/device_work.cuh"
#include "tessera/expr/device_executor.cuh"
#include "tessera/expr/nodes.hpp"
#include "tessera/expr/reduce_engine.hpp"

namespace tessera::detail {

/// Runs reduction or scan `op` of kernel `k` (bound to `plan`'s shape) on `device`.
template <class Op, class K>
void device_reduce_dims(int device, const Op& op, const K& k, const ReducePlan& plan,
                        const ReduceStore<Op>& store) {
  const std::int64_t lines = plan.outputs;
  if (lines == 0 || (is_scan(Op::id) && plan.count == 0)) return;
  device_call(is_scan(Op::id) ? "scan" : "reduce", device, [&] {
    DeviceWork work(device);
    const thrust::counting_iterator<std::int64_t> first(0);
    if constexpr (is_scan(Op::id)) {
      thrust::for_each_n(work.policy(), first, lines, ScanLine<Op, K>{op, k, plan, store});
    } else {
      thrust::for_each_n(work.policy(), first, lines, ReduceOutput<Op, K>{op, k, plan, store});
    }
  });
}

inline namespace TESSERA_EVAL_NS {
/// Device-compiled units: the reduction fused with its input expression.
template <class Op, class E>
void reduce_dims_with(const DeviceExecutor& ex, const Op& op, const E& e, const ReducePlan& plan,
                      const ReduceStore<Op>& store, Device) {
  const Shape shape(plan.shape, plan.shape + plan.ndim);
  device_reduce_dims(ex.device, op, expr_bind(e, shape), plan, store);
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera::detail
