// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce.hpp
/// Reductions of ragged rows (TensorFlow 2.21's `tf.reduce_sum(r, axis=1)` and siblings):
/// `ts::ragged::reduce_sum(r)` folds each row (axis 1, shape (nrows)),
/// `ts::ragged::reduce_max(r, 0)` each column position over the rows long enough to have it
/// (shape (longest row)). Values with inner dimensions keep them: (nrows, inner...).
///
/// They run on the reduction engine's segment path (expr/reduce_segments.hpp): the same op
/// structs and order of combination on the host and the device, so float results are the same
/// bits on every device, run after run. Empty rows give TensorFlow's values: sum 0, prod 1, mean
/// NaN, max the type's lowest finite value, min its largest, any false, all true. Sums and
/// products keep T (integers wrap); the mean of int32/int64 is double, of smaller integers
/// float. NaN propagates through max and min (as `amax`; TensorFlow's fold keeps it only when
/// it comes last: a documented difference).

#include <cstdint>
#include <type_traits>

#include "tessera/expr/reduce_segments.hpp"
#include "tessera/expr/segment_ops.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {
namespace detail::ragged_ops {

/// Segment reduction `Id` of contiguous `values` cut by int64 `splits` (any device): checks
/// the axis (IndexError outside [-rank, rank), ValueError for an inner axis), then folds
/// (src/ops/ragged_reduce.cpp, instantiated for every valid (Id, T)).
template <SegmentId Id, class T>
Tensor<segment_ops::out_t<Id, T>> reduce(const char* op, const Tensor<T>& values,
                                         const Tensor<std::int64_t>& splits, std::int64_t axis);

/// The host fold of `plan` (src/backend/host/ragged_reduce.cpp).
template <SegmentId Id, class T>
void reduce_host(const T* values, const std::int64_t* splits, const SegmentPlan& plan,
                 segment_ops::out_t<Id, T>* out);
/// The device fold of `plan` on `device` (src/backend/device/ragged.cu); queued, no wait.
template <SegmentId Id, class T>
void reduce_cuda(int device, const T* values, const std::int64_t* splits, const SegmentPlan& plan,
                 segment_ops::out_t<Id, T>* out);

/// One reduction of a ragged tensor or ragged expression: values made contiguous (an
/// expression is evaluated once), splits as int64.
template <SegmentId Id, class R>
auto reduce_ragged(const char* op, const R& r, std::int64_t axis) {
  using T = typename R::value_type;
  using S = typename R::split_type;
  const Tensor<T> values = tensor_of(r.values()).contiguous();
  if constexpr (std::is_same_v<S, std::int64_t>) {
    return reduce<Id, T>(op, values, r.row_splits(), axis);
  } else {
    return reduce<Id, T>(
        op, values, materialize<std::int64_t>(r.row_splits().template cast<std::int64_t>()), axis);
  }
}

/// A number type, or a compile-time error naming the fix.
template <class T>
constexpr void require_ragged_numbers() {
  static_assert(!std::is_same_v<T, bool>,
                "tessera::ragged::reduce_sum/prod/max/min/mean: bool values are reduced by "
                "reduce_any / reduce_all (or cast first: (r.values().cast<int32_t>()))");
}

}  // namespace detail::ragged_ops

namespace ragged {

/// @name Ragged reductions (TensorFlow): axis 1 (default, or -1 for 1-d values) reduces each
/// row, axis 0 each column position; results are the same bits on every device.
/// @{

/// Sum of each row (axis 1) or column position (axis 0); keeps T (integers wrap); empty: 0.
///
///     ts::Tensor<float> per_row = ts::ragged::reduce_sum(r);
template <tessera::detail::Ragged R>
auto reduce_sum(const R& r, std::int64_t axis = 1) {
  tessera::detail::ragged_ops::require_ragged_numbers<typename R::value_type>();
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::Sum>(
      "ragged::reduce_sum", r, axis);
}
/// Product of each row or column position; keeps T (integers wrap); empty: 1.
template <tessera::detail::Ragged R>
auto reduce_prod(const R& r, std::int64_t axis = 1) {
  tessera::detail::ragged_ops::require_ragged_numbers<typename R::value_type>();
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::Prod>(
      "ragged::reduce_prod", r, axis);
}
/// Largest value of each row or column position (NaN propagates); empty: the lowest finite T.
template <tessera::detail::Ragged R>
auto reduce_max(const R& r, std::int64_t axis = 1) {
  tessera::detail::ragged_ops::require_ragged_numbers<typename R::value_type>();
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::Max>(
      "ragged::reduce_max", r, axis);
}
/// Smallest value of each row or column position (NaN propagates); empty: the largest T.
template <tessera::detail::Ragged R>
auto reduce_min(const R& r, std::int64_t axis = 1) {
  tessera::detail::ragged_ops::require_ragged_numbers<typename R::value_type>();
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::Min>(
      "ragged::reduce_min", r, axis);
}
/// Mean of each row or column position: the sum in T over the count (empty: NaN); double for
/// int32/int64 values, float for smaller integers, T for floats (TensorFlow's division).
template <tessera::detail::Ragged R>
auto reduce_mean(const R& r, std::int64_t axis = 1) {
  tessera::detail::ragged_ops::require_ragged_numbers<typename R::value_type>();
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::Mean>(
      "ragged::reduce_mean", r, axis);
}
/// True where any value of the row (column position) is true; empty: false. Bool values.
template <tessera::detail::Ragged R>
Tensor<bool> reduce_any(const R& r, std::int64_t axis = 1) {
  static_assert(std::is_same_v<typename R::value_type, bool>,
                "tessera::ragged::reduce_any: bool values (compare first, e.g. r > 0)");
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::Any>(
      "ragged::reduce_any", r, axis);
}
/// True where every value of the row (column position) is true; empty: true. Bool values.
template <tessera::detail::Ragged R>
Tensor<bool> reduce_all(const R& r, std::int64_t axis = 1) {
  static_assert(std::is_same_v<typename R::value_type, bool>,
                "tessera::ragged::reduce_all: bool values (compare first, e.g. r > 0)");
  return tessera::detail::ragged_ops::reduce_ragged<tessera::detail::SegmentId::All>(
      "ragged::reduce_all", r, axis);
}
/// @}

}  // namespace ragged
}  // namespace tessera
