// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file host_stream_stores.hpp
/// Streaming (non-temporal) stores for host outputs too large to stay in the last-level cache.
/// A plain store first reads the line it writes (read for ownership), so an elementwise kernel
/// over data in DRAM moves every output byte twice; a streaming store writes whole lines
/// without reading them. Measured on the 2-core AMD EPYC VM of docs/benchmarks.md, 2 threads,
/// medians of 300 runs each (15 alternated rounds of 20): 10^7 floats `a * b + 2a - sqrt(|b|)` 2.42
/// -> 1.92 ms, `x + row` 1.55 -> 1.41 ms, float -> double cast 2.76 -> 2.24 ms; but at 3 * 10^6
/// elements, where operands and output share the 32 MiB L3 between calls, 4-43 % slower (the output
/// no longer stays in cache for the next call). Hence outputs of at least the last-level cache's
/// size (host_stream_min_bytes) only.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__) && defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <emmintrin.h>
/// 1: host kernels can store with SSE2's streaming stores (x86-64 host code).
#define TESSERA_HOST_STREAM_STORES 1
#else
/// 0: host kernels store plainly (not x86-64 host code).
#define TESSERA_HOST_STREAM_STORES 0
#endif

namespace tessera::detail {

/// Streaming stores write whole lines of this many bytes, aligned to it.
inline constexpr std::size_t kStreamLineBytes = 64;

/// Whether this build can store without reading first (x86-64 host code, nvcc's host pass
/// included; elsewhere host kernels always store plainly).
inline constexpr bool kHostStreamStores = TESSERA_HOST_STREAM_STORES != 0;

/// Host outputs of at least this many bytes are written with streaming stores: the size of the
/// last-level cache by default, or TESSERA_HOST_STREAM_BYTES (bytes; read once). Writable, so
/// that tests can send small outputs down the streaming path. In the library (src/core).
std::atomic<std::int64_t>& host_stream_min_bytes() noexcept;

/// Whether an output of `bytes` bytes of `Out` is written with streaming stores.
template <class Out>
bool host_streams_output(std::int64_t bytes) noexcept {
  if constexpr (!kHostStreamStores || kStreamLineBytes % sizeof(Out) != 0) {
    return false;
  } else {
    return bytes >= host_stream_min_bytes().load(std::memory_order_relaxed);
  }
}

/// Copies `bytes` (a multiple of kStreamLineBytes) from `src` to `dst`, both aligned to
/// kStreamLineBytes, with streaming stores. Until stream_store_fence() the stores may become
/// visible in any order, to other threads too.
inline void stream_store_lines(void* dst, const void* src, std::size_t bytes) noexcept {
#if TESSERA_HOST_STREAM_STORES
  auto* to = static_cast<__m128i*>(dst);
  const auto* from = static_cast<const __m128i*>(src);
  for (std::size_t i = 0; i < bytes / sizeof(__m128i); ++i)
    _mm_stream_si128(to + i, _mm_load_si128(from + i));
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Orders every streaming store before it ahead of the stores after it: each thread calls it
/// once it has written its part, before the parallel region's join publishes the output.
inline void stream_store_fence() noexcept {
#if TESSERA_HOST_STREAM_STORES
  _mm_sfence();
#endif
}

}  // namespace tessera::detail
