#pragma once
/// @file operators.hpp
/// The lazy elementwise vocabulary: arithmetic, comparisons, logic, where, math functions, cast.
/// Every function returns an unevaluated node; assignment to a Tensor or `eval` runs it.

#include <type_traits>
#include <utility>

#include "tessera/expr/nodes.hpp"

namespace tessera {

namespace detail {
template <class L, class R>
concept BinaryOperands = (Expression<L> || Expression<R>)&&Operand<L>&& Operand<R>;

// Operands arrive as forwarding references: a subexpression built in place (`a * b` inside
// `a * b + c`) is moved into its parent, not copied (a copy costs each tensor in it a reference
// count round trip, which showed in the fixed cost of evaluating small tensors).
template <class Op, class L, class R>
auto make_arith(L&& l, R&& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  using C = common_t<A, B>;
  return BinaryNode<Op, C, C, A, B>(as_node(std::forward<L>(l)), as_node(std::forward<R>(r)));
}
template <class Op, class L, class R>
auto make_compare(L&& l, R&& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  return BinaryNode<Op, common_t<A, B>, bool, A, B>(as_node(std::forward<L>(l)),
                                                    as_node(std::forward<R>(r)));
}
template <class Op, class L, class R>
auto make_logical(L&& l, R&& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  static_assert(
      std::is_same_v<typename A::value_type, bool> && std::is_same_v<typename B::value_type, bool>,
      "tessera: &, | and ^ take bool operands (compare first, e.g. (a > 0) & (b < 1))");
  return BinaryNode<Op, bool, bool, A, B>(as_node(std::forward<L>(l)), as_node(std::forward<R>(r)));
}
// sqrt/exp/log compute in float for bool and integer inputs (as PyTorch), in T for floats.
template <class T>
using floating_t = std::conditional_t<std::is_floating_point_v<T>, T, float>;
template <class Op, class V, class E>
auto make_unary(E&& e) {
  return UnaryNode<Op, V, std::remove_cvref_t<E>>(std::forward<E>(e));
}
/// The element type of an expression passed by forwarding reference.
template <class E>
using value_of = typename std::remove_cvref_t<E>::value_type;
}  // namespace detail

/// @name Arithmetic (NumPy broadcasting, PyTorch type promotion, scalars are weak)
/// `a + b * 2.0f`. Integer division truncates; an integer divided by zero gives 0.
/// @{

/// `l + r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator+(L&& l, R&& r) {
  return detail::make_arith<detail::ops::Add>(std::forward<L>(l), std::forward<R>(r));
}
/// `l - r` elementwise. Not for two bool operands (PyTorch refuses them too): `a ^ b` is the
/// logical difference, `!a` the inverted mask.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator-(L&& l, R&& r) {
  static_assert(!std::is_same_v<detail::common_t<detail::node_t<L>, detail::node_t<R>>, bool>,
                "tessera: subtracting bool tensors is not supported (as in PyTorch); use a ^ b "
                "for logical xor or !a to invert a mask");
  return detail::make_arith<detail::ops::Sub>(std::forward<L>(l), std::forward<R>(r));
}
/// `l * r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator*(L&& l, R&& r) {
  return detail::make_arith<detail::ops::Mul>(std::forward<L>(l), std::forward<R>(r));
}
/// `l / r` elementwise. Integers truncate (C++); two bool operands divide truly, as PyTorch's
/// `/` does: the result is float (`true / false` is inf, `false / false` NaN).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator/(L&& l, R&& r) {
  using A = detail::node_t<L>;
  using B = detail::node_t<R>;
  if constexpr (std::is_same_v<detail::common_t<A, B>, bool>) {
    return detail::BinaryNode<detail::ops::Div, float, float, A, B>(
        detail::as_node(std::forward<L>(l)), detail::as_node(std::forward<R>(r)));
  } else {
    return detail::make_arith<detail::ops::Div>(std::forward<L>(l), std::forward<R>(r));
  }
}
/// Negation (not for bool: use `!`).
template <Expression E>
auto operator-(E&& e) {
  using V = detail::value_of<E>;
  static_assert(!std::is_same_v<V, bool>, "tessera: negating a bool tensor; use ! instead");
  return detail::make_unary<detail::ops::Neg, V>(std::forward<E>(e));
}
/// @}

/// @name Comparisons → bool expressions, computed in the operands' common type
/// @{

/// `l < r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<(L&& l, R&& r) {
  return detail::make_compare<detail::ops::Lt>(std::forward<L>(l), std::forward<R>(r));
}
/// `l <= r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<=(L&& l, R&& r) {
  return detail::make_compare<detail::ops::Le>(std::forward<L>(l), std::forward<R>(r));
}
/// `l > r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>(L&& l, R&& r) {
  return detail::make_compare<detail::ops::Gt>(std::forward<L>(l), std::forward<R>(r));
}
/// `l >= r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>=(L&& l, R&& r) {
  return detail::make_compare<detail::ops::Ge>(std::forward<L>(l), std::forward<R>(r));
}
/// `l == r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator==(L&& l, R&& r) {
  return detail::make_compare<detail::ops::Eq>(std::forward<L>(l), std::forward<R>(r));
}
/// `l != r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator!=(L&& l, R&& r) {
  return detail::make_compare<detail::ops::Ne>(std::forward<L>(l), std::forward<R>(r));
}
/// @}

/// @name Logic on bool expressions
/// `(a > 4.0f) & !(a == 7.0f)`
/// @{

/// Logical and of bool operands.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator&(L&& l, R&& r) {
  return detail::make_logical<detail::ops::And>(std::forward<L>(l), std::forward<R>(r));
}
/// Logical or of bool operands.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator|(L&& l, R&& r) {
  return detail::make_logical<detail::ops::Or>(std::forward<L>(l), std::forward<R>(r));
}
/// Logical exclusive or of bool operands (PyTorch's `^` on bool tensors).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator^(L&& l, R&& r) {
  return detail::make_logical<detail::ops::Xor>(std::forward<L>(l), std::forward<R>(r));
}
/// Logical not of a bool operand.
template <Expression E>
auto operator!(E&& e) {
  static_assert(std::is_same_v<detail::value_of<E>, bool>, "tessera: ! takes a bool operand");
  return detail::make_unary<detail::ops::Not, bool>(std::forward<E>(e));
}
/// @}

/// @name Math functions
/// @{

/// |x| elementwise, same type.
template <Expression E>
auto abs(E&& e) {
  return detail::make_unary<detail::ops::Abs, detail::value_of<E>>(std::forward<E>(e));
}
/// √x; integers and bool compute in float.
template <Expression E>
auto sqrt(E&& e) {
  return detail::make_unary<detail::ops::Sqrt, detail::floating_t<detail::value_of<E>>>(
      std::forward<E>(e));
}
/// eˣ; integers and bool compute in float.
template <Expression E>
auto exp(E&& e) {
  return detail::make_unary<detail::ops::Exp, detail::floating_t<detail::value_of<E>>>(
      std::forward<E>(e));
}
/// ln x; integers and bool compute in float.
template <Expression E>
auto log(E&& e) {
  return detail::make_unary<detail::ops::Log, detail::floating_t<detail::value_of<E>>>(
      std::forward<E>(e));
}
/// Elementwise minimum in the common type; NaN propagates (torch.minimum).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto minimum(L&& l, R&& r) {
  return detail::make_arith<detail::ops::Minimum>(std::forward<L>(l), std::forward<R>(r));
}
/// Elementwise maximum in the common type; NaN propagates (torch.maximum).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto maximum(L&& l, R&& r) {
  return detail::make_arith<detail::ops::Maximum>(std::forward<L>(l), std::forward<R>(r));
}
/// @}

/// `cond ? x : y` elementwise, broadcasting all three: `where(m, a, 0.0f)`.
template <Expression C, Operand X, Operand Y>
auto where(C&& cond, X&& x, Y&& y) {
  static_assert(std::is_same_v<detail::value_of<C>, bool>,
                "tessera::where: the condition must be a bool expression");
  using A = detail::node_t<X>;
  using B = detail::node_t<Y>;
  return detail::WhereNode<detail::common_t<A, B>, std::remove_cvref_t<C>, A, B>(
      std::forward<C>(cond), detail::as_node(std::forward<X>(x)),
      detail::as_node(std::forward<Y>(y)));
}

/// Elementwise conversion to U: `cast<double>(a * 2.0f)`.
template <class U, Expression E>
auto cast(E&& e) {
  static_assert(is_dtype_v<U>, "tessera::cast<U>: U must be a tessera element type");
  return detail::CastNode<U, std::remove_cvref_t<E>>(std::forward<E>(e));
}

}  // namespace tessera
