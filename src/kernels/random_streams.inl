// The random streams (SPEC "Random numbers"), written once for the host and the device: a
// Philox4x32-10 block per 4 words (Random123), and each distribution as a map from one block
// to the elements that block feeds. Both backends walk the blocks of a call in any order and
// on any number of threads: an element's value depends only on (seed, its block, its place in
// the block), so the numbers cannot depend on device, thread count or schedule.

#pragma once

#include <Random123/philox.h>

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

/// mean + std * z, z by Box-Muller over consecutive pairs of uniforms: randn, normal, normal_.
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
      const T r = sqrt(T(-2) * log(T(1) - u[j]));
      const T theta = static_cast<T>(6.283185307179586476925286766559) * u[j + 1];
      out[j] = mean + std * (r * cos(theta));
      out[j + 1] = mean + std * (r * sin(theta));
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
