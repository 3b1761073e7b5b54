// SPDX-License-Identifier: BSD-3-Clause
// randperm's host ordering (uniform_key_order.hpp). The keys are uniform, so their order is
// found by buckets rather than comparisons:
//  1. Each thread files its part of the keys by their top 8 bits into a region per bucket,
//     sized for the expected count plus 8 standard deviations (no counting pass; when a region
//     overflows, which a uniform stream all but never does, a counting pass sizes them
//     exactly and the filing runs again). What is filed is one 64-bit word per key: the key's
//     next bits with the key's index in the low bits, so that ordering words orders keys, ties
//     by index (stable), at 8 bytes a key instead of a key and an index.
//  2. Per bucket: a counting pass over the next bits (about one run per key), an insertion sort
//     that moves a word only past the few of its run, and the rare words whose kept key bits tie
//     (p ~ n^2 / 2^(73 - log2 n)) ordered again by their whole keys. The bucket's words stay in
//     the cache between the three passes.

#include "random/uniform_key_order.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "tessera/expr/host_parallel.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

constexpr int kTopBits = 8;
constexpr std::int64_t kBuckets = std::int64_t{1} << kTopBits;

std::uint64_t key_at(const std::int64_t* keys, std::int64_t i) {
  return static_cast<std::uint64_t>(keys[i]) ^ (std::uint64_t{1} << 63);
}

/// The words of part t and bucket b: words[start[t * kBuckets + b] + j] for j < filled[...].
struct Filing {
  std::int64_t parts;
  std::int64_t part;  // keys per part
  int index_bits;     // bits of a word that hold the index
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> filled;
};

/// Files every part's keys into its regions of at most `capacity` words each; false when one
/// overflowed (its words past the capacity are not written).
bool file_keys(const std::int64_t* keys, std::int64_t n, std::int64_t capacity, Filing& f,
               std::uint64_t* words) {
  std::fill(f.filled.begin(), f.filled.end(), 0);
  const std::uint64_t low = ~std::uint64_t{0} << f.index_bits;
  host_parallel_for(f.parts, [&](std::int64_t t) {
    const std::int64_t* const start = f.start.data() + t * kBuckets;
    std::int64_t* const filled = f.filled.data() + t * kBuckets;
    for (std::int64_t i = t * f.part, end = std::min(n, i + f.part); i < end; ++i) {
      const std::uint64_t key = key_at(keys, i);
      const auto b = static_cast<std::int64_t>(key >> (64 - kTopBits));
      const std::int64_t at = filled[b]++;
      if (at < capacity) {
        words[start[b] + at] = ((key << kTopBits) & low) | static_cast<std::uint64_t>(i);
      }
    }
  });
  return std::all_of(f.filled.begin(), f.filled.end(),
                     [capacity](std::int64_t c) { return c <= capacity; });
}

/// Orders words[0, m) whose kept key bits tie by their whole keys (then by index, which the
/// words already order).
void order_ties(const std::int64_t* keys, std::uint64_t* words, std::int64_t m, int index_bits) {
  const std::uint64_t index_mask = ~(~std::uint64_t{0} << index_bits);
  for (std::int64_t j = 1; j < m; ++j) {
    if ((words[j] >> index_bits) != (words[j - 1] >> index_bits)) continue;
    std::int64_t end = j + 1;
    while (end < m && (words[end] >> index_bits) == (words[j] >> index_bits)) ++end;
    std::stable_sort(words + j - 1, words + end, [&](std::uint64_t a, std::uint64_t b) {
      return key_at(keys, static_cast<std::int64_t>(a & index_mask)) <
             key_at(keys, static_cast<std::int64_t>(b & index_mask));
    });
    j = end;
  }
}

}  // namespace

void stable_order_of_uniform_keys(const std::int64_t* keys, std::int64_t n, std::int64_t* order) {
  Filing f;
  f.parts = std::clamp<std::int64_t>(n / 65536, 1, host_thread_count());
  f.part = (n + f.parts - 1) / f.parts;
  f.index_bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1))));
  f.start.resize(static_cast<std::size_t>(f.parts * kBuckets));
  f.filled.resize(f.start.size());
  const std::int64_t expected = (f.part + kBuckets - 1) / kBuckets;
  const auto capacity = expected + 8 * static_cast<std::int64_t>(std::sqrt(expected)) + 16;
  // Scratch from the host block cache (a fresh allocation per call cost page faults).
  const auto storage = Tensor<std::int64_t>::empty(Shape{f.parts * kBuckets * capacity});
  auto* const words = reinterpret_cast<std::uint64_t*>(storage.data());
  for (std::size_t r = 0; r < f.start.size(); ++r) {
    f.start[r] = static_cast<std::int64_t>(r) * capacity;
  }
  if (!file_keys(keys, n, capacity, f, words)) {
    // Exact regions, bucket by bucket and part by part, from the counts the filing left.
    std::int64_t running = 0;
    for (std::int64_t b = 0; b < kBuckets; ++b) {
      for (std::int64_t t = 0; t < f.parts; ++t) {
        const auto r = static_cast<std::size_t>(t * kBuckets + b);
        f.start[r] = running;
        running += f.filled[r];
      }
    }
    file_keys(keys, n, n, f, words);
  }
  std::vector<std::int64_t> first(kBuckets + 1, 0);
  for (std::int64_t b = 0; b < kBuckets; ++b) {
    std::int64_t m = 0;
    for (std::int64_t t = 0; t < f.parts; ++t)
      m += f.filled[static_cast<std::size_t>(t * kBuckets + b)];
    first[static_cast<std::size_t>(b + 1)] = first[static_cast<std::size_t>(b)] + m;
  }
  const std::uint64_t index_mask = ~(~std::uint64_t{0} << f.index_bits);
  host_adaptive_blocks<struct RandpermBuckets>(kBuckets, [&](std::int64_t b) {
    const std::int64_t begin = first[static_cast<std::size_t>(b)];
    const std::int64_t m = first[static_cast<std::size_t>(b + 1)] - begin;
    if (m == 0) return;
    // Runs of the words' top bits (the key's bits below the bucket's), about one per key.
    const int bits =
        std::clamp(static_cast<int>(std::bit_width(static_cast<std::uint64_t>(m))), 1, 20);
    const auto run_of = [bits](std::uint64_t w) {
      return static_cast<std::size_t>(w >> (64 - bits));
    };
    // Per-thread buffers, kept between buckets and calls.
    thread_local std::vector<std::uint32_t> next;
    thread_local std::vector<std::uint64_t> sorted;
    next.assign(std::size_t{1} << bits, 0u);
    if (sorted.size() < static_cast<std::size_t>(m)) sorted.resize(static_cast<std::size_t>(m));
    const auto each_word = [&](auto&& visit) {
      for (std::int64_t t = 0; t < f.parts; ++t) {
        const auto r = static_cast<std::size_t>(t * kBuckets + b);
        const std::uint64_t* const region = words + f.start[r];
        for (std::int64_t j = 0, c = f.filled[r]; j < c; ++j) visit(region[j]);
      }
    };
    each_word([&](std::uint64_t w) { ++next[run_of(w)]; });
    std::uint32_t total = 0;
    for (auto& count : next) {
      const std::uint32_t c = count;
      count = total;
      total += c;
    }
    std::uint64_t* const s = sorted.data();
    each_word([&](std::uint64_t w) { s[next[run_of(w)]++] = w; });
    // Earlier runs hold smaller words: a word moves only past the few of its own run.
    for (std::int64_t j = 1; j < m; ++j) {
      const std::uint64_t w = s[j];
      std::int64_t i = j;
      for (; i > 0 && s[i - 1] > w; --i) s[i] = s[i - 1];
      s[i] = w;
    }
    // The indices out, noting on the way whether kept key bits tie anywhere (rarely: then
    // those words are ordered again and the indices written once more).
    std::int64_t* const out = order + begin;
    bool ties = false;
    out[0] = static_cast<std::int64_t>(s[0] & index_mask);
    for (std::int64_t j = 1; j < m; ++j) {
      ties |= (s[j] >> f.index_bits) == (s[j - 1] >> f.index_bits);
      out[j] = static_cast<std::int64_t>(s[j] & index_mask);
    }
    if (ties) [[unlikely]] {
      order_ties(keys, s, m, f.index_bits);
      for (std::int64_t j = 0; j < m; ++j) out[j] = static_cast<std::int64_t>(s[j] & index_mask);
    }
  });
}

}  // namespace tessera::detail
