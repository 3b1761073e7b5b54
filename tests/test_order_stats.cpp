// SPDX-License-Identifier: BSD-3-Clause
// Order statistics and row functions (issue 49): PyTorch 2.15's answers
// (tests/data/order_stats_golden.json, written by tools/golden/gen_order_stats.py), reference
// loops over strided views and expressions on every device, every interpolation, NaN and empty
// edges, a quantile over more than 2^24 elements, the errors and the method twins.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
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

/// Equal, both NaN, or within `tol` relative to max(1, |want|).
template <class T>
bool near(T got, T want, double tol) {
  if (is_nan(got) || is_nan(want)) return is_nan(got) && is_nan(want);
  if (got == want) return true;
  const auto g = static_cast<double>(got);
  const auto w = static_cast<double>(want);
  return std::abs(g - w) <= tol * std::max(1.0, std::abs(w));
}

template <class T>
void expect_values(const ts::Tensor<T>& got, const nlohmann::json& want, double tol) {
  ASSERT_EQ(got.shape(), shape_of(want));
  const auto g = got.cpu().to_vector();
  const auto w = decode_all<T>(want);
  for (std::size_t i = 0; i < g.size(); ++i) {
    EXPECT_TRUE(near(g[i], w[i], tol)) << "at " << i << ": " << +g[i] << " vs " << +w[i];
  }
}

/// Indices that select the values (PyTorch leaves the choice among equal values open), and
/// for median equal to PyTorch's where the value is NaN (the first NaN).
template <class T>
void expect_selecting_indices(const ts::Tensor<T>& x, const ts::ValuesIndices<T>& r,
                              const nlohmann::json& c) {
  const std::int64_t dim = c["dim"].get<std::int64_t>();
  const bool keepdim = c.value("keepdim", false);
  const std::int64_t d = x.dim() == 0 ? 0 : (dim < 0 ? dim + x.dim() : dim);
  const ts::Tensor<std::int64_t> at = keepdim || x.dim() == 0 ? r.indices : r.indices.unsqueeze(d);
  const auto picked = ts::take_along_dim(x.cpu(), at.cpu(), d).to_vector();
  const auto values = r.values.cpu().to_vector();
  const auto got = r.indices.cpu().to_vector();
  const auto want = decode_all<std::int64_t>(c["indices"]);
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE(near(picked[i], values[i], 0.0)) << "index " << got[i] << " at " << i;
    // median: the first NaN (PyTorch's rule). kthvalue's and nanmedian's choice among NaNs
    // is an artefact of PyTorch's selection (tessera: the first, by a stable sort).
    if (is_nan(values[i]) && c["op"] == "median") {
      EXPECT_EQ(got[i], want[i]) << "first NaN at " << i;
    }
  }
}

ts::Interpolation interpolation_of(const nlohmann::json& c) {
  static const std::map<std::string, ts::Interpolation> names = {
      {"linear", ts::Interpolation::Linear},
      {"lower", ts::Interpolation::Lower},
      {"higher", ts::Interpolation::Higher},
      {"midpoint", ts::Interpolation::Midpoint},
      {"nearest", ts::Interpolation::Nearest}};
  return names.at(c.value("interpolation", std::string("linear")));
}

template <class T>
ts::Tensor<T> golden_quantile(const nlohmann::json& c, const ts::Tensor<T>& x) {
  const bool nan = c["op"] == "nanquantile";
  const auto how = interpolation_of(c);
  const bool keepdim = c.value("keepdim", false);
  std::optional<std::int64_t> dim;
  if (c.contains("dim") && !c["dim"].is_null()) dim = c["dim"].get<std::int64_t>();
  if (c["q"].is_array()) {
    std::vector<T> qv;
    for (const auto& q : c["q"]) qv.push_back(static_cast<T>(q.get<double>()));
    const auto q = ts::Tensor<T>::from_vector(qv, x.device());
    return nan ? ts::nanquantile(x, q, dim, keepdim, how) : ts::quantile(x, q, dim, keepdim, how);
  }
  const double q = c["q"].get<double>();
  if (dim) {
    return nan ? ts::nanquantile(x, q, *dim, keepdim, how) : ts::quantile(x, q, *dim, keepdim, how);
  }
  if (keepdim) {  // only the tensor form keeps dims without a dim
    const auto qt = ts::Tensor<T>::scalar(static_cast<T>(q), x.device());
    return nan ? ts::nanquantile(x, qt, dim, true, how) : ts::quantile(x, qt, dim, true, how);
  }
  const T v = nan ? ts::nanquantile(x, q, how) : ts::quantile(x, q, how);
  return ts::Tensor<T>::scalar(v);
}

/// Runs one golden case on x; errors are checked by the Errors test (tessera's types differ
/// from PyTorch's RuntimeError), so here they need only be raised.
template <class T>
void run_golden(const nlohmann::json& c, const ts::Tensor<T>& x) {
  const std::string op = c["op"];
  SCOPED_TRACE(op + " " + c["input"]["dtype"].get<std::string>() + " " +
               c["input"]["shape"].dump());
  constexpr bool floating = std::is_floating_point_v<T>;
  const double tol = std::is_same_v<T, float> ? 2e-6 : 1e-13;
  if (c.contains("error")) {
    if (c["error"] == "NotImplementedError") return;  // bool: tessera accepts it
    EXPECT_THROW(
        {
          if constexpr (floating) {
            if (op == "quantile") (void)golden_quantile(c, x);
          }
          if (op == "kthvalue") (void)ts::kthvalue(x, c["k"], c["dim"]);
          if (op == "median") (void)ts::median(x, c["dim"]);
          if (op == "mode") (void)ts::mode(x, c["dim"]);
          if (op == "diff") (void)ts::diff(x, c["n"], c["dim"]);
          if constexpr (!std::is_same_v<T, bool>) {
            if (op == "cov") (void)ts::cov(x, c["correction"].get<double>());
          }
        },
        ts::Error);
    return;
  }
  if constexpr (floating) {
    if (op == "quantile" || op == "nanquantile") {
      expect_values(golden_quantile(c, x), c["values"], tol);
      return;
    }
    if (op == "softmax" || op == "log_softmax") {
      const std::int64_t dim = c["dim"];
      const auto got = op == "softmax" ? ts::softmax(x, dim) : ts::log_softmax(x, dim);
      expect_values(got, c["values"], std::is_same_v<T, float> ? 1e-5 : 1e-12);
      return;
    }
  }
  if (op == "median" || op == "nanmedian") {
    const bool nan = op == "nanmedian";
    if (!c.contains("dim")) {
      const T v = nan ? ts::nanmedian(x) : ts::median(x);
      expect_values(ts::Tensor<T>::scalar(v), c["values"], 0.0);
      return;
    }
    const std::int64_t dim = c["dim"];
    const bool keepdim = c.value("keepdim", false);
    const auto r = nan ? ts::nanmedian(x, dim, keepdim) : ts::median(x, dim, keepdim);
    expect_values(r.values, c["values"], 0.0);
    expect_selecting_indices(x, r, c);
    return;
  }
  if (op == "kthvalue") {
    const auto r = ts::kthvalue(x, c["k"], c["dim"], c.value("keepdim", false));
    expect_values(r.values, c["values"], 0.0);
    expect_selecting_indices(x, r, c);
    return;
  }
  if (op == "mode") {
    const auto r = ts::mode(x, c["dim"], c.value("keepdim", false));
    expect_values(r.values, c["values"], 0.0);
    expect_values(r.indices, c["indices"], 0.0);
    return;
  }
  if (op == "diff") {
    expect_values(ts::diff(x, c["n"], c["dim"]), c["values"], 0.0);
    return;
  }
  if constexpr (!std::is_same_v<T, bool>) {
    using R = ts::detail::cov_t<T>;
    const auto got = op == "cov" ? ts::cov(x, c["correction"].get<double>()) : ts::corrcoef(x);
    expect_values(got, c["values"], std::is_same_v<R, float> ? 1e-5 : 1e-12);
    return;
  }
  ADD_FAILURE() << "unexpected case " << op;
}

class OrderStats : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(OrderStats);

TEST_P(OrderStats, EveryGoldenCaseMatchesPyTorch) {
  int ran = 0;
  for (const auto& c : golden("order_stats_golden.json")["cases"]) {
    tessera_test::with_dtype(c["input"]["dtype"].get<std::string>(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      run_golden(c, tessera_test::golden_tensor<T>(c["input"], device()));
      ++ran;
    });
  }
  EXPECT_GT(ran, 350);
}

// ---- reference loops ------------------------------------------------------------------------

/// torch.quantile of one row, in T: rank q (count - 1), then the interpolation.
template <class T>
T reference_quantile(std::vector<T> row, double q, ts::Interpolation how, bool ignore_nan) {
  const bool has_nan = std::any_of(row.begin(), row.end(), [](T v) { return std::isnan(v); });
  if (has_nan && !ignore_nan) return std::numeric_limits<T>::quiet_NaN();
  std::erase_if(row, [](T v) { return std::isnan(v); });
  if (row.empty()) return std::numeric_limits<T>::quiet_NaN();
  std::sort(row.begin(), row.end());
  T rank = static_cast<T>(q) * static_cast<T>(row.size() - 1);
  if (how == ts::Interpolation::Lower) rank = std::floor(rank);
  if (how == ts::Interpolation::Higher) rank = std::ceil(rank);
  if (how == ts::Interpolation::Nearest) rank = std::nearbyint(rank);
  const auto lo = static_cast<std::size_t>(rank);
  const auto hi = static_cast<std::size_t>(std::ceil(rank));
  if (how != ts::Interpolation::Linear && how != ts::Interpolation::Midpoint) return row[lo];
  const T w = how == ts::Interpolation::Midpoint ? T(0.5) : rank - static_cast<T>(lo);
  const T a = row[lo], b = row[hi];
  return std::abs(w) < T(0.5) ? a + w * (b - a) : b - (b - a) * (T(1) - w);
}

TEST_P(OrderStats, QuantileMatchesReferenceForEveryInterpolationOnViewsAndExpressions) {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<float> v(std::size_t{37} * 5);
  for (auto& e : v) e = std::round(normal(rng) * 2.0f) / 2.0f;
  v[3 * 5 + 1] = std::numeric_limits<float>::quiet_NaN();  // column 1 has a NaN
  // A (37, 5) tensor transposed: rows of the (5, 37) view are strided columns.
  const auto base = ts::Tensor<float>::from_vector(v, {37, 5}, device());
  const auto x = base.t();
  const auto host = x.cpu().contiguous().to_vector();
  for (const auto how :
       {ts::Interpolation::Linear, ts::Interpolation::Lower, ts::Interpolation::Higher,
        ts::Interpolation::Midpoint, ts::Interpolation::Nearest}) {
    for (const double q : {0.0, 0.1, 0.5, 0.73, 1.0}) {
      for (const bool nan : {false, true}) {
        const auto got =
            (nan ? ts::nanquantile(x * 1.0f, q, 1, false, how) : ts::quantile(x, q, 1, false, how))
                .cpu()
                .to_vector();
        ASSERT_EQ(got.size(), 5u);
        for (std::size_t r = 0; r < 5; ++r) {
          const auto at = static_cast<std::ptrdiff_t>(37 * r);
          const std::vector<float> row(host.begin() + at, host.begin() + at + 37);
          const float want = reference_quantile(row, q, how, nan);
          EXPECT_TRUE(near(got[r], want, 0.0))
              << "row " << r << " q " << q << " how " << static_cast<int>(how) << ": " << got[r]
              << " vs " << want;
        }
      }
    }
  }
  // The whole tensor, as a host value.
  EXPECT_TRUE(std::isnan(ts::quantile(x, 0.5)));
  const float whole = ts::nanquantile(x, 0.5);
  EXPECT_EQ(whole, reference_quantile(host, 0.5, ts::Interpolation::Linear, true));
}

/// The most frequent value of a row (the smallest of ties) and its last position.
template <class T>
std::pair<T, std::int64_t> reference_mode(const std::vector<T>& row) {
  std::map<T, std::pair<std::int64_t, std::int64_t>> seen;  // value -> (count, last)
  for (std::size_t i = 0; i < row.size(); ++i) {
    auto& s = seen[row[i]];
    ++s.first;
    s.second = static_cast<std::int64_t>(i);
  }
  std::pair<T, std::int64_t> best{};
  std::int64_t count = 0;
  for (const auto& [value, s] : seen) {
    if (s.first > count) best = {value, s.second}, count = s.first;
  }
  return best;
}

TEST_P(OrderStats, MedianKthvalueModeMatchReferenceOnPermutedViews) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<std::int32_t> v(std::size_t{4} * 3 * 9);
  for (auto& e : v) e = small(rng);
  // (4, 3, 9) permuted to (3, 9, 4): reduce over dim 1 (extent 9, stride 4 * ... in memory).
  const auto x = ts::Tensor<std::int32_t>::from_vector(v, {4, 3, 9}, device()).permute({1, 2, 0});
  const auto host = x.cpu().contiguous().to_vector();
  const auto med = ts::median(x + 0, 1);
  const auto kth = x.kthvalue(7, 1);
  const auto mode = (x * 1).mode(1, true);
  ASSERT_EQ(med.values.shape(), ts::Shape({3, 4}));
  ASSERT_EQ(mode.values.shape(), ts::Shape({3, 1, 4}));
  const auto mv = med.values.cpu().to_vector();
  const auto mi = med.indices.cpu().to_vector();
  const auto kv = kth.values.cpu().to_vector();
  const auto ki = kth.indices.cpu().to_vector();
  const auto ov = mode.values.cpu().to_vector();
  const auto oi = mode.indices.cpu().to_vector();
  for (std::int64_t a = 0; a < 3; ++a) {
    for (std::int64_t c = 0; c < 4; ++c) {
      std::vector<std::int32_t> row;
      for (std::int64_t b = 0; b < 9; ++b) row.push_back(host[(a * 9 + b) * 4 + c]);
      auto sorted = row;
      std::sort(sorted.begin(), sorted.end());
      const auto o = static_cast<std::size_t>(a * 4 + c);
      EXPECT_EQ(mv[o], sorted[4]);
      EXPECT_EQ(row[static_cast<std::size_t>(mi[o])], mv[o]);
      EXPECT_EQ(kv[o], sorted[6]);
      EXPECT_EQ(row[static_cast<std::size_t>(ki[o])], kv[o]);
      const auto [value, last] = reference_mode(row);
      EXPECT_EQ(ov[o], value);
      EXPECT_EQ(oi[o], last);
    }
  }
}

TEST_P(OrderStats, MedianNanRulesAndWholeTensorValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto x = ts::Tensor<float>::from_vector({3, nan, 1, nan, 2, 5, 4, 0, nan, nan, nan, nan},
                                                {3, 4}, device());
  const auto m = ts::median(x, 1);
  const auto nm = ts::nanmedian(x, 1);
  const auto mv = m.values.cpu().to_vector();
  const auto mi = m.indices.cpu().to_vector();
  const auto nv = nm.values.cpu().to_vector();
  const auto ni = nm.indices.cpu().to_vector();
  EXPECT_TRUE(std::isnan(mv[0]));
  EXPECT_EQ(mi[0], 1);     // the first NaN
  EXPECT_EQ(mv[1], 2.0f);  // lower of 2 and 4
  EXPECT_TRUE(std::isnan(mv[2]));
  EXPECT_EQ(mi[2], 0);
  EXPECT_EQ(nv[0], 1.0f);  // lower of 1 and 3
  EXPECT_EQ(ni[0], 2);
  EXPECT_TRUE(std::isnan(nv[2]));
  EXPECT_EQ(ni[2], 0);
  EXPECT_TRUE(std::isnan(ts::median(x)));
  EXPECT_EQ(ts::nanmedian(x), 2.0f);  // 0 1 2 3 4 5: the lower middle
  EXPECT_EQ(x.nanmedian(), 2.0f);
  EXPECT_TRUE(std::isnan(ts::median(ts::Tensor<float>::empty({0}, device()))));
  EXPECT_EQ(ts::median(ts::Tensor<std::int64_t>::from_vector({9, 7, 8, 6}, device())), 7);
}

TEST_P(OrderStats, SoftmaxMatchesReferenceOnStridedRowsWithoutOverflow) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-800.0, 800.0);  // exp overflows without the max
  std::vector<double> v(std::size_t{6} * 11);
  for (auto& e : v) e = u(rng);
  const auto x = ts::Tensor<double>::from_vector(v, {11, 6}, device()).t();  // (6, 11) view
  const auto s = x.softmax(1).cpu().to_vector();
  const auto ls = (x * 1.0).log_softmax(-1).cpu().to_vector();
  const auto host = x.cpu().contiguous().to_vector();
  for (std::size_t r = 0; r < 6; ++r) {
    const auto row = host.begin() + 11 * static_cast<std::ptrdiff_t>(r);
    const double m = *std::max_element(row, row + 11);
    double sum = 0;
    for (int j = 0; j < 11; ++j) sum += std::exp(row[j] - m);
    double total = 0;
    for (std::size_t j = 0; j < 11; ++j) {
      const double want = std::exp(row[static_cast<std::ptrdiff_t>(j)] - m) / sum;
      EXPECT_NEAR(s[r * 11 + j], want, 1e-14);
      EXPECT_NEAR(ls[r * 11 + j], row[static_cast<std::ptrdiff_t>(j)] - m - std::log(sum), 1e-12);
      total += s[r * 11 + j];
    }
    EXPECT_NEAR(total, 1.0, 1e-14);
  }
  // Empty rows and a 0-d input.
  EXPECT_EQ(ts::softmax(ts::Tensor<float>::empty({3, 0}, device()), 1).shape(), ts::Shape({3, 0}));
  EXPECT_EQ(ts::softmax(ts::Tensor<float>::scalar(7.0f, device()), 0).item(), 1.0f);
}

TEST_P(OrderStats, DiffCovCorrcoefOnExpressions) {
  const auto x = ts::Tensor<float>::from_vector({1, 4, 9, 16, 2, 2, 5, 1}, {2, 4}, device());
  EXPECT_EQ((x * 1.0f).diff().cpu().to_vector(), (std::vector<float>{3, 5, 7, 0, 3, -4}));
  EXPECT_EQ(x.diff(2).cpu().to_vector(), (std::vector<float>{2, 2, 3, -7}));
  EXPECT_EQ(x.diff(1, 0).cpu().to_vector(), (std::vector<float>{1, -2, -4, -15}));
  EXPECT_EQ(x.diff(9).shape(), ts::Shape({2, 0}));
  const auto c = (x + 0.0f).cov().cpu().to_vector();
  // Row 0: mean 7.5, deviations -6.5 -3.5 1.5 8.5; row 1: mean 2.5, -0.5 -0.5 2.5 -1.5.
  EXPECT_NEAR(c[0], (42.25 + 12.25 + 2.25 + 72.25) / 3, 1e-4);
  EXPECT_NEAR(c[1], (3.25 + 1.75 + 3.75 - 12.75) / 3, 1e-4);
  EXPECT_NEAR(c[3], (0.25 + 0.25 + 6.25 + 2.25) / 3, 1e-4);
  EXPECT_NEAR(x.cov(0.0).cpu().to_vector()[0], (42.25 + 12.25 + 2.25 + 72.25) / 4, 1e-4);
  const auto r = x.corrcoef().cpu().to_vector();
  EXPECT_NEAR(r[1], c[1] / std::sqrt(c[0] * c[3]), 1e-6);
  EXPECT_EQ(r[0], 1.0f);
  const auto b = ts::Tensor<bool>::from_vector({true, true, false, true}, device());
  EXPECT_EQ(ts::diff(b).cpu().to_vector(), (std::vector<bool>{false, true, true}));
}

TEST_P(OrderStats, ErrorsNameOpArgumentAndValues) {
  const auto x = ts::Tensor<float>::ones({3, 4}, device());
  EXPECT_TRUE(
      throws_with<ts::ValueError>([&] { (void)ts::quantile(x, 1.5); }, {"quantile", "1.5"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::nanquantile(x, -0.25, 1); },
                                          {"nanquantile", "-0.25"}));
  const auto q2 = ts::Tensor<float>::zeros({2, 2}, device());
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::quantile(x, q2, 1); }, {"q", "2"}));
  const auto qbad = ts::Tensor<float>::from_vector({0.5f, 2.0f}, device());
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::quantile(x, qbad, 1); }, {"2"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { (void)ts::quantile(x, 0.5, static_cast<ts::Interpolation>(9)); }, {"9"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)ts::quantile(x, 0.5, 2); }, {"2"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { (void)ts::quantile(ts::Tensor<float>::empty({0}, device()), 0.5); }, {"empty"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)ts::kthvalue(x, 5, 1); },
                                          {"kthvalue", "k = 5", "4"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)ts::kthvalue(x, 0); }, {"k = 0"}));
  const auto e = ts::Tensor<float>::empty({2, 0}, device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)ts::median(e, 1); }, {"median", "dim 1"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)ts::mode(e, 1); }, {"mode"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { (void)ts::softmax(x, -3); }, {"softmax", "-3"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::diff(x, -1); }, {"diff", "-1"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] { (void)ts::diff(ts::Tensor<float>::scalar(1.0f, device())); }, {"diff"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        (void)ts::cov(ts::Tensor<float>::ones({2, 2, 2}, device()));
      },
      {"cov", "3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] { (void)ts::median(ts::Tensor<std::int32_t>::empty({0}, device())); }, {"median"}));
}

TEST(OrderStatsLarge, QuantileBeyond2To24ElementsIsExact) {
  // PyTorch refused more than 2^24 elements; tessera has no limit. N - 1 values descending,
  // exact in double, so the quantiles are exact too (the whole-tensor forms select on the host).
  const std::int64_t n = (std::int64_t{1} << 24) + 1;
  const auto x = ts::Tensor<double>::arange(double(n)).flip({0});
  EXPECT_EQ(ts::quantile(x, 0.5), double(1 << 23));
  EXPECT_EQ(ts::quantile(x, 0.25, ts::Interpolation::Lower), double(1 << 22));
  EXPECT_EQ(ts::median(x), double(1 << 23));
}

TEST(OrderStatsLarge, RankRoundedPastTheLastElementIsClamped) {
  // float32 rounds n - 1 = 2^24 + 3 up to 2^24 + 4 (ties to even): q = 1 then ranks one past the
  // end, which the sort path clamps to the last element. One sort of 2^24 + 4 floats, two q.
  const std::int64_t n = (std::int64_t{1} << 24) + 4;
  const auto x = ts::Tensor<float>::linspace(0.0f, 1.0f, n);  // sorted already
  const auto q = ts::Tensor<float>::from_vector({0.5f, 1.0f});
  const auto got = ts::quantile(x, q, 0, false, ts::Interpolation::Lower).to_vector();
  EXPECT_EQ(got[0], x.at({(std::int64_t{1} << 23) + 2}));  // rank 0.5 * (2^24 + 4)
  EXPECT_EQ(got[1], x.at({n - 1}));
  EXPECT_EQ(ts::quantile(x, 1.0), x.at({n - 1}));  // the selection clamps the same way
}

TEST_P(OrderStats, MethodTwinsMatchFreeFunctions) {
  const auto x = ts::Tensor<float>::from_vector({5, 1, 4, 2, 2, 9, 7, 3, 3}, {3, 3}, device());
  EXPECT_EQ(x.quantile(0.5), ts::quantile(x, 0.5));
  EXPECT_EQ((x * 1.0f).median(), 3.0f);
  EXPECT_EQ(x.nanquantile(0.5, 1).cpu().to_vector(), ts::quantile(x, 0.5, 1).cpu().to_vector());
  EXPECT_EQ(x.quantile(1.0, 0, true, ts::Interpolation::Lower).cpu().to_vector(),
            (std::vector<float>{7, 3, 9}));
  EXPECT_EQ(x.median(1).values.cpu().to_vector(), (std::vector<float>{4, 2, 3}));
  EXPECT_EQ(x.softmax(1).cpu().to_vector(), ts::softmax(x, 1).cpu().to_vector());
  EXPECT_EQ(x.mode(0).values.cpu().to_vector(), (std::vector<float>{2, 1, 3}));
}

TEST_P(OrderStats, ContractSpellings) {
  const auto dev = device();
  const auto x = ts::tensor<float>({{4, 1, 3, 3}, {2, 8, 6, 5}, {7, 0, 9, 2}}, dev);
  const auto& obs = x;
  // [snippet:order-stats-api]
  float q50 = ts::quantile(x, 0.5);  // every element -> a host value (as ts::mean(a))
  float md = ts::median(x);          // the lower of the two middle values
  auto qs = ts::tensor<float>({0.1f, 0.5f, 0.9f}, dev);
  auto q = ts::quantile(x, qs, /*dim*/ 1, /*keepdim*/ false, ts::Interpolation::Nearest);
  float q90 = ts::nanquantile(x, 0.9);  // NaN ignored
  auto [med, at] = ts::median(x, 1);    // values and int64 positions
  auto [nmed, nat] = ts::nanmedian(x, 1);
  auto [kv, ki] = ts::kthvalue(x, /*k*/ 2, /*dim*/ 1);
  auto [mo, mi] = ts::mode(x, 1);
  auto p = ts::softmax(x, 1);
  auto lp = ts::log_softmax(x, -1);
  auto d1 = ts::diff(x);
  auto d2 = ts::diff(x, /*n*/ 2, /*dim*/ 0);
  auto c = ts::cov(obs);
  auto c0 = ts::cov(obs, /*correction*/ 0);
  auto r = ts::corrcoef(obs);
  auto m = (x * 2.0f).median(1);  // method twins, on expressions too
  float xm = x.quantile(0.5) + x.median();
  // [end-snippet]
  EXPECT_EQ(q50, 3.5f);
  EXPECT_EQ(md, 3.0f);
  EXPECT_EQ(q.shape(), ts::Shape({3, 3}));
  EXPECT_NEAR(q90, 7.9f, 1e-5f);
  EXPECT_EQ(med.cpu().to_vector(), (std::vector<float>{3, 5, 2}));
  EXPECT_EQ(nmed.cpu().to_vector(), med.cpu().to_vector());
  EXPECT_EQ(at.shape(), nat.shape());
  EXPECT_EQ(kv.cpu().to_vector(), (std::vector<float>{3, 5, 2}));
  EXPECT_EQ(ki.shape(), ts::Shape({3}));
  EXPECT_EQ(mo.cpu().to_vector(), (std::vector<float>{3, 2, 0}));
  EXPECT_EQ(mi.cpu().to_vector(), (std::vector<std::int64_t>{3, 0, 1}));
  EXPECT_EQ(p.shape(), lp.shape());
  EXPECT_EQ(d1.shape(), ts::Shape({3, 3}));
  EXPECT_EQ(d2.shape(), ts::Shape({1, 4}));
  EXPECT_EQ(c.shape(), c0.shape());
  EXPECT_EQ(r.shape(), ts::Shape({3, 3}));
  EXPECT_EQ(m.values.cpu().to_vector(), (std::vector<float>{6, 10, 4}));
  EXPECT_EQ(xm, 6.5f);
}

}  // namespace
