// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The two backends of the random streams: each writes the n elements of one call of a
// distribution (src/backend/random_streams.inl) into contiguous memory of its device.

#include <cstdint>

#include "backend/random_streams.inl"

namespace tessera::detail::random_fill {

/// Host memory, on the host pool (src/random/random.cpp).
template <class Dist>
void host(const random_streams::Stream& stream, const Dist& dist, typename Dist::value_type* out,
          std::int64_t n);

/// Memory of GPU `device`, as Thrust algorithms on the device (src/backend/device/random.cu).
template <class Dist>
void device(int device, const random_streams::Stream& stream, const Dist& dist,
            typename Dist::value_type* out, std::int64_t n);

/// Every distribution both backends instantiate: X((Dist type)), parenthesised because some
/// have commas (unparen_t takes the parentheses off).
#define TESSERA_FOR_EACH_RANDOM_DIST(X)            \
  X((random_streams::Uniform<float>))              \
  X((random_streams::Uniform<double>))             \
  X((random_streams::Normal<float>))               \
  X((random_streams::Normal<double>))              \
  X((random_streams::PermutationKeys))             \
  TESSERA_FOR_EACH_NARROW_RANDINT(X)               \
  X((random_streams::Randint<std::int64_t, true>)) \
  X((random_streams::Randint<double, true>))
/// randint over every numeric dtype, narrow (one word). Wide draws (a word pair) only exist for
/// the dtypes whose ranges can exceed 2^32 (randint_has_wide).
#define TESSERA_FOR_EACH_NARROW_RANDINT(X)          \
  X((random_streams::Randint<std::uint8_t, false>)) \
  X((random_streams::Randint<std::int8_t, false>))  \
  X((random_streams::Randint<std::int16_t, false>)) \
  X((random_streams::Randint<std::int32_t, false>)) \
  X((random_streams::Randint<std::int64_t, false>)) \
  X((random_streams::Randint<float, false>))        \
  X((random_streams::Randint<double, false>))

/// Whether randint over T can be asked for a range above 2^32 (then it draws a word pair per
/// element): int64 and double (integers up to 2^53). Other dtypes' ranges fit one word.
template <class T>
inline constexpr bool randint_has_wide = sizeof(T) == 8;

/// The type inside parentheses: unparen_t<void (T)> is T.
template <class F>
struct unparen;
template <class T>
struct unparen<void(T)> {
  using type = T;
};
template <class F>
using unparen_t = typename unparen<F>::type;

}  // namespace tessera::detail::random_fill
