// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file pointwise_math.hpp
/// The element math behind the pointwise table (pointwise_table.hpp): one host/device function
/// per rule that is more than a call into cmath, written once for every element type. The
/// rules are PyTorch's (docs/expressions.md); integer arithmetic wraps and never traps.

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/expr/complex_math.hpp"

namespace tessera::detail {

template <class T>
TESSERA_HD constexpr bool is_nan(T x) {
  if constexpr (Complex<T>) {
    return cx::is_nan(x);
  } else if constexpr (Floating<T>) {
    return x != x;
  } else {
    return false;
  }
}

// Integer arithmetic wraps (two's complement), as PyTorch's does. Signed overflow is undefined in
// C++, so integers compute in the unsigned type of their promoted type (int16 in unsigned int, not
// unsigned short, which would promote back to int and overflow) and convert back, which is
// modular since C++20.
template <class T>
using wrap_t = std::make_unsigned_t<decltype(+T())>;
template <class T, class F>
TESSERA_HD constexpr T wrapping(T a, T b, F f) {
  if constexpr (Integer<T>) {
    return static_cast<T>(f(static_cast<wrap_t<T>>(a), static_cast<wrap_t<T>>(b)));
  } else {
    return static_cast<T>(f(a, b));
  }
}

/// The element math, one function per rule (PyTorch's answers for NaN, ±inf, -0.0, and integer
/// edge cases; docs/expressions.md).
namespace pw {

template <class T>
inline constexpr bool is_int = Integer<T>;

/// a < 0, without a comparison that is always false for unsigned types (-Wtype-limits).
template <class T>
TESSERA_HD constexpr bool negative(T a) {
  if constexpr (std::is_signed_v<T>) {
    return a < T(0);
  } else {
    return false;
  }
}

template <class T>
TESSERA_HD T neg(T a) {
  if constexpr (is_int<T>) {
    return wrapping(T(0), a, [](auto x, auto y) { return x - y; });  // -INT_MIN == INT_MIN
  } else {
    return -a;
  }
}
/// |a|: the part type for a complex a (hypot of the parts).
template <class T>
TESSERA_HD abs_t<T> abs(T a) {
  if constexpr (Complex<T>) {
    return cx::abs(a);
  } else if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
    return a;
  } else if constexpr (Floating<T>) {
    return std::fabs(a);
  } else {
    return a < 0 ? neg(a) : a;  // abs(MIN) wraps to MIN, as PyTorch
  }
}
template <class T>
TESSERA_HD T add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;  // PyTorch: bool + bool is logical or
  } else {
    return wrapping(a, b, [](auto x, auto y) { return x + y; });
  }
}
template <class T>
TESSERA_HD T sub(T a, T b) {
  return wrapping(a, b, [](auto x, auto y) { return x - y; });
}
template <class T>
TESSERA_HD T mul(T a, T b) {
  if constexpr (Complex<T>) {
    return cx::mul(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return wrapping(a, b, [](auto x, auto y) { return x * y; });
  }
}
/// -1, 0 or 1; NaN and -0.0 give +0.0 (PyTorch).
template <class T>
TESSERA_HD T sign(T a) {
  if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
    return static_cast<T>(a > T(0));
  } else {
    return static_cast<T>(static_cast<int>(T(0) < a) - static_cast<int>(a < T(0)));
  }
}
/// floor, ceil, trunc and round of floats; integers are already whole.
template <class T>
TESSERA_HD T floor(T a) {
  if constexpr (Floating<T>) {
    return std::floor(a);
  } else {
    return a;
  }
}
template <class T>
TESSERA_HD T ceil(T a) {
  if constexpr (Floating<T>) {
    return std::ceil(a);
  } else {
    return a;
  }
}
template <class T>
TESSERA_HD T trunc(T a) {
  if constexpr (Floating<T>) {
    return std::trunc(a);
  } else {
    return a;
  }
}
/// Half to even, in the default rounding mode (nearbyint raises no inexact exception).
template <class T>
TESSERA_HD T round(T a) {
  if constexpr (Floating<T>) {
    return std::nearbyint(a);
  } else {
    return a;
  }
}
template <class T>
TESSERA_HD bool is_inf(T a) {
  if constexpr (Complex<T>) {
    return cx::is_inf(a);
  } else if constexpr (Floating<T>) {
    return a == std::numeric_limits<T>::infinity() || a == -std::numeric_limits<T>::infinity();
  } else {
    return false;
  }
}
template <class T>
TESSERA_HD bool is_finite(T a) {
  return !is_nan(a) && !is_inf(a);
}
template <class T>
TESSERA_HD bool is_posinf(T a) {
  if constexpr (Floating<T>) {
    return a == std::numeric_limits<T>::infinity();
  } else {
    return false;
  }
}
template <class T>
TESSERA_HD bool is_neginf(T a) {
  if constexpr (Floating<T>) {
    return a == -std::numeric_limits<T>::infinity();
  } else {
    return false;
  }
}
template <class T>
TESSERA_HD bool sign_bit(T a) {
  if constexpr (Floating<T>) {
    return std::signbit(a);
  } else if constexpr (std::is_signed_v<T>) {
    return a < T(0);
  } else {
    return false;
  }
}
/// 1 / (1 + e^-x): 0 for -inf, 1 for +inf. Also for an xsimd batch (the host's vector unit),
/// whose exp argument-dependent lookup finds.
template <class T>
TESSERA_HD T sigmoid(T a) {
  if constexpr (Complex<T>) {
    return cx::div(T(1), T(1) + cx::exp(-a));
  } else {
    using std::exp;
    return T(1) / (T(1) + exp(-a));
  }
}
/// asinh through the C library for reals (kept scalar: xsimd's float asinh is 4 ulp off at
/// 0.517, so the constraint keeps the row off the host's vector unit), cx::asinh for complex.
template <class T>
requires(Floating<T> || Complex<T>) TESSERA_HD T asinh(T a) {
  if constexpr (Complex<T>) {
    return cx::asinh(a);
  } else {
    return std::asinh(a);
  }
}
/// The complex conjugate; a real number itself.
template <class T>
TESSERA_HD T conj(T a) {
  if constexpr (Complex<T>) {
    return {a.real(), -a.imag()};
  } else {
    return a;
  }
}
/// a / |a| with sgn(0) = 0 for a complex a (torch.sgn); sign(a) for a real one.
template <class T>
TESSERA_HD T sgn(T a) {
  if constexpr (Complex<T>) {
    return cx::sgn(a);
  } else {
    return sign(a);
  }
}
/// The angle of a in the complex plane, in the part type: atan2(im, re) for a complex a; for a
/// real a, pi when a < 0, NaN for NaN, else 0 (torch.angle).
template <class T>
TESSERA_HD abs_t<T> angle(T a) {
  if constexpr (Complex<T>) {
    return cx::arg(a);
  } else {
    if (is_nan(a)) return a;
    return negative(a) ? T(3.14159265358979323846264338327950288) : T(0);
  }
}
/// a != 0 (both parts for a complex a): the truth of an operand of the logical functions.
template <class T>
TESSERA_HD bool truth(T a) {
  if constexpr (Complex<T>) {
    return a.real() != 0 || a.imag() != 0;
  } else {
    return static_cast<bool>(a);
  }
}
/// a / b for the reciprocal rows: pw::div for complex (c10's scaled division), `/` otherwise
/// (also for an xsimd batch).
template <class T>
TESSERA_HD T ratio(T a, T b) {
  if constexpr (Complex<T>) {
    return cx::div(a, b);
  } else {
    return a / b;
  }
}
/// ~a on integers, !a on bool.
template <class T>
TESSERA_HD T bit_not(T a) {
  if constexpr (std::is_same_v<T, bool>) {
    return !a;
  } else {
    return static_cast<T>(~a);
  }
}
template <class T>
TESSERA_HD T bit_and(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return static_cast<T>(a & b);
  }
}
template <class T>
TESSERA_HD T bit_or(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else {
    return static_cast<T>(a | b);
  }
}
template <class T>
TESSERA_HD T bit_xor(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a != b;
  } else {
    return static_cast<T>(a ^ b);
  }
}
/// a << b; a shift by a negative amount or by the width or more gives 0 (PyTorch).
template <class T>
TESSERA_HD T shift_left(T a, T b) {
  constexpr auto bits = static_cast<T>(8 * sizeof(T));
  if (negative(b) || b >= bits) return T(0);
  return static_cast<T>(static_cast<wrap_t<T>>(a) << static_cast<int>(b));
}
/// a >> b (arithmetic for signed types); a shift by a negative amount or by the width or more
/// gives the sign fill: -1 for negative a, else 0 (PyTorch).
template <class T>
TESSERA_HD T shift_right(T a, T b) {
  constexpr auto bits = static_cast<T>(8 * sizeof(T));
  if (negative(b) || b >= bits) return negative(a) ? static_cast<T>(-1) : T(0);
  return static_cast<T>(a >> static_cast<int>(b));
}
/// Integer a / b truncated; b == 0 gives 0 (no trap), MIN / -1 wraps to MIN.
template <class T>
TESSERA_HD T div_trunc(T a, T b) {
  if (b == T(0)) return T(0);
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return neg(a);
  }
  return static_cast<T>(a / b);
}
/// a / b: true division for floats, truncating for integers (no trap on 0).
template <class T>
TESSERA_HD T div(T a, T b) {
  if constexpr (Complex<T>) {
    return cx::div(a, b);
  } else if constexpr (Floating<T>) {
    return a / b;
  } else {
    return div_trunc(a, b);
  }
}
/// C's fmod: the dividend's sign. Integers: b == 0 gives 0, MIN % -1 is 0.
template <class T>
TESSERA_HD T fmod(T a, T b) {
  if constexpr (Floating<T>) {
    return std::fmod(a, b);
  } else {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
    }
    return static_cast<T>(a % b);
  }
}
/// Python's %: the divisor's sign (PyTorch's remainder kernel).
template <class T>
TESSERA_HD T remainder(T a, T b) {
  T mod = fmod(a, b);
  if constexpr (std::is_signed_v<T>) {
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) mod = static_cast<T>(mod + b);
  }
  return mod;
}
/// a / b rounded down. Floats follow PyTorch's div_floor (exact near integers, a / b when b is
/// 0); integers: b == 0 gives 0, MIN // -1 wraps to MIN.
template <class T>
TESSERA_HD T floor_divide(T a, T b) {
  if constexpr (Floating<T>) {
    if (b == T(0)) return a / b;
    const T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
    if (div == T(0)) return std::copysign(T(0), a / b);
    T floored = std::floor(div);
    if (div - floored > T(0.5)) floored += T(1);
    return floored;
  } else {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return neg(a);
      const T q = static_cast<T>(a / b);
      return (a % b != T(0) && ((a < T(0)) != (b < T(0)))) ? static_cast<T>(q - T(1)) : q;
    } else {
      return static_cast<T>(a / b);
    }
  }
}
/// a^b. Integers stay integers (wrapping); a negative exponent gives 0 unless a is 1 or -1.
template <class T>
TESSERA_HD T pow(T a, T b) {
  if constexpr (Complex<T>) {
    return cx::pow(a, b);
  } else if constexpr (Floating<T>) {
    return std::pow(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a || !b;
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < T(0)) {
        if (a == T(1)) return T(1);
        if (a == T(-1)) return (b & T(1)) != T(0) ? T(-1) : T(1);
        return T(0);
      }
    }
    wrap_t<T> result = 1;
    auto base = static_cast<wrap_t<T>>(a);
    for (auto e = static_cast<std::uint64_t>(b); e != 0; e >>= 1) {
      if ((e & 1u) != 0) result = static_cast<wrap_t<T>>(result * base);
      base = static_cast<wrap_t<T>>(base * base);
    }
    return static_cast<T>(result);
  }
}
/// fmin/fmax: a NaN operand is ignored (the other is returned); of two equal values (+0.0 and
/// -0.0 among them) the first. Integers: the plain min / max.
template <class T>
TESSERA_HD T fmin(T a, T b) {
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  return b < a ? b : a;
}
template <class T>
TESSERA_HD T fmax(T a, T b) {
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  return a < b ? b : a;
}
/// minimum/maximum propagate NaN (torch.minimum / torch.maximum); of two equal values the first.
/// Written as three selects, in which the reductions' lane loops vectorise on every vector
/// width (early returns: 16 % slower with AVX-512, whose loads GCC then builds element by
/// element).
template <class T>
TESSERA_HD T minimum(T a, T b) {
  T m = b < a ? b : a;
  m = is_nan(b) ? b : m;
  return is_nan(a) ? a : m;
}
template <class T>
TESSERA_HD T maximum(T a, T b) {
  T m = a < b ? b : a;
  m = is_nan(b) ? b : m;
  return is_nan(a) ? a : m;
}

}  // namespace pw
}  // namespace tessera::detail
