// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file segment.hpp
/// TensorFlow's unsorted segment reductions: `ts::unsorted_segment_sum(data, segment_ids, n)`
/// and `_prod`, `_max`, `_min`, `_mean`. Entry i of `segment_ids` (int32 or int64, covering
/// data's leading dims) sends `data[i]` (an element, or the slice of the remaining dims) to
/// segment `segment_ids[i]`; the result has shape (n, data.shape[ids.dim():]...). Negative ids
/// are dropped (TensorFlow); an id >= n is an IndexError in TensorFlow's words, n < 0 a
/// ValueError. Empty segments: sum 0, prod 1, max the lowest finite value, min the largest,
/// mean 0 (TensorFlow divides by max(count, 1)). Max and min propagate NaN (as `amax`).
///
/// Each is a scatter into an initialised output on the scatter engine (combines of
/// detail/scatter_kernels.hpp): in index order on the host (float sums bit-identical run after
/// run), and on the device through the engine's ordered path, which gives the host's bits.

#include <cstdint>
#include <type_traits>

#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/segment_ops.hpp"
#include "tessera/tensor.hpp"

namespace tessera {
namespace detail::segment_scatter {

/// The result type of unsorted segment reduction Id over T (the mean divides as TensorFlow).
template <SegmentId Id, class T>
using out_t = std::conditional_t<Id == SegmentId::Mean, segment_ops::mean_t<T>, T>;

/// Checks, sizes and runs segment reduction Id of contiguous `data` by int64 `ids` (any
/// device); src/ops/segment_reduce.cpp, instantiated for Sum..Mean over every number dtype.
template <SegmentId Id, class T>
Tensor<out_t<Id, T>> reduce(const char* op, const Tensor<T>& data, const Tensor<std::int64_t>& ids,
                            std::int64_t num_segments);

/// Expands X(Id, T) for every unsorted segment reduction.
#define TESSERA_FOR_EACH_UNSORTED_SEGMENT_REDUCTION(X)     \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Sum)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Prod) \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Max)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Min)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Mean)

/// The public functions' common body: data evaluated (contiguous), ids as int64.
template <SegmentId Id, class E, class Index>
auto run(const char* op, const E& data, const Tensor<Index>& segment_ids,
         std::int64_t num_segments) {
  using T = typename E::value_type;
  static_assert(!std::is_same_v<T, bool>,
                "tessera::unsorted_segment_*: bool data is not reduced (TensorFlow has no bool "
                "kernel either); cast first, e.g. data.cast<int32_t>()");
  static_assert(std::is_same_v<Index, std::int32_t> || std::is_same_v<Index, std::int64_t>,
                "tessera::unsorted_segment_*: segment_ids must be Tensor<int32_t> or "
                "Tensor<int64_t>");
  const Tensor<T> values = tensor_of(data).contiguous();
  if constexpr (std::is_same_v<Index, std::int64_t>) {
    return reduce<Id, T>(op, values, segment_ids.contiguous(), num_segments);
  } else {
    return reduce<Id, T>(op, values,
                         materialize<std::int64_t>(segment_ids.template cast<std::int64_t>()),
                         num_segments);
  }
}

}  // namespace detail::segment_scatter

/// @name Unsorted segment reductions (TensorFlow): data may be an expression; ids int32/int64.
/// @{

/// Sum of the data sent to each segment; empty segments 0. Float sums: the same bits on every
/// device, run after run.
///
///     auto per_user = ts::unsorted_segment_sum(clicks, user_ids, n_users);
template <Expression E, class Index>
auto unsorted_segment_sum(const E& data, const Tensor<Index>& segment_ids,
                          std::int64_t num_segments) {
  return detail::segment_scatter::run<detail::SegmentId::Sum>("unsorted_segment_sum", data,
                                                              segment_ids, num_segments);
}
/// Product of the data sent to each segment (integers wrap); empty segments 1.
template <Expression E, class Index>
auto unsorted_segment_prod(const E& data, const Tensor<Index>& segment_ids,
                           std::int64_t num_segments) {
  return detail::segment_scatter::run<detail::SegmentId::Prod>("unsorted_segment_prod", data,
                                                               segment_ids, num_segments);
}
/// Largest value sent to each segment (NaN propagates); empty segments: the lowest finite T.
template <Expression E, class Index>
auto unsorted_segment_max(const E& data, const Tensor<Index>& segment_ids,
                          std::int64_t num_segments) {
  return detail::segment_scatter::run<detail::SegmentId::Max>("unsorted_segment_max", data,
                                                              segment_ids, num_segments);
}
/// Smallest value sent to each segment (NaN propagates); empty segments: the largest T.
template <Expression E, class Index>
auto unsorted_segment_min(const E& data, const Tensor<Index>& segment_ids,
                          std::int64_t num_segments) {
  return detail::segment_scatter::run<detail::SegmentId::Min>("unsorted_segment_min", data,
                                                              segment_ids, num_segments);
}
/// Sum over max(count, 1) per segment (empty: 0): T for floats, double for int32/int64 data,
/// float for smaller integers (TensorFlow's true division).
template <Expression E, class Index>
auto unsorted_segment_mean(const E& data, const Tensor<Index>& segment_ids,
                           std::int64_t num_segments) {
  return detail::segment_scatter::run<detail::SegmentId::Mean>("unsorted_segment_mean", data,
                                                               segment_ids, num_segments);
}
/// @}

}  // namespace tessera
