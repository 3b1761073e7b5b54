// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_ops.hpp
/// The reductions and scans of the reduction engine (reduce_dims.hpp), each a small struct:
/// an accumulator type, its identity (`init`), a step that folds in one element (`step(acc, v,
/// r)`, r its position along the reduced elements), a `merge` of two accumulators (the first
/// holding earlier elements), and a `finish` that makes the result from the accumulator and the
/// element count. Host and device run the same structs in the same order, so results are the
/// same bits on every device. A new reduction is a struct, not a kernel (PyTorch's Reduce.h
/// ops, xtensor's reducer triples).

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tessera/core/dtype.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/expr/pointwise_math.hpp"

namespace tessera::detail {

/// Run-time names of the op structs below, for the device kernels precompiled for host-compiled
/// callers (one instantiation per op and canonical dtype, reduce.cu).
enum class ReduceId : std::uint8_t {
  Sum,
  NanSum,
  Prod,
  Max,
  Min,
  Any,
  All,
  CountNonzero,
  Mean,
  NanMean,
  LogSumExp,
  Var,
  Std,
  ArgMax,
  ArgMin,
  CumSum,
  CumProd,
  CumMax,
  CumMin
};

namespace reduce_ops {

/// Float sums, means and products accumulate in double, complex ones in complex128; integer
/// and bool ones in int64.
template <class T>
using acc_t = std::conditional_t<Complex<T>, std::complex<double>,
                                 std::conditional_t<Floating<T>, double, std::int64_t>>;

/// Sum (PyTorch's sum: int64 for bool and integers, wrapping; T for floats). `SkipNaN`: nansum.
template <class T, bool SkipNaN = false>
struct Sum {
  using In = T;
  static constexpr ReduceId id = SkipNaN ? ReduceId::NanSum : ReduceId::Sum;
  using Acc = acc_t<T>;
  using Out = sum_t<T>;
  TESSERA_HD Acc init() const { return Acc(0); }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const {
    if constexpr (SkipNaN) {
      if (is_nan(v)) return a;
    }
    return merge(a, static_cast<Acc>(v));
  }
  TESSERA_HD Acc merge(Acc a, Acc b) const { return pw::add(a, b); }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return static_cast<Out>(a); }
};

/// Product (int64 for bool and integers, wrapping; T for floats).
template <class T>
struct Prod {
  using In = T;
  static constexpr ReduceId id = ReduceId::Prod;
  using Acc = acc_t<T>;
  using Out = sum_t<T>;
  TESSERA_HD Acc init() const { return Acc(1); }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const { return merge(a, static_cast<Acc>(v)); }
  TESSERA_HD Acc merge(Acc a, Acc b) const { return pw::mul(a, b); }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return static_cast<Out>(a); }
};

/// amax (Max = true) or amin: NaN propagates; keeps T.
template <class T, bool Max>
struct Extreme {
  TESSERA_REQUIRE_ORDERED(T, "amax, amin, max and min");
  using In = T;
  static constexpr ReduceId id = Max ? ReduceId::Max : ReduceId::Min;
  using Acc = T;
  using Out = T;
  TESSERA_HD Acc init() const {
    if constexpr (Floating<T>) {
      return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    } else {
      return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
  }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const { return merge(a, v); }
  TESSERA_HD Acc merge(Acc a, Acc b) const { return Max ? pw::maximum(a, b) : pw::minimum(a, b); }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return a; }
};

/// any (Any = true) or all of `v != 0`.
template <class T, bool Any>
struct Logical {
  using In = T;
  static constexpr ReduceId id = Any ? ReduceId::Any : ReduceId::All;
  using Acc = bool;
  using Out = bool;
  TESSERA_HD Acc init() const { return !Any; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const { return merge(a, static_cast<bool>(v)); }
  TESSERA_HD Acc merge(Acc a, Acc b) const { return Any ? (a || b) : (a && b); }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return a; }
};

/// count_nonzero: int64.
template <class T>
struct CountNonzero {
  using In = T;
  static constexpr ReduceId id = ReduceId::CountNonzero;
  using Acc = std::int64_t;
  using Out = std::int64_t;
  TESSERA_HD Acc init() const { return 0; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const { return a + (static_cast<bool>(v) ? 1 : 0); }
  TESSERA_HD Acc merge(Acc a, Acc b) const { return a + b; }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return a; }
};

/// A sum and how many elements it holds (mean, nanmean).
struct SumCount {
  double sum;
  std::int64_t n;
};

/// mean (SkipNaN: nanmean) of a floating T: the sum in double (complex128 for complex T) over
/// the count; NaN (nan+nanj) when empty.
/// mean counts every element, so its accumulator is the sum alone (a double vectorises where a
/// sum-and-count pair does not) and the finish divides by the count the engine passes; nanmean
/// counts the non-NaN elements as it goes.
template <class T, bool SkipNaN = false>
struct Mean {
  using In = T;
  static constexpr ReduceId id = SkipNaN ? ReduceId::NanMean : ReduceId::Mean;
  using Acc = std::conditional_t<SkipNaN, SumCount, acc_t<T>>;
  using Out = T;
  TESSERA_HD Acc init() const { return Acc{}; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const {
    if constexpr (SkipNaN) {
      if (is_nan(v)) return a;
      return {a.sum + static_cast<double>(v), a.n + 1};
    } else {
      return a + static_cast<Acc>(v);
    }
  }
  TESSERA_HD Acc merge(Acc a, Acc b) const {
    if constexpr (SkipNaN) {
      return {a.sum + b.sum, a.n + b.n};
    } else {
      return a + b;
    }
  }
  TESSERA_HD Out finish(Acc a, std::int64_t count) const {
    if constexpr (SkipNaN) {
      return static_cast<T>(a.sum / static_cast<double>(a.n));  // 0 / 0: NaN
    } else {
      return static_cast<T>(a / static_cast<double>(count));  // complex: each part
    }
  }
};

/// Running max and the sum of exp(x - shift(max)) (logsumexp in one pass).
struct MaxExpSum {
  double max;
  double sum;
};

/// logsumexp of a floating T, in double, one pass: the running maximum rescales the sum when
/// it grows. As PyTorch, an infinite maximum shifts by 0 (all -inf gives -inf, a +inf gives
/// +inf), NaN propagates, and an empty reduction gives -inf.
template <class T>
struct LogSumExp {
  using In = T;
  static constexpr ReduceId id = ReduceId::LogSumExp;
  using Acc = MaxExpSum;
  using Out = T;
  TESSERA_HD static double shift(double m) {
    return (m == std::numeric_limits<double>::infinity() ||
            m == -std::numeric_limits<double>::infinity())
               ? 0.0
               : m;
  }
  TESSERA_HD Acc init() const { return {-std::numeric_limits<double>::infinity(), 0.0}; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const {
    const double x = static_cast<double>(v);
    return merge(a, {x, std::exp(x - shift(x))});  // 1, or exp(+inf) = inf, exp(-inf) = 0
  }
  TESSERA_HD Acc merge(Acc a, Acc b) const {
    if (is_nan(a.max) || is_nan(b.max)) return {std::numeric_limits<double>::quiet_NaN(), 1.0};
    if (b.sum == 0.0) return a;  // nothing but -inf (or nothing) in b
    if (a.sum == 0.0) return b;
    const double m = pw::maximum(a.max, b.max);
    const double s = shift(m);
    return {m, a.sum * std::exp(shift(a.max) - s) + b.sum * std::exp(shift(b.max) - s)};
  }
  TESSERA_HD Out finish(Acc a, std::int64_t) const {
    if (is_nan(a.max)) return static_cast<T>(a.max);
    if (a.sum == 0.0) return -std::numeric_limits<T>::infinity();
    return static_cast<T>(std::log(a.sum) + shift(a.max));
  }
};

/// Welford's running count, mean and sum of squared deviations.
struct Moments {
  double n;
  double mean;
  double m2;
};

/// var (Sqrt: std) of a floating T with Bessel's `correction`, one pass (Welford, lanes
/// merged by Chan's formula), in double; divides by max(0, n - correction) as PyTorch.
template <class T, bool Sqrt>
struct Variance {
  using In = T;
  static constexpr ReduceId id = Sqrt ? ReduceId::Std : ReduceId::Var;
  using Acc = Moments;
  using Out = T;
  double correction = 1.0;
  TESSERA_HD Acc init() const { return {0.0, 0.0, 0.0}; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t) const {
    const double x = static_cast<double>(v);
    const double n = a.n + 1.0;
    const double delta = x - a.mean;
    const double mean = a.mean + delta / n;
    return {n, mean, a.m2 + delta * (x - mean)};
  }
  TESSERA_HD Acc merge(Acc a, Acc b) const {
    if (b.n == 0.0) return a;
    if (a.n == 0.0) return b;
    const double n = a.n + b.n;
    const double delta = b.mean - a.mean;
    return {n, a.mean + delta * (b.n / n), a.m2 + b.m2 + delta * delta * (a.n * b.n / n)};
  }
  TESSERA_HD Out finish(Acc a, std::int64_t) const {
    const double divisor = a.n - correction > 0.0 ? a.n - correction : 0.0;
    const double v = a.m2 / divisor;  // 0 / 0: NaN, x / 0: inf (PyTorch)
    return static_cast<T>(Sqrt ? std::sqrt(v) : v);
  }
};

/// A candidate value and where it was found (-1: none yet).
template <class T>
struct ValueIndex {
  T value;
  std::int64_t index;
};

/// argmax / argmin and max(a, dim) / min(a, dim): the extreme value and the first position
/// holding it; NaN counts as the extreme and the first NaN wins (PyTorch). The identity is the
/// type's far end at position 0: a lane that sees nothing better keeps position 0, which is
/// the answer exactly when no element beats the far end (then element 0 holds it too).
template <class T, bool Max>
struct ArgExtreme {
  TESSERA_REQUIRE_ORDERED(T, "argmax, argmin, max(dim) and min(dim)");
  using In = T;
  static constexpr ReduceId id = Max ? ReduceId::ArgMax : ReduceId::ArgMin;
  using Acc = ValueIndex<T>;
  using Out = T;
  /// True when `b` beats `a` strictly (ties are decided by position).
  TESSERA_HD static bool beats(T b, T a) {
    const bool better = Max ? a < b : b < a;
    return !is_nan(a) && (is_nan(b) || better);
  }
  TESSERA_HD Acc init() const { return {Extreme<T, Max>{}.init(), 0}; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t r) const {
    return beats(v, a.value) ? Acc{v, r} : a;
  }
  TESSERA_HD Acc merge(Acc a, Acc b) const {
    if (beats(b.value, a.value)) return b;
    if (beats(a.value, b.value)) return a;
    return b.index < a.index ? b : a;
  }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return a.value; }
  TESSERA_HD static std::int64_t position(Acc a) { return a.index; }
};

/// cummax / cummin: the running extreme and the latest position holding it (PyTorch: a tie or
/// a NaN moves the index forward; NaN, once seen, stays).
template <class T, bool Max>
struct CumExtreme {
  TESSERA_REQUIRE_ORDERED(T, "cummax and cummin");
  using In = T;
  static constexpr ReduceId id = Max ? ReduceId::CumMax : ReduceId::CumMin;
  using Acc = ValueIndex<T>;
  using Out = T;
  TESSERA_HD Acc init() const { return {T{}, -1}; }
  TESSERA_HD Acc step(Acc a, T v, std::int64_t r) const {
    if (a.index < 0 || is_nan(v)) return {v, r};
    if (is_nan(a.value)) return a;
    return (Max ? !(v < a.value) : !(a.value < v)) ? Acc{v, r} : a;
  }
  TESSERA_HD Out finish(Acc a, std::int64_t) const { return a.value; }
  TESSERA_HD static std::int64_t position(Acc a) { return a.index; }
};

/// cumsum: Sum's steps, scanned (int64 for bool and integers).
template <class T>
struct CumSum : Sum<T> {
  static constexpr ReduceId id = ReduceId::CumSum;
};
/// cumprod: Prod's steps, scanned.
template <class T>
struct CumProd : Prod<T> {
  static constexpr ReduceId id = ReduceId::CumProd;
};

/// The op struct of a run-time id over element type T (the precompiled device kernels).
template <ReduceId Id, class T>
struct op_of;
/// Maps one id to its op struct (expands below; undefined after use).
#define TESSERA_REDUCE_OP_OF(ID, ...) \
  template <class T>                  \
  struct op_of<ReduceId::ID, T> {     \
    using type = __VA_ARGS__;         \
  };
TESSERA_REDUCE_OP_OF(Sum, Sum<T>)
TESSERA_REDUCE_OP_OF(NanSum, Sum<T, true>)
TESSERA_REDUCE_OP_OF(Prod, Prod<T>)
TESSERA_REDUCE_OP_OF(Max, Extreme<T, true>)
TESSERA_REDUCE_OP_OF(Min, Extreme<T, false>)
TESSERA_REDUCE_OP_OF(Any, Logical<T, true>)
TESSERA_REDUCE_OP_OF(All, Logical<T, false>)
TESSERA_REDUCE_OP_OF(CountNonzero, CountNonzero<T>)
TESSERA_REDUCE_OP_OF(Mean, Mean<T>)
TESSERA_REDUCE_OP_OF(NanMean, Mean<T, true>)
TESSERA_REDUCE_OP_OF(LogSumExp, LogSumExp<T>)
TESSERA_REDUCE_OP_OF(Var, Variance<T, false>)
TESSERA_REDUCE_OP_OF(Std, Variance<T, true>)
TESSERA_REDUCE_OP_OF(ArgMax, ArgExtreme<T, true>)
TESSERA_REDUCE_OP_OF(ArgMin, ArgExtreme<T, false>)
TESSERA_REDUCE_OP_OF(CumSum, CumSum<T>)
TESSERA_REDUCE_OP_OF(CumProd, CumProd<T>)
TESSERA_REDUCE_OP_OF(CumMax, CumExtreme<T, true>)
TESSERA_REDUCE_OP_OF(CumMin, CumExtreme<T, false>)
#undef TESSERA_REDUCE_OP_OF

/// True for scans (run line by line, every prefix written).
constexpr bool is_scan(ReduceId id) {
  return id == ReduceId::CumSum || id == ReduceId::CumProd || id == ReduceId::CumMax ||
         id == ReduceId::CumMin;
}

/// True for ops that also produce positions (argmax, max(a, dim), cummax).
template <class Op>
concept WithPositions = requires(typename Op::Acc a) {
  Op::position(a);
};

}  // namespace reduce_ops

using reduce_ops::is_scan;

}  // namespace tessera::detail
