// SPDX-License-Identifier: BSD-3-Clause
// sort, argsort and topk: PyTorch 2.15's answers for every dtype (tests/data/ordering_golden.json,
// written by tools/golden/gen_ordering.py), reference loops (std::stable_sort with NaN the
// largest) over random shapes, dims, strided views and expressions on every device, the host's
// parallel paths (many rows, one long row, topk's selection), errors and the contract spellings.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/pointwise_check.hpp"
#include "support/reference.hpp"

namespace ts = tessera;
using tessera_test::decode_all;
using tessera_test::golden;
using tessera_test::is_nan;
using tessera_test::shape_of;
using tessera_test::throws_with;

namespace {

/// The ordering's "a before b": NaN the largest, -0.0 equal to +0.0.
template <class T>
bool ordered_before(T a, T b, bool descending) {
  if (descending) std::swap(a, b);
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return a < b;
}

/// The reference: a host copy's rows along `dim`, each stably sorted, first k kept; values and
/// positions in the result's row-major order.
template <class T>
std::pair<std::vector<T>, std::vector<std::int64_t>> reference(const ts::Tensor<T>& x,
                                                               std::int64_t dim, bool descending,
                                                               std::int64_t k) {
  const auto v = x.contiguous().cpu().to_vector();
  const auto& shape = x.shape();
  const std::int64_t nd = x.dim();
  const int d = static_cast<int>(dim < 0 ? dim + std::max<std::int64_t>(nd, 1) : dim);
  std::int64_t outer = 1, n = 1, inner = 1;
  if (nd > 0) {
    n = shape[d];
    for (int i = 0; i < d; ++i) outer *= shape[i];
    for (int i = d + 1; i < nd; ++i) inner *= shape[i];
  }
  std::vector<T> values(static_cast<std::size_t>(outer * k * inner));
  std::vector<std::int64_t> indices(values.size());
  std::vector<std::int64_t> pos(static_cast<std::size_t>(n));
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      const auto at = [&](std::int64_t j) {
        return v[static_cast<std::size_t>((o * n + j) * inner + i)];
      };
      std::iota(pos.begin(), pos.end(), std::int64_t{0});
      std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t a, std::int64_t b) {
        return ordered_before(at(a), at(b), descending);
      });
      for (std::int64_t j = 0; j < k; ++j) {
        const auto to = static_cast<std::size_t>((o * k + j) * inner + i);
        indices[to] = pos[static_cast<std::size_t>(j)];
        values[to] = at(pos[static_cast<std::size_t>(j)]);
      }
    }
  }
  return {values, indices};
}

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!tessera_test::identical_value(got[i], want[i])) {
      ADD_FAILURE() << what << ": element " << i << " is " << +got[i] << ", expected " << +want[i];
      return;
    }
  }
}

/// Random values with many ties; floats add NaN, +-inf, -0.0 and +0.0.
template <class T>
std::vector<T> random_values(std::int64_t n, std::mt19937_64& rng, int spread = 9) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::uniform_int_distribution<int> dist(-spread, spread);
  for (auto& e : v) {
    if constexpr (std::is_same_v<T, bool>) {
      e = dist(rng) > 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      const int r = dist(rng);
      e = r == spread       ? std::numeric_limits<T>::quiet_NaN()
          : r == -spread    ? -std::numeric_limits<T>::infinity()
          : r == spread - 1 ? std::numeric_limits<T>::infinity()
          : r == 0          ? (rng() % 2 ? T(-0.0) : T(0.0))
                            : static_cast<T>(r) * T(0.25);
    } else if constexpr (std::is_unsigned_v<T>) {
      e = static_cast<T>(dist(rng) + spread);
    } else {
      e = static_cast<T>(dist(rng));
      if (dist(rng) == spread) e = std::numeric_limits<T>::min();
      if (dist(rng) == -spread) e = std::numeric_limits<T>::max();
    }
  }
  return v;
}

/// sort (both directions), argsort and topk (largest and smallest, a small and a large k) of x
/// against the reference.
template <class T>
void check_all(const ts::Tensor<T>& x, std::int64_t dim, const std::string& what) {
  for (bool descending : {false, true}) {
    const std::string w = what + (descending ? " descending" : " ascending");
    const auto [want_v, want_i] = reference(x, dim, descending, x.dim() ? x.size(dim) : 1);
    const auto [v, i] = ts::sort(x, dim, descending);
    ASSERT_EQ(v.shape(), x.shape()) << w;
    ASSERT_EQ(v.device(), x.device()) << w;
    expect_same(v.cpu().to_vector(), want_v, "sort values of " + w);
    expect_same(i.cpu().to_vector(), want_i, "sort indices of " + w);
    expect_same(ts::argsort(x, dim, descending).cpu().to_vector(), want_i, "argsort of " + w);
    const std::int64_t n = x.dim() ? x.size(dim) : 1;
    for (std::int64_t k : {std::min<std::int64_t>(n, 3), n / 2 + (n > 0)}) {
      const auto [tv_want, ti_want] = reference(x, dim, descending, k);
      const auto [tv, ti] = ts::topk(x, k, dim, descending);
      expect_same(tv.cpu().to_vector(), tv_want, "topk values of " + w);
      expect_same(ti.cpu().to_vector(), ti_want, "topk indices of " + w);
    }
  }
}

template <class T>
void random_shapes_on(ts::Device device, std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const int nd = 1 + static_cast<int>(rng() % 3);
    std::vector<std::int64_t> ext(static_cast<std::size_t>(nd));
    for (auto& e : ext) e = static_cast<std::int64_t>(rng() % 7 == 0 ? 0 : rng() % 40);
    if (trial % 4 == 3) ext.back() = 700 + static_cast<std::int64_t>(rng() % 300);  // radix rows
    const ts::Shape shape(ext.begin(), ext.end());
    const auto x = ts::Tensor<T>::from_vector(random_values<T>(shape.numel(), rng), shape, device);
    const std::int64_t dim = static_cast<std::int64_t>(rng() % nd) - (trial % 2 ? nd : 0);
    const std::string what = std::string(ts::dtype_name(ts::dtype_v<T>)) + " trial " +
                             std::to_string(trial) + " dim " + std::to_string(dim);
    check_all(x, dim, what + " contiguous");
    if (nd >= 2) check_all(x.transpose(0, nd - 1), dim, what + " transposed");
    check_all(x.slice(nd - 1, 0, std::numeric_limits<std::int64_t>::max(), 2), dim,
              what + " stepped");
  }
}

}  // namespace

class Ordering : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(Ordering);

TEST_P(Ordering, RandomShapesDimsAndViewsMatchStableReference) {
  // The device runs one kernel for every dtype (Thrust's sort by key): fewer cases there.
  const int trials = device().is_cpu() ? 12 : 4;
  random_shapes_on<float>(device(), 1, trials);
  random_shapes_on<std::int64_t>(device(), 2, trials);
  if (device().is_cpu()) {
    random_shapes_on<double>(device(), 3, trials);
    random_shapes_on<std::int16_t>(device(), 4, trials);
  }
}

// Expressions are evaluated once, on their device, and ordered like their values.
TEST_P(Ordering, ExpressionsAndMethodTwins) {
  std::mt19937_64 rng(5);
  const auto a = ts::Tensor<float>::from_vector(random_values<float>(60, rng), {6, 10}, device());
  const auto b = ts::Tensor<float>::from_vector(random_values<float>(10, rng), {10}, device());
  const ts::Tensor<float> e = a * 2.0f - b;
  const auto [v, i] = (a * 2.0f - b).sort(0, true);
  const auto [rv, ri] = reference(e, 0, true, 6);
  expect_same(v.cpu().to_vector(), rv, "sort of a * 2 - b");
  expect_same(i.cpu().to_vector(), ri, "sort indices of a * 2 - b");
  expect_same((a * 2.0f - b).argsort().cpu().to_vector(), reference(e, -1, false, 10).second,
              "argsort of a * 2 - b");
  const auto [tv, ti] = (a * 2.0f - b).topk(3, 1, false);
  expect_same(ti.cpu().to_vector(), reference(e, 1, false, 3).second, "topk of a * 2 - b");
  expect_same(ts::argsort(a > 0.0f, 0).cpu().to_vector(),
              reference(ts::eval(a > 0.0f), 0, false, 6).second, "argsort of a bool expression");
}

// Rows spread over threads, one long row sorted by every thread (the parallel radix sort), and
// topk's selection, per row and per part of one long row; every key byte varies for int64.
TEST_P(Ordering, ParallelPathsMatchReference) {
  std::mt19937_64 rng(6);
  const auto many = ts::Tensor<float>::from_vector(random_values<float>(64 * 900, rng, 4000),
                                                   {64, 900}, device());
  check_all(many, 1, "64 rows of 900");
  const auto [v, i] = many.topk(10);
  const auto [rv, ri] = reference(many, 1, true, 10);
  expect_same(v.cpu().to_vector(), rv, "topk(10) of 64 rows");
  expect_same(i.cpu().to_vector(), ri, "topk(10) indices of 64 rows");
  const auto row = ts::Tensor<float>::from_vector(random_values<float>(150000, rng, 1 << 20),
                                                  {150000}, device());
  for (bool descending : {false, true}) {
    const auto [lv, li] = row.sort(0, descending);
    const auto [rlv, rli] = reference(row, 0, descending, 150000);
    expect_same(lv.cpu().to_vector(), rlv, "sort of one long row");
    expect_same(li.cpu().to_vector(), rli, "sort indices of one long row");
    expect_same(row.topk(20, 0, descending).indices.cpu().to_vector(),
                reference(row, 0, descending, 20).second, "topk(20) of one long row");
  }
  // Long rows along dim 0 (strided in the input): with three threads or more, two rows are
  // fewer rows than threads, and each is gathered, then sorted or selected by every thread.
  const auto cols = ts::Tensor<float>::from_vector(random_values<float>(140000, rng, 1 << 20),
                                                   {70000, 2}, device());
  expect_same(cols.argsort(0).cpu().to_vector(), reference(cols, 0, false, 70000).second,
              "argsort of two long strided rows");
  expect_same(cols.topk(5, 0).indices.cpu().to_vector(), reference(cols, 0, true, 5).second,
              "topk(5) of two long strided rows");
  std::vector<std::int64_t> wide(100000);
  for (auto& w : wide) w = static_cast<std::int64_t>(rng());
  const auto big = ts::Tensor<std::int64_t>::from_vector(wide, {100000}, device());
  expect_same(big.argsort(0, true).cpu().to_vector(), reference(big, 0, true, 100000).second,
              "argsort of full-range int64");
}

// 0-d: the value and position 0; empty dims: empty results of the right shape.
TEST_P(Ordering, ZeroDimensionalAndEmpty) {
  const auto s = ts::Tensor<float>::scalar(2.5f, device());
  const auto [v, i] = s.sort();
  EXPECT_EQ(v.dim(), 0);
  EXPECT_EQ(v.item(), 2.5f);
  EXPECT_EQ(i.item(), 0);
  EXPECT_EQ(s.topk(0).values.item(), 2.5f);  // PyTorch returns the value for k = 0 and 1
  const auto e = ts::Tensor<std::int32_t>::empty({3, 0, 2}, device());
  EXPECT_EQ(e.sort(1).values.shape(), ts::Shape({3, 0, 2}));
  EXPECT_EQ(e.argsort(0).shape(), ts::Shape({3, 0, 2}));
  EXPECT_EQ(e.topk(2, 0).indices.shape(), ts::Shape({2, 0, 2}));
  EXPECT_EQ(e.topk(0, 1).values.shape(), ts::Shape({3, 0, 2}));
}

TEST_P(Ordering, ErrorsNameOpArgumentAndValues) {
  const auto x = ts::Tensor<float>::ones({3, 4}, device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { x.sort(2); },
                                          {"sort", "Dimension out of range", "[-2, 1]", "got 2"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::argsort(x * 2.0f, -3); },
                                          {"argsort", "[-2, 1]", "got -3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { x.topk(5, 1); }, {"topk", "k = 5", "= 4"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { x.topk(-1); }, {"topk", "k = -1"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { x.topk(1, 2); }, {"topk", "got 2"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::Tensor<float>::scalar(1.0f).sort(1); },
                                          {"sort", "[-1, 0]"}));
}

// The spellings of the API contract's ordering block.
TEST_P(Ordering, ContractSpellings) {
  const auto t = ts::Tensor<float>::from_vector({3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, {2, 5}, device());
  auto [sorted, order] = t.sort();
  auto d = t.sort(/*dim*/ 0, /*descending*/ true);
  ts::Tensor<int64_t> o = t.argsort();
  t.argsort(/*dim*/ -1, /*descending*/ true);
  auto [top, pos] = t.topk(/*k*/ 5);
  t.topk(5, /*dim*/ 1, /*largest*/ false, /*sorted*/ true);
  ts::sort(t, 0, true);
  ts::argsort(t, -1, true);
  ts::topk(t, 2, 0, false, true);
  const auto seq = ts::Tensor<float>::from_vector({5, 1, 4, 2}, device());
  const auto v = ts::Tensor<float>::from_vector({0, 3, 6}, device());
  auto i = seq.searchsorted(v, {.sorter = seq.argsort()});
  EXPECT_EQ(sorted.cpu().to_vector(), (std::vector<float>{1, 1, 3, 4, 5, 2, 3, 5, 6, 9}));
  EXPECT_EQ(order.cpu().to_vector(), (std::vector<std::int64_t>{1, 3, 0, 2, 4, 1, 4, 3, 2, 0}));
  EXPECT_EQ(d.values.cpu().to_vector(), (std::vector<float>{9, 2, 6, 5, 5, 3, 1, 4, 1, 3}));
  EXPECT_EQ(o.cpu().to_vector(), order.cpu().to_vector());
  EXPECT_EQ(top.cpu().to_vector(), (std::vector<float>{5, 4, 3, 1, 1, 9, 6, 5, 3, 2}));
  EXPECT_EQ(pos.cpu().to_vector(), (std::vector<std::int64_t>{4, 2, 0, 1, 3, 0, 2, 3, 4, 1}));
  EXPECT_EQ(i.cpu().to_vector(), (std::vector<std::int64_t>{0, 2, 4}));
}

// ---- PyTorch's answers ------------------------------------------------------------------------

namespace {

/// got against PyTorch's `want`; `signed_zeros`: -0.0 and +0.0 told apart (not for topk's
/// values, where which of tied zeros comes first is unspecified).
template <class R>
void expect_golden(const ts::Tensor<R>& got, const nlohmann::json& want, const std::string& what,
                   bool signed_zeros = true) {
  ASSERT_EQ(std::string(ts::dtype_name(ts::dtype_v<R>)), want["dtype"].get<std::string>()) << what;
  ASSERT_EQ(got.shape(), shape_of(want)) << what;
  auto g = got.cpu().to_vector();
  auto w = decode_all<R>(want);
  if (!signed_zeros) {
    for (auto* v : {&g, &w}) {
      if constexpr (std::is_floating_point_v<R>) {
        for (auto& e : *v) e = e == R(0) ? R(0) : e;
      }
    }
  }
  expect_same(g, w, what);
}

template <class T>
void run_golden(const nlohmann::json& c, const ts::Tensor<T>& x) {
  const auto op = c["op"].get<std::string>();
  const std::string what =
      op + " of " + c["input"]["dtype"].get<std::string>() + " " + c["input"]["shape"].dump();
  if (op == "searchsorted") {
    if constexpr (!std::is_same_v<T, bool>) {
      const auto v = tessera_test::golden_tensor<T>(c["v"], x.device());
      const auto i = x.searchsorted(v, {.right = c["right"].get<bool>(), .sorter = x.argsort()});
      expect_golden(i, c["indices"], what);
    }
    return;
  }
  const std::int64_t dim = c["dim"].get<std::int64_t>();
  if (c.contains("error")) {
    if (c["error"] == "NotImplementedError") return;  // PyTorch's CPU topk refuses bool
    // PyTorch raises IndexError for a bad dim and RuntimeError for a bad k; tessera IndexError.
    if (op == "topk") {
      EXPECT_THROW(ts::topk(x, c["k"].get<std::int64_t>(), dim), ts::IndexError) << what;
    } else {
      EXPECT_THROW(ts::sort(x, dim), ts::IndexError) << what;
    }
    return;
  }
  if (op == "sort") {
    const auto [v, i] = ts::sort(x, dim, c["descending"].get<bool>());
    expect_golden(v, c["values"], what);
    expect_golden(i, c["indices"], what);
  } else if (op == "argsort") {
    expect_golden(ts::argsort(x, dim, c["descending"].get<bool>()), c["indices"], what);
  } else {
    // Which of tied positions topk returns is unspecified: the values must match, and the
    // indices must select them.
    const auto [v, i] = ts::topk(x, c["k"].get<std::int64_t>(), dim, c["largest"].get<bool>());
    expect_golden(v, c["values"], what, false);
    ASSERT_EQ(i.shape(), shape_of(c["indices"])) << what;
    if (x.dim() > 0 && x.numel() > 0 && i.numel() > 0) {
      const auto picked = x.cpu().contiguous().to_vector();
      const auto vs = v.cpu().to_vector();
      const auto is = i.cpu().to_vector();
      const int d = static_cast<int>(dim < 0 ? dim + x.dim() : dim);
      std::int64_t inner = 1;
      for (int j = d + 1; j < x.dim(); ++j) inner *= x.size(j);
      const std::int64_t k = i.size(d), n = x.size(d);
      for (std::size_t q = 0; q < is.size(); ++q) {
        const auto qi = static_cast<std::int64_t>(q);
        const std::int64_t o = qi / (k * inner), in = qi % inner;
        const T at = picked[static_cast<std::size_t>((o * n + is[q]) * inner + in)];
        EXPECT_TRUE(tessera_test::identical_value(at, vs[q])) << what << ": index " << q;
      }
    }
  }
}

}  // namespace

TEST_P(Ordering, EveryGoldenCaseMatchesPyTorch) {
  int ran = 0;
  for (const auto& c : golden("ordering_golden.json")["cases"]) {
    tessera_test::with_dtype(c["input"]["dtype"].get<std::string>(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      run_golden(c, tessera_test::golden_tensor<T>(c["input"], device()));
      ++ran;
    });
  }
  EXPECT_GT(ran, 600);
}
