// SPDX-License-Identifier: BSD-3-Clause
// The vector loops of one instruction set (host_vector_math.hpp), included by a unit compiled
// for it (host_vector_math_avx2.cpp, host_vector_math_avx512.cpp) that defines TESSERA_VECTOR_ARCH
// (an xsimd architecture) and TESSERA_VECTOR_TABLE (the name of the function returning its table).
//
// Nothing here may instantiate a template that a unit for another instruction set instantiates
// too: the linker keeps one copy of such an inline function, which could then be this unit's
// code on a CPU without its instructions. So everything is a template over this unit's batch
// types or in an anonymous namespace, the scalar lanes are computed through the caller's
// function pointer (scalar_unary, instantiated by the caller), and no standard library template
// is called here.

// GCC 12 reports its own AVX-512 intrinsics (the `__Y = __Y` of _mm512_undefined_pd, inlined
// through xsimd's floor) as (maybe) used uninitialised. Before any include: the state that
// counts is the one where the intrinsics headers are read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <cstdint>
#include <limits>
#include <type_traits>

// xsimd's two plain inline functions (the large-argument reduction of sin, cos and tan) are
// given this unit's own names: under one name, the linker would keep one unit's copy for both,
// possibly the AVX-512 one for the AVX2 loops. (Checked with nm: every other symbol the units
// define is a template over their own batch types, or local.)
#define __kernel_rem_pio2 TESSERA_VECTOR_RENAME(kernel_rem_pio2)
#define __ieee754_rem_pio2 TESSERA_VECTOR_RENAME(ieee754_rem_pio2)
#include <xsimd/xsimd.hpp>
#undef __kernel_rem_pio2
#undef __ieee754_rem_pio2

#include "tessera/expr/host_vector_math.hpp"

namespace tessera::detail {
namespace {

using Arch = TESSERA_VECTOR_ARCH;
template <class T>
using Batch = xsimd::batch<T, Arch>;

/// A normal finite number: neither zero, subnormal, infinite nor NaN (NaN compares false).
template <class T>
bool normal(T v) {
  const T m = v < T(0) ? -v : v;
  return m >= std::numeric_limits<T>::min() && m <= std::numeric_limits<T>::max();
}
/// The lanes of v that are not normal finite numbers. AVX-512 DQ classifies them in one
/// instruction (vfpclass: NaN, zero, infinite or subnormal) where the generic form takes an
/// `abs` and two comparisons. Float exp of 2^18 elements on one thread of the AVX-512 VM: 60 us
/// unchecked, 108 checked by comparisons with a branch per batch, 98 with one branch per block,
/// 73 with vfpclass and one branch per block.
template <class T>
xsimd::batch_bool<T, Arch> odd(const Batch<T>& v) {
#if defined(__AVX512DQ__)
  constexpr int kZeroInfNanSubnormal = 0xBF;  // every class but "negative"
  if constexpr (std::is_same_v<T, float>) {
    return _mm512_fpclass_ps_mask(v, kZeroInfNanSubnormal);
  } else {
    return _mm512_fpclass_pd_mask(v, kZeroInfNanSubnormal);
  }
#else
  const Batch<T> m = xsimd::abs(v);
  return !((m >= Batch<T>(std::numeric_limits<T>::min())) &
           (m <= Batch<T>(std::numeric_limits<T>::max())));
#endif
}

#include "backend/host/host_vector_float_kernels.inl"

/// Elements a unary loop computes into an L1 buffer before it checks their lanes and copies
/// them out: one branch per block, not per batch (see `odd`).
constexpr std::int64_t kCheckBlock = 256;

/// out[0, n) = row(in[0, n)) for n <= kCheckBlock, a multiple of the batch size. `in` may be
/// `out`: then the results go through an L1 buffer, copied out only after every lane has been
/// checked against its operand; otherwise they are stored straight to `out`. A block with odd
/// lanes is checked again batch by batch, and lane by lane in the batches that have any, so
/// that a few zeros or NaNs in a large input cost cmath calls for those lanes, not a scalar
/// pass over every block that holds one (10^6 floats with a zero in every thousand: tanh took
/// 2.3 times as long when each such block was rechecked whole).
template <class Op, class T>
[[gnu::always_inline]] inline void unary_block(const T* in, T* out, std::int64_t n,
                                               ScalarUnary<T> scalar) {
  using Kernel = VectorKernel<Op, T>;
  constexpr std::int64_t kWidth = Batch<T>::size;
  alignas(64) T buffer[kCheckBlock];
  T* const results = in == out ? buffer : out;
  // The lanes whose result is taken from cmath: odd results, and odd operands where the
  // kernel's are not checked by its result alone.
  const auto odd_lanes_of = [](const Batch<T>& x, const Batch<T>& r) {
    if constexpr (Kernel::kCheckOperand) {
      return odd(r) | odd(x);
    } else {
      return odd(r);
    }
  };
  auto odd_lanes = xsimd::batch_bool<T, Arch>(false);
  for (std::int64_t i = 0; i < n; i += kWidth) {
    const Batch<T> x = Batch<T>::load_unaligned(in + i);
    const Batch<T> r = Kernel::apply(x);
    odd_lanes = odd_lanes | odd_lanes_of(x, r);
    r.store_unaligned(results + i);
  }
  if (xsimd::any(odd_lanes)) [[unlikely]] {
    for (std::int64_t i = 0; i < n; i += kWidth) {
      const Batch<T> x = Batch<T>::load_unaligned(in + i);
      Batch<T> r = Batch<T>::load_unaligned(results + i);
      auto lanes = odd_lanes_of(x, r);
      if constexpr (Kernel::kKeepsZero) {  // zero operands given back, in the vector
        const auto zero = x == Batch<T>(T(0));
        if (xsimd::any(zero)) {
          r = xsimd::select(zero, x, r);
          r.store_unaligned(results + i);
          lanes = lanes & ~zero;
        }
      }
      if (!xsimd::any(lanes)) continue;
      for (std::int64_t k = i; k < i + kWidth; ++k) {
        const bool kept = Kernel::kKeepsZero && in[k] == T(0);
        if (!kept && (!normal(results[k]) || (Kernel::kCheckOperand && !normal(in[k])))) {
          results[k] = scalar(in[k]);
        }
      }
    }
  }
  if (results == buffer) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = buffer[i];
  }
}

template <class Op, class T>
void unary_loop(const T* in, T* out, std::int64_t n, ScalarUnary<T> scalar) {
  constexpr std::int64_t kWidth = Batch<T>::size;
  const std::int64_t whole = n / kWidth * kWidth;
  std::int64_t i = 0;
  for (; i + kCheckBlock <= whole; i += kCheckBlock)
    unary_block<Op>(in + i, out + i, kCheckBlock, scalar);
  if (i < whole) unary_block<Op>(in + i, out + i, whole - i, scalar);
  i = whole;
  if (i == n) return;
  // The tail, padded to a batch with 1 (normal for every row's operand check; its results are
  // dropped).
  alignas(64) T x[kWidth];
  alignas(64) T r[kWidth];
  for (std::int64_t k = 0; k < kWidth; ++k) x[k] = i + k < n ? in[i + k] : T(1);
  unary_block<Op>(x, r, kWidth, scalar);
  for (std::int64_t k = 0; i + k < n; ++k) out[i + k] = r[k];
}

#include "backend/host/host_vector_pow.inl"

/// float pow by pow_kernel (host_vector_pow.inl, within an ulp of the correctly rounded float)
/// where a > 0 is normal, b finite and the result a normal float below the largest; every other
/// lane (pow_odd_lanes) is cmath's.
[[gnu::always_inline]] inline void pow_float_batch(const Batch<float>& x, const Batch<float>& y,
                                                   float* out, ScalarBinary<float> scalar) {
  using F = Batch<float>;
  constexpr int kWidth = static_cast<int>(F::size);
  const F r = pow_kernel(x, y);
  const auto odd_lanes = pow_odd_lanes(x, y, r);
  if (!xsimd::any(odd_lanes)) [[likely]] {
    r.store_unaligned(out);
    return;
  }
  alignas(64) bool odd_lane[kWidth];
  alignas(64) float as[kWidth];
  alignas(64) float bs[kWidth];
  alignas(64) float rs[kWidth];
  odd_lanes.store_aligned(odd_lane);
  x.store_aligned(as);
  y.store_aligned(bs);
  r.store_aligned(rs);
  for (int k = 0; k < kWidth; ++k) {
    if (odd_lane[k]) rs[k] = scalar(as[k], bs[k]);
  }
  for (int k = 0; k < kWidth; ++k) out[k] = rs[k];
}

/// A batch of v[0, width) (kStep 1) or of v[0] (kStep 0).
template <std::int64_t kStep>
[[gnu::always_inline]] inline Batch<float> load_step(const float* v) {
  if constexpr (kStep == 1) {
    return Batch<float>::load_unaligned(v);
  } else {
    return Batch<float>(v[0]);
  }
}

/// The whole batches of pow_float_loop, for one pair of steps: a constant operand's batch (and
/// its conversions to double) is then computed once, outside the loop.
template <std::int64_t kAStep, std::int64_t kBStep>
void pow_float_batches(const float* a, const float* b, float* out, std::int64_t whole,
                       ScalarBinary<float> scalar) {
  constexpr std::int64_t kWidth = Batch<float>::size;
  for (std::int64_t i = 0; i < whole; i += kWidth) {
    pow_float_batch(load_step<kAStep>(a + i * kAStep), load_step<kBStep>(b + i * kBStep), out + i,
                    scalar);
  }
}

void pow_float_loop(const float* a, std::int64_t a_step, const float* b, std::int64_t b_step,
                    float* out, std::int64_t n, ScalarBinary<float> scalar) {
  constexpr std::int64_t kWidth = Batch<float>::size;
  std::int64_t whole = n / kWidth * kWidth;
  if (a_step == 1 && b_step == 1) {
    pow_float_batches<1, 1>(a, b, out, whole, scalar);
  } else if (a_step == 1 && b_step == 0) {
    pow_float_batches<1, 0>(a, b, out, whole, scalar);
  } else if (a_step == 0 && b_step == 1) {
    pow_float_batches<0, 1>(a, b, out, whole, scalar);
  } else if (a_step == 0 && b_step == 0) {
    pow_float_batches<0, 0>(a, b, out, whole, scalar);
  } else {
    whole = 0;  // steps the loop's contract rules out: all through the copies below
  }
  // The rest (the tail, padded with 1), a batch at a time through copies.
  for (std::int64_t i = whole; i < n; i += kWidth) {
    alignas(64) float x[kWidth];
    alignas(64) float y[kWidth];
    for (std::int64_t k = 0; k < kWidth; ++k) {
      x[k] = i + k < n ? a[(i + k) * a_step] : 1.0f;
      y[k] = i + k < n ? b[(i + k) * b_step] : 1.0f;
    }
    alignas(64) float r[kWidth];
    pow_float_batch(Batch<float>::load_aligned(x), Batch<float>::load_aligned(y), r, scalar);
    for (std::int64_t k = 0; k < kWidth && i + k < n; ++k) out[i + k] = r[k];
  }
}

/// The table's vectorisable rows: the Floating rows whose body compiles for a batch.
template <class Element, class Loop>
void fill_rows(Loop* rows) {
  using T = Batch<Element>;  // the name the table's bodies use for their operand type
#define TESSERA_VECTOR_ROW(Op, name, Kind, doc, ...)                                          \
  if constexpr (std::is_same_v<kind::Kind, kind::Floating> && requires(T a) { __VA_ARGS__; }) \
    rows[static_cast<int>(UnaryOpId::Op)] = &unary_loop<ops::Op, Element>;
  TESSERA_UNARY_FUNCTIONS(TESSERA_VECTOR_ROW)
#undef TESSERA_VECTOR_ROW
}

HostVectorMath make_table(const char* isa) {
  HostVectorMath table{};
  table.isa = isa;
  fill_rows<float>(table.unary_float);
  fill_rows<double>(table.unary_double);
  table.pow_float = &pow_float_loop;
  return table;
}

}  // namespace

const HostVectorMath* TESSERA_VECTOR_TABLE(const char* isa) {
  static const HostVectorMath table = make_table(isa);
  return &table;
}

}  // namespace tessera::detail
