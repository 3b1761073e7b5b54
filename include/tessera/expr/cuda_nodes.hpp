// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file cuda_nodes.hpp
/// Node-by-node evaluation of expressions over CUDA tensors from host-compiled code. Each node
/// runs as one precompiled GPU kernel (instantiated per dtype in the CUDA backend), writing a
/// temporary; nvcc-compiled code fuses the whole expression into one kernel instead. Either
/// way the work happens on the GPU, never on the CPU behind the user's back.

#include <cstdint>
#include <type_traits>

#include "tessera/core/dtype.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/functors.hpp"
#include "tessera/expr/host_executor.hpp"
#include "tessera/expr/nodes.hpp"

namespace tessera::detail::cuda_nodes {

/// The device executor of host-compiled units: expressions over device tensors run node by
/// node through the library's precompiled device kernels (below).
struct NodeExecutor {
  int device = 0;
};

/// A kernel operand: a strided read of device memory broadcast to the output, or a constant
/// when `data` is null.
template <class T>
struct Operand {
  const T* data = nullptr;
  int ndim = 0;
  std::int64_t strides[kMaxDims] = {};
  T value{};
};

// Precompiled kernels (src/backend/cuda), one instantiation per dtype, run on GPU `device`.
template <class T>
void map_unary(int device, UnaryOpId op, const Operand<T>& a, const TensorView<T>& out);
template <class T>
void map_binary(int device, BinaryOpId op, const Operand<T>& a, const Operand<T>& b,
                const TensorView<T>& out);
/// Unary tests (isnan, logical_not, ...): bool out of T in.
template <class T>
void map_unary_test(int device, UnaryOpId op, const Operand<T>& a, const TensorView<bool>& out);
/// Complex T in, its part type out (abs, angle).
template <class T>
void map_unary_part(int device, UnaryOpId op, const Operand<T>& a,
                    const TensorView<part_t<T>>& out);
/// Comparisons and logical functions: bool out of two T in.
template <class T>
void map_compare(int device, BinaryOpId op, const Operand<T>& a, const Operand<T>& b,
                 const TensorView<bool>& out);
template <class T>
void map_where(int device, const Operand<bool>& cond, const Operand<T>& a, const Operand<T>& b,
               const TensorView<T>& out);
/// out[i] = To(a[i]) for any strided `out`: copy, cast, fill.
template <class From, class To>
void convert(int device, const Operand<From>& a, const TensorView<To>& out);
/// out[i] = start + i * step (computed in double for floating T).
template <class T>
void arange(int device, T start, T step, const TensorView<T>& out);
template <class T>
sum_t<T> reduce_sum(int device, const Operand<T>& a, const Extents& extents);
template <class T>
T reduce_min(int device, const Operand<T>& a, const Extents& extents);
template <class T>
T reduce_max(int device, const Operand<T>& a, const Extents& extents);
bool reduce_any(int device, const Operand<bool>& a, const Extents& extents);
bool reduce_all(int device, const Operand<bool>& a, const Extents& extents);

/// A node's value: a CUDA tensor, or a constant when the subtree holds no tensor.
template <class V>
struct Value {
  Tensor<V> tensor;
  bool is_constant = false;
  V constant{};
};

template <class V>
Operand<V> operand_of(const Value<V>& v, const Shape& out) {
  Operand<V> op;
  op.ndim = static_cast<int>(out.size());
  if (v.is_constant) {
    op.value = v.constant;
  } else {
    op.data = v.tensor.data();
    broadcast_strides(v.tensor.shape(), v.tensor.strides(), out, op.strides);
  }
  return op;
}

template <class V, class C>
Value<V> convert_value(const Value<C>& c, Device device) {
  if constexpr (std::is_same_v<V, C>) {
    return c;
  } else {
    if (c.is_constant) return Value<V>{{}, true, static_cast<V>(c.constant)};
    auto out = Tensor<V>::empty(c.tensor.shape(), device);
    convert<C, V>(device.index(), operand_of(c, c.tensor.shape()), out.view());
    return Value<V>{out};
  }
}

// Every overload is declared first: children are evaluated through overloads defined later.
template <class T>
Value<T> evaluate(const Tensor<T>& t, Device);
template <class S>
Value<S> evaluate(const ScalarNode<S>& e, Device);
template <class Op, class C, class R, class A>
Value<R> evaluate(const UnaryNode<Op, C, R, A>& e, Device device);
template <class Op, class C, class R, class A, class B>
Value<R> evaluate(const BinaryNode<Op, C, R, A, B>& e, Device device);
template <class V, class Cond, class A, class B>
Value<V> evaluate(const WhereNode<V, Cond, A, B>& e, Device device);
template <class U, class A>
Value<U> evaluate(const CastNode<U, A>& e, Device device);

template <class T>
Value<T> evaluate(const Tensor<T>& t, Device) {
  return Value<T>{t};
}
template <class S>
Value<S> evaluate(const ScalarNode<S>& e, Device) {
  return Value<S>{{}, true, e.value};
}
template <class Op, class C, class R, class A>
Value<R> evaluate(const UnaryNode<Op, C, R, A>& e, Device device) {
  const auto a = convert_value<C>(evaluate(e.a, device), device);
  if (a.is_constant) return Value<R>{{}, true, Op::apply(a.constant)};
  auto out = Tensor<R>::empty(a.tensor.shape(), device);
  if constexpr (is_test_op<Op>) {
    map_unary_test<C>(device.index(), Op::id, operand_of(a, a.tensor.shape()), out.view());
  } else if constexpr (!std::is_same_v<R, C>) {
    map_unary_part<C>(device.index(), Op::id, operand_of(a, a.tensor.shape()), out.view());
  } else {
    map_unary<C>(device.index(), Op::id, operand_of(a, a.tensor.shape()), out.view());
  }
  return Value<R>{out};
}
template <class Op, class C, class R, class A, class B>
Value<R> evaluate(const BinaryNode<Op, C, R, A, B>& e, Device device) {
  const auto a = convert_value<C>(evaluate(e.a, device), device);
  const auto b = convert_value<C>(evaluate(e.b, device), device);
  if (a.is_constant && b.is_constant) {
    return Value<R>{{}, true, Op::apply(a.constant, b.constant)};
  }
  const Shape shape = expr_shape(e);
  auto out = Tensor<R>::empty(shape, device);
  if constexpr (is_test_op<Op>) {
    map_compare<C>(device.index(), Op::id, operand_of(a, shape), operand_of(b, shape), out.view());
  } else {
    map_binary<C>(device.index(), Op::id, operand_of(a, shape), operand_of(b, shape), out.view());
  }
  return Value<R>{out};
}
template <class V, class Cond, class A, class B>
Value<V> evaluate(const WhereNode<V, Cond, A, B>& e, Device device) {
  const auto c = evaluate(e.cond, device);
  const auto a = convert_value<V>(evaluate(e.a, device), device);
  const auto b = convert_value<V>(evaluate(e.b, device), device);
  const Shape shape = expr_shape(e);
  auto out = Tensor<V>::empty(shape, device);
  map_where<V>(device.index(), operand_of(c, shape), operand_of(a, shape), operand_of(b, shape),
               out.view());
  return Value<V>{out};
}
template <class U, class A>
Value<U> evaluate(const CastNode<U, A>& e, Device device) {
  return convert_value<U>(evaluate(e.a, device), device);
}

}  // namespace tessera::detail::cuda_nodes
