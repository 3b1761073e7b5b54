// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_dims.hpp
/// Reductions over dimensions and scans (PyTorch semantics): `ts::sum(a * b, 1)`,
/// `ts::mean(a, {0, 1}, true)`, `ts::argmax(a, 1)`, `ts::max(a, 0)`, `ts::var(a, 1)`,
/// `ts::cumsum(a, 0)`, ... Each reads its input expression inside the reduction (no
/// temporary for `a * b`), on the host or the device, through the one reduction engine
/// (reduce_engine.hpp) with an op struct of reduce_ops.hpp.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/reduce.hpp"
#include "tessera/expr/reduce_engine.hpp"
#include "tessera/expr/reduce_host.hpp"
#include "tessera/expr/reduce_nodes.hpp"

#if TESSERA_DEVICE_CODE
#include "tessera/detail/reduce_device.cuh"
#endif

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// The values of max/min/sort-like operations and their int64 positions:
/// `auto [values, indices] = ts::max(a, 1);`.
template <class T>
struct ValuesIndices {
  Tensor<T> values;              ///< the selected values
  Tensor<std::int64_t> indices;  ///< where they were, along the reduced dimension
};

namespace detail {

/// A floating value type, or a compile-time error naming the fix (PyTorch 2.15 refuses
/// mean, nanmean, var and std of integers too; it promotes logsumexp's to float32, which
/// tessera leaves to an explicit cast).
template <class T>
constexpr void require_floating_input() {
  static_assert(Floating<T>,
                "tessera: mean, nanmean, var, std and logsumexp need a floating input; "
                "cast first, e.g. ts::mean(a.cast<float>(), 1)");
}
/// mean's input: floating or complex.
template <class T>
constexpr void require_mean_input() {
  static_assert(Floating<T> || Complex<T>,
                "tessera: mean, nanmean, var, std and logsumexp need a floating input (mean: or "
                "complex); cast first, e.g. ts::mean(a.cast<float>(), 1)");
}

inline namespace TESSERA_EVAL_NS {

/// Host executor: the host engine over the bound expression.
template <class Op, class E>
void reduce_dims_with(const HostExecutor&, const Op& op, const E& e, const ReducePlan& plan,
                      const ReduceStore<Op>& store, Device) {
  Shape shape(plan.shape, plan.shape + plan.ndim);
  if constexpr (is_scan(Op::id)) {
    host_scan_dim(op, expr_bind(e, shape), plan, store);
  } else {
    host_reduce_dims(op, expr_bind(e, shape), plan, store);
  }
}

/// Host-compiled units with device tensors: the expression node by node, then the precompiled
/// kernel of the op's canonical dtype (reduce_nodes.hpp).
template <class Op, class E>
void reduce_dims_with(const cuda_nodes::NodeExecutor& ex, const Op& op, const E& e,
                      const ReducePlan& plan, const ReduceStore<Op>& store, Device device) {
  cuda_nodes::reduce_dims_nodes(ex.device, op, cuda_nodes::evaluate(e, device), plan, store);
}

/// Runs `op` over `e` into `store` on e's device.
template <class Op, class E>
void run_reduce_dims(const Op& op, const E& e, const ReducePlan& plan, const ReduceStore<Op>& store,
                     Device device) {
  with_executor(device, [&](const auto& executor) {
    reduce_dims_with(executor, op, e, plan, store, device);
  });
}

/// Runs `op` over `e` into new tensors of shape `shape`: values of Op::Out (unless `values` is
/// false) and positions (ops with positions). Reductions and scans alike.
template <class Op, class E>
auto run_into_tensors(const Op& op, const E& e, const ReducePlan& plan, const Shape& shape,
                      bool values = true) {
  const Device device = device_of(e);
  using Out = typename Op::Out;
  Tensor<Out> out = values ? Tensor<Out>::empty(shape, device) : Tensor<Out>();
  Tensor<std::int64_t> positions;
  ReduceStore<Op> store;
  if (values) store.values = out.data();
  if constexpr (reduce_ops::WithPositions<Op>) {
    positions = Tensor<std::int64_t>::empty(shape, device);
    store.positions = positions.data();
  }
  run_reduce_dims(op, e, plan, store, device);
  return std::pair<Tensor<Out>, Tensor<std::int64_t>>(std::move(out), std::move(positions));
}

/// A reduction of `e` over the plan's dims into new tensors (keepdim: reduced dims as 1).
template <class Op, class E>
auto reduce_to_tensors(const Op& op, const E& e, const ReducePlan& plan, bool keepdim,
                       bool values = true) {
  return run_into_tensors(op, e, plan, reduced_shape(plan, keepdim), values);
}

/// The common form: one result tensor of a reduction over `dims`.
template <class Op, class E>
Tensor<typename Op::Out> reduce_over(const char* name, const E& e, const Dims& dims, bool keepdim,
                                     Op op = Op{}, bool nonempty = false) {
  const OpScope scope(name);
  const ReducePlan plan = make_reduce_plan(name, expr_shape(e), dims);
  if (nonempty) require_nonempty_reduction(name, plan);
  return reduce_to_tensors(op, e, plan, keepdim).first;
}

/// A scan of `e` along `dim`: values (and positions for cummax / cummin), e's shape.
template <class Op, class E>
auto scan_along(const char* name, const E& e, std::int64_t dim) {
  const OpScope scope(name);
  const Shape shape = expr_shape(e);
  const ReducePlan plan = make_dim_plan(name, shape, dim);
  return run_into_tensors(Op{}, e, plan, shape);
}

/// A whole-tensor reduction to a host value (mean, prod, var, std of everything).
template <class Op, class E>
typename Op::Out reduce_all_to_value(const char* name, const E& e, Op op = Op{}) {
  const OpScope scope(name);
  const Shape shape = expr_shape(e);
  Dims all_dims{};
  ReducePlan plan = make_reduce_plan(name, shape, all_dims);
  // Every dimension reduced: a plan over the flattened input keeps the engine's order.
  const Tensor<typename Op::Out> out = reduce_to_tensors(op, e, plan, false).first;
  return out.item();
}

template <class E>
using value_type_t = typename std::remove_cvref_t<E>::value_type;

}  // namespace TESSERA_EVAL_NS
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Reductions over dimensions (PyTorch): negative dims count from the end, keepdim keeps
/// them as extent 1; the input is read inside the reduction (`ts::sum(a * b, 1)` makes no
/// temporary). Results are the same bits on every device and at every thread count.
/// @{

/// Sum over `dims`: T for floats (accumulated in double), int64 for bool and integers.
///
///     auto s = ts::sum(a * b, 1);  auto t = ts::sum(a, {0, 2}, true);
template <Expression E>
auto sum(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::Sum<T>>("sum", e, dims, keepdim);
}
/// Sum over `dims` with NaN counted as zero; of bool and integers, the int64 sum (PyTorch).
template <Expression E>
auto nansum(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  if constexpr (Floating<T>) {
    return detail::reduce_over<detail::reduce_ops::Sum<T, true>>("nansum", e, dims, keepdim);
  } else {
    // Bool and integers hold no NaN: sum's int64 result (PyTorch).
    return detail::reduce_over<detail::reduce_ops::Sum<T>>("nansum", e, dims, keepdim);
  }
}
/// Product along `dim`: T for floats, int64 for bool and integers (wrapping).
template <Expression E>
auto prod(const E& e, std::int64_t dim, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::Prod<T>>("prod", e, Dims(dim), keepdim);
}
/// Mean over `dims` (floating input); NaN for an empty reduction.
template <Expression E>
auto mean(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  detail::require_mean_input<T>();
  return detail::reduce_over<detail::reduce_ops::Mean<T>>("mean", e, dims, keepdim);
}
/// Mean over `dims` of the non-NaN elements (floating input); NaN where none.
template <Expression E>
auto nanmean(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  detail::require_floating_input<T>();
  return detail::reduce_over<detail::reduce_ops::Mean<T, true>>("nanmean", e, dims, keepdim);
}
/// Largest element over `dims` (NaN propagates); IndexError for an empty reduced dimension.
template <Expression E>
auto amax(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::Extreme<T, true>>("amax", e, dims, keepdim, {},
                                                                   true);
}
/// Smallest element over `dims` (NaN propagates); IndexError for an empty reduced dimension.
template <Expression E>
auto amin(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::Extreme<T, false>>("amin", e, dims, keepdim, {},
                                                                    true);
}
/// True where any element over `dims` is nonzero (bool result for every input type).
template <Expression E>
Tensor<bool> any(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::Logical<T, true>>("any", e, dims, keepdim);
}
/// True where every element over `dims` is nonzero.
template <Expression E>
Tensor<bool> all(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::Logical<T, false>>("all", e, dims, keepdim);
}
/// Number of nonzero elements over `dims` (int64; no keepdim, as PyTorch).
template <Expression E>
Tensor<std::int64_t> count_nonzero(const E& e, const Dims& dims) {
  using T = detail::value_type_t<E>;
  return detail::reduce_over<detail::reduce_ops::CountNonzero<T>>("count_nonzero", e, dims, false);
}
/// log(sum(exp(x))) over `dims`, computed stably (floating input); -inf when empty.
template <Expression E>
auto logsumexp(const E& e, const Dims& dims, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  detail::require_floating_input<T>();
  return detail::reduce_over<detail::reduce_ops::LogSumExp<T>>("logsumexp", e, dims, keepdim);
}
/// Variance over `dims` with Bessel's `correction` (1 by default): the sum of squared
/// deviations over max(0, n - correction), as PyTorch (floating input).
template <Expression E>
auto var(const E& e, const Dims& dims, double correction = 1.0, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  detail::require_floating_input<T>();
  return detail::reduce_over<detail::reduce_ops::Variance<T, false>>(
      "var", e, dims, keepdim, detail::reduce_ops::Variance<T, false>{correction});
}
/// Standard deviation over `dims`: the square root of var.
template <Expression E>
auto std(const E& e, const Dims& dims, double correction = 1.0, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  detail::require_floating_input<T>();
  return detail::reduce_over<detail::reduce_ops::Variance<T, true>>(
      "std", e, dims, keepdim, detail::reduce_ops::Variance<T, true>{correction});
}
/// Position of the largest element along `dim` (int64; the first of ties, the first NaN).
template <Expression E>
Tensor<std::int64_t> argmax(const E& e, std::int64_t dim, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  using Op = detail::reduce_ops::ArgExtreme<T, true>;
  const detail::OpScope scope("argmax");
  const auto plan = detail::make_dim_plan("argmax", detail::expr_shape(e), dim);
  detail::require_nonempty_reduction("argmax", plan);
  return detail::reduce_to_tensors(Op{}, e, plan, keepdim, false).second;
}
/// Position of the smallest element along `dim` (int64; the first of ties, the first NaN).
template <Expression E>
Tensor<std::int64_t> argmin(const E& e, std::int64_t dim, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  using Op = detail::reduce_ops::ArgExtreme<T, false>;
  const detail::OpScope scope("argmin");
  const auto plan = detail::make_dim_plan("argmin", detail::expr_shape(e), dim);
  detail::require_nonempty_reduction("argmin", plan);
  return detail::reduce_to_tensors(Op{}, e, plan, keepdim, false).second;
}
/// Flat position (row-major) of the largest element, as a 0-d int64 tensor.
template <Expression E>
Tensor<std::int64_t> argmax(const E& e) {
  using T = detail::value_type_t<E>;
  using Op = detail::reduce_ops::ArgExtreme<T, true>;
  const detail::OpScope scope("argmax");
  const auto plan = detail::make_reduce_plan("argmax", detail::expr_shape(e), Dims{});
  detail::require_nonempty_reduction("argmax", plan);
  return detail::reduce_to_tensors(Op{}, e, plan, false, false).second;
}
/// Flat position (row-major) of the smallest element, as a 0-d int64 tensor.
template <Expression E>
Tensor<std::int64_t> argmin(const E& e) {
  using T = detail::value_type_t<E>;
  using Op = detail::reduce_ops::ArgExtreme<T, false>;
  const detail::OpScope scope("argmin");
  const auto plan = detail::make_reduce_plan("argmin", detail::expr_shape(e), Dims{});
  detail::require_nonempty_reduction("argmin", plan);
  return detail::reduce_to_tensors(Op{}, e, plan, false, false).second;
}
/// The largest elements along `dim` and their positions (torch.max(a, dim)).
template <Expression E>
ValuesIndices<detail::value_type_t<E>> max(const E& e, std::int64_t dim, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  const detail::OpScope scope("max");
  const auto plan = detail::make_dim_plan("max", detail::expr_shape(e), dim);
  detail::require_nonempty_reduction("max", plan);
  auto [v, i] =
      detail::reduce_to_tensors(detail::reduce_ops::ArgExtreme<T, true>{}, e, plan, keepdim);
  return {std::move(v), std::move(i)};
}
/// The smallest elements along `dim` and their positions (torch.min(a, dim)).
template <Expression E>
ValuesIndices<detail::value_type_t<E>> min(const E& e, std::int64_t dim, bool keepdim = false) {
  using T = detail::value_type_t<E>;
  const detail::OpScope scope("min");
  const auto plan = detail::make_dim_plan("min", detail::expr_shape(e), dim);
  detail::require_nonempty_reduction("min", plan);
  auto [v, i] =
      detail::reduce_to_tensors(detail::reduce_ops::ArgExtreme<T, false>{}, e, plan, keepdim);
  return {std::move(v), std::move(i)};
}
/// @}

/// @name Whole-tensor reductions to a host value (as `ts::sum(e)`)
/// @{

/// Mean of every element (floating input); NaN when empty.
template <Expression E>
auto mean(const E& e) {
  using T = detail::value_type_t<E>;
  detail::require_mean_input<T>();
  return detail::reduce_all_to_value<detail::reduce_ops::Mean<T>>("mean", e);
}
/// Product of every element (int64 for bool and integers).
template <Expression E>
auto prod(const E& e) {
  using T = detail::value_type_t<E>;
  return detail::reduce_all_to_value<detail::reduce_ops::Prod<T>>("prod", e);
}
/// Variance of every element with Bessel's correction 1 (floating input).
template <Expression E>
auto var(const E& e) {
  using T = detail::value_type_t<E>;
  detail::require_floating_input<T>();
  return detail::reduce_all_to_value<detail::reduce_ops::Variance<T, false>>("var", e);
}
/// Standard deviation of every element with Bessel's correction 1 (floating input).
template <Expression E>
auto std(const E& e) {
  using T = detail::value_type_t<E>;
  detail::require_floating_input<T>();
  return detail::reduce_all_to_value<detail::reduce_ops::Variance<T, true>>("std", e);
}
/// @}

/// @name Scans along one dimension (PyTorch): same shape as the input
/// @{

/// Running sum along `dim` (int64 for bool and integers; floats accumulate in double).
template <Expression E>
auto cumsum(const E& e, std::int64_t dim) {
  using T = detail::value_type_t<E>;
  return detail::scan_along<detail::reduce_ops::CumSum<T>>("cumsum", e, dim).first;
}
/// Running product along `dim`.
template <Expression E>
auto cumprod(const E& e, std::int64_t dim) {
  using T = detail::value_type_t<E>;
  return detail::scan_along<detail::reduce_ops::CumProd<T>>("cumprod", e, dim).first;
}
/// Running maximum along `dim` and where it was (the latest of ties and NaNs, as PyTorch).
template <Expression E>
ValuesIndices<detail::value_type_t<E>> cummax(const E& e, std::int64_t dim) {
  using T = detail::value_type_t<E>;
  auto [v, i] = detail::scan_along<detail::reduce_ops::CumExtreme<T, true>>("cummax", e, dim);
  return {std::move(v), std::move(i)};
}
/// Running minimum along `dim` and where it was (the latest of ties and NaNs, as PyTorch).
template <Expression E>
ValuesIndices<detail::value_type_t<E>> cummin(const E& e, std::int64_t dim) {
  using T = detail::value_type_t<E>;
  auto [v, i] = detail::scan_along<detail::reduce_ops::CumExtreme<T, false>>("cummin", e, dim);
  return {std::move(v), std::move(i)};
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (ops/reduce_methods.hpp, where they are documented) -------------------------
#if !defined(TESSERA_DOXYGEN)
/// Defines ReduceMethods<D>::NAME(PARAMS) as tessera::NAME(self(), ARGS) (expands below).
#define TESSERA_REDUCE_METHOD(NAME, PARAMS, ARGS)             \
  template <class D>                                          \
  TESSERA_EVAL_TAG auto ReduceMethods<D>::NAME PARAMS const { \
    return tessera::NAME ARGS;                                \
  }
TESSERA_REDUCE_METHOD(sum, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(nansum, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(prod, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_REDUCE_METHOD(mean, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(nanmean, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(amax, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(amin, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(any, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(all, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(logsumexp, (const Dims& dims, bool keepdim), (self(), dims, keepdim))
TESSERA_REDUCE_METHOD(var, (const Dims& dims, double correction, bool keepdim),
                      (self(), dims, correction, keepdim))
TESSERA_REDUCE_METHOD(std, (const Dims& dims, double correction, bool keepdim),
                      (self(), dims, correction, keepdim))
TESSERA_REDUCE_METHOD(argmax, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_REDUCE_METHOD(argmax, (), (self()))
TESSERA_REDUCE_METHOD(argmin, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_REDUCE_METHOD(argmin, (), (self()))
TESSERA_REDUCE_METHOD(max, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_REDUCE_METHOD(min, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_REDUCE_METHOD(cumsum, (std::int64_t dim), (self(), dim))
TESSERA_REDUCE_METHOD(cumprod, (std::int64_t dim), (self(), dim))
TESSERA_REDUCE_METHOD(cummax, (std::int64_t dim), (self(), dim))
TESSERA_REDUCE_METHOD(cummin, (std::int64_t dim), (self(), dim))
#undef TESSERA_REDUCE_METHOD
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
