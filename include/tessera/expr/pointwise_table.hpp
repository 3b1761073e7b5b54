// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file pointwise_table.hpp
/// The pointwise vocabulary, one row per function: adding a function is adding a row. Each row
/// is `X(Op, name, Kind, "what it computes", body)`: from it functors.hpp makes the functor
/// `detail::ops::Op` (whose `apply` returns `body` over the operand `a`, or `a` and `b`) with its
/// run-time id (so the precompiled device kernels of host-compiled callers reach it through one
/// switch per dtype, not one kernel per function), operators.hpp the lazy free function
/// `tessera::name`, and tools/support_matrix.py the rows of docs/expressions.md's vocabulary and
/// of the support matrix. `Kind` is the promotion rule (PointwiseKind below).

#include <cmath>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/pointwise_math.hpp"

namespace tessera::detail {

/// How a pointwise function types its operands (PyTorch's rules, docs/expressions.md): in what
/// type it computes and what it returns, for operands whose common type is T.
namespace kind {
/// Any dtype; computes and returns T.
struct Same {};
/// Numbers (not bool); computes and returns T.
struct Numeric {};
/// Computes and returns T for floating T, float for bool and integers.
struct Floating {};
/// Division: true division into float for two bools (PyTorch's `/`), else as Same.
struct Division {};
/// Any dtype; computes and returns T, and int64 for bool (torch.square of bool).
struct Squaring {};
/// Any dtype; computes in T and returns bool.
struct Test {};
/// bool and integers (bitwise); computes and returns T.
struct Integral {};
/// Integers only (not bool); computes and returns T.
struct Integer {};
/// Any dtype; computes in T and returns its part type (abs: float for complex64, T for reals).
struct Magnitude {};
/// Computes as Floating (float for bool and integers) and returns the part type (angle).
struct Argument {};
}  // namespace kind

/// Compute type, result type and accepted dtypes of a kind.
template <class Kind, class T>
struct kind_types {
  using compute = T;
  using result = T;
  static constexpr bool accepts = true;
};
template <class T>
struct kind_types<kind::Numeric, T> : kind_types<kind::Same, T> {
  static constexpr bool accepts = !std::is_same_v<T, bool>;
};
template <class T>
struct kind_types<kind::Floating, T> {
  // Not "is_floating_point": the host's vector unit (host_vector_math.hpp) applies these rows
  // to SIMD batches of float or double, which compute in themselves too.
  using compute = std::conditional_t<Integral<T>, float, T>;
  using result = compute;
  static constexpr bool accepts = true;
};
template <class T>
struct kind_types<kind::Division, T> {
  using compute = std::conditional_t<std::is_same_v<T, bool>, float, T>;
  using result = compute;
  static constexpr bool accepts = true;
};
template <class T>
struct kind_types<kind::Squaring, T> {
  using compute = std::conditional_t<std::is_same_v<T, bool>, std::int64_t, T>;
  using result = compute;
  static constexpr bool accepts = true;
};
template <class T>
struct kind_types<kind::Test, T> {
  using compute = T;
  using result = bool;
  static constexpr bool accepts = true;
};
template <class T>
struct kind_types<kind::Integral, T> : kind_types<kind::Same, T> {
  static constexpr bool accepts = Integral<T>;
};
template <class T>
struct kind_types<kind::Integer, T> : kind_types<kind::Same, T> {
  static constexpr bool accepts = Integer<T>;
};
template <class T>
struct kind_types<kind::Magnitude, T> {
  using compute = T;
  using result = abs_t<T>;
  static constexpr bool accepts = true;
};
template <class T>
struct kind_types<kind::Argument, T> {
  using compute = std::conditional_t<Integral<T>, float, T>;
  using result = abs_t<compute>;
  static constexpr bool accepts = true;
};

}  // namespace tessera::detail

/// The unary pointwise functions: `X(Op, name, Kind, "doc", body over a)`. `tessera::name(e)`
/// takes any expression; the transcendental rows call cmath (glibc on the host, CUDA's math
/// library in device code). A `Floating` row whose body calls its functions unqualified
/// (`sin(a)`, found through `using std::sin` in functors.hpp) also compiles for an xsimd batch,
/// whose functions argument-dependent lookup finds: such rows are the host's vectorised ones
/// (host_vector_math.hpp). Rows that xsimd 8.1 does not compute within 4 ulp over their whole
/// domain (asinh in float: 4 at 0.517; erf and erfc in double: 68 and up; lgamma near its
/// poles) keep `std::`, which keeps them scalar.
// clang-format off
#define TESSERA_UNARY_FUNCTIONS(X)                                                            \
  X(Neg, neg, Numeric, "-x (integers wrap)", pw::neg(a))                                        \
  X(Abs, abs, Magnitude, "absolute value (abs(INT_MIN) wraps; hypot of the parts of a complex)", pw::abs(a)) \
  X(Sqrt, sqrt, Floating, "square root", sqrt(a))                                               \
  X(Rsqrt, rsqrt, Floating, "1 / sqrt(x)", pw::ratio(T(1), sqrt(a)))                           \
  X(Exp, exp, Floating, "e^x", exp(a))                                                          \
  X(Exp2, exp2, Floating, "2^x", exp2(a))                                                       \
  X(Expm1, expm1, Floating, "e^x - 1", expm1(a))                                                \
  X(Log, log, Floating, "natural logarithm", log(a))                                            \
  X(Log2, log2, Floating, "base-2 logarithm", log2(a))                                          \
  X(Log10, log10, Floating, "base-10 logarithm", log10(a))                                      \
  X(Log1p, log1p, Floating, "log(1 + x)", log1p(a))                                             \
  X(Sin, sin, Floating, "sine", sin(a))                                                         \
  X(Cos, cos, Floating, "cosine", cos(a))                                                       \
  X(Tan, tan, Floating, "tangent", tan(a))                                                      \
  X(Asin, asin, Floating, "arcsine", asin(a))                                                   \
  X(Acos, acos, Floating, "arccosine", acos(a))                                                 \
  X(Atan, atan, Floating, "arctangent", atan(a))                                                \
  X(Sinh, sinh, Floating, "hyperbolic sine", sinh(a))                                           \
  X(Cosh, cosh, Floating, "hyperbolic cosine", cosh(a))                                         \
  X(Tanh, tanh, Floating, "hyperbolic tangent", tanh(a))                                        \
  X(Asinh, asinh, Floating, "inverse hyperbolic sine", pw::asinh(a))                            \
  X(Acosh, acosh, Floating, "inverse hyperbolic cosine", acosh(a))                              \
  X(Atanh, atanh, Floating, "inverse hyperbolic tangent", atanh(a))                             \
  X(Erf, erf, Floating, "error function", std::erf(a))                                          \
  X(Erfc, erfc, Floating, "complementary error function", std::erfc(a))                         \
  X(Lgamma, lgamma, Floating, "log of the absolute value of gamma(x)", std::lgamma(a))          \
  X(Sigmoid, sigmoid, Floating, "1 / (1 + e^-x)", pw::sigmoid(a))                               \
  X(Reciprocal, reciprocal, Floating, "1 / x", pw::ratio(T(1), a))                             \
  X(Sign, sign, Same, "-1, 0 or 1 (NaN and -0.0 give +0.0)", pw::sign(a))                       \
  X(Square, square, Squaring, "x * x (integers wrap; int64 for bool)", pw::mul(a, a))           \
  X(Floor, floor, Same, "round down (integers unchanged)", pw::floor(a))                        \
  X(Ceil, ceil, Same, "round up (integers unchanged)", pw::ceil(a))                             \
  X(Round, round, Same, "round half to even (integers unchanged)", pw::round(a))                \
  X(Trunc, trunc, Same, "round toward zero (integers unchanged)", pw::trunc(a))                 \
  X(Frac, frac, Floating, "x - trunc(x)", a - trunc(a))                                         \
  X(Isnan, isnan, Test, "x is NaN", is_nan(a))                                                  \
  X(Isinf, isinf, Test, "x is +inf or -inf", pw::is_inf(a))                                     \
  X(Isfinite, isfinite, Test, "x is neither NaN nor infinite", pw::is_finite(a))                \
  X(Isposinf, isposinf, Test, "x is +inf", pw::is_posinf(a))                                    \
  X(Isneginf, isneginf, Test, "x is -inf", pw::is_neginf(a))                                    \
  X(Signbit, signbit, Test, "the sign bit is set (true for -0.0)", pw::sign_bit(a))             \
  X(LogicalNot, logical_not, Test, "x == 0 (any dtype; NaN is true)", !pw::truth(a))            \
  X(BitwiseNot, bitwise_not, Integral, "~x on integers, !x on bool", pw::bit_not(a))            \
  X(Conj, conj, Same, "the complex conjugate (x itself for reals)", pw::conj(a))                \
  X(Sgn, sgn, Same, "x / |x|, 0 at 0 (sign for reals)", pw::sgn(a))                             \
  X(Angle, angle, Argument, "the angle atan2(im, re) (pi for negative reals, else 0)", pw::angle(a))
// clang-format on

/// The binary pointwise functions: `X(Op, name, Kind, "doc", body over a and b)`, computed in
/// the operands' common type (PyTorch promotion, scalars weak). `tessera::name(a, b)` takes
/// expressions or arithmetic scalars on either side (one of them an expression).
// clang-format off
#define TESSERA_BINARY_FUNCTIONS(X)                                                             \
  X(Add, add, Same, "a + b (bool: or; integers wrap)", pw::add(a, b))                           \
  X(Sub, sub, Numeric, "a - b (integers wrap)", pw::sub(a, b))                                  \
  X(Mul, mul, Same, "a * b (bool: and; integers wrap)", pw::mul(a, b))                          \
  X(Div, div, Division, "a / b (integers truncate; x / 0 is 0)", pw::div(a, b))                 \
  X(Minimum, minimum, Same, "the smaller; NaN propagates", pw::minimum(a, b))                   \
  X(Maximum, maximum, Same, "the larger; NaN propagates", pw::maximum(a, b))                    \
  X(Fmin, fmin, Same, "the smaller; a NaN operand is ignored", pw::fmin(a, b))                  \
  X(Fmax, fmax, Same, "the larger; a NaN operand is ignored", pw::fmax(a, b))                   \
  X(Pow, pow, Numeric, "a^b (integers stay integers)", pw::pow(a, b))                           \
  X(Atan2, atan2, Floating, "the angle of (b, a)", std::atan2(a, b))                            \
  X(Hypot, hypot, Floating, "sqrt(a^2 + b^2)", std::hypot(a, b))                                \
  X(Copysign, copysign, Floating, "the magnitude of a with the sign of b", std::copysign(a, b)) \
  X(Fmod, fmod, Numeric, "remainder with the dividend's sign (C)", pw::fmod(a, b))              \
  X(Remainder, remainder, Numeric, "remainder with the divisor's sign (Python)", pw::remainder(a, b)) \
  X(FloorDivide, floor_divide, Numeric, "a / b rounded down", pw::floor_divide(a, b))           \
  X(BitwiseAnd, bitwise_and, Integral, "a & b (bool: and)", pw::bit_and(a, b))                  \
  X(BitwiseOr, bitwise_or, Integral, "bitwise or (bool: or)", pw::bit_or(a, b))                 \
  X(BitwiseXor, bitwise_xor, Integral, "a ^ b (bool: xor)", pw::bit_xor(a, b))                  \
  X(ShiftLeft, bitwise_left_shift, Integer, "a << b (0 past the width)", pw::shift_left(a, b))  \
  X(ShiftRight, bitwise_right_shift, Integer, "a >> b (the sign fill past the width)", pw::shift_right(a, b)) \
  X(LogicalAnd, logical_and, Test, "a != 0 and b != 0", pw::truth(a) && pw::truth(b))         \
  X(LogicalOr, logical_or, Test, "a != 0 or b != 0", pw::truth(a) || pw::truth(b))             \
  X(LogicalXor, logical_xor, Test, "exactly one of a, b nonzero", pw::truth(a) != pw::truth(b)) \
  X(Lt, lt, Test, "a < b", a < b)                                                               \
  X(Le, le, Test, "a <= b", a <= b)                                                             \
  X(Gt, gt, Test, "a > b", a > b)                                                               \
  X(Ge, ge, Test, "a >= b", a >= b)                                                             \
  X(Eq, eq, Test, "a == b", a == b)                                                             \
  X(Ne, ne, Test, "a != b", a != b)
// clang-format on

/// The rows with a complex form (SPEC.md part 4): for a complex operand, every other row does
/// not compile (ordering, rounding, bits, erf, lgamma, atan2, hypot, ...: torch raises there).
/// abs and angle return the part type; the rest keep the complex type or give bool.
// clang-format off
#define TESSERA_COMPLEX_ROWS(X)                                                                   \
  X(Neg) X(Abs) X(Sqrt) X(Rsqrt) X(Exp) X(Exp2) X(Expm1) X(Log) X(Log2) X(Log10) X(Log1p) X(Sin) \
  X(Cos) X(Tan) X(Asin) X(Acos) X(Atan) X(Sinh) X(Cosh) X(Tanh) X(Asinh) X(Acosh) X(Atanh)       \
  X(Sigmoid) X(Reciprocal) X(Square) X(Isnan) X(Isinf) X(Isfinite) X(LogicalNot) X(Conj) X(Sgn) \
  X(Angle) X(Add) X(Sub) X(Mul) X(Div) X(Pow) X(LogicalAnd) X(LogicalOr) X(LogicalXor) X(Eq)     \
  X(Ne)
// clang-format on
