// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file nonzero.hpp
/// nonzero and its family (PyTorch semantics) on tensors and expressions:
/// `x.nonzero()`, `x.nonzero(as_tuple)`, `x.nonzero_out(out)`, `x.count_nonzero()`,
/// `x.nonzero_static(size, fill)`, `x.argwhere()`, `(x > 0).nonzero()`.
///
/// Nonzero means `x != 0`: NaN counts, -0.0 does not. Rows come in C order. Counts and
/// indices are int64 throughout. On a device, nonzero/nonzero_out/count_nonzero wait for it
/// once (the count decides the output size); nonzero_static never waits.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tessera/core/tensor_class.hpp"
#include "tessera/detail/nonzero_host.hpp"
#include "tessera/expr/evaluate.hpp"

#if TESSERA_DEVICE_CODE
#include "tessera/detail/nonzero_device.cuh"
#endif

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

namespace detail::cuda_ops {
// Precompiled per dtype in the device backend (src/backend/device/nonzero.cu) for host-compiled
// callers; device-compiled callers instantiate the same kernels on their own expressions.
template <class T>
std::int64_t count_nonzero(int device, const TensorView<T>& x);
template <class T>
void nonzero_write(int device, const TensorView<T>& x, const TensorView<std::int64_t>& out,
                   std::int64_t row_limit);
}  // namespace detail::cuda_ops

namespace detail {

// Argument checks (src/ops/nonzero_checks.cpp); each names op, argument and values.
/// DeviceError unless `out` (of `op`) is on the input's device.
void check_nonzero_out_device(const char* op, Device out, Device input);
/// ValueError when nonzero_static's size is negative.
void check_nonzero_static_size(std::int64_t size);

inline namespace TESSERA_EVAL_NS {

// The count and the write, overloaded on the executor (executors.hpp).

template <class E>
std::int64_t nonzero_count_with(HostExecutor, const E& e, const Shape& shape) {
  return nonzero_plan_host(expr_bind(e, shape), Extents::of(shape), expr_linear(e, shape)).total();
}
template <class E>
void nonzero_fill_with(HostExecutor, const E& e, const Shape& shape,
                       const TensorView<std::int64_t>& out, std::int64_t rows) {
  const auto k = expr_bind(e, shape);
  const bool linear = expr_linear(e, shape);
  const auto extents = Extents::of(shape);
  nonzero_write_host(k, extents, linear, nonzero_plan_host(k, extents, linear), out, rows);
}

/// Host-compiled code reaches the device through precompiled kernels over a tensor: a Tensor
/// is used as is, any other expression is first evaluated (node by node) into a bool mask.
template <class E>
auto node_nonzero_input(const E& e) {
  if constexpr (std::is_same_v<E, Tensor<typename E::value_type>>) {
    return e;
  } else {
    return materialize<bool>(e != false);
  }
}
template <class E>
std::int64_t nonzero_count_with(const cuda_nodes::NodeExecutor& executor, const E& e,
                                const Shape&) {
  return cuda_ops::count_nonzero(executor.device, node_nonzero_input(e).view());
}
template <class E>
void nonzero_fill_with(const cuda_nodes::NodeExecutor& executor, const E& e, const Shape&,
                       const TensorView<std::int64_t>& out, std::int64_t rows) {
  cuda_ops::nonzero_write(executor.device, node_nonzero_input(e).view(), out, rows);
}

template <class E>
std::int64_t nonzero_count(const E& e, const Shape& shape, Device device) {
  return with_executor(
      device, [&](const auto& executor) { return nonzero_count_with(executor, e, shape); });
}

/// Writes nonzero(e) into `out` ((rows, ndim), any strides), rows beyond `rows` dropped.
template <class E>
void nonzero_fill(const E& e, const Shape& shape, Device device,
                  const TensorView<std::int64_t>& out, std::int64_t rows) {
  with_executor(device,
                [&](const auto& executor) { nonzero_fill_with(executor, e, shape, out, rows); });
}

/// nonzero(e) into `out`, which is resized to (z, ndim) unless it already has that shape.
template <class E>
void nonzero_into(const E& e, Tensor<std::int64_t>& out, const char* op) {
  const OpScope scope(op);
  const Shape shape = expr_shape(e);
  const Device device = device_of(e);
  check_nonzero_out_device(op, out.device(), device);
  // out= may alias the input (the rule of every out= form, docs/reliability.md): the rows are
  // written while the input is still being read, so an `out` that shares the input's memory in
  // any way gets the result through a temporary. `e` may even be `out` itself, which the
  // resize below would rebind, so the temporary is filled before `out` changes.
  if (expr_reads_storage_of(e, out)) {
    Tensor<std::int64_t> result = Tensor<std::int64_t>::empty({0, 0}, device);
    nonzero_into(e, result, op);
    if (out.shape() == result.shape()) {
      assign_expression(out, result);  // through out's strides, as without aliasing
    } else {
      out = result;
    }
    return;
  }
  const auto ndim = static_cast<std::int64_t>(shape.size());
  if (device.is_cpu()) {
    // One counting pass serves both the size and the write offsets.
    const auto k = expr_bind(e, shape);
    const bool linear = expr_linear(e, shape);
    const auto extents = Extents::of(shape);
    const auto plan = nonzero_plan_host(k, extents, linear);
    const Shape result{plan.total(), ndim};
    if (out.shape() != result) out = Tensor<std::int64_t>::empty(result, device);
    require_writable(op, out.shape(), out.strides());
    nonzero_write_host(k, extents, linear, plan, out.view(), plan.total());
    return;
  }
  const std::int64_t z = nonzero_count(e, shape, device);  // the one device -> host sync
  const Shape result{z, ndim};
  if (out.shape() != result) out = Tensor<std::int64_t>::empty(result, device);
  require_writable(op, out.shape(), out.strides());
  nonzero_fill(e, shape, device, out.view(), z);
}

}  // namespace TESSERA_EVAL_NS
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// Number of nonzero elements of a tensor or expression.
///
///     int64_t n = tessera::count_nonzero(x > 0.5f);
template <Expression E>
std::int64_t count_nonzero(const E& e) {
  const detail::OpScope scope("count_nonzero");
  return detail::nonzero_count(e, detail::expr_shape(e), detail::device_of(e));
}

/// Indices of the nonzero elements: int64 (z, dim()) in C order. A 0-d input gives (1, 0) or
/// (0, 0).
///
///     auto idx = tessera::nonzero(tessera::tensor<float>({0, 1.5f, 0, 2}));  // [[1], [3]]
template <Expression E>
Tensor<std::int64_t> nonzero(const E& e) {
  Tensor<std::int64_t> out = Tensor<std::int64_t>::empty({0, 0}, detail::device_of(e));
  detail::nonzero_into(e, out, "nonzero");
  return out;
}

/// Same as nonzero().
template <Expression E>
Tensor<std::int64_t> argwhere(const E& e) {
  return nonzero(e);
}

/// The tuple form: max(dim(), 1) int64 tensors of shape (z), views of one (z, n) result. A 0-d
/// input is treated as 1-d of one element (`[0]` or empty).
template <Expression E>
std::vector<Tensor<std::int64_t>> nonzero(const E& e, AsTuple) {
  const detail::OpScope scope("nonzero");
  const auto ndim = static_cast<std::int64_t>(detail::expr_shape(e).size());
  auto rows = nonzero(e);
  std::vector<Tensor<std::int64_t>> columns;
  if (ndim == 0) {
    columns.push_back(Tensor<std::int64_t>::zeros({rows.size(0)}, rows.device()));
    return columns;
  }
  for (std::int64_t d = 0; d < ndim; ++d) columns.push_back(rows.select(1, d));
  return columns;
}

/// Writes nonzero(e) into `out` (int64, same device): resized to (z, n) when its shape differs,
/// written through its strides when it already has that shape. DeviceError leaves it untouched.
template <Expression E>
void nonzero_out(const E& e, Tensor<std::int64_t>& out) {
  detail::nonzero_into(e, out, "nonzero_out");
}

/// (size, dim()) int64: the first min(size, z) rows of nonzero(), the rest `fill_value`.
/// Never waits for the GPU. size < 0 → ValueError.
template <Expression E>
Tensor<std::int64_t> nonzero_static(const E& e, std::int64_t size, std::int64_t fill_value = -1) {
  const detail::OpScope scope("nonzero_static");
  detail::check_nonzero_static_size(size);
  const Shape shape = detail::expr_shape(e);
  const Device device = detail::device_of(e);
  auto out = Tensor<std::int64_t>::full({size, static_cast<std::int64_t>(shape.size())}, fill_value,
                                        device);
  detail::nonzero_fill(e, shape, device, out.view(), size);
  return out;
}

}  // namespace TESSERA_EVAL_NS

template <class D>
TESSERA_EVAL_TAG Tensor<std::int64_t> NonzeroMethods<D>::nonzero() const {
  return tessera::nonzero(self());
}
template <class D>
TESSERA_EVAL_TAG std::vector<Tensor<std::int64_t>> NonzeroMethods<D>::nonzero(AsTuple tag) const {
  return tessera::nonzero(self(), tag);
}
template <class D>
TESSERA_EVAL_TAG void NonzeroMethods<D>::nonzero_out(Tensor<std::int64_t>& out) const {
  tessera::nonzero_out(self(), out);
}
template <class D>
TESSERA_EVAL_TAG Tensor<std::int64_t> NonzeroMethods<D>::nonzero_static(
    std::int64_t size, std::int64_t fill_value) const {
  return tessera::nonzero_static(self(), size, fill_value);
}
template <class D>
TESSERA_EVAL_TAG std::int64_t NonzeroMethods<D>::count_nonzero() const {
  return tessera::count_nonzero(self());
}
template <class D>
TESSERA_EVAL_TAG Tensor<std::int64_t> NonzeroMethods<D>::argwhere() const {
  return tessera::argwhere(self());
}

}  // namespace tessera

TESSERA_EVAL_TAGS_END
