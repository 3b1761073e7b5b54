// SPDX-License-Identifier: BSD-3-Clause
// The element schedule's wide filing (tessera/detail/scatter_host_wide_filing.hpp): AVX-512F
// and AVX2 code in functions of their own, chosen at run time, so that the library still runs
// on any x86-64 CPU and callers never compile intrinsics.

#include "tessera/detail/scatter_host_wide_filing.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TESSERA_SCATTER_WIDE_FILING 1
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 headers start some intrinsics from _mm512_undefined_*(), which -Wall reports
// as maybe-uninitialized once inlined (GCC bug 105593, fixed in GCC 13).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#else
#define TESSERA_SCATTER_WIDE_FILING 0
#endif

namespace tessera::detail {

namespace {

#if TESSERA_SCATTER_WIDE_FILING

// ---- eight rows at a time (AVX-512F) ----------------------------------------------------------

[[gnu::target("avx512f")]] inline __m512i load_eight(const std::int64_t* at) {
  return _mm512_loadu_si512(at);
}

// Sign-extended: a negative index becomes a huge unsigned one, past every limit.
[[gnu::target("avx512f")]] inline __m512i load_eight(const std::int32_t* at) {
  return _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
}

template <class Index>
[[gnu::target("avx512f")]] std::int64_t file_eights(
    const Index* indices, const std::uint32_t* value_bits, std::int64_t lo, std::int64_t hi,
    std::uint64_t limit, std::uint64_t half, std::uint64_t* lower, std::uint64_t* upper_top,
    std::int64_t& lower_count, std::int64_t& upper_count) {
  const __m512i limits = _mm512_set1_epi64(static_cast<long long>(limit));
  const __m512i halves = _mm512_set1_epi64(static_cast<long long>(half));
  const __m512i low_halves = _mm512_set1_epi64(0xffffffffLL);
  const __m512i reverse = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  std::int64_t lower_end = lower_count;
  std::int64_t upper_end = upper_count;
  std::int64_t i = lo;
  for (; i + 8 <= hi; i += 8) {
    const __m512i at = load_eight(indices + i);
    if (_mm512_cmpge_epu64_mask(at, limits) != 0) break;  // the scalar filer reports it
    const __m512i bits =
        _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(value_bits + i)));
    // Every index is below limit <= 2^32: its low half is the offset.
    const __m512i pairs =
        _mm512_or_si512(_mm512_and_si512(at, low_halves), _mm512_slli_epi64(bits, 32));
    const __mmask8 upper = _mm512_cmpge_epu64_mask(at, halves);
    // Compressed in a register and stored whole (a compressing store to memory is microcoded
    // on AMD's Zen 4); the slots past the count are free space between the lists.
    _mm512_storeu_si512(lower + lower_end,
                        _mm512_maskz_compress_epi64(static_cast<__mmask8>(~upper), pairs));
    // The upper list grows down: its pairs are reversed, so the group's first lands highest.
    _mm512_storeu_si512(
        upper_top - upper_end - 7,
        _mm512_permutexvar_epi64(reverse, _mm512_maskz_compress_epi64(upper, pairs)));
    const int uppers = __builtin_popcount(static_cast<unsigned>(upper));
    lower_end += 8 - uppers;
    upper_end += uppers;
  }
  lower_count = lower_end;
  upper_count = upper_end;
  return i;
}

// ---- four rows at a time (AVX2) ---------------------------------------------------------------

// AVX2 has no compress: a table gives, for each 4-bit lane mask, the 32-bit lanes that move the
// selected pairs to the front (`first`), or to the back in reverse order (`last`, for the
// list that grows down).
struct FourLaneShuffles {
  std::array<std::array<std::int32_t, 8>, 16> first{};
  std::array<std::array<std::int32_t, 8>, 16> last{};
};

constexpr FourLaneShuffles four_lane_shuffles() {
  FourLaneShuffles s;
  for (std::size_t mask = 0; mask < 16; ++mask) {
    std::size_t k = 0;  // the selected pairs so far
    for (std::size_t lane = 0; lane < 4; ++lane) {
      if ((mask >> lane & 1U) == 0) continue;
      const auto low = static_cast<std::int32_t>(2 * lane);  // the pair's two 32-bit lanes
      s.first[mask][2 * k] = low;
      s.first[mask][2 * k + 1] = low + 1;
      s.last[mask][2 * (3 - k)] = low;
      s.last[mask][2 * (3 - k) + 1] = low + 1;
      ++k;
    }
  }
  return s;
}

constexpr FourLaneShuffles kFourLaneShuffles = four_lane_shuffles();

[[gnu::target("avx2")]] inline __m256i load_four(const std::int64_t* at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

[[gnu::target("avx2")]] inline __m256i load_four(const std::int32_t* at) {
  return _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)));
}

// The lanes where unsigned a < b, as 4 bits (AVX2 compares signed: both are biased first).
[[gnu::target("avx2")]] inline int below(__m256i biased_a, __m256i biased_b) {
  return _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(biased_b, biased_a)));
}

[[gnu::target("avx2")]] inline __m256i shuffle(__m256i pairs,
                                               const std::array<std::int32_t, 8>& by) {
  return _mm256_permutevar8x32_epi32(
      pairs, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(by.data())));
}

template <class Index>
[[gnu::target("avx2")]] std::int64_t file_fours(const Index* indices,
                                                const std::uint32_t* value_bits, std::int64_t lo,
                                                std::int64_t hi, std::uint64_t limit,
                                                std::uint64_t half, std::uint64_t* lower,
                                                std::uint64_t* upper_top, std::int64_t& lower_count,
                                                std::int64_t& upper_count) {
  const std::uint64_t bias_bit = std::uint64_t{1} << 63;
  const __m256i bias = _mm256_set1_epi64x(static_cast<long long>(bias_bit));
  const __m256i limits = _mm256_set1_epi64x(static_cast<long long>(limit ^ bias_bit));
  const __m256i halves = _mm256_set1_epi64x(static_cast<long long>(half ^ bias_bit));
  const __m256i low_halves = _mm256_set1_epi64x(0xffffffffLL);
  std::int64_t lower_end = lower_count;
  std::int64_t upper_end = upper_count;
  std::int64_t i = lo;
  for (; i + 4 <= hi; i += 4) {
    const __m256i at = load_four(indices + i);
    const __m256i at_biased = _mm256_xor_si256(at, bias);
    if (below(at_biased, limits) != 0xf) break;  // the scalar filer reports it
    const __m256i bits =
        _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(value_bits + i)));
    const __m256i pairs =
        _mm256_or_si256(_mm256_and_si256(at, low_halves), _mm256_slli_epi64(bits, 32));
    const int lowers = below(at_biased, halves);
    const int uppers = ~lowers & 0xf;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lower + lower_end),
                        shuffle(pairs, kFourLaneShuffles.first[static_cast<std::size_t>(lowers)]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(upper_top - upper_end - 3),
                        shuffle(pairs, kFourLaneShuffles.last[static_cast<std::size_t>(uppers)]));
    const int upper_rows = __builtin_popcount(static_cast<unsigned>(uppers));
    lower_end += 4 - upper_rows;
    upper_end += upper_rows;
  }
  lower_count = lower_end;
  upper_count = upper_end;
  return i;
}

int cpu_lanes() noexcept {
  if (__builtin_cpu_supports("avx512f") != 0) return 8;
  if (__builtin_cpu_supports("avx2") != 0) return 4;
  return 0;
}

#else

int cpu_lanes() noexcept { return 0; }

#endif

}  // namespace

template <class Index>
std::int64_t scatter_file_two_lists_wide(const Index* indices, const std::uint32_t* value_bits,
                                         std::int64_t lo, std::int64_t hi, std::uint64_t limit,
                                         std::uint64_t half, std::uint64_t* lower,
                                         std::uint64_t* upper_top, std::int64_t& lower_count,
                                         std::int64_t& upper_count) noexcept {
#if TESSERA_SCATTER_WIDE_FILING
  const int lanes = std::min(scatter_wide_filing_lanes().load(std::memory_order_relaxed),
                             scatter_wide_filing_available_lanes());
  if (lanes >= 8) {
    return file_eights(indices, value_bits, lo, hi, limit, half, lower, upper_top, lower_count,
                       upper_count);
  }
  if (lanes >= 4) {
    return file_fours(indices, value_bits, lo, hi, limit, half, lower, upper_top, lower_count,
                      upper_count);
  }
#else
  (void)indices, (void)value_bits, (void)hi, (void)limit, (void)half, (void)lower, (void)upper_top,
      (void)lower_count, (void)upper_count;
#endif
  return lo;
}

template std::int64_t scatter_file_two_lists_wide(const std::int64_t*, const std::uint32_t*,
                                                  std::int64_t, std::int64_t, std::uint64_t,
                                                  std::uint64_t, std::uint64_t*, std::uint64_t*,
                                                  std::int64_t&, std::int64_t&) noexcept;
template std::int64_t scatter_file_two_lists_wide(const std::int32_t*, const std::uint32_t*,
                                                  std::int64_t, std::int64_t, std::uint64_t,
                                                  std::uint64_t, std::uint64_t*, std::uint64_t*,
                                                  std::int64_t&, std::int64_t&) noexcept;

int scatter_wide_filing_available_lanes() noexcept {
  static const int lanes = cpu_lanes();
  return lanes;
}

namespace {

// TESSERA_SCATTER_FILING_LANES (8, 4 or 0), else the CPU's widest; unparsable: 0.
int configured_lanes() noexcept {
  const char* env = std::getenv("TESSERA_SCATTER_FILING_LANES");
  if (env == nullptr) return scatter_wide_filing_available_lanes();
  char* end = nullptr;
  const long lanes = std::strtol(env, &end, 10);
  return end != env && *end == '\0' && lanes > 0 ? static_cast<int>(std::min(lanes, 8L)) : 0;
}

}  // namespace

std::atomic<int>& scatter_wide_filing_lanes() noexcept {
  static std::atomic<int> lanes{configured_lanes()};
  return lanes;
}

}  // namespace tessera::detail
