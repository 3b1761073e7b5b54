// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce.hpp
/// Whole-tensor reductions over tensors or expressions, fused with the expression:
/// `float total = sum(a * a);`. On CUDA the result is copied back (one sync).

#include <limits>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/evaluate.hpp"

namespace tessera {
namespace detail {

/// Sums wrap (two's complement) on integer overflow, as the elementwise `+` and PyTorch's sum:
/// a plain `x + y` on int64 would be undefined behaviour. Every reduction path (host blocks,
/// fused device partials, precompiled device kernels) combines through this one functor.
struct PlusCombine {
  template <class A>
  TESSERA_HD A operator()(A x, A y) const {
    return wrapping(x, y, [](auto a, auto b) { return a + b; });
  }
};
struct MinCombine {
  template <class A>
  TESSERA_HD A operator()(A x, A y) const {
    return ops::Minimum::apply(x, y);
  }
};
struct MaxCombine {
  template <class A>
  TESSERA_HD A operator()(A x, A y) const {
    return ops::Maximum::apply(x, y);
  }
};
struct AndCombine {
  TESSERA_HD bool operator()(bool x, bool y) const { return x && y; }
};
struct OrCombine {
  TESSERA_HD bool operator()(bool x, bool y) const { return x || y; }
};

enum class ReduceKind { Sum, Min, Max, Any, All };

// Float sums accumulate in double (complex ones in complex128): more accurate than float and
// still memory-bound.
template <class T>
using sum_acc_t = std::conditional_t<Complex<T>, std::complex<double>,
                                     std::conditional_t<Floating<T>, double, sum_t<T>>>;

/// The identity of min (Max = false) or max (Max = true) over T.
template <class T, bool Max>
constexpr T extreme_identity() {
  if constexpr (Floating<T>) {
    return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  } else {
    return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
}

/// Runs reduction Kind of a bound kernel on an executor (host or fused CUDA).
template <ReduceKind Kind, class V, class Executor, class K>
auto reduce_kernel(const Executor& executor, const Extents& extents, const K& kernel, bool linear) {
  if constexpr (Kind == ReduceKind::Sum) {
    return static_cast<sum_t<V>>(executor.template reduce<sum_acc_t<V>>(
        extents, kernel, linear, sum_acc_t<V>{0}, PlusCombine{}));
  } else if constexpr (Kind == ReduceKind::Min) {
    return executor.template reduce<V>(extents, kernel, linear, extreme_identity<V, false>(),
                                       MinCombine{});
  } else if constexpr (Kind == ReduceKind::Max) {
    return executor.template reduce<V>(extents, kernel, linear, extreme_identity<V, true>(),
                                       MaxCombine{});
  } else if constexpr (Kind == ReduceKind::Any) {
    return executor.template reduce<bool>(extents, kernel, linear, false, OrCombine{});
  } else {
    return executor.template reduce<bool>(extents, kernel, linear, true, AndCombine{});
  }
}

inline namespace TESSERA_EVAL_NS {

/// Reduction Kind of `e` fused on a host or device executor.
template <ReduceKind Kind, class Executor, class E>
auto reduce_with(const Executor& executor, const E& e, const Shape& shape) {
  return reduce_kernel<Kind, typename E::value_type>(executor, Extents::of(shape),
                                                     expr_bind(e, shape), expr_linear(e, shape));
}

/// Host-compiled units: `e` is evaluated node by node on the device, then reduced there by a
/// precompiled kernel.
template <ReduceKind Kind, class E>
auto reduce_with(const cuda_nodes::NodeExecutor& executor, const E& e, const Shape&) {
  using V = typename E::value_type;
  const int device = executor.device;
  const auto value = cuda_nodes::evaluate(e, Device::cuda(device));
  const Shape& vshape = value.tensor.shape();
  const Extents vextents = Extents::of(vshape);
  if constexpr (Kind == ReduceKind::Sum) {
    return cuda_nodes::reduce_sum<V>(device, cuda_nodes::operand_of(value, vshape), vextents);
  } else if constexpr (Kind == ReduceKind::Min) {
    return cuda_nodes::reduce_min<V>(device, cuda_nodes::operand_of(value, vshape), vextents);
  } else if constexpr (Kind == ReduceKind::Max) {
    return cuda_nodes::reduce_max<V>(device, cuda_nodes::operand_of(value, vshape), vextents);
  } else {
    const auto flags = cuda_nodes::convert_value<bool>(value, Device::cuda(device));
    const auto operand = cuda_nodes::operand_of(flags, vshape);
    return Kind == ReduceKind::Any ? cuda_nodes::reduce_any(device, operand, vextents)
                                   : cuda_nodes::reduce_all(device, operand, vextents);
  }
}

template <ReduceKind Kind, class E>
auto reduce_expr(const E& e, const char* op) {
  const OpScope scope(op);
  const Shape shape = expr_shape(e);
  const Device device = device_of(e);
  if constexpr (Kind == ReduceKind::Min || Kind == ReduceKind::Max) {
    if (shape.numel() == 0) {
      raise<ValueError>(op, "the input is empty (shape ", shape, "), so it has no ", op);
    }
  }
  return with_executor(device,
                       [&](const auto& executor) { return reduce_with<Kind>(executor, e, shape); });
}

}  // namespace TESSERA_EVAL_NS
}  // namespace detail

inline namespace TESSERA_EVAL_NS {
/// Sum of all elements: T for floating types (accumulated in double), int64 for integers and
/// bool (as PyTorch). 0 for an empty input.
template <Expression E>
auto sum(const E& e) {
  return detail::reduce_expr<detail::ReduceKind::Sum>(e, "sum");
}
/// Smallest element; NaN if any element is NaN (as PyTorch). ValueError when empty.
template <Expression E>
auto min(const E& e) {
  TESSERA_REQUIRE_ORDERED(typename E::value_type, "min");
  return detail::reduce_expr<detail::ReduceKind::Min>(e, "min");
}
/// Largest element; NaN if any element is NaN (as PyTorch). ValueError when empty.
template <Expression E>
auto max(const E& e) {
  TESSERA_REQUIRE_ORDERED(typename E::value_type, "max");
  return detail::reduce_expr<detail::ReduceKind::Max>(e, "max");
}
/// True when any element is nonzero (false when empty).
template <Expression E>
bool any(const E& e) {
  return detail::reduce_expr<detail::ReduceKind::Any>(e, "any");
}
/// True when every element is nonzero (true when empty).
template <Expression E>
bool all(const E& e) {
  return detail::reduce_expr<detail::ReduceKind::All>(e, "all");
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera
