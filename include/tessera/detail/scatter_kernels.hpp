// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_kernels.hpp
/// What the host and CUDA scatter kernels share: the index geometry (which slice of the output
/// an index row names) and the five combine functions of the tensor_scatter_nd_* family.

#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/expr/functors.hpp"
#include "tessera/expr/host_executor.hpp"

namespace tessera::detail {

/// The run-time name of a scatter combine function (the library instantiates all five).
enum class ScatterOpId : std::uint8_t { Sub, Add, Update, Min, Max };

/// How index rows map onto a contiguous output: row (i_0, ..., i_{K-1}) names slice
/// `sum_d i_d * slice_strides[d]`, i.e. elements [slice * slice_size, (slice + 1) * slice_size).
struct ScatterGeometry {
  int k = 0;                                  ///< index depth K = indices.shape[-1]
  std::int64_t extents[kMaxDims] = {};        ///< the output's first K extents
  std::int64_t slice_strides[kMaxDims] = {};  ///< in slices: product of extents[d + 1 .. K)
  std::int64_t slices = 0;                    ///< product of the first K extents
  std::int64_t slice_size = 1;                ///< product of the remaining extents

  static ScatterGeometry of(const Shape& shape, int k) {
    ScatterGeometry g;
    g.k = k;
    g.slices = 1;
    for (int d = k - 1; d >= 0; --d) {
      g.extents[d] = shape[d];
      g.slice_strides[d] = g.slices;
      g.slices = wrapping_mul(g.slices, shape[d]);  // (0, 2^40, 2^40): no element, no UB
    }
    for (auto d = static_cast<std::size_t>(k); d < shape.size(); ++d) {
      g.slice_size = wrapping_mul(g.slice_size, shape[d]);
    }
    return g;
  }

  /// The slice index row `row` names, or -1 when an entry is negative or past its extent
  /// (negative indices do not wrap, as in TensorFlow).
  template <class Index>
  TESSERA_HD std::int64_t slice_of(const Index* row) const {
    std::int64_t slice = 0;
    for (int d = 0; d < k; ++d) {
      const auto v = static_cast<std::int64_t>(row[d]);
      // One unsigned compare rejects negatives too.
      if (static_cast<std::uint64_t>(v) >= static_cast<std::uint64_t>(extents[d])) return -1;
      slice += v * slice_strides[d];
    }
    return slice;
  }
};

namespace scatter_ops {
// Integers wrap (two's complement) like TensorFlow's; Min/Max follow Eigen's cwiseMin/cwiseMax
// as TensorFlow's CPU kernel applies them: `u < x ? u : x`, so a NaN already in the output
// stays and a NaN update is ignored.
struct Sub {
  static constexpr ScatterOpId id = ScatterOpId::Sub;
  static constexpr const char* name = "tensor_scatter_nd_sub";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return wrapping(x, u, [](auto a, auto b) { return a - b; });
  }
};
struct Add {
  static constexpr ScatterOpId id = ScatterOpId::Add;
  static constexpr const char* name = "tensor_scatter_nd_add";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return wrapping(x, u, [](auto a, auto b) { return a + b; });
  }
};
struct Update {
  static constexpr ScatterOpId id = ScatterOpId::Update;
  static constexpr const char* name = "tensor_scatter_nd_update";
  template <class T>
  TESSERA_HD static T apply(T, T u) {
    return u;
  }
};
struct Min {
  static constexpr ScatterOpId id = ScatterOpId::Min;
  static constexpr const char* name = "tensor_scatter_nd_min";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return u < x ? u : x;
  }
};
struct Max {
  static constexpr ScatterOpId id = ScatterOpId::Max;
  static constexpr const char* name = "tensor_scatter_nd_max";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return x < u ? u : x;
  }
};
// The combines of TensorFlow's unsorted segment reductions (ops/segment.hpp): not members of
// the tensor_scatter_nd_* family (no ScatterOpId), instantiated by the segment reductions only.
// Max and min propagate NaN like tessera's amax (pw::maximum), wherever it stands.
struct Mul {
  static constexpr const char* name = "unsorted_segment_prod";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return pw::mul(x, u);
  }
};
struct Maximum {
  static constexpr const char* name = "unsorted_segment_max";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return pw::maximum(x, u);
  }
};
struct Minimum {
  static constexpr const char* name = "unsorted_segment_min";
  template <class T>
  TESSERA_HD static T apply(T x, T u) {
    return pw::minimum(x, u);
  }
};
}  // namespace scatter_ops

/// Update element p (row-major over the updates' shape `extents`) of a bound kernel functor,
/// as T.
template <class T, class K>
TESSERA_HD T scatter_update_at(const K& updates, const Extents& extents, bool linear,
                               std::int64_t p) {
  if (linear) return static_cast<T>(updates.linear(p));
  std::int64_t index[kMaxDims];
  zero_dims(index);
  extents.unravel(p, index);
  return static_cast<T>(updates.at(index));
}

/// Calls `f(Op{})` with the functor of `id`.
template <class F>
decltype(auto) with_scatter_op(ScatterOpId id, F&& f) {
  switch (id) {
    case ScatterOpId::Sub:
      return f(scatter_ops::Sub{});
    case ScatterOpId::Add:
      return f(scatter_ops::Add{});
    case ScatterOpId::Update:
      return f(scatter_ops::Update{});
    case ScatterOpId::Min:
      return f(scatter_ops::Min{});
    case ScatterOpId::Max:
      break;
  }
  return f(scatter_ops::Max{});
}

}  // namespace tessera::detail
