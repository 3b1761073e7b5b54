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

#include "tessera/expr/host_stream_stores.hpp"
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
/// `chunk(i, count, to)`, which computes elements [i, i + count) into `to`. With `stream` (an
/// output too large for the cache: host_streams_output), chunks start on the output's cache
/// lines and are computed into an L1 buffer whose whole lines are then stored with streaming
/// stores, as the scalar loops do (HostExecutor::stream_span), and the part is fenced.
template <class C, class Chunk>
void write_vector_chunks(C* out, std::int64_t begin, std::int64_t end, bool stream,
                         const Chunk& chunk) {
  std::int64_t i = begin;
  if (stream) {
    constexpr auto line = static_cast<std::int64_t>(kStreamLineBytes);
    constexpr std::int64_t per_line = line / static_cast<std::int64_t>(sizeof(C));
    const auto offset =
        static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out + begin) % kStreamLineBytes);
    const std::int64_t to_line = (line - offset) % line;
    // An output not aligned to its elements never reaches a line boundary: stored plainly.
    const std::int64_t head = to_line % static_cast<std::int64_t>(sizeof(C)) == 0
                                  ? to_line / static_cast<std::int64_t>(sizeof(C))
                                  : end - begin;
    if (head > 0) {
      const std::int64_t count = std::min(head, end - i);
      chunk(i, count, out + i);
      i += count;
    }
    alignas(kStreamLineBytes) C result[kVectorChunk];
    for (; i < end; i += kVectorChunk) {
      const std::int64_t count = std::min(kVectorChunk, end - i);
      chunk(i, count, result);
      const std::int64_t lines = count / per_line * per_line;
      stream_store_lines(out + i, result, static_cast<std::size_t>(lines) * sizeof(C));
      for (std::int64_t j = lines; j < count; ++j) out[i + j] = result[j];
    }
    stream_store_fence();
    return;
  }
  for (; i < end; i += kVectorChunk) chunk(i, std::min(kVectorChunk, end - i), out + i);
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
      (std::is_same_v<C, float> || std::is_same_v<C, double>)&&FloatingRow<Op>;
  using Loop = VectorUnaryLoop<C>;
  static Loop loop(const HostVectorMath& math) { return math.template unary<C>(Op::id); }
  /// out[begin, end) of the kernel.
  static void write(C* out, const UnaryKernel<Op, C, C, A>& k, Loop loop, std::int64_t begin,
                    std::int64_t end, bool stream) {
    alignas(64) C buffer[kVectorChunk];
    write_vector_chunks(out, begin, end, stream, [&](std::int64_t i, std::int64_t count, C* to) {
      std::int64_t step = 1;
      const C* in = operand_chunk(k.a, i, count, buffer, step);
      if (step == 0) {  // a constant operand: one value, copied (rare: pow(2, x) is binary)
        for (std::int64_t j = 1; j < count; ++j) buffer[j] = buffer[0];
      }
      loop(in, to, count, &scalar_unary<Op, C>);
    });
  }
};

/// float pow, computed in double by the vector loop.
template <class A, class B>
struct HostVectorRoot<float, BinaryKernel<ops::Pow, float, float, A, B>> {
  static constexpr bool value = true;
  using Loop = VectorBinaryLoop<float>;
  static Loop loop(const HostVectorMath& math) { return math.pow_float; }
  static void write(float* out, const BinaryKernel<ops::Pow, float, float, A, B>& k, Loop loop,
                    std::int64_t begin, std::int64_t end, bool stream) {
    alignas(64) float buffer_a[kVectorChunk];
    alignas(64) float buffer_b[kVectorChunk];
    write_vector_chunks(out, begin, end, stream,
                        [&](std::int64_t i, std::int64_t count, float* to) {
                          std::int64_t a_step = 1;
                          std::int64_t b_step = 1;
                          const float* a = operand_chunk(k.a, i, count, buffer_a, a_step);
                          const float* b = operand_chunk(k.b, i, count, buffer_b, b_step);
                          loop(a, a_step, b, b_step, to, count, &scalar_binary<ops::Pow, float>);
                        });
  }
};

}  // namespace tessera::detail
