// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_reference.hpp
/// The reference of the tensor_scatter_nd_* tests: TensorFlow's CPU loop written out, the
/// family called by a run-time op, and bit-exact comparison of results.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera_test::scatter {

namespace ts = tessera;
using ts::Tensor;

// ---- the reference: TensorFlow's CPU loop, written out --------------------------------------

enum class Op { Sub, Add, Update, Min, Max };
constexpr Op kOps[] = {Op::Sub, Op::Add, Op::Update, Op::Min, Op::Max};

inline Op op_named(const std::string& name) {
  if (name == "sub") return Op::Sub;
  if (name == "add") return Op::Add;
  if (name == "update") return Op::Update;
  if (name == "min") return Op::Min;
  return Op::Max;
}
inline const char* op_name(Op op) {
  constexpr const char* names[] = {"tensor_scatter_nd_sub", "tensor_scatter_nd_add",
                                   "tensor_scatter_nd_update", "tensor_scatter_nd_min",
                                   "tensor_scatter_nd_max"};
  return names[static_cast<int>(op)];
}

template <class T>
T reference_combine(Op op, T x, T u) {
  if constexpr (std::is_same_v<T, bool>) {
    return u;  // only update exists for bool
  } else if constexpr (std::is_integral_v<T>) {
    // Test values are small: int64 arithmetic, then the modular conversion back to T.
    const auto a = static_cast<std::int64_t>(x);
    const auto b = static_cast<std::int64_t>(u);
    switch (op) {
      case Op::Sub:
        return static_cast<T>(a - b);
      case Op::Add:
        return static_cast<T>(a + b);
      case Op::Update:
        return u;
      case Op::Min:
        return b < a ? u : x;
      case Op::Max:
        return a < b ? u : x;
    }
    return x;
  } else {
    switch (op) {
      case Op::Sub:
        return x - u;
      case Op::Add:
        return x + u;
      case Op::Update:
        return u;
      case Op::Min:
        return u < x ? u : x;
      case Op::Max:
        return x < u ? u : x;
    }
    return x;
  }
}

/// Rows outside the tensor are skipped (the Ignore policy; with Error none reach here).
template <class T>
std::vector<T> reference_scatter(Op op, std::vector<T> tensor, const ts::Shape& shape,
                                 const std::vector<std::int64_t>& indices, std::int64_t k,
                                 const std::vector<T>& updates) {
  std::int64_t slice = 1;
  for (auto d = static_cast<std::size_t>(k); d < shape.size(); ++d) slice *= shape[d];
  const auto rows = static_cast<std::int64_t>(indices.size()) / k;
  for (std::int64_t i = 0; i < rows; ++i) {
    std::int64_t at = 0;
    bool inside = true;
    for (std::int64_t d = 0; d < k; ++d) {
      const std::int64_t v = indices[static_cast<std::size_t>(i * k + d)];
      inside = inside && v >= 0 && v < shape[static_cast<std::size_t>(d)];
      at = at * shape[static_cast<std::size_t>(d)] + v;
    }
    if (!inside) continue;
    for (std::int64_t j = 0; j < slice; ++j) {
      const auto at_j = static_cast<std::size_t>(at * slice + j);
      tensor[at_j] =
          reference_combine<T>(op, tensor[at_j], updates[static_cast<std::size_t>(i * slice + j)]);
    }
  }
  return tensor;
}

// ---- calling the family by run-time op --------------------------------------------------------

template <class T, class Index, class U>
Tensor<T> call(Op op, const Tensor<T>& t, const Tensor<Index>& i, const U& u,
               const ts::ScatterOptions& options = {}) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)op;
    return ts::tensor_scatter_nd_update(t, i, u, options);
  } else {
    switch (op) {
      case Op::Sub:
        return t.tensor_scatter_nd_sub(i, u, options);
      case Op::Add:
        return t.tensor_scatter_nd_add(i, u, options);
      case Op::Update:
        return t.tensor_scatter_nd_update(i, u, options);
      case Op::Min:
        return t.tensor_scatter_nd_min(i, u, options);
      case Op::Max:
        break;
    }
    return t.tensor_scatter_nd_max(i, u, options);
  }
}

template <class T, class Index, class U>
void call_(Op op, Tensor<T>& t, const Tensor<Index>& i, const U& u,
           const ts::ScatterOptions& options = {}) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)op;
    ts::scatter_nd_update_(t, i, u, options);
  } else {
    switch (op) {
      case Op::Sub:
        t.scatter_nd_sub_(i, u, options);
        return;
      case Op::Add:
        t.scatter_nd_add_(i, u, options);
        return;
      case Op::Update:
        t.scatter_nd_update_(i, u, options);
        return;
      case Op::Min:
        t.scatter_nd_min_(i, u, options);
        return;
      case Op::Max:
        t.scatter_nd_max_(i, u, options);
        return;
    }
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a == b;
  } else {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
  }
}

}  // namespace tessera_test::scatter
