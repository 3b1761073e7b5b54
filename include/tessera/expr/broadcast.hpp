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
  Shape out = Shape::filled(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      raise<ShapeError>(op, "shapes ", a, " and ", b, " cannot be broadcast together");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

/// Strides that read a tensor of `shape`/`strides` at every index of `out` (right-aligned;
/// 0 where the tensor is broadcast). `out` must be a broadcast of `shape`.
inline void broadcast_strides(const Shape& shape, const Shape& strides, const Shape& out,
                              std::int64_t* result) {
  const std::size_t lead = out.size() - shape.size();
  for (std::size_t d = 0; d < out.size(); ++d) {
    result[d] = (d < lead || shape[d - lead] == 1) ? 0 : strides[d - lead];
  }
}

}  // namespace tessera::detail
