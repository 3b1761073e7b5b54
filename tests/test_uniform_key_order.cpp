// SPDX-License-Identifier: BSD-3-Clause
// randperm's host ordering (src/random/uniform_key_order.cpp) on keys the Philox stream all but
// never draws: ties in the bits a filed word keeps, whole-key ties, and keys crowded into one
// bucket (regions overflow, the exact filing runs). Each must still give the stable argsort.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "random/uniform_key_order.hpp"
#include "support/host_threads.hpp"

namespace {

/// The stable argsort of unsigned keys, the reference, and the library's order of the same
/// keys (stored as randperm stores them, sign bit flipped), at 1, 2 and 3 host threads.
void expect_stable_argsort(const std::vector<std::uint64_t>& keys) {
  const auto n = static_cast<std::int64_t>(keys.size());
  std::vector<std::int64_t> expected(keys.size());
  std::iota(expected.begin(), expected.end(), 0);
  std::stable_sort(expected.begin(), expected.end(), [&](std::int64_t a, std::int64_t b) {
    return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
  });
  std::vector<std::int64_t> stored(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    stored[i] = static_cast<std::int64_t>(keys[i] ^ (std::uint64_t{1} << 63));
  }
  tessera_test::with_host_threads({1, 2, 3}, [&] {
    std::vector<std::int64_t> order(keys.size(), -1);
    tessera::detail::stable_order_of_uniform_keys(stored.data(), n, order.data());
    EXPECT_EQ(order, expected);
  });
}

TEST(UniformKeyOrder, UniformKeysGiveTheStableArgsort) {
  std::mt19937_64 rng(5);
  for (const std::size_t n : {std::size_t{4096}, std::size_t{70'001}, std::size_t{200'000}}) {
    std::vector<std::uint64_t> keys(n);
    for (auto& k : keys) k = rng();
    expect_stable_argsort(keys);
  }
}

TEST(UniformKeyOrder, KeysTiedInTheKeptBitsAreOrderedByTheirWholeKeys) {
  // 70001 keys need 17 index bits: a filed word keeps the top 55 bits of its key. Groups of
  // keys share those and differ (in any order) in the 9 below, or not at all.
  std::mt19937_64 rng(6);
  std::vector<std::uint64_t> keys(70'001);
  for (std::size_t i = 0; i < keys.size(); i += 7) {
    const std::uint64_t top = rng() & (~std::uint64_t{0} << 9);
    for (std::size_t j = i; j < std::min(keys.size(), i + 7); ++j) keys[j] = top | (rng() & 0x1ff);
    if (i + 1 < keys.size()) keys[i + 1] = keys[i];  // a whole-key tie: stable by index
  }
  std::shuffle(keys.begin(), keys.end(), rng);
  expect_stable_argsort(keys);
}

TEST(UniformKeyOrder, KeysCrowdedIntoOneBucketTakeTheExactFiling) {
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> keys(150'000);
  for (auto& k : keys) k = (std::uint64_t{0x5a} << 56) | (rng() >> 8);
  keys[100] = std::uint64_t{1} << 63;  // one key elsewhere
  expect_stable_argsort(keys);
  std::fill(keys.begin(), keys.end(), std::uint64_t{42});  // every key equal: index order
  expect_stable_argsort(keys);
}

}  // namespace
