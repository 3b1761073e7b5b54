// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file host_vector_eval.hpp
/// The host executor's route into the vector loops (host_vector_math.hpp): a contiguous output
/// whose expression is a vectorised row applied to any float or double expression (`sin(x)`,
/// `exp(-x * x)`, `sigmoid(a + b)`), or float `pow(a, b)`, is written a chunk at a time: the
/// row's operands are read in place when they are contiguous tensors or constants, and are
/// otherwise computed into a buffer that stays in L1 by the same fused loop as any expression;
/// then the row's vector loop writes the chunk.

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tessera/expr/host_vector_math.hpp"
#include "tessera/expr/kernels.hpp"

namespace tessera::detail {

/// Elements per chunk: a float operand's buffer is 4 KiB.
inline constexpr std::int64_t kVectorChunk = 1024;

/// Whether kernel A is a constant.
template <class A>
inline constexpr bool is_scalar_kernel = false;
template <class S>
inline constexpr bool is_scalar_kernel<ScalarKernel<S>> = true;

/// Elements [i, i + count) of operand `a` as C: a pointer and its step (1, or 0 for a
/// constant). In place for a tensor of C; a constant is converted once; anything else is
/// computed into `buffer` (count elements).
template <class C, class A>
const C* operand_chunk(const A& a, std::int64_t i, std::int64_t count, C* buffer,
                       std::int64_t& step) {
  if constexpr (std::is_same_v<A, LeafKernel<C>>) {
    step = 1;
    return a.data + i;
  } else if constexpr (is_scalar_kernel<A>) {
    step = 0;
    buffer[0] = static_cast<C>(a.value);
    return buffer;
  } else {
    step = 1;
    for (std::int64_t j = 0; j < count; ++j) buffer[j] = static_cast<C>(a.linear(i + j));
    return buffer;
  }
}

/// Writes out[begin, end) a chunk of at most kVectorChunk elements at a time through
/// `chunk(i, count, to)`, which computes elements [i, i + count) into `to`. Plain stores, also
/// for outputs past the last-level cache, where the scalar loops stream (HostExecutor::
/// stream_span): these rows are compute-bound, and storing each chunk once beats computing it
/// into a buffer and streaming that out (10^7 float32 on 2 threads, medians of 5, two runs
/// each: sigmoid 1.88 / 1.91 ms plain against 2.27 / 2.10 streamed, exp 1.92 / 1.62 against
/// 2.03 / 2.15, sin 2.15 / 2.07 against 2.25 / 2.23).
template <class C, class Chunk>
void write_vector_chunks(C* out, std::int64_t begin, std::int64_t end, const Chunk& chunk) {
  for (std::int64_t i = begin; i < end; i += kVectorChunk) {
    chunk(i, std::min(kVectorChunk, end - i), out + i);
  }
}

/// A row of the pointwise table computing in floating point (not a cast, whose op has no kind).
template <class Op>
concept FloatingRow = std::is_same_v<typename Op::kind_tag, kind::Floating>;

/// Whether output element type Out and kernel K take the vector route, and how.
template <class Out, class K>
struct HostVectorRoot {
  static constexpr bool value = false;
};

/// A unary row computing in C (float or double) into an output of C.
template <class Op, class C, class A>
struct HostVectorRoot<C, UnaryKernel<Op, C, C, A>> {
  static constexpr bool value =
      (std::is_same_v<C, float> || std::is_same_v<C, double>)&&FloatingRow<Op> &&
      !is_scalar_kernel<A>;  // the unary loops take no step
  using Loop = VectorUnaryLoop<C>;
  static Loop loop(const HostVectorMath& math) { return math.template unary<C>(Op::id); }
  /// out[begin, end) of the kernel.
  static void write(C* out, const UnaryKernel<Op, C, C, A>& k, Loop loop, std::int64_t begin,
                    std::int64_t end) {
    alignas(64) C buffer[kVectorChunk];
    write_vector_chunks(out, begin, end, [&](std::int64_t i, std::int64_t count, C* to) {
      std::int64_t step = 1;  // 1: not a constant (see `value`)
      loop(operand_chunk(k.a, i, count, buffer, step), to, count, &scalar_unary<Op, C>);
    });
  }
};

/// float pow (the vector loop computes 2^(b log2 a) in double,
/// src/backend/host/host_vector_pow.inl).
template <class A, class B>
struct HostVectorRoot<float, BinaryKernel<ops::Pow, float, float, A, B>> {
  static constexpr bool value = true;
  using Loop = VectorBinaryLoop<float>;
  static Loop loop(const HostVectorMath& math) { return math.pow_float; }
  static void write(float* out, const BinaryKernel<ops::Pow, float, float, A, B>& k, Loop loop,
                    std::int64_t begin, std::int64_t end) {
    alignas(64) float buffer_a[kVectorChunk];
    alignas(64) float buffer_b[kVectorChunk];
    write_vector_chunks(out, begin, end, [&](std::int64_t i, std::int64_t count, float* to) {
      std::int64_t a_step = 1;
      std::int64_t b_step = 1;
      const float* a = operand_chunk(k.a, i, count, buffer_a, a_step);
      const float* b = operand_chunk(k.b, i, count, buffer_b, b_step);
      loop(a, a_step, b, b_step, to, count, &scalar_binary<ops::Pow, float>);
    });
  }
};

}  // namespace tessera::detail
