// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file activations.hpp
/// Activations (PyTorch semantics) on tensors and expressions: `ts::softmax(x, 1)`,
/// `ts::log_softmax(x, -1)`. Each evaluates its input once (a tensor is used as is) and calls a
/// function precompiled per floating dtype (src/ops/statistics.cpp) on the reduction engine
/// (the max and the sum of each row) and pointwise expressions, so it runs on every device.

#include <cstdint>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/reduce_dims.hpp"
#include "tessera/ops/activations_methods.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

namespace detail {

/// softmax (or log_softmax when `log`) of x along `dim`. Precompiled for float and double.
template <class T>
Tensor<T> softmax_tensor(const Tensor<T>& x, std::int64_t dim, bool log);

/// A floating value type, or a compile-time error naming the fix.
template <class T>
constexpr void require_floating_activation() {
  static_assert(Floating<T>,
                "tessera: softmax and log_softmax need a floating input (as PyTorch); cast "
                "first, e.g. ts::softmax(x.cast<float>(), 1)");
}

}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Activations (PyTorch)
/// @{

/// exp(x - max) / sum(exp(x - max)) along `dim` (float or double input; integers are a
/// compile-time error, as PyTorch raises): `ts::softmax(x, 1)`. No overflow for large x; a row
/// with a NaN (or +inf) is NaN.
template <Expression E>
Tensor<detail::value_type_t<E>> softmax(const E& e, std::int64_t dim) {
  using T = detail::value_type_t<E>;
  detail::require_floating_activation<T>();
  const detail::OpScope scope("softmax");
  return detail::softmax_tensor(detail::tensor_of(e), dim, false);
}

/// (x - max) - log(sum(exp(x - max))) along `dim`: `ts::log_softmax(x, -1)`.
template <Expression E>
Tensor<detail::value_type_t<E>> log_softmax(const E& e, std::int64_t dim) {
  using T = detail::value_type_t<E>;
  detail::require_floating_activation<T>();
  const detail::OpScope scope("log_softmax");
  return detail::softmax_tensor(detail::tensor_of(e), dim, true);
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (ops/activations_methods.hpp, where they are documented) --------------------
#if !defined(TESSERA_DOXYGEN)
template <class D>
TESSERA_EVAL_TAG auto ActivationMethods<D>::softmax(std::int64_t dim) const {
  return tessera::softmax(self(), dim);
}
template <class D>
TESSERA_EVAL_TAG auto ActivationMethods<D>::log_softmax(std::int64_t dim) const {
  return tessera::log_softmax(self(), dim);
}
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
