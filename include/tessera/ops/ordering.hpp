// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ordering.hpp
/// sort, argsort and topk (PyTorch semantics) on tensors and expressions:
/// `auto [v, i] = t.sort();`, `t.argsort(0, true)`, `auto [top, pos] = (a - b).topk(5)`.
///
/// Stable always: equal elements keep their input order, descending too. NaN is the largest
/// value (last ascending, first descending); -0.0 and +0.0 are equal. `dim` defaults to -1;
/// a 0-d tensor sorts as one element (its value, position 0). The input is evaluated once into
/// a contiguous tensor (a contiguous tensor is used as is); the kernels are precompiled in the
/// library for every dtype: on the host a radix sort on order-preserving integer keys
/// (parallel over rows, or over one long row), on a device Thrust's stable sort by key.

#include <cstdint>
#include <type_traits>

#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/reduce_dims.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

namespace detail {

/// Sorts `x` along `dim` (op: "sort" or "argsort", for errors): the values (when `values`) and
/// the int64 positions, x's shape. Checks dim (IndexError). Precompiled per dtype
/// (src/ops/ordering.cpp); x may have any layout and live on any device.
template <class T>
ValuesIndices<T> sort_tensor(const char* op, const Tensor<T>& x, std::int64_t dim, bool descending,
                             bool values);

/// The k largest (or smallest) of `x` along `dim`, in order, with their positions; ties in the
/// order of a stable sort. Checks dim and k (IndexError). Precompiled per dtype.
template <class T>
ValuesIndices<T> topk_tensor(const Tensor<T>& x, std::int64_t k, std::int64_t dim, bool largest);

}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Ordering (PyTorch): stable; NaN the largest; -0.0 equal to +0.0
/// @{

/// The elements of `e` sorted along `dim` (ascending, or descending) and the int64 positions
/// they came from: `auto [sorted, order] = ts::sort(t);`. Equal elements keep their input
/// order (descending too). IndexError when dim is out of range.
template <Expression E>
ValuesIndices<typename std::remove_cvref_t<E>::value_type> sort(const E& e, std::int64_t dim = -1,
                                                                bool descending = false) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "sort");
  const detail::OpScope scope("sort");
  return detail::sort_tensor("sort", detail::tensor_of(e), dim, descending, true);
}

/// The int64 positions that sort `e` along `dim` (the indices of ts::sort, stable).
template <Expression E>
Tensor<std::int64_t> argsort(const E& e, std::int64_t dim = -1, bool descending = false) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "argsort");
  const detail::OpScope scope("argsort");
  return detail::sort_tensor("argsort", detail::tensor_of(e), dim, descending, false).indices;
}

/// The `k` largest (largest = true) or smallest elements of `e` along `dim` and their int64
/// positions, in order (largest first, or smallest first; ties as a stable sort orders them).
/// The result is always sorted, so `sorted = false` gives the same answer. IndexError when dim
/// is out of range or k is outside [0, size along dim].
template <Expression E>
ValuesIndices<typename std::remove_cvref_t<E>::value_type> topk(const E& e, std::int64_t k,
                                                                std::int64_t dim = -1,
                                                                bool largest = true,
                                                                bool sorted = true) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "topk");
  (void)sorted;
  const detail::OpScope scope("topk");
  return detail::topk_tensor(detail::tensor_of(e), k, dim, largest);
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (ops/ordering_methods.hpp, where they are documented) -----------------------
#if !defined(TESSERA_DOXYGEN)
template <class D>
TESSERA_EVAL_TAG auto OrderingMethods<D>::sort(std::int64_t dim, bool descending) const {
  return tessera::sort(self(), dim, descending);
}
template <class D>
TESSERA_EVAL_TAG auto OrderingMethods<D>::argsort(std::int64_t dim, bool descending) const {
  return tessera::argsort(self(), dim, descending);
}
template <class D>
TESSERA_EVAL_TAG auto OrderingMethods<D>::topk(std::int64_t k, std::int64_t dim, bool largest,
                                               bool sorted) const {
  return tessera::topk(self(), k, dim, largest, sorted);
}
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
