// SPDX-License-Identifier: BSD-3-Clause
// Float kernels of the vector loops' own (host_vector_math_isa.inl includes this inside its
// anonymous namespace, after Arch and Batch): sin, exp, sigmoid, tanh and log in float, where
// xsimd 8.1's forms left the loops slower than libtorch's SLEEF ones on the AVX-512 Xeon VM
// (2026-12-05; the AVX-512 loop on one thread, 2^15 floats in L2, elements/ns, with xsimd's
// kernels / with these / libtorch: sin 2.4 / 5.1 / 2.7, exp 4.1 / 7.0 / 6.3, sigmoid 2.9 / 4.4
// / 2.8, tanh 2.1 / 3.9 / 3.7, log 2.7 / 4.5 / 4.3).
//
// - sin: reduced by pi rather than pi / 2, so one odd polynomial serves every lane where
//   xsimd evaluates sin's and cos's and selects; for |x| < 400 only (beyond, and for inf and
//   NaN, xsimd's sin).
// - exp: xsimd's reduction to r in [-ln2/2, ln2/2], then 2^k by AVX-512's vscalefps, which
//   overflows to inf and underflows to 0 itself (xsimd's ldexp needs both bounds selected).
// - tanh: one branch-free form, expm1(2x) / (expm1(2x) + 2), where xsimd computes a
//   polynomial and 1 - 2 / (e^2x + 1) and selects per lane behind two data-dependent branches.
// - log: x = 2^n (1 + r) with 1 + r in (2/3, 4/3), log(1 + r) = r + r^2 P(r): no division.
// The polynomials were fitted for these kernels (tools/fit_vector_math.py): worst errors
// against double in standalone sweeps: exp 1.3 ulp over [-87, 88], sigmoid 2.3 over [-80, 80],
// tanh 2.5 over [-20, 20], log 1.8 over every third positive normal float, sin 2.1 over every
// float below 400 (tests/test_host_vector_math.cpp: within 4 on a stride through every float).
//
// Each kernel says whether its operand must be checked: sin, exp, sigmoid and tanh turn every
// zero, subnormal, infinite or NaN operand into their exact result or into a result that is
// checked anyway (NaN, ±inf, ±0 or subnormal, then recomputed by <cmath>), so only their
// results are; log gives a finite wrong value for 0, subnormals and +inf, so its operands are
// checked too.

/// A row's batch form: the table's own body on a batch, checked on operand and result.
/// kKeepsZero: f(±0) = ±0, so a block's check gives zero operands back as they are (sin and
/// tanh, whose kernels give +0 for -0: their results are checked, and zeros taken from cmath
/// would cost an input of ReLU outputs, half zeros, a cmath call for half its lanes).
template <class Op, class T>
struct VectorKernel {
  static constexpr bool kCheckOperand = true;
  static constexpr bool kKeepsZero = false;
  static Batch<T> apply(const Batch<T>& x) { return Op::apply(x); }
};

/// -a * b + c in one rounding (xsimd's fnma negates an operand first on AVX-512).
inline Batch<float> fnma(const Batch<float>& a, const Batch<float>& b, const Batch<float>& c) {
#if defined(__AVX512F__)
  return _mm512_fnmadd_ps(a, b, c);
#else
  return xsimd::fnma(a, b, c);
#endif
}

/// Added to and taken from a float of magnitude below 2^22, rounds it to an integer and leaves
/// that integer in the sum's low mantissa bits.
inline constexpr float kRoundShift = 0x1.8p23f;

/// (sin(r) - r) / r^3 as a polynomial in s = r^2, for |r| <= pi / 2.
inline Batch<float> sin_tail(const Batch<float>& s) {
  using F = Batch<float>;
  F p = xsimd::fma(F(0x1.5dbdf2p-19f), s, F(-0x1.9f6ffep-13f));
  p = xsimd::fma(p, s, F(0x1.110ed4p-7f));
  return xsimd::fma(p, s, F(-0x1.55554cp-3f));
}

/// Below this |x| sin's reduction by pi is exact in its first step: q = round(x / pi) <= 127,
/// and q times pi's first part (17 bits) fits a float.
inline constexpr float kSinReducedBelow = 400.0f;

template <>
struct VectorKernel<ops::Sin, float> {
  static constexpr bool kCheckOperand = false;
  static constexpr bool kKeepsZero = true;
  static Batch<float> apply(const Batch<float>& x) {
    using F = Batch<float>;
    using I = Batch<std::int32_t>;
    // Infinite, NaN and large operands: xsimd's reduction (its last step lane by lane).
    if (!xsimd::all(xsimd::abs(x) <= F(kSinReducedBelow))) return xsimd::sin(x);
    // x = q pi + r, |r| <= pi / 2, pi in three parts (xsimd's 17-bit pio2_1 doubled, then
    // what remains rounded to float, twice); sin x = (-1)^q sin r. The lowest bit t keeps of
    // q is the sign to give.
    const F t = xsimd::fma(x, F(0x1.45f306p-2f), F(kRoundShift));
    const F q = t - F(kRoundShift);
    F r = fnma(q, F(0x1.921fp+1f), x);
    r = fnma(q, F(0x1.6a8886p-16f), r);
    r = fnma(q, F(-0x1.73dcb4p-42f), r);
    const F s = r * r;
    const F y = xsimd::fma(sin_tail(s), s * r, r);
    return y ^ xsimd::bitwise_cast<F>(xsimd::bitwise_cast<I>(t) << 31);
  }
};

/// (expm1(r) - r) / r^2 for |r| <= ln2 / 2: within 0.3 * 2^-24 of expm1(r) relative to it.
inline Batch<float> expm1_tail(const Batch<float>& r) {
  using F = Batch<float>;
  F y = xsimd::fma(F(0x1.6bec08p-10f), r, F(0x1.122768p-7f));
  y = xsimd::fma(y, r, F(0x1.555674p-5f));
  y = xsimd::fma(y, r, F(0x1.5554b0p-3f));
  return xsimd::fma(y, r, F(0x1.fffffep-2f));
}

/// log(1 + r) = r + r^2 * log1p_tail(r) for 1 + r in (2/3, 4/3).
inline Batch<float> log1p_tail(const Batch<float>& r) {
  using F = Batch<float>;
  F p = xsimd::fma(F(0x1.1f427ap-3f), r, F(-0x1.3b2846p-3f));
  p = xsimd::fma(p, r, F(0x1.1ea258p-3f));
  p = xsimd::fma(p, r, F(-0x1.5032eap-3f));
  p = xsimd::fma(p, r, F(0x1.99d428p-3f));
  p = xsimd::fma(p, r, F(-0x1.00148p-2f));
  p = xsimd::fma(p, r, F(0x1.5554fap-2f));
  return xsimd::fma(p, r, F(-0x1.ffffd6p-2f));
}

template <>
struct VectorKernel<ops::Log, float> {
  static constexpr bool kCheckOperand = true;
  static constexpr bool kKeepsZero = false;
  static Batch<float> apply(const Batch<float>& x) {
    using F = Batch<float>;
    using I = Batch<std::int32_t>;
    constexpr std::int32_t kTwoThirds = 0x3f2aaaab;  // the bits of 2/3
    // x = 2^n * m with m in [2/3, 4/3): the exponent field counted from 2/3's, the mantissa
    // moved back into [2/3, 4/3).
    I bits = xsimd::bitwise_cast<I>(x) - I(kTwoThirds);
    const F n = xsimd::to_float(bits >> 23);
    bits = (bits & I(0x007fffff)) + I(kTwoThirds);
    const F r = xsimd::bitwise_cast<F>(bits) - F(1.0f);
    const F y = xsimd::fma(log1p_tail(r), r * r, xsimd::fma(n, F(0x1.62e43p-1f), r));
    return xsimd::select(x < F(0.0f), F(std::numeric_limits<float>::quiet_NaN()), y);
  }
};

#if defined(__AVX512F__)
/// a = k ln2 + r with k = round(a / ln2) and |r| <= ln2 / 2 (ln2 in two parts, as xsimd's exp).
inline Batch<float> reduce_by_ln2(const Batch<float>& a, Batch<float>& r) {
  using F = Batch<float>;
  const F k = xsimd::fma(a, xsimd::constants::invlog_2<F>(), F(kRoundShift)) - F(kRoundShift);
  r = fnma(k, xsimd::constants::log_2lo<F>(), fnma(k, xsimd::constants::log_2hi<F>(), a));
  return k;
}

/// e^a as 2^k * e^r (reduce_by_ln2).
inline Batch<float> exp_scalef(const Batch<float>& a) {
  using F = Batch<float>;
  F r;
  const F k = reduce_by_ln2(a, r);
  const F e = xsimd::fma(xsimd::fma(expm1_tail(r), r, F(1.0f)), r, F(1.0f));
  return _mm512_scalef_ps(e, k);
}

template <>
struct VectorKernel<ops::Exp, float> {
  static constexpr bool kCheckOperand = false;
  static constexpr bool kKeepsZero = false;
  static Batch<float> apply(const Batch<float>& x) { return exp_scalef(x); }
};

template <>
struct VectorKernel<ops::Sigmoid, float> {
  static constexpr bool kCheckOperand = false;
  static constexpr bool kKeepsZero = false;
  static Batch<float> apply(const Batch<float>& x) {
    const Batch<float> one(1.0f);
    return one / (one + exp_scalef(-x));
  }
};

template <>
struct VectorKernel<ops::Tanh, float> {
  static constexpr bool kCheckOperand = false;
  static constexpr bool kKeepsZero = true;
  static Batch<float> apply(const Batch<float>& x) {
    using F = Batch<float>;
    // expm1(u) = 2^k expm1(r) + (2^k - 1), u = 2x = k ln2 + r: exact in the second term. For
    // x < 0, expm1(u) is in (-1, 0) and the quotient needs no sign of its own (1.2 times faster
    // than on |x| with the sign put back).
    F r;
    const F k = reduce_by_ln2(x + x, r);
    const F m = xsimd::fma(expm1_tail(r), r * r, r);
    const F em1 = F(_mm512_scalef_ps(m, k)) + (F(_mm512_scalef_ps(F(1.0f), k)) - F(1.0f));
    return em1 / (em1 + F(2.0f));
  }
};
#endif
