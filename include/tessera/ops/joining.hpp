// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file joining.hpp
/// Joining tensors (PyTorch): `ts::cat({a, b}, 0)` along an existing dimension and
/// `ts::stack({a, b}, 1)` along a new one, of tensors of one dtype on one device; one strided
/// copy per input (src/ops/join.cpp).

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/tensor_class.hpp"

namespace tessera {

namespace detail {
/// cat (or stack: a new dim) of tensors of one dtype on one device.
template <class T>
Tensor<T> join_tensors(const char* op, const std::vector<Tensor<T>>& tensors, std::int64_t dim,
                       bool stack);
}  // namespace detail

/// @name Joining tensors
/// @{

/// The tensors joined along `dim` (same dtype and device, DeviceError otherwise; shapes equal
/// except along dim, ShapeError naming the first mismatching tensor and both shapes). Empty
/// 1-D tensors (shape (0)) are skipped, as PyTorch does; an empty list is a ValueError.
template <class T>
Tensor<T> cat(const std::vector<Tensor<T>>& tensors, std::int64_t dim = 0) {
  const detail::OpScope scope("cat");
  return detail::join_tensors("cat", tensors, dim, false);
}
/// cat of a braced list: `ts::cat({a, b, c}, 0)`.
template <class T>
Tensor<T> cat(std::initializer_list<Tensor<T>> tensors, std::int64_t dim = 0) {
  return tessera::cat(std::vector<Tensor<T>>(tensors), dim);
}
/// The tensors (equal shapes, one dtype and device) stacked along a new dim `dim` in
/// [-(rank + 1), rank].
template <class T>
Tensor<T> stack(const std::vector<Tensor<T>>& tensors, std::int64_t dim = 0) {
  const detail::OpScope scope("stack");
  return detail::join_tensors("stack", tensors, dim, true);
}
/// stack of a braced list: `ts::stack({a, b}, 1)`.
template <class T>
Tensor<T> stack(std::initializer_list<Tensor<T>> tensors, std::int64_t dim = 0) {
  return tessera::stack(std::vector<Tensor<T>>(tensors), dim);
}
/// @}

}  // namespace tessera
