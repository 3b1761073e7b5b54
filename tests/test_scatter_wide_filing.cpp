// SPDX-License-Identifier: BSD-3-Clause
// The element schedule's wide filing (detail/scatter_host_wide_filing.hpp), eight rows at a
// time (AVX-512F) and four (AVX2), as far as the CPU has them: the lists it files against a
// plain loop's, nothing written outside a block's region, the two lists intact where their
// full-vector stores meet, the row it stops at (a bad row's group, the last rows short of a
// group); and whole scatters bit-identical with every width and with wide filing off. Widths
// the CPU lacks are checked to file nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/scatter_reference.hpp"
#include "tessera/detail/scatter_host_wide_filing.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using namespace tessera_test::scatter;
using tessera_test::with_host_threads;
using ts::Tensor;
using ts::detail::kScatterFilingSlack;

/// Sets the rows wide filing takes at a time (0: off) for one scope, restoring it afterwards.
class WideFiling {
 public:
  explicit WideFiling(int lanes)
      : before_(ts::detail::scatter_wide_filing_lanes().exchange(lanes)) {}
  WideFiling(const WideFiling&) = delete;
  WideFiling& operator=(const WideFiling&) = delete;
  ~WideFiling() { ts::detail::scatter_wide_filing_lanes().store(before_); }

 private:
  int before_;
};

/// The widths to test: eight and four rows, and off.
constexpr int kLaneCounts[] = {8, 4, 0};

/// The rows at a time filing takes with `lanes` asked for on this CPU.
int lanes_in_use(int lanes) {
  return std::min(lanes, ts::detail::scatter_wide_filing_available_lanes());
}

constexpr std::uint64_t kGuard = 0x5a5a5a5a5a5a5a5aULL;
constexpr std::int64_t kGuardSlots = 16;

/// One block filed by the wide filer into a region with guard slots on both sides.
struct Filed {
  std::int64_t next = 0;  ///< the row it stopped at
  std::int64_t lower_count = 0;
  std::int64_t upper_count = 0;
  std::vector<std::uint64_t> slots;  ///< guards, the region (rows + slack), guards
};

template <class Index>
Filed file_block(const std::vector<Index>& indices, const std::vector<std::uint32_t>& bits,
                 std::uint64_t limit, std::uint64_t half) {
  const auto rows = static_cast<std::int64_t>(indices.size());
  Filed f;
  f.slots.assign(static_cast<std::size_t>(rows + kScatterFilingSlack + 2 * kGuardSlots), kGuard);
  std::uint64_t* const region = f.slots.data() + kGuardSlots;
  std::uint64_t* const top = region + rows + kScatterFilingSlack - 1;
  f.next = ts::detail::scatter_file_two_lists_wide(indices.data(), bits.data(), 0, rows, limit,
                                                   half, region, top, f.lower_count, f.upper_count);
  return f;
}

/// What the wide filer must have done for `indices`, taking `lanes` rows at a time: the rows of
/// the whole groups before the first group holding a bad row, filed in order into the two lists.
template <class Index>
void expect_filed(const Filed& f, int lanes, const std::vector<Index>& indices,
                  const std::vector<std::uint32_t>& bits, std::uint64_t limit, std::uint64_t half) {
  const auto rows = static_cast<std::int64_t>(indices.size());
  if (lanes == 0) {
    EXPECT_EQ(f.next, 0);
    EXPECT_EQ(f.lower_count, 0);
    EXPECT_EQ(f.upper_count, 0);
    EXPECT_TRUE(std::all_of(f.slots.begin(), f.slots.end(), [](auto s) { return s == kGuard; }));
    return;
  }
  std::int64_t next = 0;
  while (next + lanes <= rows &&
         std::all_of(indices.begin() + next, indices.begin() + next + lanes, [&](Index i) {
           return static_cast<std::uint64_t>(static_cast<std::int64_t>(i)) < limit;
         })) {
    next += lanes;
  }
  std::vector<std::uint64_t> lower;
  std::vector<std::uint64_t> upper;
  for (std::int64_t r = 0; r < next; ++r) {
    const auto at = static_cast<std::uint64_t>(indices[static_cast<std::size_t>(r)]);
    const std::uint64_t pair = at | (std::uint64_t{bits[static_cast<std::size_t>(r)]} << 32);
    (at < half ? lower : upper).push_back(pair);
  }
  ASSERT_EQ(f.next, next);
  ASSERT_EQ(f.lower_count, static_cast<std::int64_t>(lower.size()));
  ASSERT_EQ(f.upper_count, static_cast<std::int64_t>(upper.size()));
  const std::uint64_t* const region = f.slots.data() + kGuardSlots;
  const std::uint64_t* const top = region + rows + kScatterFilingSlack - 1;
  for (std::size_t q = 0; q < lower.size(); ++q) {
    ASSERT_EQ(region[q], lower[q]) << "lower list, pair " << q;
  }
  for (std::size_t q = 0; q < upper.size(); ++q) {
    ASSERT_EQ(*(top - q), upper[q]) << "upper list, pair " << q;
  }
  for (std::int64_t g = 0; g < kGuardSlots; ++g) {
    EXPECT_EQ(f.slots[static_cast<std::size_t>(g)], kGuard) << "before the region";
    EXPECT_EQ(f.slots[f.slots.size() - 1 - static_cast<std::size_t>(g)], kGuard)
        << "after the region";
  }
}

template <class Index>
class WideFilingIndex : public ::testing::Test {};
using IndexTypes = ::testing::Types<std::int64_t, std::int32_t>;
TYPED_TEST_SUITE(WideFilingIndex, IndexTypes);

// Blocks of every length up to 70 and a full 8192-row one, with all rows going one way, both
// ways at random, and split at every lane: the lists are the plain loop's and meet intact (a
// full block leaves only the slack between them).
TYPED_TEST(WideFilingIndex, FilesWhatTheLoopFiles) {
  using Index = TypeParam;
  std::mt19937_64 rng(5);
  const std::uint64_t limit = 1000;
  for (const int lanes : kLaneCounts) {
    const WideFiling width(lanes);
    for (std::int64_t rows : {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 63, 64, 65, 70, 8192}) {
      for (const std::uint64_t half : {std::uint64_t{0}, std::uint64_t{500}, limit}) {
        SCOPED_TRACE("lanes " + std::to_string(lanes) + ", rows " + std::to_string(rows) +
                     ", half " + std::to_string(half));
        std::vector<Index> indices(static_cast<std::size_t>(rows));
        std::vector<std::uint32_t> bits(static_cast<std::size_t>(rows));
        for (auto& i : indices) i = static_cast<Index>(rng() % limit);
        for (auto& b : bits) b = static_cast<std::uint32_t>(rng());
        const Filed f = file_block(indices, bits, limit, half);
        expect_filed(f, lanes_in_use(lanes), indices, bits, limit, half);
      }
    }
  }
}

// A bad row (negative, == limit, far past it) at each position of a group, and in the last
// rows short of a group: the filer stops at that group's first row (the scalar filer reports
// the row), having filed the groups before it.
TYPED_TEST(WideFilingIndex, StopsAtTheGroupOfABadRow) {
  using Index = TypeParam;
  std::mt19937_64 rng(6);
  const std::uint64_t limit = 777;
  const std::int64_t rows = 45;
  for (const int lanes : kLaneCounts) {
    const WideFiling width(lanes);
    for (const Index bad : {Index{-1}, static_cast<Index>(limit), std::numeric_limits<Index>::max(),
                            std::numeric_limits<Index>::min()}) {
      for (std::int64_t at : {8, 11, 16, 17, 20, 23, 40, 44}) {
        SCOPED_TRACE("lanes " + std::to_string(lanes) + ", bad row " + std::to_string(at) + " = " +
                     std::to_string(bad));
        std::vector<Index> indices(static_cast<std::size_t>(rows));
        std::vector<std::uint32_t> bits(static_cast<std::size_t>(rows));
        for (auto& i : indices) i = static_cast<Index>(rng() % limit);
        for (auto& b : bits) b = static_cast<std::uint32_t>(rng());
        indices[static_cast<std::size_t>(at)] = bad;
        const Filed f = file_block(indices, bits, limit, limit / 2);
        expect_filed(f, lanes_in_use(lanes), indices, bits, limit, limit / 2);
      }
    }
  }
}

// Switched off, it files nothing (the scalar filer does it all).
TYPED_TEST(WideFilingIndex, FilesNothingWhenSwitchedOff) {
  using Index = TypeParam;
  const WideFiling off(0);
  const std::vector<Index> indices(64, Index{3});
  const std::vector<std::uint32_t> bits(64, 9U);
  const Filed f = file_block(indices, bits, 10, 5);
  EXPECT_EQ(f.next, 0);
  EXPECT_EQ(f.lower_count + f.upper_count, 0);
  EXPECT_TRUE(std::all_of(f.slots.begin(), f.slots.end(), [](auto s) { return s == kGuard; }));
}

template <class T, class Index>
void expect_same_scatters(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  const std::int64_t n = 100003;
  const std::int64_t rows = (std::int64_t{1} << 19) + 13;  // rounds, blocks and a short tail
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  for (auto& i : idx) {
    // A third of the rows on the two parts' edge, so that duplicates straddle it.
    i = rng() % 3 == 0 ? n / 2 - 1 + static_cast<std::int64_t>(rng() % 2)
                       : static_cast<std::int64_t>(rng() % n);
  }
  std::vector<T> values(static_cast<std::size_t>(n));
  std::vector<T> updates(static_cast<std::size_t>(rows));
  for (auto& v : values) v = static_cast<T>(normal(rng) * 100);
  for (auto& v : updates) v = static_cast<T>(normal(rng) * 100);
  const ts::Shape shape{n};
  const auto t = Tensor<T>::from_vector(values, shape);
  const auto u = Tensor<T>::from_vector(updates, {rows});
  auto indices_of = [&](const std::vector<std::int64_t>& v) {
    return Tensor<Index>::from_vector(std::vector<Index>(v.begin(), v.end()), {rows, 1});
  };
  const auto indices = indices_of(idx);
  // Bad rows in the middle of filers' blocks, where a group of eight holds one.
  auto bad_idx = idx;
  for (std::size_t r = 4096 + 3; r < bad_idx.size(); r += 50021) {
    bad_idx[r] = r % 2 != 0 ? -1 : n;
  }
  const auto bad_indices = indices_of(bad_idx);
  const ts::ScatterOptions options{.deterministic = true};
  const ts::ScatterOptions ignore{.out_of_bounds = ts::OutOfBounds::Ignore, .deterministic = true};
  with_host_threads({1, 2, 3}, [&] {
    for (const int lanes : kLaneCounts) {
      const WideFiling width(lanes);
      SCOPED_TRACE("filing lanes " + std::to_string(lanes_in_use(lanes)));
      const auto expected = reference_scatter(Op::Sub, values, shape, idx, 1, updates);
      EXPECT_TRUE(same_bits(t.tensor_scatter_nd_sub(indices, u, options).to_vector(), expected));
      auto in_place = t.clone();
      in_place.scatter_nd_sub_(indices, u, options);
      EXPECT_TRUE(same_bits(in_place.to_vector(), expected));
      const auto skipped = reference_scatter(Op::Add, values, shape, bad_idx, 1, updates);
      EXPECT_TRUE(same_bits(t.tensor_scatter_nd_add(bad_indices, u, ignore).to_vector(), skipped));
      auto untouched = t.clone();
      EXPECT_THROW(untouched.scatter_nd_add_(bad_indices, u, options), ts::IndexError);
      EXPECT_TRUE(same_bits(untouched.to_vector(), values));
    }
  });
}

// Whole scatters of 4-byte values (the ones filed wide) with 64- and 32-bit indices: the
// sequential loop's bits at every filing width and with wide filing off, at 1-3 host threads
// (two parts file wide).
TEST(ScatterWideFiling, WholeScattersKeepTheLoopsBits) {
  expect_same_scatters<float, std::int64_t>(1);
  expect_same_scatters<float, std::int32_t>(2);
  expect_same_scatters<std::int32_t, std::int64_t>(3);
  expect_same_scatters<std::int32_t, std::int32_t>(4);
}

}  // namespace
