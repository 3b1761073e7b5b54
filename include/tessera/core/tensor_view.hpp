// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file tensor_view.hpp
/// `TensorView<T>`: the trivially copyable (pointer, shape, strides) triple kernels receive.

#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"

namespace tessera {

/// A non-owning strided window on memory. Strides count elements, not bytes. Kernels only
/// ever see views; ownership stays with `Tensor`.
template <class T>
struct TensorView {
  T* data = nullptr;                    ///< first element
  int ndim = 0;                         ///< number of dimensions, at most kMaxDims
  std::int64_t shape[kMaxDims] = {};    ///< extents of the first ndim dimensions
  std::int64_t strides[kMaxDims] = {};  ///< element strides of the first ndim dimensions

  /// Number of elements (1 for 0-d).
  TESSERA_HD std::int64_t numel() const { return detail::extent_product(shape, ndim); }
  /// True when element i (row-major) is at data[i].
  TESSERA_HD bool is_contiguous() const {
    std::int64_t expected = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      if (shape[d] != 1 && strides[d] != expected) return false;
      expected = detail::wrapping_mul(expected, shape[d]);  // past a zero extent: unused
    }
    return true;
  }
  /// Memory offset (in elements) of the row-major linear index i.
  TESSERA_HD std::int64_t offset_of(std::int64_t i) const {
    std::int64_t offset = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const std::int64_t extent = shape[d];
      offset += (i % extent) * strides[d];
      i /= extent;
    }
    return offset;
  }
  /// Element at row-major linear index i.
  TESSERA_HD T& operator[](std::int64_t i) const { return data[offset_of(i)]; }
};

}  // namespace tessera
