// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file layouts.hpp
/// Strided test inputs: a tensor with given logical values laid out contiguously, transposed,
/// sliced with a step, or selected out of a larger tensor (and random mixes of these). The
/// memory around the view holds a sentinel, so reading or writing a wrong element shows. The
/// base storage is filled on the host without tessera's evaluator, then moved to the device and
/// viewed there, so the layouts do not depend on the code under test beyond the view methods.

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/typed.hpp"

namespace tessera_test {

/// How a logical tensor of some shape is laid out inside its base storage.
struct LayoutSpec {
  std::string name;
  /// Physical order of the logical dims: physical dim i stores logical dim perm[i].
  std::vector<int> perm;
  /// Per logical dim: the view takes elements offset, offset + step, ... of the base.
  std::vector<std::int64_t> step;
  std::vector<std::int64_t> offset;
  /// When > 0: the base has a trailing dim of this extent and the view selects `extra_index`.
  std::int64_t extra = 0;
  std::int64_t extra_index = 0;
};

/// A view and the storage it lives in.
template <class T>
struct Strided {
  ts::Tensor<T> base;  ///< contiguous owner of the memory
  ts::Tensor<T> view;  ///< the logical tensor
  /// Base position (row-major) of each logical element (row-major).
  std::vector<std::int64_t> positions;
  std::string name;
};

inline LayoutSpec contiguous_layout(std::size_t ndim) {
  LayoutSpec s{
      "contiguous", {}, std::vector<std::int64_t>(ndim, 1), std::vector<std::int64_t>(ndim, 0)};
  for (std::size_t d = 0; d < ndim; ++d) s.perm.push_back(static_cast<int>(d));
  return s;
}

/// The named layouts that exist for `ndim` dims: contiguous, transposed (ndim >= 2, dims
/// reversed), sliced (step 2 from 1 in every dim; ndim >= 1), selected (from a trailing dim
/// of 3, so every stride is tripled and the offset is nonzero).
inline std::vector<LayoutSpec> named_layouts(std::size_t ndim) {
  std::vector<LayoutSpec> out{contiguous_layout(ndim)};
  if (ndim >= 2) {
    LayoutSpec t = contiguous_layout(ndim);
    t.name = "transposed";
    t.perm = std::vector<int>(t.perm.rbegin(), t.perm.rend());
    out.push_back(t);
  }
  if (ndim >= 1) {
    LayoutSpec s = contiguous_layout(ndim);
    s.name = "sliced";
    s.step.assign(ndim, 2);
    s.offset.assign(ndim, 1);
    out.push_back(s);
  }
  LayoutSpec sel = contiguous_layout(ndim);
  sel.name = "selected";
  sel.extra = 3;
  sel.extra_index = 1;
  out.push_back(sel);
  return out;
}

/// A random mix of permutation, steps, offsets and select.
inline LayoutSpec random_layout(std::size_t ndim, std::mt19937_64& rng) {
  LayoutSpec s = contiguous_layout(ndim);
  s.name = "random";
  std::shuffle(s.perm.begin(), s.perm.end(), rng);
  for (std::size_t d = 0; d < ndim; ++d) {
    s.step[d] = std::uniform_int_distribution<std::int64_t>(1, 3)(rng);
    s.offset[d] = std::uniform_int_distribution<std::int64_t>(0, 1)(rng);
  }
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 1) {
    s.extra = 2;
    s.extra_index = std::uniform_int_distribution<std::int64_t>(0, 1)(rng);
  }
  return s;
}

/// A tensor of `shape` holding `values` (row-major) on `device`, laid out as `spec` says;
/// every base element outside the view holds `sentinel`.
template <class T>
Strided<T> make_strided(const std::vector<T>& values, const ts::Shape& shape,
                        const LayoutSpec& spec, ts::Device device, T sentinel) {
  const std::size_t n = shape.size();
  // Physical extents of the base.
  std::vector<std::int64_t> base_dims;
  for (std::size_t i = 0; i < n; ++i) {
    const auto l = static_cast<std::size_t>(spec.perm[i]);
    base_dims.push_back(spec.offset[l] + shape[l] * spec.step[l]);
  }
  if (spec.extra > 0) base_dims.push_back(spec.extra);
  const ts::Shape base_shape(base_dims);
  std::vector<T> base_values(static_cast<std::size_t>(base_shape.numel()), sentinel);

  Strided<T> out;
  out.name = spec.name;
  std::vector<std::int64_t> index(n, 0);
  for (std::int64_t k = 0; k < shape.numel(); ++k) {
    std::int64_t rest = k;
    for (std::size_t d = n; d-- > 0;) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    std::int64_t pos = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto l = static_cast<std::size_t>(spec.perm[i]);
      pos = pos * base_dims[i] + spec.offset[l] + index[l] * spec.step[l];
    }
    if (spec.extra > 0) pos = pos * spec.extra + spec.extra_index;
    base_values[static_cast<std::size_t>(pos)] = values[static_cast<std::size_t>(k)];
    out.positions.push_back(pos);
  }

  out.base = ts::Tensor<T>::from_vector(base_values, base_shape, device);
  ts::Tensor<T> v = out.base;
  if (spec.extra > 0) v = v.select(static_cast<std::int64_t>(n), spec.extra_index);
  for (std::size_t i = 0; i < n; ++i) {
    const auto l = static_cast<std::size_t>(spec.perm[i]);
    v = v.slice(static_cast<std::int64_t>(i), spec.offset[l],
                spec.offset[l] + shape[l] * spec.step[l], spec.step[l]);
  }
  std::vector<int> order = spec.perm;
  for (std::size_t j = 0; j < n; ++j) {
    std::size_t p = j;
    while (order[p] != static_cast<int>(j)) ++p;
    if (p != j) {
      v = v.transpose(static_cast<std::int64_t>(j), static_cast<std::int64_t>(p));
      std::swap(order[j], order[p]);
    }
  }
  out.view = v;
  return out;
}

/// A value that random test data never contains (so stray reads and writes show).
template <class T>
T sentinel_value() {
  if constexpr (std::is_same_v<T, bool>) {
    return true;
  } else if constexpr (std::is_unsigned_v<T>) {
    return T(251);
  } else {
    return T(-123);
  }
}

/// `values` laid out in every named layout for its rank.
template <class T>
std::vector<Strided<T>> all_layouts(const std::vector<T>& values, const ts::Shape& shape,
                                    ts::Device device) {
  std::vector<Strided<T>> out;
  for (const auto& spec : named_layouts(shape.size())) {
    out.push_back(make_strided(values, shape, spec, device, sentinel_value<T>()));
  }
  return out;
}

/// Random values that every operation under test handles without undefined behaviour:
/// bool: fair coin; uint8: [0, 100]; signed integers: [-50, 50]; floats: multiples of 0.25 in
/// [-10, 10] (so sums are exact in any order). `nonzero` avoids 0 (for divisors).
template <class T>
std::vector<T> random_values(std::int64_t n, std::mt19937_64& rng, bool nonzero = false) {
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    T v{};
    do {
      if constexpr (std::is_same_v<T, bool>) {
        v = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      } else if constexpr (std::is_unsigned_v<T>) {
        v = static_cast<T>(std::uniform_int_distribution<int>(0, 100)(rng));
      } else if constexpr (std::is_integral_v<T>) {
        v = static_cast<T>(std::uniform_int_distribution<int>(-50, 50)(rng));
      } else {
        v = static_cast<T>(std::uniform_int_distribution<int>(-40, 40)(rng)) / T(4);
      }
    } while (nonzero && v == T(0));
    out.push_back(v);
  }
  return out;
}

/// 0, 1, 2, ... as T (bool: alternating false, true).
template <class T>
std::vector<T> iota_values(std::int64_t n) {
  std::vector<T> out;
  for (std::int64_t i = 0; i < n; ++i) {
    out.push_back(std::is_same_v<T, bool> ? static_cast<T>(i % 2) : static_cast<T>(i));
  }
  return out;
}

/// A random shape of 0..max_dims dims with extents in [min_extent, max_extent].
inline ts::Shape random_shape(std::mt19937_64& rng, int max_dims = 4, std::int64_t min_extent = 0,
                              std::int64_t max_extent = 4) {
  const int ndim = std::uniform_int_distribution<int>(0, max_dims)(rng);
  std::vector<std::int64_t> dims;
  for (int d = 0; d < ndim; ++d) {
    // Extent 0 is rare (1 in 12) so most cases have data.
    std::int64_t e = std::uniform_int_distribution<std::int64_t>(1, max_extent)(rng);
    if (min_extent == 0 && std::uniform_int_distribution<int>(0, 11)(rng) == 0) e = 0;
    dims.push_back(std::max(e, min_extent));
  }
  return ts::Shape(dims);
}

/// A shape that broadcasts to `out`: some leading dims dropped, some extents replaced by 1.
inline ts::Shape random_broadcastable(const ts::Shape& out, std::mt19937_64& rng) {
  const auto drop = std::uniform_int_distribution<std::size_t>(0, out.size())(rng);
  std::vector<std::int64_t> dims;
  for (std::size_t d = drop; d < out.size(); ++d) {
    dims.push_back(std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? 1 : out[d]);
  }
  return ts::Shape(dims);
}

}  // namespace tessera_test
