// SPDX-License-Identifier: BSD-3-Clause
// ragged::range and RaggedTensor::to_tensor on a device, on Thrust, instantiated per (T, S)
// for host-compiled callers. range waits for the device once: the total size (and any faulty
// row) must reach the host to raise errors before the values are allocated, and to allocate
// them.

#include <cstdint>
#include <limits>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>
#include <thrust/transform_scan.h>

#include "tessera/core/device_runtime.hpp"
#include "tessera/detail/device_work.cuh"
#include "tessera/detail/ragged_range_kernels.hpp"
#include "tessera/expr/reduce_segments.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/ragged/reduce.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::ragged_ops {

namespace {

/// A prefix of rows: its total size (stuck at INT64_MAX) and its lowest faulty row (INT64_MAX
/// when none).
struct RangePrefix {
  std::int64_t total;
  std::int64_t fault_row;
};

/// Row i alone: its size (0 when faulty) and, when faulty, i.
template <class T>
struct RangeRow {
  RangeOperands<T> args;
  TESSERA_HD RangePrefix operator()(std::int64_t i) const {
    RangeFault fault = RangeFault::None;
    const std::int64_t size = range_size(args.starts[i], args.limits[i], args.deltas[i], fault);
    return size < 0 ? RangePrefix{0, i} : RangePrefix{size, INT64_MAX};
  }
};

/// Joins two adjacent prefixes: sizes add, saturating (associative on non-negative sizes, so a
/// valid scan operator), and the lower faulty row wins.
struct JoinRangePrefixes {
  TESSERA_HD RangePrefix operator()(const RangePrefix& a, const RangePrefix& b) const {
    const std::int64_t total = a.total > INT64_MAX - b.total ? INT64_MAX : a.total + b.total;
    return {total, a.fault_row < b.fault_row ? a.fault_row : b.fault_row};
  }
};

/// splits[0] = 0, splits[i] = total of rows [0, i).
template <class S>
struct SplitOf {
  const RangePrefix* prefixes;
  TESSERA_HD S operator()(std::int64_t i) const {
    return i == 0 ? S(0) : static_cast<S>(prefixes[i - 1].total);
  }
};

/// values[k] = element k - splits[row] of the row holding k.
template <class T, class S>
struct RangeValue {
  RangeOperands<T> args;
  const S* splits;
  std::int64_t nrows;
  T* values;
  TESSERA_HD void operator()(std::int64_t k) const {
    const std::int64_t row = row_of_value(splits, nrows, k);
    values[k] = range_element(args.starts[row], args.deltas[row],
                              k - static_cast<std::int64_t>(splits[row]));
  }
};

/// out[e] for e = (row, j, rest): row's j-th value block of `inner` elements, or pad past the
/// row's end.
template <class T, class S>
struct DenseElement {
  const T* values;
  const S* splits;
  std::int64_t width;
  std::int64_t inner;
  T pad;
  T* out;
  TESSERA_HD void operator()(std::int64_t e) const {
    const std::int64_t row = e / (width * inner);
    const std::int64_t rest = e % (width * inner);
    const std::int64_t j = rest / inner;
    const std::int64_t first = splits[row];
    out[e] =
        j < static_cast<std::int64_t>(splits[row + 1]) - first ? values[first * inner + rest] : pad;
  }
};

/// The value of one argument at `row`, read from the device when it lives there.
template <class T>
T operand_at(const RangeOperand<T>& op, std::int64_t row, int device) {
  if (op.data == nullptr) return op.value;
  T value;
  device_runtime::copy_to_host(&value, op.data + row * op.stride, sizeof(T), device);
  return value;
}

}  // namespace

template <class T, class S>
void range_cuda(int device, const RangeOperands<T>& args, std::int64_t nrows, Tensor<S>& splits_out,
                Tensor<T>& values_out) {
  const Device dev = Device::cuda(device);
  device_call("ragged::range", device, [&] {
    DeviceWork work(device);
    const thrust::counting_iterator<std::int64_t> first(0);
    // The one wait: the last prefix holds the total and the lowest faulty row.
    RangePrefix all{0, INT64_MAX};
    const DeviceBuffer<RangePrefix> prefixes(nrows, device);
    if (nrows > 0) {
      thrust::transform_inclusive_scan(work.policy(), first, first + nrows, prefixes.data(),
                                       RangeRow<T>{args}, JoinRangePrefixes{});
      device_runtime::copy_to_host(&all, prefixes.data() + (nrows - 1), sizeof(all), device);
    }
    if (all.fault_row != INT64_MAX) {
      const std::int64_t row = all.fault_row;
      const T start = operand_at(args.starts, row, device);
      const T limit = operand_at(args.limits, row, device);
      const T delta = operand_at(args.deltas, row, device);
      RangeFault fault = RangeFault::None;
      range_size(start, limit, delta, fault);
      raise_range_fault(fault, row, start, limit, delta);
    }
    const std::int64_t total = all.total;
    if (total == INT64_MAX || total > static_cast<std::int64_t>(std::numeric_limits<S>::max())) {
      raise_range_total<S>(total, total == INT64_MAX);
    }
    Tensor<S> splits = Tensor<S>::empty({nrows + 1}, dev);
    thrust::transform(work.policy(), first, first + (nrows + 1), splits.data(),
                      SplitOf<S>{prefixes.data()});
    Tensor<T> values = Tensor<T>::empty({total}, dev);
    if (total > 0) {
      thrust::for_each_n(work.policy(), first, total,
                         RangeValue<T, S>{args, splits.data(), nrows, values.data()});
    }
    splits_out = std::move(splits);
    values_out = std::move(values);
  });
}

template <class T, class S>
void to_tensor_cuda(int device, const T* values, const S* splits, std::int64_t nrows,
                    std::int64_t width, std::int64_t inner, T pad, T* out) {
  const std::int64_t n = nrows * width * inner;
  if (n == 0) return;
  device_call("RaggedTensor::to_tensor", device, [&] {
    DeviceWork work(device);
    thrust::for_each_n(work.policy(), thrust::counting_iterator<std::int64_t>(0), n,
                       DenseElement<T, S>{values, splits, width, inner, pad, out});
  });
}

template <SegmentId Id, class T>
void reduce_cuda(int device, const T* values, const std::int64_t* splits, const SegmentPlan& plan,
                 segment_ops::out_t<Id, T>* out) {
  using Op = typename segment_ops::op_of<Id, T>::type;
  ReduceStore<Op> store;
  store.values = out;
  device_call("ragged reduction", device, [&] {
    DeviceWork work(device);
    thrust::for_each_n(work.policy(), thrust::counting_iterator<std::int64_t>(0), plan.outputs(),
                       SegmentOutput<Op, T, std::int64_t>{Op{}, values, splits, plan, store});
  });
}

#define TESSERA_INSTANTIATE_RAGGED_REDUCE_DEVICE(ID, T)                           \
  template void reduce_cuda<SegmentId::ID, T>(int, const T*, const std::int64_t*, \
                                              const SegmentPlan&,                 \
                                              segment_ops::out_t<SegmentId::ID, T>*);
TESSERA_FOR_EACH_SEGMENT_REDUCTION(TESSERA_INSTANTIATE_RAGGED_REDUCE_DEVICE)
#undef TESSERA_INSTANTIATE_RAGGED_REDUCE_DEVICE

#define TESSERA_INSTANTIATE_RANGE_DEVICE(T, S)                                           \
  template void range_cuda<T, S>(int, const RangeOperands<T>&, std::int64_t, Tensor<S>&, \
                                 Tensor<T>&);
TESSERA_FOR_EACH_RAGGED_RANGE_TYPE(TESSERA_INSTANTIATE_RANGE_DEVICE)
#undef TESSERA_INSTANTIATE_RANGE_DEVICE

#define TESSERA_INSTANTIATE_TO_TENSOR_DEVICE(S, T)                                        \
  template void to_tensor_cuda<T, S>(int, const T*, const S*, std::int64_t, std::int64_t, \
                                     std::int64_t, T, T*);
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_TO_TENSOR_DEVICE, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_TO_TENSOR_DEVICE, int64_t)
#undef TESSERA_INSTANTIATE_TO_TENSOR_DEVICE

}  // namespace tessera::detail::ragged_ops
