#pragma once
/// @file operators.hpp
/// The lazy elementwise vocabulary: arithmetic, comparisons, logic, where, math functions, cast.
/// Every function returns an unevaluated node; assignment to a Tensor or `eval` runs it.

#include <type_traits>

#include "tessera/expr/nodes.hpp"

namespace tessera {

namespace detail {
template <class L, class R>
concept BinaryOperands = (Expression<L> || Expression<R>)&&Operand<L>&& Operand<R>;

template <class Op, class L, class R>
auto make_arith(const L& l, const R& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  using C = common_t<A, B>;
  return BinaryNode<Op, C, C, A, B>(as_node(l), as_node(r));
}
template <class Op, class L, class R>
auto make_compare(const L& l, const R& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  return BinaryNode<Op, common_t<A, B>, bool, A, B>(as_node(l), as_node(r));
}
template <class Op, class L, class R>
auto make_logical(const L& l, const R& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  static_assert(
      std::is_same_v<typename A::value_type, bool> && std::is_same_v<typename B::value_type, bool>,
      "tessera: &, | and ^ take bool operands (compare first, e.g. (a > 0) & (b < 1))");
  return BinaryNode<Op, bool, bool, A, B>(as_node(l), as_node(r));
}
// sqrt/exp/log compute in float for bool and integer inputs (as PyTorch), in T for floats.
template <class T>
using floating_t = std::conditional_t<std::is_floating_point_v<T>, T, float>;
template <class Op, class V, class E>
auto make_unary(const E& e) {
  return UnaryNode<Op, V, E>(e);
}
}  // namespace detail

/// @name Arithmetic (NumPy broadcasting, PyTorch type promotion, scalars are weak)
/// `a + b * 2.0f`. Integer division truncates; an integer divided by zero gives 0.
/// @{

/// `l + r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator+(const L& l, const R& r) { return detail::make_arith<detail::ops::Add>(l, r); }
/// `l - r` elementwise. Not for two bool operands (PyTorch refuses them too): `a ^ b` is the
/// logical difference, `!a` the inverted mask.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator-(const L& l, const R& r) {
  static_assert(!std::is_same_v<detail::common_t<detail::node_t<L>, detail::node_t<R>>, bool>,
                "tessera: subtracting bool tensors is not supported (as in PyTorch); use a ^ b "
                "for logical xor or !a to invert a mask");
  return detail::make_arith<detail::ops::Sub>(l, r);
}
/// `l * r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator*(const L& l, const R& r) { return detail::make_arith<detail::ops::Mul>(l, r); }
/// `l / r` elementwise. Integers truncate (C++); two bool operands divide truly, as PyTorch's
/// `/` does: the result is float (`true / false` is inf, `false / false` NaN).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator/(const L& l, const R& r) {
  using A = detail::node_t<L>;
  using B = detail::node_t<R>;
  if constexpr (std::is_same_v<detail::common_t<A, B>, bool>) {
    return detail::BinaryNode<detail::ops::Div, float, float, A, B>(detail::as_node(l),
                                                                    detail::as_node(r));
  } else {
    return detail::make_arith<detail::ops::Div>(l, r);
  }
}
/// Negation (not for bool: use `!`).
template <Expression E>
auto operator-(const E& e) {
  using V = typename E::value_type;
  static_assert(!std::is_same_v<V, bool>, "tessera: negating a bool tensor; use ! instead");
  return detail::make_unary<detail::ops::Neg, V>(e);
}
/// @}

/// @name Comparisons → bool expressions, computed in the operands' common type
/// @{

/// `l < r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<(const L& l, const R& r) { return detail::make_compare<detail::ops::Lt>(l, r); }
/// `l <= r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<=(const L& l, const R& r) { return detail::make_compare<detail::ops::Le>(l, r); }
/// `l > r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>(const L& l, const R& r) { return detail::make_compare<detail::ops::Gt>(l, r); }
/// `l >= r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>=(const L& l, const R& r) { return detail::make_compare<detail::ops::Ge>(l, r); }
/// `l == r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator==(const L& l, const R& r) { return detail::make_compare<detail::ops::Eq>(l, r); }
/// `l != r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator!=(const L& l, const R& r) { return detail::make_compare<detail::ops::Ne>(l, r); }
/// @}

/// @name Logic on bool expressions
/// `(a > 4.0f) & !(a == 7.0f)`
/// @{

/// Logical and of bool operands.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator&(const L& l, const R& r) { return detail::make_logical<detail::ops::And>(l, r); }
/// Logical or of bool operands.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator|(const L& l, const R& r) { return detail::make_logical<detail::ops::Or>(l, r); }
/// Logical exclusive or of bool operands (PyTorch's `^` on bool tensors).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator^(const L& l, const R& r) { return detail::make_logical<detail::ops::Xor>(l, r); }
/// Logical not of a bool operand.
template <Expression E>
auto operator!(const E& e) {
  static_assert(std::is_same_v<typename E::value_type, bool>, "tessera: ! takes a bool operand");
  return detail::make_unary<detail::ops::Not, bool>(e);
}
/// @}

/// @name Math functions
/// @{

/// |x| elementwise, same type.
template <Expression E>
auto abs(const E& e) {
  return detail::make_unary<detail::ops::Abs, typename E::value_type>(e);
}
/// √x; integers and bool compute in float.
template <Expression E>
auto sqrt(const E& e) {
  return detail::make_unary<detail::ops::Sqrt, detail::floating_t<typename E::value_type>>(e);
}
/// eˣ; integers and bool compute in float.
template <Expression E>
auto exp(const E& e) {
  return detail::make_unary<detail::ops::Exp, detail::floating_t<typename E::value_type>>(e);
}
/// ln x; integers and bool compute in float.
template <Expression E>
auto log(const E& e) {
  return detail::make_unary<detail::ops::Log, detail::floating_t<typename E::value_type>>(e);
}
/// Elementwise minimum in the common type; NaN propagates (torch.minimum).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto minimum(const L& l, const R& r) { return detail::make_arith<detail::ops::Minimum>(l, r); }
/// Elementwise maximum in the common type; NaN propagates (torch.maximum).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto maximum(const L& l, const R& r) { return detail::make_arith<detail::ops::Maximum>(l, r); }
/// @}

/// `cond ? x : y` elementwise, broadcasting all three: `where(m, a, 0.0f)`.
template <Expression C, Operand X, Operand Y>
auto where(const C& cond, const X& x, const Y& y) {
  static_assert(std::is_same_v<typename C::value_type, bool>,
                "tessera::where: the condition must be a bool expression");
  using A = detail::node_t<X>;
  using B = detail::node_t<Y>;
  return detail::WhereNode<detail::common_t<A, B>, C, A, B>(cond, detail::as_node(x),
                                                            detail::as_node(y));
}

/// Elementwise conversion to U: `cast<double>(a * 2.0f)`.
template <class U, Expression E>
auto cast(const E& e) {
  static_assert(is_dtype_v<U>, "tessera::cast<U>: U must be a tessera element type");
  return detail::CastNode<U, E>(e);
}

}  // namespace tessera
