// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file expr.hpp
/// The base of every lazy expression and the concept that recognises one.

#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/ops/methods.hpp"

namespace tessera {

template <class T>
class Tensor;

/// CRTP base of every expression: tensors (leaves), scalars and operator nodes. An expression
/// answers its shape, device and element type, and binds to a trivially copyable kernel functor
/// that the evaluator calls once per output element. Operation methods come from OpMethods
/// (tessera/ops/methods.hpp).
template <class Derived>
struct Expr : OpMethods<Derived> {
  /// This expression as its concrete type.
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }
};

/// Any tessera expression (a Tensor or a lazy node).
template <class E>
concept Expression = std::is_base_of_v<Expr<std::remove_cvref_t<E>>, std::remove_cvref_t<E>>;

/// What may appear beside an expression in an operator: another expression or a scalar (a real
/// number, bool, or a std::complex).
template <class X>
concept Operand = Expression<X> || Number<std::remove_cvref_t<X>>;

}  // namespace tessera
