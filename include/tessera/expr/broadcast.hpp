// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file broadcast.hpp
/// NumPy broadcasting of shapes and of a tensor's strides to an output shape.

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "tessera/core/error.hpp"
#include "tessera/core/shape.hpp"

namespace tessera::detail {

/// The broadcast of two shapes (NumPy rules); ShapeError naming `op` and both shapes otherwise.
inline Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b) {
  if (a == b) return a;
  const std::size_t n = std::max(a.size(), b.size());
  const auto extent = [&](std::size_t i) {
    const std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      raise<ShapeError>(op, "shapes ", a, " and ", b, " cannot be broadcast together");
    }
    return da == 1 ? db : da;
  };
  if (n > static_cast<std::size_t>(kMaxDims)) {  // no tensor's shape, but still a valid Shape
    Shape out = Shape::filled(n, 0);
    for (std::size_t i = 0; i < n; ++i) out[i] = extent(i);
    return out;
  }
  // Built in an array and made a Shape once: filling a Shape and returning it moved it, and
  // the move's 16-byte loads of the extents just stored 8 bytes at a time stalled on store
  // forwarding (a fifth of a (2, 4) + (4) evaluation).
  std::int64_t dims[kMaxDims];
  for (std::size_t i = 0; i < n; ++i) dims[i] = extent(i);
  // n <= kMaxDims already; the clamp restates it where g++ -O1 lost it (it then warned that the
  // constructor's heap branch for longer shapes would read past `dims`). One cmov.
  const std::size_t rank = std::min(n, static_cast<std::size_t>(kMaxDims));
  // NOLINTNEXTLINE(modernize-return-braced-init-list): {} would read as the extents
  return Shape(dims, dims + rank);
}

/// Strides that read a tensor of `shape`/`strides` at every index of `out` (right-aligned;
/// 0 where the tensor is broadcast), written to all kMaxDims entries of `result` (0 past
/// `out`'s rank; see copy_dims). `out` must be a broadcast of `shape`.
inline void broadcast_strides(const Shape& shape, const Shape& strides, const Shape& out,
                              std::int64_t* result) {
  const auto rank = static_cast<std::ptrdiff_t>(out.size());
  const std::ptrdiff_t lead = rank - static_cast<std::ptrdiff_t>(shape.size());
  for (std::ptrdiff_t d = 0; d < kMaxDims; ++d) {
    const std::ptrdiff_t s = d - lead;
    const auto at = static_cast<std::size_t>(s);
    result[d] = (d >= rank || s < 0 || shape[at] == 1) ? 0 : strides[at];
  }
}

}  // namespace tessera::detail
