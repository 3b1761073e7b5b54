// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file range.hpp
/// `ragged::range` (TensorFlow's `tf.ragged.range`): row i is `range(starts[i], limits[i],
/// deltas[i])` with Python semantics, as a RaggedTensor.
///
/// Each argument is a scalar T or a 0-d/1-d Tensor<T>, in any mix; scalars broadcast. Sizes are
/// computed without overflow and checked (delta == 0, float sizes of 2^63 or more, NaN, inf, a
/// total that does not fit S) before the values are allocated. Host: sizes, exclusive scan and
/// fill run in parallel blocks (long rows are split between threads). CUDA: the same three steps
/// on the GPU, with one wait for the total size (the values' allocation needs it on the host).

#include <cstdint>
#include <type_traits>

#include "tessera/detail/ragged_range_kernels.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera::ragged {

/// One argument of range: a scalar (`3`, `0.5f`) or a 0-d/1-d tensor of T.
template <class T>
class RangeArg {
 public:
  /// A scalar argument (broadcast to every row).
  RangeArg(T value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  /// A 0-d or 1-d tensor argument (one entry per row).
  RangeArg(const Tensor<T>& tensor) : tensor_(tensor), is_tensor_(true) {}  // NOLINT
  /// True when built from a tensor.
  bool is_tensor() const noexcept { return is_tensor_; }
  /// The tensor (empty unless is_tensor()).
  const Tensor<T>& tensor() const noexcept { return tensor_; }
  /// The scalar (unused when is_tensor()).
  T value() const noexcept { return value_; }

 private:
  T value_{};
  Tensor<T> tensor_;
  bool is_tensor_ = false;
};

namespace detail {
template <class T>
inline constexpr bool is_range_type_v =
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

/// Validates the arguments and runs the host or CUDA kernel (src/ops/ragged_range.cpp).
/// `device` is where an all-scalar call puts its result.
template <class T, class S>
RaggedTensor<T, S> range_impl(const RangeArg<T>& starts, const RangeArg<T>& limits,
                              const RangeArg<T>& deltas, Device device);
}  // namespace detail

/// Rows `range(starts[i], limits[i], deltas[i])`; T is int32_t, int64_t, float or double, S the
/// row-splits type (int64_t or int32_t).
///
///     auto r = tessera::ragged::range<int64_t>(tessera::tensor<int64_t>({0, 5, 8}),
///                                              tessera::tensor<int64_t>({3, 3, 12}), 2);
///     // <RaggedTensor [[0, 2], [], [8, 10]]>
///
/// Vector arguments must have one length (ShapeError); rank > 1 → ShapeError; delta == 0 →
/// ValueError naming the row; a float row of 2^63 or more elements (NaN, inf) or a total that
/// does not fit S → ValueError. All-scalar arguments give one row on `device` (default CPU);
/// tensor arguments must all live on one device, which the result shares.
template <class T, class S = std::int64_t>
RaggedTensor<T, S> range(const RangeArg<T>& starts, const RangeArg<T>& limits,
                         const RangeArg<T>& deltas, Device device = Device::cpu()) {
  static_assert(detail::is_range_type_v<T>,
                "tessera::ragged::range<T, S>: T is int32_t, int64_t, float or double");
  return detail::range_impl<T, S>(starts, limits, deltas, device);
}

/// `range(starts, limits, 1)`.
template <class T, class S = std::int64_t>
RaggedTensor<T, S> range(const RangeArg<T>& starts, const RangeArg<T>& limits) {
  return range<T, S>(starts, limits, T(1));
}

/// `range(0, limits, 1)`: `range<int64_t>(tensor<int64_t>({3, 5, 2}))` is
/// `[[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]`.
template <class T, class S = std::int64_t>
RaggedTensor<T, S> range(const RangeArg<T>& limits) {
  return range<T, S>(T(0), limits, T(1));
}

}  // namespace tessera::ragged

namespace tessera::detail::ragged_ops {
// The kernels behind ragged::range, precompiled per (T, S) in the library: the host one in
// src/backend/host/ragged_range.cpp, the CUDA one in src/backend/cuda/ragged.cu (or its stand-in
// that raises DeviceError). Each validates sizes before allocating and fills splits and values.
template <class T, class S>
void range_host(const RangeOperands<T>& args, std::int64_t nrows, Tensor<S>& splits,
                Tensor<T>& values);
template <class T, class S>
void range_cuda(int device, const RangeOperands<T>& args, std::int64_t nrows, Tensor<S>& splits,
                Tensor<T>& values);

/// Raises the ValueError of a faulty row (src/ops/ragged_checks.cpp).
template <class T>
[[noreturn]] void raise_range_fault(RangeFault fault, std::int64_t row, T start, T limit, T delta);
/// Raises the ValueError of a total that does not fit the row-splits type S.
template <class S>
[[noreturn]] void raise_range_total(std::int64_t total, bool saturated);
}  // namespace tessera::detail::ragged_ops

/// Instantiates X(T, S) for every element type of ragged::range and both split types.
#define TESSERA_FOR_EACH_RAGGED_RANGE_TYPE(X) \
  X(std::int32_t, std::int32_t)               \
  X(std::int32_t, std::int64_t)               \
  X(std::int64_t, std::int32_t)               \
  X(std::int64_t, std::int64_t)               \
  X(float, std::int32_t) X(float, std::int64_t) X(double, std::int32_t) X(double, std::int64_t)
