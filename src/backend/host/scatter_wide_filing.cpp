// The element schedule's wide filing (tessera/detail/scatter_host_wide_filing.hpp): AVX-512F
// code in functions of their own, chosen at run time, so that the library still runs on any
// x86-64 CPU and callers never compile intrinsics.

#include "tessera/detail/scatter_host_wide_filing.hpp"

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

[[gnu::target("avx512f")]] inline __m512i load_eight(const std::int64_t* at) {
  return _mm512_loadu_si512(at);
}

// Sign-extended: a negative index becomes a huge unsigned one, past every limit.
[[gnu::target("avx512f")]] inline __m512i load_eight(const std::int32_t* at) {
  return _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
}

template <class Index>
[[gnu::target("avx512f")]] std::int64_t file_wide(
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

bool cpu_has_avx512f() noexcept { return __builtin_cpu_supports("avx512f") != 0; }

#else

bool cpu_has_avx512f() noexcept { return false; }

#endif

template <class Index>
std::int64_t file_if_enabled(const Index* indices, const std::uint32_t* value_bits, std::int64_t lo,
                             std::int64_t hi, std::uint64_t limit, std::uint64_t half,
                             std::uint64_t* lower, std::uint64_t* upper_top,
                             std::int64_t& lower_count, std::int64_t& upper_count) noexcept {
#if TESSERA_SCATTER_WIDE_FILING
  static const bool available = scatter_wide_filing_available();
  if (available && scatter_wide_filing_enabled().load(std::memory_order_relaxed)) {
    return file_wide(indices, value_bits, lo, hi, limit, half, lower, upper_top, lower_count,
                     upper_count);
  }
#else
  (void)indices, (void)value_bits, (void)hi, (void)limit, (void)half, (void)lower, (void)upper_top,
      (void)lower_count, (void)upper_count;
#endif
  return lo;
}

}  // namespace

std::int64_t scatter_file_two_lists_wide(const std::int64_t* indices,
                                         const std::uint32_t* value_bits, std::int64_t lo,
                                         std::int64_t hi, std::uint64_t limit, std::uint64_t half,
                                         std::uint64_t* lower, std::uint64_t* upper_top,
                                         std::int64_t& lower_count,
                                         std::int64_t& upper_count) noexcept {
  return file_if_enabled(indices, value_bits, lo, hi, limit, half, lower, upper_top, lower_count,
                         upper_count);
}

std::int64_t scatter_file_two_lists_wide(const std::int32_t* indices,
                                         const std::uint32_t* value_bits, std::int64_t lo,
                                         std::int64_t hi, std::uint64_t limit, std::uint64_t half,
                                         std::uint64_t* lower, std::uint64_t* upper_top,
                                         std::int64_t& lower_count,
                                         std::int64_t& upper_count) noexcept {
  return file_if_enabled(indices, value_bits, lo, hi, limit, half, lower, upper_top, lower_count,
                         upper_count);
}

bool scatter_wide_filing_available() noexcept {
  static const bool available = cpu_has_avx512f();
  return available;
}

std::atomic<bool>& scatter_wide_filing_enabled() noexcept {
  static std::atomic<bool> enabled{scatter_wide_filing_available()};
  return enabled;
}

}  // namespace tessera::detail
