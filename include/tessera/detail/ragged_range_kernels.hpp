// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ragged_range_kernels.hpp
/// The arithmetic of ragged::range shared by the host and CUDA kernels: one argument as the
/// kernels read it (a strided 1-d vector or a broadcast scalar), the size of one row and the
/// element j of a row. Written once, `TESSERA_HD`, so both backends give the same answers.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::detail {

/// One of starts/limits/deltas: `data[i * stride]`, or `value` for every row when data is null.
template <class T>
struct RangeOperand {
  const T* data = nullptr;
  std::int64_t stride = 0;
  T value{};
  TESSERA_HD T operator[](std::int64_t i) const {
    return data != nullptr ? data[i * stride] : value;
  }
};

template <class T>
struct RangeOperands {
  RangeOperand<T> starts, limits, deltas;
};

/// Why a row has no valid size; the smallest faulty row is reported.
enum class RangeFault : std::int32_t { None = 0, ZeroDelta = 1, SizeTooLarge = 2 };

/// Number of elements of `range(start, limit, delta)` (Python semantics: 0 when delta points
/// away from the limit), or -1 with `fault` set. Integers: ceil(|limit - start| / |delta|) in
/// unsigned 64-bit arithmetic, exact for every int32/int64 input. Floats: ceil(|(limit - start)
/// / delta|) in T, as TensorFlow; it must be below 2^63 (NaN and inf are not).
template <class T>
TESSERA_HD std::int64_t range_size(T start, T limit, T delta, RangeFault& fault) {
  if (delta == T(0)) {
    fault = RangeFault::ZeroDelta;
    return -1;
  }
  if ((delta > T(0) && limit < start) || (delta < T(0) && limit > start)) return 0;
  if constexpr (Integral<T>) {
    // |limit - start| < 2^64 and |delta| <= 2^63: both exact as uint64 (two's complement).
    const auto span = limit >= start
                          ? static_cast<std::uint64_t>(limit) - static_cast<std::uint64_t>(start)
                          : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(limit);
    const auto step = delta > 0 ? static_cast<std::uint64_t>(delta)
                                : std::uint64_t{0} - static_cast<std::uint64_t>(delta);
    // A 64-bit division costs tens of cycles, more than the rest of the row: skip it for
    // unit steps and use 32 bits when both fit.
    std::uint64_t size;
    if (step == 1) {
      size = span;
    } else if ((span | step) <= UINT32_MAX) {
      const auto s32 = static_cast<std::uint32_t>(span), d32 = static_cast<std::uint32_t>(step);
      size = s32 / d32 + (s32 % d32 != 0 ? 1 : 0);
    } else {
      size = span / step + (span % step != 0 ? 1 : 0);
    }
    // Only int64 with |delta| = 1 can exceed INT64_MAX elements.
    if (size > static_cast<std::uint64_t>(INT64_MAX)) {
      fault = RangeFault::SizeTooLarge;
      return -1;
    }
    return static_cast<std::int64_t>(size);
  } else {
    const T size = std::ceil(std::fabs((limit - start) / delta));
    // 2^63 is exact in float and double; `!(size < 2^63)` also catches NaN.
    if (!(size < static_cast<T>(9.223372036854775808e18))) {
      fault = RangeFault::SizeTooLarge;
      return -1;
    }
    return static_cast<std::int64_t>(size);
  }
}

/// Element j of a row: start + j * delta. Integers wrap modulo 2^64 (the true value is within
/// [start, limit), so the wrapped result is exact); floats are computed in double, not by the
/// repeated addition TensorFlow uses.
template <class T>
TESSERA_HD T range_element(T start, T delta, std::int64_t j) {
  if constexpr (Integral<T>) {
    const auto wide = static_cast<std::uint64_t>(static_cast<std::int64_t>(start)) +
                      static_cast<std::uint64_t>(j) *
                          static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
    return static_cast<T>(static_cast<std::int64_t>(wide));
  } else {
#if defined(__CUDA_ARCH__)
    // No fused multiply-add, which nvcc would otherwise form: the GPU gives the host's bits.
    return static_cast<T>(__dadd_rn(static_cast<double>(start),
                                    __dmul_rn(static_cast<double>(j), static_cast<double>(delta))));
#else
    return static_cast<T>(static_cast<double>(start) +
                          static_cast<double>(j) * static_cast<double>(delta));
#endif
  }
}

/// Elements a padded range write may write past the row's end (see range_elements_padded).
inline constexpr std::int64_t kRangePad = 8;

/// Writes elements j, j + 1, ... of a row to dst, the same values as range_element, in whole
/// groups of kRangePad: the n wanted ones and up to kRangePad - 1 more past them (the caller
/// guarantees the room and overwrites them later). Fixed-length groups keep short rows free of
/// the loop-exit mispredictions of an exact loop (1e6 rows of ~10 values: 10 ms instead of 16 ms
/// for the same serial loop) and vectorise. n + j < 2^31 for floats.
template <class T>
TESSERA_HD void range_elements_padded(T start, T delta, std::int64_t j, std::int64_t n, T* dst) {
  if constexpr (Integral<T>) {
    // Wrapping arithmetic is exact modulo 2^64, so a group is start + (j + m) * delta.
    const auto step = static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
    const std::uint64_t first = static_cast<std::uint64_t>(static_cast<std::int64_t>(start)) +
                                static_cast<std::uint64_t>(j) * step;
    for (std::int64_t m = 0; m < n; m += kRangePad) {
      for (std::int64_t q = 0; q < kRangePad; ++q) {
        dst[m + q] = static_cast<T>(
            static_cast<std::int64_t>(first + static_cast<std::uint64_t>(m + q) * step));
      }
    }
  } else {
    const auto first = static_cast<double>(j), s = static_cast<double>(start),
               d = static_cast<double>(delta);
    const auto count = static_cast<std::int32_t>(n);
    for (std::int32_t m = 0; m < count; m += static_cast<std::int32_t>(kRangePad)) {
      for (std::int32_t q = 0; q < static_cast<std::int32_t>(kRangePad); ++q) {
        dst[m + q] = static_cast<T>(s + (first + static_cast<double>(m + q)) * d);
      }
    }
  }
}

/// The exact form: elements j .. j + n - 1 and nothing past them.
template <class T>
TESSERA_HD void range_elements(T start, T delta, std::int64_t j, std::int64_t n, T* dst) {
  for (std::int64_t m = 0; m < n; ++m) dst[m] = range_element(start, delta, j + m);
}

/// Index of the row holding value k: the last i with splits[i] <= k (splits non-decreasing,
/// splits[0] = 0 <= k < splits[nrows]). Empty rows are skipped.
template <class S>
TESSERA_HD std::int64_t row_of_value(const S* splits, std::int64_t nrows, std::int64_t k) {
  std::int64_t lo = 0, hi = nrows;  // answer in [lo, hi)
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(splits[mid]) <= k) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace tessera::detail
