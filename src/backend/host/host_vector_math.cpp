// SPDX-License-Identifier: BSD-3-Clause
// Chooses the host's vector loops (host_vector_math.hpp) by what the CPU supports, once.

#include "tessera/expr/host_vector_math.hpp"

#include <atomic>

namespace tessera::detail {

// TESSERA_HOST_VECTOR_MATH: the library was built with the vector units (CMakeLists.txt).
#if TESSERA_HOST_VECTOR_MATH
const HostVectorMath* host_vector_math_avx512(const char* isa);  // host_vector_math_avx512.cpp
const HostVectorMath* host_vector_math_avx2(const char* isa);    // host_vector_math_avx2.cpp
#endif

namespace {

/// What this CPU runs, best first, then null: at most two sets and the null.
struct Choices {
  const HostVectorMath* list[3] = {};

  Choices() noexcept {
    [[maybe_unused]] int n = 0;
#if TESSERA_HOST_VECTOR_MATH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512cd") != 0 &&
        __builtin_cpu_supports("avx512dq") != 0 && __builtin_cpu_supports("avx512bw") != 0) {
      list[n++] = host_vector_math_avx512("avx512");
    }
    if (__builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0) {
      list[n++] = host_vector_math_avx2("avx2");
    }
#endif
  }
};

const Choices& choices() noexcept {
  static const Choices c;
  return c;
}

std::atomic<const HostVectorMath*>& in_use() noexcept {
  static std::atomic<const HostVectorMath*> math{choices().list[0]};
  return math;
}

}  // namespace

const HostVectorMath* host_vector_math() noexcept {
  return in_use().load(std::memory_order_relaxed);
}

const HostVectorMath* const* host_vector_math_choices() noexcept { return choices().list; }

const HostVectorMath* select_host_vector_math(const HostVectorMath* math) noexcept {
  return in_use().exchange(math, std::memory_order_relaxed);
}

}  // namespace tessera::detail
