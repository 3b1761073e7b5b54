// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file composite.hpp
/// Pointwise functions built from the table's nodes (no functor of their own, so nothing new to
/// instantiate for the device): clamp, lerp, nan_to_num, isclose, allclose. Lazy and fused like
/// the rest: `ts::eval(ts::clamp(a * 2.0f, 0, 1))` is one pass.

#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/operators.hpp"
#include "tessera/expr/reduce.hpp"

namespace tessera {

/// max(a, lo) elementwise, in the common type; NaN (in `a` or `lo`) propagates (torch.clamp_min).
///
///     ts::clamp_min(x, 0.0f)   // ReLU
template <Operand A, Operand L>
requires detail::BinaryOperands<A, L>
auto clamp_min(A&& a, L&& lo) {
  using C = detail::common_t<detail::node_t<A>, detail::node_t<L>>;
  TESSERA_REQUIRE_ORDERED(C, "clamp_min");
  return detail::make_binary<detail::ops::Maximum>(std::forward<A>(a), std::forward<L>(lo));
}
/// min(a, hi) elementwise, in the common type; NaN propagates (torch.clamp_max).
template <Operand A, Operand H>
requires detail::BinaryOperands<A, H>
auto clamp_max(A&& a, H&& hi) {
  using C = detail::common_t<detail::node_t<A>, detail::node_t<H>>;
  TESSERA_REQUIRE_ORDERED(C, "clamp_max");
  return detail::make_binary<detail::ops::Minimum>(std::forward<A>(a), std::forward<H>(hi));
}
/// min(max(a, lo), hi) elementwise (torch.clamp): NaN stays NaN, and lo > hi gives hi. Bounds
/// are scalars or expressions; an int tensor with float bounds computes in float.
///
///     ts::clamp(x, 0, 1)
template <Expression A, Operand L, Operand H>
auto clamp(A&& a, L&& lo, H&& hi) {
  using C = detail::common_t<detail::node_t<A>, detail::node_t<L>>;
  TESSERA_REQUIRE_ORDERED(C, "clamp");
  return detail::make_binary<detail::ops::Minimum>(
      detail::make_binary<detail::ops::Maximum>(std::forward<A>(a), std::forward<L>(lo)),
      std::forward<H>(hi));
}

/// a + w (b - a), elementwise, for floating operands (torch.lerp): computed as PyTorch does,
/// `a + w (b - a)` for |w| < 0.5 and `b - (b - a)(1 - w)` otherwise, so w = 1 gives b exactly.
///
///     ts::lerp(start, end, 0.25f)
template <Operand A, Operand B, Operand W>
requires(Expression<A> || Expression<B> || Expression<W>) auto lerp(A&& a, B&& b, W&& w) {
  auto na = detail::as_node(std::forward<A>(a));
  auto nb = detail::as_node(std::forward<B>(b));
  auto nw = detail::as_node(std::forward<W>(w));
  using AB = decltype(detail::make_binary<detail::ops::Add>(na, nb));
  using V = detail::common_t<AB, decltype(nw)>;
  static_assert(Floating<V>, "tessera::lerp takes floating operands (as torch.lerp); cast first");
  auto diff = detail::make_binary<detail::ops::Sub>(nb, na);
  auto low =
      detail::make_binary<detail::ops::Add>(na, detail::make_binary<detail::ops::Mul>(nw, diff));
  auto high = detail::make_binary<detail::ops::Sub>(
      nb, detail::make_binary<detail::ops::Mul>(
              diff, detail::make_binary<detail::ops::Sub>(detail::ScalarNode<V>(V(1)), nw)));
  auto small = detail::make_binary<detail::ops::Lt>(detail::make_unary<detail::ops::Abs>(nw),
                                                    detail::ScalarNode<V>(V(0.5)));
  return where(std::move(small), std::move(low), std::move(high));
}

/// NaN, +inf and -inf replaced by `nan`, `posinf` and `neginf` (torch.nan_to_num; the
/// defaults: 0, the type's largest finite value and its lowest). Integers and bool pass
/// unchanged.
///
///     ts::nan_to_num(x);  ts::nan_to_num(x, 0.0f, 1e30f, -1e30f);
template <Expression E>
auto nan_to_num(E&& e, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                std::optional<double> neginf = std::nullopt) {
  using V = detail::value_of<E>;
  static_assert(
      !Complex<V>,
      "tessera::nan_to_num: not yet for complex tensors (torch replaces each part); apply "
      "it to the part views ts::real(z) and ts::imag(z)");
  if constexpr (Floating<V>) {
    const V hi = posinf ? static_cast<V>(*posinf) : std::numeric_limits<V>::max();
    const V lo = neginf ? static_cast<V>(*neginf) : std::numeric_limits<V>::lowest();
    auto x = detail::as_node(std::forward<E>(e));
    auto keep_or_ninf = where(detail::make_unary<detail::ops::Isneginf>(x), lo, x);
    auto keep_or_inf =
        where(detail::make_unary<detail::ops::Isposinf>(x), hi, std::move(keep_or_ninf));
    return where(detail::make_unary<detail::ops::Isnan>(x), static_cast<V>(nan),
                 std::move(keep_or_inf));
  } else {
    return cast<V>(std::forward<E>(e));
  }
}

/// |a - b| <= atol + rtol |b| elementwise, or a == b (so equal infinities are close), or with
/// `equal_nan` both NaN (torch.isclose). Computed in the operands' common type, integers in
/// float. A bool expression.
///
///     ts::Tensor<bool> near = ts::isclose(a, b, 1e-5, 1e-8);
template <Operand A, Operand B>
requires detail::BinaryOperands<A, B>
auto isclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false) {
  // PyTorch raises for negative tolerances (NaN ones pass its check, and ours).
  if (rtol < 0) {
    detail::raise<ValueError>(detail::op_or("isclose"),
                              "rtol must be greater than or equal to zero, but got ", rtol);
  }
  if (atol < 0) {
    detail::raise<ValueError>(detail::op_or("isclose"),
                              "atol must be greater than or equal to zero, but got ", atol);
  }
  auto na = detail::as_node(std::forward<A>(a));
  auto nb = detail::as_node(std::forward<B>(b));
  using C = detail::common_t<decltype(na), decltype(nb)>;
  using F = typename detail::kind_types<detail::kind::Floating, C>::compute;
  auto fa = cast<F>(na);
  auto fb = cast<F>(nb);
  auto error = detail::make_unary<detail::ops::Abs>(detail::make_binary<detail::ops::Sub>(fa, fb));
  auto allowed = detail::make_binary<detail::ops::Add>(
      detail::ScalarNode<F>(static_cast<F>(atol)),
      detail::make_unary<detail::ops::Abs>(
          detail::make_binary<detail::ops::Mul>(detail::ScalarNode<F>(static_cast<F>(rtol)), fb)));
  auto finite_close = detail::make_binary<detail::ops::LogicalAnd>(
      detail::make_unary<detail::ops::Isfinite>(error),
      detail::make_binary<detail::ops::Le>(error, allowed));
  auto both_nan = detail::make_binary<detail::ops::LogicalAnd>(
      detail::make_binary<detail::ops::LogicalAnd>(detail::make_unary<detail::ops::Isnan>(na),
                                                   detail::make_unary<detail::ops::Isnan>(nb)),
      detail::ScalarNode<bool>(equal_nan));
  return detail::make_binary<detail::ops::LogicalOr>(
      detail::make_binary<detail::ops::LogicalOr>(detail::make_binary<detail::ops::Eq>(na, nb),
                                                  std::move(finite_close)),
      std::move(both_nan));
}

inline namespace TESSERA_EVAL_NS {
/// True when isclose holds for every element (torch.allclose); the shapes must broadcast.
///
///     bool same = ts::allclose(a, b);
template <Operand A, Operand B>
requires detail::BinaryOperands<A, B>
bool allclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false) {
  const detail::OpScope scope("allclose");
  return all(isclose(std::forward<A>(a), std::forward<B>(b), rtol, atol, equal_nan));
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera
