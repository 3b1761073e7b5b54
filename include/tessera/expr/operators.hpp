// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file operators.hpp
/// The lazy elementwise vocabulary: operators, the pointwise functions of the table
/// (pointwise_table.hpp), where and cast. Every function returns an unevaluated node;
/// assignment to a Tensor or `eval` runs it.

#include <type_traits>
#include <utility>

#include "tessera/expr/nodes.hpp"

namespace tessera {

namespace detail {
template <class L, class R>
concept BinaryOperands = (Expression<L> || Expression<R>)&&Operand<L>&& Operand<R>;

/// The element type of an expression passed by forwarding reference.
template <class E>
using value_of = typename std::remove_cvref_t<E>::value_type;

// Why a dtype was refused, per kind (the instantiation stack names the function). Every
// Numeric row (neg, sub, pow, fmod, remainder, floor_divide) is refused for bool by PyTorch
// 2.15 too; square, which PyTorch takes (int64), has a kind of its own.
template <class Kind, class T>
constexpr void check_kind_accepts() {
  static_assert(kind_types<Kind, T>::accepts || !std::is_same_v<Kind, kind::Numeric>,
                "tessera: this function takes numbers, not bool (PyTorch refuses bool here too); "
                "cast first, e.g. m.cast<int32_t>()");
  static_assert(kind_types<Kind, T>::accepts || !std::is_same_v<Kind, kind::Integral>,
                "tessera: bitwise functions (&, |, ^, ~) take bool or integer operands; compare "
                "floats first, e.g. (a > 0) & (b < 1)");
  static_assert(kind_types<Kind, T>::accepts || !std::is_same_v<Kind, kind::Integer>,
                "tessera: %, << and >> take integer operands; use ts::fmod or ts::remainder for "
                "floating point");
}

/// Refuses a complex operand for a row with no complex form (the instantiation stack names the
/// function).
template <class Op, class T>
constexpr void check_complex_form() {
  static_assert(!Complex<T> || has_complex_form<Op>,
                "tessera: this function has no complex form (complex numbers are not ordered and "
                "have no rounding, bits, erf or lgamma; PyTorch raises here); see "
                "docs/complex.md");
}

// Operands arrive as forwarding references: a subexpression built in place (`a * b` inside
// `a * b + c`) is moved into its parent, not copied (a copy costs each tensor in it a reference
// count round trip, which showed in the fixed cost of evaluating small tensors).
/// The node of unary table function Op over `e`: computes in the kind's type for e's dtype.
template <class Op, class E>
auto make_unary(E&& e) {
  using Types = kind_types<typename Op::kind_tag, value_of<E>>;
  check_kind_accepts<typename Op::kind_tag, value_of<E>>();
  check_complex_form<Op, value_of<E>>();
  return UnaryNode<Op, typename Types::compute, typename Types::result, std::remove_cvref_t<E>>(
      std::forward<E>(e));
}
/// The node of binary table function Op over `l` and `r` (their common type decides the kind's
/// compute and result types; scalars are weak).
template <class Op, class L, class R>
auto make_binary(L&& l, R&& r) {
  using A = node_t<L>;
  using B = node_t<R>;
  using C = common_t<A, B>;
  using Types = kind_types<typename Op::kind_tag, C>;
  check_kind_accepts<typename Op::kind_tag, C>();
  check_complex_form<Op, C>();
  return BinaryNode<Op, typename Types::compute, typename Types::result, A, B>(
      as_node(std::forward<L>(l)), as_node(std::forward<R>(r)));
}
}  // namespace detail

/// The free function of one unary table row (expands the table; undefined after use).
#define TESSERA_UNARY_FREE_FUNCTION(Op, fn, Kind, doc, ...)         \
  template <Expression E>                                           \
  auto fn(E&& e) {                                                  \
    return detail::make_unary<detail::ops::Op>(std::forward<E>(e)); \
  }
/// The free function of one binary table row (expands the table; undefined after use).
#define TESSERA_BINARY_FREE_FUNCTION(Op, fn, Kind, doc, ...)                             \
  template <class L, class R>                                                            \
  requires detail::BinaryOperands<L, R>                                                  \
  auto fn(L&& l, R&& r) {                                                                \
    return detail::make_binary<detail::ops::Op>(std::forward<L>(l), std::forward<R>(r)); \
  }
/// @name Pointwise functions, one per row of the table (pointwise_table.hpp)
/// `ts::sin(a)`, `ts::pow(a, 2.5f)`, `ts::atan2(2, x)`: lazy, fused like `+`; the vocabulary
/// with every function's rule is in docs/expressions.md.
/// @{
#if !defined(TESSERA_DOXYGEN)
TESSERA_UNARY_FUNCTIONS(TESSERA_UNARY_FREE_FUNCTION)
TESSERA_BINARY_FUNCTIONS(TESSERA_BINARY_FREE_FUNCTION)
#endif
#undef TESSERA_UNARY_FREE_FUNCTION
#undef TESSERA_BINARY_FREE_FUNCTION
/// @}

/// @name Arithmetic (NumPy broadcasting, PyTorch type promotion, scalars are weak)
/// `a + b * 2.0f`. Integer division truncates; an integer divided by zero gives 0.
/// @{

/// `l + r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator+(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Add>(std::forward<L>(l), std::forward<R>(r));
}
/// `l - r` elementwise. Not for two bool operands (PyTorch refuses them too): `a ^ b` is the
/// logical difference, `!a` the inverted mask.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator-(L&& l, R&& r) {
  static_assert(!std::is_same_v<detail::common_t<detail::node_t<L>, detail::node_t<R>>, bool>,
                "tessera: subtracting bool tensors is not supported (as in PyTorch); use a ^ b "
                "for logical xor or !a to invert a mask");
  return detail::make_binary<detail::ops::Sub>(std::forward<L>(l), std::forward<R>(r));
}
/// `l * r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator*(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Mul>(std::forward<L>(l), std::forward<R>(r));
}
/// `l / r` elementwise. Integers truncate (C++); two bool operands divide truly, as PyTorch's
/// `/` does: the result is float (`true / false` is inf, `false / false` NaN).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator/(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Div>(std::forward<L>(l), std::forward<R>(r));
}
/// `l % r` for integer operands, C++'s rule (the dividend's sign, as `ts::fmod`): `x % 0` is 0
/// and `INT_MIN % -1` is 0, never a trap. Floating operands: `ts::fmod` or `ts::remainder`.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator%(L&& l, R&& r) {
  static_assert(
      detail::kind_types<detail::kind::Integer,
                         detail::common_t<detail::node_t<L>, detail::node_t<R>>>::accepts,
      "tessera: % takes integer operands (C++ rules); use ts::fmod or ts::remainder for floating "
      "point");
  return detail::make_binary<detail::ops::Fmod>(std::forward<L>(l), std::forward<R>(r));
}
/// Negation (not for bool: use `!`).
template <Expression E>
auto operator-(E&& e) {
  static_assert(!std::is_same_v<detail::value_of<E>, bool>,
                "tessera: negating a bool tensor; use ! instead");
  return detail::make_unary<detail::ops::Neg>(std::forward<E>(e));
}
/// @}

/// @name Comparisons → bool expressions, computed in the operands' common type
/// @{

/// `l < r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Lt>(std::forward<L>(l), std::forward<R>(r));
}
/// `l <= r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<=(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Le>(std::forward<L>(l), std::forward<R>(r));
}
/// `l > r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Gt>(std::forward<L>(l), std::forward<R>(r));
}
/// `l >= r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>=(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Ge>(std::forward<L>(l), std::forward<R>(r));
}
/// `l == r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator==(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Eq>(std::forward<L>(l), std::forward<R>(r));
}
/// `l != r` elementwise.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator!=(L&& l, R&& r) {
  return detail::make_binary<detail::ops::Ne>(std::forward<L>(l), std::forward<R>(r));
}
/// @}

/// @name Logic and bits
/// `(a > 4.0f) & !(a == 7.0f)`; on integers `&`, `|`, `^`, `~`, `<<`, `>>` work on the bits.
/// @{

/// Bitwise and (logical and on bool).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator&(L&& l, R&& r) {
  return detail::make_binary<detail::ops::BitwiseAnd>(std::forward<L>(l), std::forward<R>(r));
}
/// Bitwise or (logical or on bool).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator|(L&& l, R&& r) {
  return detail::make_binary<detail::ops::BitwiseOr>(std::forward<L>(l), std::forward<R>(r));
}
/// Bitwise exclusive or (PyTorch's `^`; logical xor on bool).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator^(L&& l, R&& r) {
  return detail::make_binary<detail::ops::BitwiseXor>(std::forward<L>(l), std::forward<R>(r));
}
/// `l << r` on integers: a shift by a negative amount or by the width or more gives 0.
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator<<(L&& l, R&& r) {
  return detail::make_binary<detail::ops::ShiftLeft>(std::forward<L>(l), std::forward<R>(r));
}
/// `l >> r` on integers (arithmetic for signed types): a shift by a negative amount or by the
/// width or more gives the sign fill (-1 for negative `l`, else 0).
template <class L, class R>
requires detail::BinaryOperands<L, R>
auto operator>>(L&& l, R&& r) {
  return detail::make_binary<detail::ops::ShiftRight>(std::forward<L>(l), std::forward<R>(r));
}
/// Logical not, any dtype (`x == 0`; NaN counts as true, so `!NaN` is false).
template <Expression E>
auto operator!(E&& e) {
  return detail::make_unary<detail::ops::LogicalNot>(std::forward<E>(e));
}
/// Bitwise not of integers, logical not of bool.
template <Expression E>
auto operator~(E&& e) {
  return detail::make_unary<detail::ops::BitwiseNot>(std::forward<E>(e));
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
