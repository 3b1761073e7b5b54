// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file complex_math.hpp
/// The element math of complex64 and complex128 (std::complex<float>, std::complex<double>)
/// behind the pointwise table's complex rows, host and device. Arithmetic follows c10::complex,
/// as PyTorch computes it: `*` without C99's recovery of infinities, `/` scaled (Smith's method,
/// as NumPy). The elementary functions are the C library's on the host (glibc's cexp, clog, ...:
/// C99 Annex G special values and branch cuts, as PyTorch's CPU kernels) and libcu++'s
/// cuda::std::complex in device code, which takes the same branch cuts; expm1 and log1p are
/// c10's formulas (accurate near 0, where exp(z) - 1 cancels). SPEC.md, part 4.

#include <cmath>
#include <complex>
#include <limits>

#include "tessera/core/macros.hpp"

#if defined(__CUDACC__)
#include <cuda/std/complex>
#endif

namespace tessera::detail::cx {

/// a * b = (ac - bd) + (ad + bc)i (c10::complex: no recovery of infinities, so
/// (inf + inf i)(1 + 0i) is nan + nan i as in torch).
template <class F>
TESSERA_HD std::complex<F> mul(std::complex<F> a, std::complex<F> b) {
  const F ar = a.real();
  const F ai = a.imag();
  const F br = b.real();
  const F bi = b.imag();
  return {ar * br - ai * bi, ar * bi + ai * br};
}

/// a / b, scaled by the larger part of b (c10::complex, after NumPy): (1 + 0i) / 0 = inf + nan i,
/// 0 / 0 = nan + nan i, (1 + 1i) / 0 = inf + inf i, 1i / 0 = nan + inf i.
template <class F>
TESSERA_HD std::complex<F> div(std::complex<F> a, std::complex<F> b) {
  const F ar = a.real();
  const F ai = a.imag();
  const F c = b.real();
  const F d = b.imag();
  const F abs_c = std::fabs(c);  // +0 for -0: (1 + 0i) / (-0 + 0i) is inf + nan i, as torch
  const F abs_d = std::fabs(d);
  if (abs_c >= abs_d) {
    if (abs_c == F(0) && abs_d == F(0)) {
      // Division by a complex zero: a complex inf or nan, part by part.
      return {ar / abs_c, ai / abs_d};
    }
    const F rat = d / c;
    const F scl = F(1) / (c + d * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const F rat = c / d;
  const F scl = F(1) / (d + c * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

/// z / x for a real x: each part divided (log2, log10, sgn).
template <class F>
TESSERA_HD std::complex<F> div_real(std::complex<F> z, F x) {
  return {z.real() / x, z.imag() / x};
}

#if defined(__CUDA_ARCH__)
/// Applies libcu++'s complex function `fn` to z (device code: std::complex's functions are host
/// only).
#define TESSERA_CX_ELEMENTARY(name)                                            \
  template <class F>                                                           \
  TESSERA_HD std::complex<F> name(std::complex<F> z) {                         \
    const auto r = cuda::std::name(cuda::std::complex<F>(z.real(), z.imag())); \
    return {r.real(), r.imag()};                                               \
  }
#else
/// Applies the C library's complex function (through std::complex) to z.
#define TESSERA_CX_ELEMENTARY(name)                    \
  template <class F>                                   \
  TESSERA_HD std::complex<F> name(std::complex<F> z) { \
    return std::name(z);                               \
  }
#endif
TESSERA_CX_ELEMENTARY(exp)
TESSERA_CX_ELEMENTARY(log)
TESSERA_CX_ELEMENTARY(sqrt)
TESSERA_CX_ELEMENTARY(sin)
TESSERA_CX_ELEMENTARY(cos)
TESSERA_CX_ELEMENTARY(tan)
TESSERA_CX_ELEMENTARY(sinh)
TESSERA_CX_ELEMENTARY(cosh)
TESSERA_CX_ELEMENTARY(tanh)
TESSERA_CX_ELEMENTARY(asin)
TESSERA_CX_ELEMENTARY(acos)
TESSERA_CX_ELEMENTARY(atan)
TESSERA_CX_ELEMENTARY(asinh)
TESSERA_CX_ELEMENTARY(acosh)
TESSERA_CX_ELEMENTARY(atanh)
#undef TESSERA_CX_ELEMENTARY

// The real functions below are std::'s: CUDA's math headers give them device overloads too, as
// the pointwise table's real rows use them.

/// |z| = hypot(re, im): no overflow inside the range (|1e30 + 1e30 i| in complex64 is finite).
template <class F>
TESSERA_HD F abs(std::complex<F> z) {
  return std::hypot(z.real(), z.imag());
}

/// The angle atan2(im, re) (angle(-0 + 0i) = pi).
template <class F>
TESSERA_HD F arg(std::complex<F> z) {
  return std::atan2(z.imag(), z.real());
}

/// z^w = exp(w log z) (C99's cpow), with torch's exact cases of a real exponent: z^0 = 1 for
/// every z (NaN and 0 too), z^1 = z, z^2 = z * z, z^3 = z * z * z, z^0.5 = sqrt(z), z^-0.5 =
/// 1 / sqrt(z), z^-1 = 1 / z (0^-1 = inf + nan i), z^-2 = 1 / (z * z).
template <class F>
TESSERA_HD std::complex<F> pow(std::complex<F> z, std::complex<F> w) {
  const std::complex<F> one(F(1), F(0));
  if (w.imag() == F(0)) {
    const F e = w.real();
    if (e == F(0)) return one;
    if (e == F(1)) return z;
    if (e == F(2)) return mul(z, z);
    if (e == F(3)) return mul(mul(z, z), z);
    if (e == F(0.5)) return cx::sqrt(z);
    if (e == F(-0.5)) return div(one, cx::sqrt(z));
    if (e == F(-1)) return div(one, z);
    if (e == F(-2)) return div(one, mul(z, z));
  }
#if defined(__CUDA_ARCH__)
  const auto r = cuda::std::pow(cuda::std::complex<F>(z.real(), z.imag()),
                                cuda::std::complex<F>(w.real(), w.imag()));
  return {r.real(), r.imag()};
#else
  return std::pow(z, w);
#endif
}

/// e^z - 1 = expm1(x) cos(y) - 2 sin^2(y / 2) + i e^x sin(y) (c10): accurate near 0.
template <class F>
TESSERA_HD std::complex<F> expm1(std::complex<F> z) {
  const F x = z.real();
  const F y = z.imag();
  const F a = std::sin(y / F(2));
  return {std::expm1(x) * std::cos(y) - F(2) * a * a, std::exp(x) * std::sin(y)};
}

/// log(1 + z) (c10): 0.5 log1p(x (x + 2) + y^2) + i atan2(y, x + 1) near 0, log(hypot(x + 1,
/// y)) + i atan2(y, x + 1) elsewhere (no overflow of the squares there).
template <class F>
TESSERA_HD std::complex<F> log1p(std::complex<F> z) {
  const F x = z.real();
  const F y = z.imag();
  const F theta = std::atan2(y, x + F(1));
  if (cx::abs(z) < F(0.5)) {
    const F r = x * (F(2) + x) + y * y;
    if (r == F(0)) return {x, theta};  // r underflowed
    return {F(0.5) * std::log1p(r), theta};
  }
  return {std::log(std::hypot(x + F(1), y)), theta};
}

/// 2^z = e^(z ln 2).
template <class F>
TESSERA_HD std::complex<F> exp2(std::complex<F> z) {
  constexpr F kLn2 = F(0.693147180559945309417232121458176568);
  return cx::exp(std::complex<F>(z.real() * kLn2, z.imag() * kLn2));
}

/// log(z) / ln 2, part by part.
template <class F>
TESSERA_HD std::complex<F> log2(std::complex<F> z) {
  return div_real(cx::log(z), F(0.693147180559945309417232121458176568));
}

/// log(z) / ln 10, part by part.
template <class F>
TESSERA_HD std::complex<F> log10(std::complex<F> z) {
  return div_real(cx::log(z), F(2.30258509299404568401799145468436421));
}

/// z / |z|, 0 at 0 (torch.sgn); a part is NaN for a non-finite z.
template <class F>
TESSERA_HD std::complex<F> sgn(std::complex<F> z) {
  if (z.real() == F(0) && z.imag() == F(0)) return {F(0), F(0)};
  return div_real(z, cx::abs(z));
}

/// Either part is NaN.
template <class F>
TESSERA_HD bool is_nan(std::complex<F> z) {
  return z.real() != z.real() || z.imag() != z.imag();
}

/// Either part is infinite.
template <class F>
TESSERA_HD bool is_inf(std::complex<F> z) {
  const F re = z.real() < F(0) ? -z.real() : z.real();
  const F im = z.imag() < F(0) ? -z.imag() : z.imag();
  constexpr F kInf = std::numeric_limits<F>::infinity();
  return re == kInf || im == kInf;
}

}  // namespace tessera::detail::cx
