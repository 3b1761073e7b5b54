// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file evaluate.hpp
/// Evaluation of expressions: Tensor construction/assignment from an expression and `eval`.
/// CPU expressions run fused on the host executor. Device expressions run fused in one device
/// algorithm when this translation unit compiles device code, and node by node through
/// precompiled device kernels otherwise (TESSERA_EVAL_NS keeps the two flavours apart).

#include <type_traits>

#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/executors.hpp"
#include "tessera/expr/nodes.hpp"
#include "tessera/expr/operators.hpp"

namespace tessera {
namespace detail {

/// Writes the elements of `source` (of shape `shape`, on `device`) into `out`, which does not
/// overlap it except element for element: the one copy of a plain tensor, compiled once per
/// element type in the library (src/core/tensor_copies.cpp) for both evaluation flavours, so
/// that no other unit instantiates an executor to copy (the same loops a fused copy would run:
/// the host executor, or one precompiled device kernel).
template <class T>
void copy_elements(const TensorView<T>& out, const Shape& shape, Device device,
                   const Tensor<T>& source);

inline namespace TESSERA_EVAL_NS {

/// The device an expression runs on (CPU for a constant-only expression).
template <class E>
Device device_of(const E& e) {
  return expr_device(e).value_or(Device::cpu());
}

/// Runs `e` into `out` on a host or fused device executor.
template <class Executor, class T, class E>
void evaluate_with(const Executor& executor, const TensorView<T>& out, const Shape& shape,
                   const E& e) {
  executor.run(out, expr_bind(e, shape), out.is_contiguous() && expr_linear(e, shape));
}

/// Host-compiled units: each node of `e` runs as one precompiled device kernel.
template <class T, class E>
void evaluate_with(const cuda_nodes::NodeExecutor& executor, const TensorView<T>& out,
                   const Shape& shape, const E& e) {
  using V = typename E::value_type;
  const Device device = Device::cuda(executor.device);
  const auto value = cuda_nodes::evaluate(e, device);
  cuda_nodes::convert<V, T>(executor.device, cuda_nodes::operand_of(value, shape), out);
}

/// Writes `e` (of shape `shape`, on `device`) into `out`, which does not overlap its operands
/// except element-for-element.
template <class T, class E>
void evaluate_into(const TensorView<T>& out, const Shape& shape, Device device, const E& e) {
  if (out.numel() == 0) return;
  if constexpr (std::is_same_v<E, Tensor<T>>) {
    copy_elements(out, shape, device, e);
  } else {
    with_executor(device, [&](const auto& executor) { evaluate_with(executor, out, shape, e); });
  }
}

/// A new tensor holding `e`.
template <class T, class E>
Tensor<T> materialize(const E& e) {
  check_conversion<typename E::value_type, T>();
  const OpScope scope("eval");  // errors name the op that evaluates, or eval (docs/reliability.md)
  const Shape shape = expr_shape(e);
  const Device device = device_of(e);
  if constexpr (TESSERA_WITH_CUDA && std::is_same_v<UnitDeviceExecutor, cuda_nodes::NodeExecutor> &&
                !std::is_same_v<E, Tensor<T>> && std::is_same_v<typename E::value_type, T>) {
    // Node-by-node results are fresh tensors already: adopt the last one instead of copying.
    if (device.is_cuda()) {
      auto value = cuda_nodes::evaluate(e, device);
      if (!value.is_constant && value.tensor.shape() == shape) return value.tensor;
    }
  }
  auto out = Tensor<T>::empty(shape, device);
  evaluate_into(out.view(), shape, device, e);
  return out;
}

/// The value of `e` as a tensor, for operations whose kernels take tensors: a Tensor<T> as is
/// (a view stays a view: call contiguous() where the kernel needs it), any other expression
/// evaluated once into a new tensor (fused on the host and in device-compiled units, node by
/// node otherwise).
template <class E>
Tensor<typename std::remove_cvref_t<E>::value_type> tensor_of(const E& e) {
  using T = typename std::remove_cvref_t<E>::value_type;
  if constexpr (std::is_same_v<std::remove_cvref_t<E>, Tensor<T>>) {
    return e;
  } else {
    return materialize<T>(e);
  }
}

/// Writes `e` into `dst`'s elements when shape and device match (through a temporary when `e`
/// reads dst's memory in another order), otherwise rebinds `dst` to a new tensor.
template <class T, class E>
void assign_expression(Tensor<T>& dst, const E& e) {
  const OpScope scope("assign");
  const Shape shape = expr_shape(e);
  const Device device = device_of(e);
  if (shape != dst.shape() || device != dst.device() || dst.storage().data() == nullptr) {
    dst = materialize<T>(e);
    return;
  }
  require_writable(op_or("assign"), dst.shape(), dst.strides());
  const AliasQuery query{dst.storage().data(), dst.data(), &dst.shape(), &dst.strides()};
  if (expr_aliases(e, query)) {
    const auto temporary = materialize<typename E::value_type>(e);
    evaluate_into(dst.view(), shape, device, temporary);
  } else {
    evaluate_into(dst.view(), shape, device, e);
  }
}

}  // namespace TESSERA_EVAL_NS
}  // namespace detail

inline namespace TESSERA_EVAL_NS {
/// Evaluates an expression into a new tensor: `auto w = eval(where(m, a, 0.0f));`.
template <Expression E>
Tensor<typename E::value_type> eval(const E& expression) {
  return detail::materialize<typename E::value_type>(expression);
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera
