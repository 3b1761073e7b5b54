// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file host_vector_math.hpp
/// The host's vectorised transcendental functions: loops over SIMD batches (xsimd) of the
/// pointwise table's vectorisable rows, built into the library once per instruction set and
/// chosen when first asked for by what the CPU supports (AVX-512 F/CD/DQ/BW, else AVX2 with
/// FMA, else none, and the host stays on scalar cmath). The table stays the one list: the library
/// expands it for batches and keeps every `Floating` row whose body compiles for one
/// (pointwise_table.hpp).
///
/// Results keep the 4-ulp rule and cmath's special values: a batch lane whose operand or result
/// is not a normal finite number (zero, subnormal, infinite, NaN: xsimd flushes subnormal
/// results of exp to 0 and gives acosh(-2) = -inf) is recomputed by the scalar function.

#include <cstdint>
#include <type_traits>

#include "tessera/expr/functors.hpp"

namespace tessera::detail {

/// The scalar form of a row, for the lanes a vector loop hands back (see the file comment).
template <class T>
using ScalarUnary = T (*)(T);
template <class T>
using ScalarBinary = T (*)(T, T);

/// out[i] = row(in[i]) for i in [0, n); `in` may be `out`.
template <class T>
using VectorUnaryLoop = void (*)(const T* in, T* out, std::int64_t n, ScalarUnary<T> scalar);
/// out[i] = row(a[i * a_step], b[i * b_step]) for i in [0, n), each step 0 or 1; `a` or `b` may
/// be `out`.
template <class T>
using VectorBinaryLoop = void (*)(const T* a, std::int64_t a_step, const T* b, std::int64_t b_step,
                                  T* out, std::int64_t n, ScalarBinary<T> scalar);

/// Adds one for a row of the table (defined only while kUnaryRows counts them).
#define TESSERA_COUNT_ROW(...) +1
/// Rows of the unary table.
inline constexpr int kUnaryRows = 0 TESSERA_UNARY_FUNCTIONS(TESSERA_COUNT_ROW);
#undef TESSERA_COUNT_ROW

/// The vector loops of one instruction set: one per vectorised unary row and dtype (null for
/// the others), and float `pow`, which computes 2^(b log2 a) in double (host_vector_pow.inl).
struct HostVectorMath {
  const char* isa;  ///< "avx512" or "avx2"
  VectorUnaryLoop<float> unary_float[kUnaryRows];
  VectorUnaryLoop<double> unary_double[kUnaryRows];
  VectorBinaryLoop<float> pow_float;

  template <class T>
  VectorUnaryLoop<T> unary(UnaryOpId id) const {
    if constexpr (std::is_same_v<T, float>) {
      return unary_float[static_cast<int>(id)];
    } else {
      return unary_double[static_cast<int>(id)];
    }
  }
};

/// The vector loops in use: by default the best this CPU runs (AVX-512 F/CD/DQ/BW, else AVX2
/// with FMA), null when it runs none of those the library was built with (then the host computes
/// every row with scalar cmath).
const HostVectorMath* host_vector_math() noexcept;

/// Every set of vector loops this CPU runs, best first, then null (scalar cmath).
const HostVectorMath* const* host_vector_math_choices() noexcept;

/// Makes `math` (one of host_vector_math_choices(), or null for scalar cmath) the loops in use
/// for the whole process; returns the previous ones. For tests and measurements that compare
/// them.
const HostVectorMath* select_host_vector_math(const HostVectorMath* math) noexcept;

/// The scalar form of a unary functor, in the caller's translation unit (the vector units
/// never instantiate a scalar template: see host_vector_math_isa.inl).
template <class Op, class T>
T scalar_unary(T a) {
  return Op::apply(a);
}
template <class Op, class T>
T scalar_binary(T a, T b) {
  return Op::apply(a, b);
}

}  // namespace tessera::detail
