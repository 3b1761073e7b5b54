// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ordering_keys.hpp
/// Order keys of sort, argsort and topk: every element type mapped to an unsigned integer
/// whose unsigned order is the ordering's (NaN the largest, -0.0 equal to +0.0), so that one
/// stable radix sort (host) or Thrust's stable sort by key (device) serves every dtype, and a
/// descending order is the complemented key (still stable). Host and device alike.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::detail {

/// The unsigned key type of element type T (same width; bool: one byte).
template <class T>
using order_key_t = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

/// The bits of a floating value as its key type.
template <class T>
TESSERA_HD inline order_key_t<T> float_bits(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 4) {
    return __float_as_uint(x);
  } else {
    return static_cast<std::uint64_t>(__double_as_longlong(x));
  }
#else
  order_key_t<T> bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
#endif
}

/// The floating value of key-type bits (float_bits inverted).
template <class T>
TESSERA_HD inline T float_of_bits(order_key_t<T> bits) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 4) {
    return __uint_as_float(bits);
  } else {
    return __longlong_as_double(static_cast<long long>(bits));
  }
#else
  T x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

/// The ascending order key of x: integers with the sign bit flipped; floats with -0.0 taken as
/// +0.0, negatives complemented and positives with the sign bit set, every NaN the largest key.
template <class T>
TESSERA_HD inline order_key_t<T> order_key(T x) {
  using K = order_key_t<T>;
  constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return x ? K(1) : K(0);
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<K>(x);
  } else if constexpr (Integral<T>) {
    return static_cast<K>(static_cast<K>(x) ^ sign);
  } else {
    const K bits = float_bits(x == T(0) ? T(0) : x);
    const K key = (bits & sign) ? K(~bits) : K(bits | sign);
    return x != x ? K(~K(0)) : key;
  }
}

/// The key of x in the order asked for: ascending, or descending (the complemented key).
template <class T>
TESSERA_HD inline order_key_t<T> order_key(T x, bool descending) {
  const auto key = order_key(x);
  return descending ? order_key_t<T>(~key) : key;
}

/// The value whose key is `key` (ascending): exact for every key but those of zero and NaN,
/// which stand for both zeros and for every NaN (read those from the input).
template <class T>
TESSERA_HD inline T value_of_key(order_key_t<T> key) {
  using K = order_key_t<T>;
  constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return key != 0;
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(key);
  } else if constexpr (Integral<T>) {
    return static_cast<T>(static_cast<K>(key ^ sign));
  } else {
    return float_of_bits<T>((key & sign) ? K(key & ~sign) : K(~key));
  }
}

/// True when value_of_key(key) may differ from the element it came from (zero or NaN).
template <class T>
TESSERA_HD inline bool key_is_ambiguous(order_key_t<T> key) {
  if constexpr (Floating<T>) {
    using K = order_key_t<T>;
    constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
    return key == sign || key == K(~K(0));
  } else {
    return false;
  }
}

}  // namespace tessera::detail
