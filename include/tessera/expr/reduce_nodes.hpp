// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_nodes.hpp
/// Reductions and scans of device tensors from host-compiled units: the input expression is
/// evaluated node by node (cuda_nodes.hpp), then one precompiled device kernel runs the op
/// struct over it (src/backend/device/reduce.cu). Kernels exist for a few canonical dtypes
/// only: bool and integers reduce as int64 (sums and products are int64 anyway, extremes
/// convert back exactly), logical ops as bool, so the library instantiates 45 kernels rather
/// than ops x dtypes.

#include <cstdint>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/cuda_nodes.hpp"
#include "tessera/expr/reduce_engine.hpp"

namespace tessera::detail::cuda_nodes {

/// The dtype the precompiled kernel of op `Id` reads for input dtype T.
template <ReduceId Id, class T>
using node_reduce_t =
    std::conditional_t<Id == ReduceId::Any || Id == ReduceId::All || Id == ReduceId::CountNonzero,
                       bool, std::conditional_t<Floating<T> || Complex<T>, T, std::int64_t>>;

/// Runs op `Id` over `a` (bound to `plan`'s shape) on `device`, writing values (when not null)
/// and positions (ops with positions, when not null) contiguously; `correction` is var/std's.
template <ReduceId Id, class T>
void reduce_dims(int device, const Operand<T>& a, const ReducePlan& plan,
                 typename reduce_ops::op_of<Id, T>::type::Out* values, std::int64_t* positions,
                 double correction);

/// A contiguous 1-D view of n elements at p (the engine's outputs are contiguous).
template <class T>
TensorView<T> flat_view(T* p, std::int64_t n) {
  TensorView<T> v;
  v.data = p;
  v.ndim = 1;
  v.shape[0] = n;
  v.strides[0] = 1;
  return v;
}

/// Reduction `op` of an evaluated expression on `device` into `store`.
template <class Op, class V>
void reduce_dims_nodes(int device, const Op& op, const Value<V>& value, const ReducePlan& plan,
                       const ReduceStore<Op>& store) {
  constexpr ReduceId id = Op::id;
  using C = node_reduce_t<id, V>;
  using NodeOp = typename reduce_ops::op_of<id, C>::type;
  using Out = typename Op::Out;
  using NodeOut = typename NodeOp::Out;
  const Device dev = Device::cuda(device);
  const auto input = convert_value<C>(value, dev);
  const Shape shape(plan.shape, plan.shape + plan.ndim);
  const auto operand = operand_of(input, shape);
  double correction = 1.0;
  if constexpr (id == ReduceId::Var || id == ReduceId::Std) correction = op.correction;
  const std::int64_t n = is_scan(id) ? plan.outputs * plan.count : plan.outputs;
  if constexpr (std::is_same_v<Out, NodeOut>) {
    reduce_dims<id, C>(device, operand, plan, store.values, store.positions, correction);
  } else {
    Tensor<NodeOut> wide;
    if (store.values != nullptr) wide = Tensor<NodeOut>::empty({n}, dev);
    reduce_dims<id, C>(device, operand, plan, store.values != nullptr ? wide.data() : nullptr,
                       store.positions, correction);
    if (store.values != nullptr) {
      Operand<NodeOut> from;
      from.data = wide.data();
      from.ndim = 1;
      from.strides[0] = 1;
      convert<NodeOut, Out>(device, from, flat_view(store.values, n));
    }
  }
}

}  // namespace tessera::detail::cuda_nodes
