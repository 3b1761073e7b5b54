// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file nodes.hpp
/// Host-side expression nodes. Each holds its operands by value (tensors are cheap shared
/// handles, so `auto e = Tensor<float>::ones({3}) + 1.0f;` cannot dangle) and answers the
/// expression protocol through the free functions below: shape, device, layout, aliasing and
/// `bind` to a kernel functor.

#include <optional>
#include <type_traits>
#include <utility>

#include "tessera/core/device.hpp"
#include "tessera/core/dtype.hpp"
#include "tessera/core/error.hpp"
#include "tessera/expr/broadcast.hpp"
#include "tessera/expr/expr.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

// The nodes live in the evaluation flavour's inline namespace (core/macros.hpp): an expression
// is a different type in host-compiled and device-compiled units, so every template
// instantiated over one (its methods, the functions that evaluate it) has a mangled name of its
// flavour, and the two never merge at link time.
inline namespace TESSERA_EVAL_NS {

/// A constant operand (`a * 2.0f`): broadcasts to any shape, lives on no device.
template <class S>
struct ScalarNode : Expr<ScalarNode<S>> {
  using value_type = S;
  S value;
  explicit ScalarNode(S v) : value(v) {}
};

/// Op over C, producing R (R = C but for tests such as isnan, which give bool).
template <class Op, class C, class R, class A>
struct UnaryNode : Expr<UnaryNode<Op, C, R, A>> {
  using value_type = R;
  using compute_type = C;
  A a;
  explicit UnaryNode(A a_) : a(std::move(a_)) {}
};

/// Op over the common type C, producing R.
template <class Op, class C, class R, class A, class B>
struct BinaryNode : Expr<BinaryNode<Op, C, R, A, B>> {
  using value_type = R;
  using compute_type = C;
  A a;
  B b;
  BinaryNode(A a_, B b_) : a(std::move(a_)), b(std::move(b_)) {}
};

template <class V, class Cond, class A, class B>
struct WhereNode : Expr<WhereNode<V, Cond, A, B>> {
  using value_type = V;
  Cond cond;
  A a;
  B b;
  WhereNode(Cond c_, A a_, B b_) : cond(std::move(c_)), a(std::move(a_)), b(std::move(b_)) {}
};

/// Refuses a complex -> real conversion at compile time: torch drops the imaginary part with
/// only a warning; tessera asks for what is meant.
template <class From, class To>
constexpr void check_conversion() {
  static_assert(!Complex<From> || Complex<To>,
                "tessera: a complex value does not convert to a real type; say what is meant: "
                "ts::real(z), ts::imag(z) or ts::abs(z)");
}

template <class U, class A>
struct CastNode : Expr<CastNode<U, A>> {
  static_assert((check_conversion<typename A::value_type, U>(), true));
  using value_type = U;
  A a;
  explicit CastNode(A a_) : a(std::move(a_)) {}
};

}  // namespace TESSERA_EVAL_NS

template <class E>
struct is_scalar_node : std::false_type {};
template <class S>
struct is_scalar_node<ScalarNode<S>> : std::true_type {};

/// Wraps an operand: expressions pass through, arithmetic scalars become ScalarNode.
template <class X>
auto as_node(X&& x) {
  using Bare = std::remove_cvref_t<X>;
  if constexpr (Expression<Bare>) {
    return Bare(std::forward<X>(x));  // moves a temporary operand, copies an lvalue
  } else {
    return ScalarNode<scalar_dtype_t<Bare>>(static_cast<scalar_dtype_t<Bare>>(x));
  }
}
template <class X>
using node_t = decltype(as_node(std::declval<X>()));

/// The common type of two operands: PyTorch promotion between expressions; scalars are weak.
template <class A, class B>
struct common_type_of {
  using VA = typename A::value_type;
  using VB = typename B::value_type;
  using type =
      std::conditional_t<is_scalar_node<A>::value && !is_scalar_node<B>::value,
                         scalar_promote_t<VB, VA>,
                         std::conditional_t<is_scalar_node<B>::value && !is_scalar_node<A>::value,
                                            scalar_promote_t<VA, VB>, promote_t<VA, VB>>>;
};
template <class A, class B>
using common_t = typename common_type_of<A, B>::type;

// ---- the expression protocol ------------------------------------------------------------

/// Identifies a destination so that operands reading the same memory differently are found.
/// `data == nullptr` asks whether an operand reads the storage at all (for ops whose output is
/// not element-for-element with their input: nonzero, searchsorted, scatter).
struct AliasQuery {
  const void* storage;
  const void* data;
  const Shape* shape;
  const Shape* strides;
};

template <class T>
const Shape& expr_shape(const Tensor<T>& t) {
  return t.shape();  // a reference: broadcasting reads the few extents it needs, copies nothing
}
template <class S>
Shape expr_shape(const ScalarNode<S>&) {
  return Shape{};
}
template <class Op, class C, class R, class A>
decltype(auto) expr_shape(const UnaryNode<Op, C, R, A>& e) {
  return expr_shape(e.a);
}
template <class Op, class C, class R, class A, class B>
Shape expr_shape(const BinaryNode<Op, C, R, A, B>& e) {
  return broadcast_shapes(Op::name, expr_shape(e.a), expr_shape(e.b));
}
template <class V, class Cond, class A, class B>
Shape expr_shape(const WhereNode<V, Cond, A, B>& e) {
  return broadcast_shapes("where", expr_shape(e.cond),
                          broadcast_shapes("where", expr_shape(e.a), expr_shape(e.b)));
}
template <class U, class A>
decltype(auto) expr_shape(const CastNode<U, A>& e) {
  return expr_shape(e.a);
}

inline std::optional<Device> merge_devices(std::optional<Device> a, std::optional<Device> b) {
  if (a && b && !(*a == *b)) {
    raise<DeviceError>("expression", "operands are on different devices (", *a, " and ", *b,
                       "); move one with .to(device) first");
  }
  return a ? a : b;
}
template <class T>
std::optional<Device> expr_device(const Tensor<T>& t) {
  return t.device();
}
template <class S>
std::optional<Device> expr_device(const ScalarNode<S>&) {
  return std::nullopt;
}
template <class Op, class C, class R, class A>
std::optional<Device> expr_device(const UnaryNode<Op, C, R, A>& e) {
  return expr_device(e.a);
}
template <class Op, class C, class R, class A, class B>
std::optional<Device> expr_device(const BinaryNode<Op, C, R, A, B>& e) {
  return merge_devices(expr_device(e.a), expr_device(e.b));
}
template <class V, class Cond, class A, class B>
std::optional<Device> expr_device(const WhereNode<V, Cond, A, B>& e) {
  return merge_devices(expr_device(e.cond), merge_devices(expr_device(e.a), expr_device(e.b)));
}
template <class U, class A>
std::optional<Device> expr_device(const CastNode<U, A>& e) {
  return expr_device(e.a);
}

/// True when every operand can be read with the output's linear index (same shape, contiguous).
template <class T>
bool expr_linear(const Tensor<T>& t, const Shape& out) {
  return t.shape() == out && t.is_contiguous();
}
template <class S>
bool expr_linear(const ScalarNode<S>&, const Shape&) {
  return true;
}
template <class Op, class C, class R, class A>
bool expr_linear(const UnaryNode<Op, C, R, A>& e, const Shape& out) {
  return expr_linear(e.a, out);
}
template <class Op, class C, class R, class A, class B>
bool expr_linear(const BinaryNode<Op, C, R, A, B>& e, const Shape& out) {
  return expr_linear(e.a, out) && expr_linear(e.b, out);
}
template <class V, class Cond, class A, class B>
bool expr_linear(const WhereNode<V, Cond, A, B>& e, const Shape& out) {
  return expr_linear(e.cond, out) && expr_linear(e.a, out) && expr_linear(e.b, out);
}
template <class U, class A>
bool expr_linear(const CastNode<U, A>& e, const Shape& out) {
  return expr_linear(e.a, out);
}

/// True when an operand reads the destination's memory other than element-for-element.
template <class T>
bool expr_aliases(const Tensor<T>& t, const AliasQuery& q) {
  if (t.storage().data() == nullptr || t.storage().data() != q.storage) return false;
  if (static_cast<const void*>(t.data()) != q.data || t.shape() != *q.shape) return true;
  for (std::size_t d = 0; d < t.shape().size(); ++d) {
    if (t.shape()[d] != 1 && t.strides()[d] != (*q.strides)[d]) return true;
  }
  return false;
}
template <class S>
bool expr_aliases(const ScalarNode<S>&, const AliasQuery&) {
  return false;
}
template <class Op, class C, class R, class A>
bool expr_aliases(const UnaryNode<Op, C, R, A>& e, const AliasQuery& q) {
  return expr_aliases(e.a, q);
}
template <class Op, class C, class R, class A, class B>
bool expr_aliases(const BinaryNode<Op, C, R, A, B>& e, const AliasQuery& q) {
  return expr_aliases(e.a, q) || expr_aliases(e.b, q);
}
template <class V, class Cond, class A, class B>
bool expr_aliases(const WhereNode<V, Cond, A, B>& e, const AliasQuery& q) {
  return expr_aliases(e.cond, q) || expr_aliases(e.a, q) || expr_aliases(e.b, q);
}
template <class U, class A>
bool expr_aliases(const CastNode<U, A>& e, const AliasQuery& q) {
  return expr_aliases(e.a, q);
}

/// True when any operand of `e` reads memory of `t`'s storage (the out= rule: such an `out`
/// gets the result through a temporary).
template <class E, class T>
bool expr_reads_storage_of(const E& e, const Tensor<T>& t) {
  return t.storage().data() != nullptr &&
         expr_aliases(e, AliasQuery{t.storage().data(), nullptr, &t.shape(), &t.strides()});
}

/// The kernel functor reading the expression at every index of `out`.
template <class T>
LeafKernel<T> expr_bind(const Tensor<T>& t, const Shape& out) {
  LeafKernel<T> k;  // broadcast_strides sets every stride (no `{}`: see copy_dims)
  k.data = t.data();
  k.ndim = static_cast<int>(out.size());
  broadcast_strides(t.shape(), t.strides(), out, k.strides);
  return k;
}
template <class S>
ScalarKernel<S> expr_bind(const ScalarNode<S>& e, const Shape&) {
  return {e.value};
}
template <class Op, class C, class R, class A>
auto expr_bind(const UnaryNode<Op, C, R, A>& e, const Shape& out) {
  return UnaryKernel<Op, C, R, decltype(expr_bind(e.a, out))>{expr_bind(e.a, out)};
}
template <class Op, class C, class R, class A, class B>
auto expr_bind(const BinaryNode<Op, C, R, A, B>& e, const Shape& out) {
  return BinaryKernel<Op, C, R, decltype(expr_bind(e.a, out)), decltype(expr_bind(e.b, out))>{
      expr_bind(e.a, out), expr_bind(e.b, out)};
}
template <class V, class Cond, class A, class B>
auto expr_bind(const WhereNode<V, Cond, A, B>& e, const Shape& out) {
  return WhereKernel<V, decltype(expr_bind(e.cond, out)), decltype(expr_bind(e.a, out)),
                     decltype(expr_bind(e.b, out))>{expr_bind(e.cond, out), expr_bind(e.a, out),
                                                    expr_bind(e.b, out)};
}
template <class U, class A>
auto expr_bind(const CastNode<U, A>& e, const Shape& out) {
  return CastKernel<U, decltype(expr_bind(e.a, out))>{expr_bind(e.a, out)};
}

}  // namespace tessera::detail
