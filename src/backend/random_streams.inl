// SPDX-License-Identifier: BSD-3-Clause
// The random streams (docs/ops/random.md, "The stream, as a guarantee"), written once for the host
// and the device: a Philox4x32-10 block per 4 words (Random123), and each distribution as a map
// from one block to the elements that block feeds. Both backends walk the blocks of a call in any
// order and on any number of threads: an element's value depends only on (seed, its block, its
// place in the block), so the numbers cannot depend on device, thread count or schedule.

#pragma once

#include <Random123/philox.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"

namespace tessera::detail::random_streams {

using std::cos;
using std::log;
using std::sin;
using std::sqrt;

/// The key and first block of one call.
struct Stream {
  std::uint32_t key0;
  std::uint32_t key1;
  std::uint64_t first_block;
};

/// The four words of block `block` of the call (counter (block lo, block hi, 0, 0)).
TESSERA_HD inline void philox_block(const Stream& s, std::uint64_t block, std::uint32_t w[4]) {
  using Philox = r123::Philox4x32;
  const std::uint64_t b = s.first_block + block;
  const Philox::ctr_type counter = {
      {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), 0u, 0u}};
  const Philox::key_type key = {{s.key0, s.key1}};
  const Philox::ctr_type r = Philox()(counter, key);
  w[0] = r[0];
  w[1] = r[1];
  w[2] = r[2];
  w[3] = r[3];
}

/// The 64-bit value of words j, j+1 (j even): (w_j << 32) | w_j+1.
TESSERA_HD inline std::uint64_t pair64(const std::uint32_t* w, int j) {
  return (static_cast<std::uint64_t>(w[j]) << 32) | w[j + 1];
}

/// The float uniform of one word, or the double uniform of a word pair: [0, 1).
TESSERA_HD inline float uniform_of(std::uint32_t w) {
  return static_cast<float>(w >> 8) * 0x1.0p-24f;
}
TESSERA_HD inline double uniform_of(std::uint64_t x) {
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

/// Element count per block of a distribution over T: 4 words per block, 1 word per float
/// uniform, 2 per double uniform.
template <class T>
inline constexpr int kUniformsPerBlock = std::is_same_v<T, float> ? 4 : 2;

/// The uniforms of T in one block (kUniformsPerBlock<T> of them).
template <class T>
TESSERA_HD inline void uniforms(const std::uint32_t* w, T* u) {
  if constexpr (std::is_same_v<T, float>) {
    for (int j = 0; j < 4; ++j) u[j] = uniform_of(w[j]);
  } else {
    u[0] = uniform_of(pair64(w, 0));
    u[1] = uniform_of(pair64(w, 2));
  }
}

/// lo + span * u: rand, rand_like, uniform_ (span = hi - lo).
template <class T>
struct Uniform {
  using value_type = T;
  static constexpr int kPerBlock = kUniformsPerBlock<T>;
  T lo;
  T span;
  TESSERA_HD void block(const std::uint32_t* w, T* out) const {
    T u[kPerBlock];
    uniforms<T>(w, u);
    for (int j = 0; j < kPerBlock; ++j) out[j] = lo + span * u[j];
  }
};

/// The bits of a float and back (std::bit_cast is not a device function).
TESSERA_HD inline std::uint32_t bits_of(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  return std::bit_cast<std::uint32_t>(x);
#endif
}
TESSERA_HD inline float float_of(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  return std::bit_cast<float>(b);
#endif
}

/// log(x) for x in [2^-24, 1], the argument Box-Muller takes the log of (1 - u): Cephes'
/// logf (within 1 ulp there), without branches, so that the host's loop over many blocks
/// vectorises. Written with plain IEEE operations in a fixed order, the host's vector lanes, its
/// scalar code and the device give the same bits (random.cu is compiled without FMA
/// contraction, the host loops with fp-contract=off).
TESSERA_HD inline float log_unit(float x) {
  const std::uint32_t b = bits_of(x);
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)): x has no sign, NaN, infinity nor subnormal here.
  const std::uint32_t mantissa = (b & 0x007fffffu) | 0x3f800000u;  // m in [1, 2)
  const bool high = mantissa > 0x3fb504f3u;                        // m > sqrt(2)
  const float m = float_of(high ? mantissa - 0x00800000u : mantissa);
  const float e = static_cast<float>(static_cast<std::int32_t>(b >> 23) - 127 + (high ? 1 : 0));
  const float f = m - 1.0f;
  const float z = f * f;
  float p = 7.0376836292e-2f;
  p = p * f - 1.1514610310e-1f;
  p = p * f + 1.1676998740e-1f;
  p = p * f - 1.2420140846e-1f;
  p = p * f + 1.4249322787e-1f;
  p = p * f - 1.6668057665e-1f;
  p = p * f + 2.0000714765e-1f;
  p = p * f - 2.4999993993e-1f;
  p = p * f + 3.3333331174e-1f;
  float y = f * z * p;
  y = y + -2.12194440e-4f * e;  // e * ln 2, low part
  y = y - 0.5f * z;
  return (f + y) + 0.693359375f * e;  // e * ln 2, high part (exact)
}

/// sin(2 pi u) and cos(2 pi u) for u in [0, 1): u is reduced in turns (u - j / 4, exact), so
/// only the product by 2 pi rounds before Cephes' sinf/cosf polynomials on [-pi/4, pi/4];
/// branch-free, for the reason log_unit is.
TESSERA_HD inline void sincos_turns(float u, float& sine, float& cosine) {
  const auto j = static_cast<std::int32_t>(u * 4.0f + 0.5f);  // the nearest quarter turn, 0..4
  const float y = (u - static_cast<float>(j) * 0.25f) * 6.28318530717958647692f;
  const float z = y * y;
  float s = -1.9515295891e-4f;
  s = s * z + 8.3321608736e-3f;
  s = s * z - 1.6666654611e-1f;
  s = s * z * y + y;
  float c = 2.443315711809948e-5f;
  c = c * z - 1.388731625493765e-3f;
  c = c * z + 4.166664568298827e-2f;
  c = c * z * z - 0.5f * z + 1.0f;
  // (sin, cos) of y plus j quarter turns: (s, c), (c, -s), (-s, -c), (-c, s).
  const bool odd = (j & 1) != 0;
  const float sin_y = odd ? c : s;
  const float cos_y = odd ? s : c;
  sine = (j & 2) != 0 ? -sin_y : sin_y;
  cosine = ((j + 1) & 2) != 0 ? -cos_y : cos_y;
}

/// mean + std * z, z by Box-Muller over consecutive pairs of uniforms: randn, normal, normal_.
/// Floats on the library's own log_unit and sincos_turns (the same bits on every device and
/// vectorised on the host), doubles on the platform's log and sincos.
template <class T>
struct Normal {
  using value_type = T;
  static constexpr int kPerBlock = kUniformsPerBlock<T>;
  T mean;
  T std;
  TESSERA_HD void block(const std::uint32_t* w, T* out) const {
    T u[kPerBlock];
    uniforms<T>(w, u);
    for (int j = 0; j < kPerBlock; j += 2) {
      if constexpr (std::is_same_v<T, float>) {
        const float r = sqrt(-2.0f * log_unit(1.0f - u[j]));
        float sine;
        float cosine;
        sincos_turns(u[j + 1], sine, cosine);
        out[j] = mean + std * (r * cosine);
        out[j + 1] = mean + std * (r * sine);
      } else {
        const T r = sqrt(T(-2) * log(T(1) - u[j]));
        const T theta = static_cast<T>(6.283185307179586476925286766559) * u[j + 1];
        out[j] = mean + std * (r * cos(theta));
        out[j + 1] = mean + std * (r * sin(theta));
      }
    }
  }
};

/// The high 64 bits of a 64 x 64-bit product.
TESSERA_HD inline std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  // Four 32 x 32-bit products (ISO C++ has no 128-bit integer).
  const std::uint64_t a_lo = a & 0xffffffffu;
  const std::uint64_t a_hi = a >> 32;
  const std::uint64_t b_lo = b & 0xffffffffu;
  const std::uint64_t b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo;
  const std::uint64_t hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi;
  const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/// lo + an integer in [0, range): one word when range <= 2^32, a word pair above (randint).
template <class T, bool Wide>
struct Randint {
  using value_type = T;
  static constexpr int kPerBlock = Wide ? 2 : 4;
  std::int64_t lo;
  std::uint64_t range;
  TESSERA_HD void block(const std::uint32_t* w, T* out) const {
    for (int j = 0; j < kPerBlock; ++j) {
      const std::uint64_t k = Wide ? mulhi64(pair64(w, 2 * j), range)
                                   : (static_cast<std::uint64_t>(w[j]) * range) >> 32;
      out[j] = static_cast<T>(static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + k));
    }
  }
};

/// The 64-bit keys of randperm, as int64 ordered like the unsigned keys (sign bit flipped).
struct PermutationKeys {
  using value_type = std::int64_t;
  static constexpr int kPerBlock = 2;
  TESSERA_HD void block(const std::uint32_t* w, std::int64_t* out) const {
    for (int j = 0; j < 2; ++j) {
      out[j] = static_cast<std::int64_t>(pair64(w, 2 * j) ^ (std::uint64_t{1} << 63));
    }
  }
};

/// Writes the elements of block `b` of distribution `dist` into out[0, n).
template <class Dist>
TESSERA_HD inline void write_block(const Stream& s, const Dist& dist, std::uint64_t b,
                                   typename Dist::value_type* out, std::int64_t n) {
  using T = typename Dist::value_type;
  std::uint32_t w[4];
  philox_block(s, b, w);
  T values[Dist::kPerBlock];
  dist.block(w, values);
  const std::int64_t first = static_cast<std::int64_t>(b) * Dist::kPerBlock;
  for (int j = 0; j < Dist::kPerBlock; ++j) {
    if (first + j < n) out[first + j] = values[j];
  }
}

/// Blocks a call of n elements of `Dist` takes.
template <class Dist>
constexpr std::int64_t blocks_for(std::int64_t n) {
  return (n + Dist::kPerBlock - 1) / Dist::kPerBlock;
}

}  // namespace tessera::detail::random_streams
