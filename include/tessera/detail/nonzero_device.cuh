// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file nonzero_device.cuh
/// The device nonzero kernels (device-compiled units only), on Thrust: a fused count
/// (`device_reduce`, the single device → host sync of nonzero), and a compaction that scans
/// the nonzero flags (`transform_exclusive_scan`) and then writes each selected element's
/// multi-index straight into its output row (`for_each_n`). The write never waits for the device,
/// so nonzero_static stays sync-free.

#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_scan.h>

#include "tessera/expr/device_executor.cuh"
#include "tessera/expr/nodes.hpp"

namespace tessera::detail {

/// 1 when element i of the input is nonzero.
template <class K>
struct NonzeroFlag {
  K k;
  Extents extents;
  bool linear;
  TESSERA_HD std::int64_t operator()(std::int64_t i) const {
    if (linear) return k.linear(i) != 0;
    std::int64_t index[kMaxDims];
    extents.unravel(i, index);
    return k.at(index) != 0;
  }
};

/// Writes the multi-index of element i into row rows[i] when it is nonzero (rows past the limit
/// are dropped).
template <class K>
struct NonzeroRowWriter {
  NonzeroFlag<K> flag;
  const std::int64_t* rows;
  TensorView<std::int64_t> out;
  std::int64_t row_limit;
  TESSERA_HD void operator()(std::int64_t i) const {
    const std::int64_t row = rows[i];
    if (row >= row_limit || flag(i) == 0) return;
    std::int64_t index[kMaxDims];
    flag.extents.unravel(i, index);
    const std::int64_t col_stride = out.ndim > 1 ? out.strides[1] : 0;
    std::int64_t* dst = out.data + row * out.strides[0];
    for (int d = 0; d < flag.extents.ndim; ++d) dst[d * col_stride] = index[d];
  }
};

/// Number of nonzero elements (waits for the device).
template <class K>
std::int64_t nonzero_count_device(int device, const K& k, const Extents& extents, bool linear) {
  const std::int64_t n = extents.numel();
  if (n == 0) return 0;
  return device_call("nonzero", device, [&] {
    return device_reduce(device, n, NonzeroFlag<K>{k, extents, linear}, std::int64_t{0},
                         thrust::plus<std::int64_t>());
  });
}

/// Writes the first `row_limit` rows of nonzero into `out`; queued, does not wait.
template <class K>
void nonzero_write_device(int device, const K& k, const Extents& extents, bool linear,
                          const TensorView<std::int64_t>& out, std::int64_t row_limit) {
  const std::int64_t n = extents.numel();
  if (n == 0 || row_limit == 0) return;
  device_call("nonzero", device, [&] {
    DeviceWork work(device);
    const DeviceBuffer<std::int64_t> rows(n, device);
    const NonzeroFlag<K> flag{k, extents, linear};
    const thrust::counting_iterator<std::int64_t> positions(0);
    thrust::transform_exclusive_scan(work.policy(), positions, positions + n, rows.data(), flag,
                                     std::int64_t{0}, thrust::plus<std::int64_t>());
    thrust::for_each_n(work.policy(), positions, n,
                       NonzeroRowWriter<K>{flag, rows.data(), out, row_limit});
  });
}

// nonzero's count and write on the device executor (ops/nonzero.hpp picks them by overload).
inline namespace TESSERA_EVAL_NS {
template <class E>
std::int64_t nonzero_count_with(const DeviceExecutor& executor, const E& e, const Shape& shape) {
  return nonzero_count_device(executor.device, expr_bind(e, shape), Extents::of(shape),
                              expr_linear(e, shape));
}
template <class E>
void nonzero_fill_with(const DeviceExecutor& executor, const E& e, const Shape& shape,
                       const TensorView<std::int64_t>& out, std::int64_t rows) {
  nonzero_write_device(executor.device, expr_bind(e, shape), Extents::of(shape),
                       expr_linear(e, shape), out, rows);
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera::detail
