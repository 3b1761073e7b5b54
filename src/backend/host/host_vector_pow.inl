// SPDX-License-Identifier: BSD-3-Clause
// float pow's vector kernel (host_vector_math_isa.inl includes this inside its anonymous
// namespace, after Arch and Batch): x^y = 2^(y log2 x) evaluated in double, after ARM's
// optimized-routines powf (math/powf.c with math/powf_log2_data.c and math/exp2f_data.c, MIT OR
// Apache-2.0 WITH LLVM-exception; glibc's sysdeps/ieee754/flt-32/e_powf.c is the same code):
// log2 x from a table of 16 (1/c, log2 c) and a degree-5 polynomial, relative error 1.83 * 2^-33
// (powf's own analysis, its table and polynomial unchanged here); 2^t from a table of 16 and a
// quartic (powf: 32 and a cubic), below 2^-34.5; the result then rounded once to float. powf's
// bound for that is 0.82 ulp; tests/test_host_vector_math.cpp measures at most 1 (integer ulps).
// Only lanes with x > 0 normal, y finite and a normal result below the largest float are kept
// (pow_odd_lanes; the caller recomputes the others with cmath), so none of powf's special cases
// are needed here: no subnormal or negative x, no overflow or underflow rounding.
//
// Why not exp(y log x) in float, as before: the float log's error, scaled by y, kept that form
// within 4 ulp only while |y log x| <= 2, and the other batches were redone with xsimd's double
// log and exp at 3.5 times the cost (pow(x, 2.5) for x in [0, 4): 0.6 times libtorch's speed).
// Here every lane costs the same: on one AVX-512 thread, in L2, 0.99-1.04 ns an element for any
// base where the float path took 1.06 for bases in [0.5, 1.5) and 4.3 for bases in [0, 4).

/// The table of log2's reduction: x = 2^k z with z in [kPowLog2Off, 2 kPowLog2Off) (bits of
/// 0.69921875), split into 16 subintervals by z's top mantissa bits; 1/c and log2 c for a c near
/// the centre of each, 1/c rounded so that z / c - 1 is small.
inline constexpr std::int32_t kPowLog2Off = 0x3f330000;
// clang-format off
alignas(64) inline constexpr double kPowInvC[16] = {
    0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010bp+0, 0x1.3c995b0b80385p+0,
    0x1.30d190c8864a5p+0, 0x1.25e227b0b8eap+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0,
    0x1.0953f419900a7p+0, 0x1p+0, 0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aap-1,
    0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1};
alignas(64) inline constexpr double kPowLog2C[16] = {
    -0x1.efec65b963019p-2, -0x1.b0b6832d4fca4p-2, -0x1.7418b0a1fb77bp-2, -0x1.39de91a6dcf7bp-2,
    -0x1.01d9bf3f2b631p-2, -0x1.97c1d1b3b7afp-3, -0x1.2f9e393af3c9fp-3, -0x1.960cbbf788d5cp-4,
    -0x1.a6f9db6475fcep-5, 0x0p+0, 0x1.338ca9f24f53dp-4, 0x1.476a9543891bap-3,
    0x1.e840b4ac4e4d2p-3, 0x1.40645f0c6651cp-2, 0x1.88e9c2c1b9ff8p-2, 0x1.ce0a44eb17bccp-2};
// clang-format on
/// log2(1 + r) = A0 r^5 + A1 r^4 + A2 r^3 + A3 r^2 + A4 r for |r| below 1/32 or so.
inline constexpr double kPowLog2Poly[5] = {0x1.27616c9496e0bp-2, -0x1.71969a075c67ap-2,
                                           0x1.ec70a6ca7baddp-2, -0x1.7154748bef6c8p-1,
                                           0x1.71547652ab82bp0};

/// 2^(j/16), the even entries of powf's table of 2^(i/32) (exp2f_data.c, N = 32; there less
/// i << 47, here as the double itself, for AVX-512's vscalefpd).
// clang-format off
alignas(64) inline constexpr double kExp2Table[16] = {
    0x1p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
// clang-format on
/// 2^r = 1 + C1 r + C2 r^2 + C3 r^3 + C4 r^4 for |r| <= 1/32: Taylor's coefficients (ln2^n / n!),
/// relative error below (ln2 / 32)^5 / 120 < 2^-34.5, under powf's 1.69 * 2^-34 with its table of
/// 32 and a cubic: on AVX-512 a table of 16 is one permute where 32 take two and a blend.
inline constexpr double kExp2Poly[4] = {0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3,
                                        0x1.c6b08d704a0c0p-5, 0x1.3b2ab6fba4e77p-7};

// Float lanes split into two double batches and back, and table lookups, per instruction set
// (xsimd 8.1 converts only between types of one width, and looks tables up by gathers only).
using PowF = Batch<float>;
using PowD = Batch<double>;
using PowI = Batch<std::int32_t>;
using PowL = Batch<std::int64_t>;

#if defined(__AVX512F__)
inline PowD low_double(const PowF& v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
inline PowD high_double(const PowF& v) { return _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)); }
inline PowD low_double(const PowI& v) { return _mm512_cvtepi32_pd(_mm512_castsi512_si256(v)); }
inline PowD high_double(const PowI& v) {
  return _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(v, 1));
}
inline PowL low_int64(const PowI& v) { return _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)); }
inline PowL high_int64(const PowI& v) {
  return _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1));
}
inline PowF to_float(const PowD& low, const PowD& high) {
  return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(low)), _mm512_cvtpd_ps(high), 1);
}
/// table[i mod 16] (table 64-byte aligned): both halves in registers, one permute.
inline PowD lookup16(const double* table, const PowL& i) {
  return _mm512_permutex2var_pd(_mm512_load_pd(table), i, _mm512_load_pd(table + 8));
}
#else
inline PowD low_double(const PowF& v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
inline PowD high_double(const PowF& v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
inline PowD low_double(const PowI& v) { return _mm256_cvtepi32_pd(_mm256_castsi256_si128(v)); }
inline PowD high_double(const PowI& v) {
  return _mm256_cvtepi32_pd(_mm256_extracti128_si256(v, 1));
}
inline PowL low_int64(const PowI& v) { return _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)); }
inline PowL high_int64(const PowI& v) {
  return _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1));
}
inline PowF to_float(const PowD& low, const PowD& high) {
  return _mm256_set_m128(_mm256_cvtpd_ps(high), _mm256_cvtpd_ps(low));
}
inline PowD lookup16(const double* table, const PowL& i) {
  return _mm256_i64gather_pd(table, PowL(i & PowL(15)), sizeof(double));
}
#endif

/// y log2(x) for x = 2^k z, z in [kPowLog2Off, 2 kPowLog2Off) in subinterval i:
/// log2 x = k + log2 c + log2(1 + r) with r = z invc - 1 in one rounding (the table's log2 c is
/// that of 1/invc, so invc's own rounding costs nothing).
[[gnu::always_inline]] inline PowD pow_y_log2_x(const PowD& y, const PowD& z, const PowD& k,
                                                const PowL& i) {
  using D = PowD;
  const D r = xsimd::fma(z, lookup16(kPowInvC, i), D(-1.0));
  const D y0 = lookup16(kPowLog2C, i) + k;
  // The polynomial in two halves, as powf pipelines it.
  const D r2 = r * r;
  const D r4 = r2 * r2;
  const D a = xsimd::fma(D(kPowLog2Poly[0]), r, D(kPowLog2Poly[1]));
  const D b = xsimd::fma(D(kPowLog2Poly[2]), r, D(kPowLog2Poly[3]));
  const D q = xsimd::fma(b, r2, xsimd::fma(D(kPowLog2Poly[4]), r, y0));
  return y * xsimd::fma(a, r4, q);
}

/// 2^t within 2^-34 relative wherever that is a normal float (the reduction t = k / 16 + r is
/// exact; the rest is the quartic's error and a few roundings). Elsewhere, infinite, zero or
/// subnormal in float, which the caller's check sends to cmath, as it does a result rounded to
/// the largest float (where the exact one may round to inf).
[[gnu::always_inline]] inline PowD pow_exp2(const PowD& t_any) {
  using D = PowD;
  constexpr double kShift = 0x1.8p+52 / 16;  // t + kShift rounds t to a multiple of 1/16
#if defined(__AVX512F__)
  const D& t = t_any;  // vscalefpd overflows to inf and underflows to 0 itself
#else
  // Within the double exponent's range for the bits added to 2^(j/16) below: 2^+-1000 is still
  // infinite or zero in float.
  const D t = xsimd::min(xsimd::max(t_any, D(-1000.0)), D(1000.0));
#endif
  // t = k / 16 + r, |r| <= 1/32, k in the low bits of kd's mantissa (for |t| < 2^47; beyond, r
  // and k are wrong, and 2^(k/16) infinite or zero all the same).
  D kd = t + D(kShift);
  const PowL ki = xsimd::bitwise_cast<PowL>(kd);
  kd = kd - D(kShift);
  const D r = t - kd;
  D p = xsimd::fma(D(kExp2Poly[3]), r, D(kExp2Poly[2]));
  p = xsimd::fma(p, r, D(kExp2Poly[1]));
  p = xsimd::fma(p, r, D(kExp2Poly[0]));
  p = xsimd::fma(p, r, D(1.0));
  // 2^(k/16) = 2^(j/16) * 2^q for k = 16 q + j, q = floor(kd).
  const D s = lookup16(kExp2Table, ki);
#if defined(__AVX512F__)
  return _mm512_scalef_pd(p * s, kd);
#else
  // q into the exponent's field: ki << 48 is (16 q + j) << 48, j's bits below the field's.
  const PowL q = (ki << 48) & PowL(static_cast<std::int64_t>(0xfff0000000000000u));
  return p * xsimd::bitwise_cast<D>(xsimd::bitwise_cast<PowL>(s) + q);
#endif
}

/// x^y within an ulp for the lanes with x > 0 normal, y finite and a normal result below the
/// largest float (see the file comment); any other lane is one that pow_odd_lanes sends to cmath.
[[gnu::always_inline]] inline PowF pow_kernel(const PowF& x, const PowF& y) {
  using I = PowI;
  // x = 2^k z: the exponent counted from kPowLog2Off's, the subinterval from z's top bits.
  const I ix = xsimd::bitwise_cast<I>(x);
  const I tmp = ix - I(kPowLog2Off);
  const I i = tmp >> 19;  // 23 - 4 table bits; the lookups take it mod 16
  const I top = tmp & I(static_cast<std::int32_t>(0xff800000u));
  const PowF z = xsimd::bitwise_cast<PowF>(ix - top);
  const I k = top >> 23;  // arithmetic: x below kPowLog2Off has k < 0
  const PowD low =
      pow_exp2(pow_y_log2_x(low_double(y), low_double(z), low_double(k), low_int64(i)));
  const PowD high =
      pow_exp2(pow_y_log2_x(high_double(y), high_double(z), high_double(k), high_int64(i)));
  return to_float(low, high);
}

/// The lanes whose result is cmath's: x not a positive normal float, y infinite or NaN, or a
/// result not a normal float below the largest (see pow_exp2).
[[gnu::always_inline]] inline xsimd::batch_bool<float, Arch> pow_odd_lanes(const PowF& x,
                                                                           const PowF& y,
                                                                           const PowF& r) {
  const PowF m = xsimd::abs(r);
  const auto odd_result = !((m >= PowF(std::numeric_limits<float>::min())) &
                            (m < PowF(std::numeric_limits<float>::max())));
#if defined(__AVX512DQ__)
  // vfpclassps: x zero, subnormal, negative, infinite or NaN (every class); y infinite or NaN.
  const __mmask16 odd_operands = _mm512_fpclass_ps_mask(x, 0xFF) | _mm512_fpclass_ps_mask(y, 0x99);
  return xsimd::batch_bool<float, Arch>(odd_operands) | odd_result;
#else
  const auto fine_operands = (x >= PowF(std::numeric_limits<float>::min())) & ~odd(x) &
                             (xsimd::abs(y) <= PowF(std::numeric_limits<float>::max()));
  return ~fine_operands | odd_result;
#endif
}
