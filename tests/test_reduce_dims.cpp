// SPDX-License-Identifier: BSD-3-Clause
// Reductions over dimensions and scans against reference loops over random shapes, dims,
// layouts (contiguous, transposed, stepped, broadcast expressions) and dtypes; the same bits on
// every layout path, thread count and device; errors; the method twins.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/pointwise_check.hpp"
#include "support/reference.hpp"

namespace ts = tessera;
using tessera_test::throws_with;

namespace {

/// A reference reduction: for every output (row-major over the kept dims), the reduced
/// elements of a contiguous host copy in row-major order.
template <class T>
std::vector<std::vector<T>> groups(const ts::Tensor<T>& x, const std::vector<bool>& reduced) {
  const auto v = x.contiguous().cpu().to_vector();
  const auto& shape = x.shape();
  const int nd = static_cast<int>(shape.size());
  std::int64_t outputs = 1;
  for (int d = 0; d < nd; ++d) outputs *= reduced[d] ? 1 : shape[d];
  std::vector<std::vector<T>> out(static_cast<std::size_t>(outputs));
  std::vector<std::int64_t> index(nd, 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::int64_t o = 0;
    for (int d = 0; d < nd; ++d) {
      if (!reduced[d]) o = o * shape[d] + index[d];
    }
    out[static_cast<std::size_t>(o)].push_back(v[i]);
    for (int d = nd - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

std::vector<bool> reduced_mask(int nd, const std::vector<std::int64_t>& dims) {
  std::vector<bool> m(nd, dims.empty());
  for (auto d : dims) m[static_cast<std::size_t>(d < 0 ? d + nd : d)] = true;
  return m;
}

template <class T>
std::vector<T> host(const ts::Tensor<T>& t) {
  return t.cpu().to_vector();
}

template <class T>
ts::Tensor<T> random_tensor(const ts::Shape& shape, std::mt19937_64& rng, ts::Device device) {
  std::vector<T> v(static_cast<std::size_t>(shape.numel()));
  std::uniform_int_distribution<int> dist(-9, 9);
  for (auto& e : v)
    e = static_cast<T>(dist(rng)) * static_cast<T>(std::is_floating_point_v<T> ? 0.37 : 1);
  return ts::Tensor<T>::from_vector(v, shape, device);
}

}  // namespace

class ReduceDims : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ReduceDims);

// Random shapes (with zero extents), random dim sets, keepdim, and three layouts of the same
// values: every reduction equals the reference loop; sums, means and variances within float
// rounding of a long double reference, selections exactly.
TEST_P(ReduceDims, RandomShapesDimsAndLayoutsMatchReferenceLoops) {
  std::mt19937_64 rng(36);
  for (int trial = 0; trial < 40; ++trial) {
    const int nd = 1 + static_cast<int>(rng() % 4);
    std::vector<std::int64_t> ext(nd);
    for (auto& e : ext) e = static_cast<std::int64_t>(rng() % 6) + (trial % 7 == 0 ? 0 : 1);
    if (trial == 5) ext[static_cast<std::size_t>(nd - 1)] = 70;  // lanes wrap inside a row
    const ts::Shape shape(ext.begin(), ext.end());
    std::vector<std::int64_t> dims;
    for (int d = 0; d < nd; ++d) {
      if (rng() % 2) dims.push_back(rng() % 2 ? d : d - nd);
    }
    if (dims.empty()) dims.push_back(static_cast<std::int64_t>(rng() % nd));
    const bool keepdim = rng() % 2 == 0;
    const auto mask = reduced_mask(nd, dims);
    const auto base = random_tensor<float>(shape, rng, device());
    // The same values three ways: contiguous, a transposed copy transposed back, an expression.
    const ts::Tensor<float> swapped = base.transpose(0, nd - 1).contiguous();
    const auto strided = swapped.transpose(0, nd - 1);
    const auto g = groups(base, mask);
    const ts::Dims td(dims);
    const std::string what = "shape " + shape.str() + " dims " + std::to_string(dims.size());
    for (int layout = 0; layout < 3; ++layout) {
      auto run = [&](auto&& f) {
        if (layout == 0) return f(base);
        if (layout == 1) return f(strided);
        return f(base * 1.0f);
      };
      const auto s = host(run([&](const auto& x) { return ts::sum(x, td, keepdim); }));
      bool empty_reduced = false;  // amax of nothing is an IndexError (tested below)
      for (int d = 0; d < nd; ++d) empty_reduced = empty_reduced || (mask[d] && ext[d] == 0);
      if (empty_reduced) {
        EXPECT_THROW(run([&](const auto& x) { return ts::amax(x, td, keepdim); }), ts::IndexError);
        continue;
      }
      const auto mx = run([&](const auto& x) { return ts::amax(x, td, keepdim); });
      const auto mean = host(run([&](const auto& x) { return ts::mean(x, td, keepdim); }));
      const auto var = host(run([&](const auto& x) { return ts::var(x, td, 1.0, keepdim); }));
      const auto cnt = host(run([&](const auto& x) { return ts::count_nonzero(x, td); }));
      ASSERT_EQ(s.size(), g.size()) << what;
      for (std::size_t o = 0; o < g.size(); ++o) {
        long double sum = 0, abs_sum = 0;
        for (float v : g[o]) sum += v, abs_sum += std::fabs(v);
        EXPECT_NEAR(s[o], static_cast<float>(sum), 1e-6 * abs_sum + 1e-6) << what << " sum " << o;
        const long double n = static_cast<long double>(g[o].size());
        if (g[o].empty()) {
          EXPECT_TRUE(std::isnan(mean[o])) << what;
        } else {
          EXPECT_NEAR(mean[o], static_cast<float>(sum / n), 1e-5) << what << " mean " << o;
        }
        long double m2 = 0;
        for (float v : g[o]) m2 += (v - sum / n) * (v - sum / n);
        if (g[o].size() > 1) {
          EXPECT_NEAR(var[o], static_cast<float>(m2 / (n - 1)), 1e-4) << what << " var " << o;
        }
        EXPECT_EQ(cnt[o], std::count_if(g[o].begin(), g[o].end(), [](float v) { return v != 0; }));
      }
      const auto m = host(mx);
      for (std::size_t o = 0; o < g.size(); ++o) {
        EXPECT_EQ(m[o], *std::max_element(g[o].begin(), g[o].end())) << what;
      }
      // keepdim keeps the reduced dims as 1.
      EXPECT_EQ(mx.dim(), keepdim ? nd : nd - static_cast<int>(dims.size())) << what;
    }
  }
}

// The lanes fix the order of every combine, so a float sum is the same bits through the row
// cursor (reduced dims last), the lane rows (innermost dim kept), the generic walk (a
// transposed operand) and on the device, at any thread count.
TEST_P(ReduceDims, FloatSumsAreTheSameBitsOnEveryPathAndDevice) {
  std::mt19937_64 rng(37);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  for (const std::int64_t n : {1, 15, 16, 17, 33, 1000, 4099}) {
    std::vector<float> v(static_cast<std::size_t>(3 * n));
    for (float& e : v) e = dist(rng) * 1000.0f;
    const auto rows = ts::Tensor<float>::from_vector(v, {3, n});       // reduce dim 1: row cursor
    const ts::Tensor<float> cols = rows.transpose(0, 1).contiguous();  // reduce dim 0: lane rows
    const auto a = host(ts::sum(rows, 1));
    const auto b = host(ts::sum(cols, 0));
    const auto c = host(ts::sum(cols.transpose(0, 1), 1));  // strided rows
    const auto d = host(ts::sum(rows.to(device()), 1));
    const auto e = host(ts::sum(cols.to(device()), 0));
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i], b[i]) << n;
      EXPECT_EQ(a[i], c[i]) << n;
      EXPECT_EQ(a[i], d[i]) << n;
      EXPECT_EQ(a[i], e[i]) << n;
    }
    const auto va = host(ts::var(rows, 1));
    const auto vb = host(ts::var(cols.to(device()), 0));
    const auto la = host(ts::logsumexp(rows * 0.001f, 1));
    const auto lb = host(ts::logsumexp(cols.to(device()) * 0.001f, 0));
    EXPECT_TRUE(tessera_test::values_match(va, vb, 0, "var"));  // NaN for n = 1 on both
    EXPECT_TRUE(tessera_test::values_match(la, lb, 0, "logsumexp"));
  }
}

// The order of combination is part of the definition (reduce_engine.hpp): element r of an
// output (row-major over the reduced dims) folds into lane r % 16, and the lanes merge in lane
// order. The host picks its loop by layout (the reduced dims moved in front of the kept ones or
// behind them, lane rows swept 8 at a time, parts of any width): every layout, dim set and
// shape gives exactly the bits of the definition, computed here by a plain loop.
TEST_P(ReduceDims, EveryLayoutGivesTheBitsOfTheLaneOrder) {
  std::mt19937_64 rng(38);
  std::normal_distribution<double> dist(0.0, 100.0);
  const std::vector<std::vector<std::int64_t>> shapes = {
      {300, 70}, {70, 300}, {9, 17, 150}, {150, 3, 40}, {5, 130, 2, 7}};
  for (const auto& ext : shapes) {
    const int nd = static_cast<int>(ext.size());
    const ts::Shape shape(ext.begin(), ext.end());
    // Doubles (a double sum shows its order in the bits; a float one's rounding to float hides
    // it) of magnitudes 2^-24 to 2^24, so that the sums round, and one value in eight the same
    // large one (ties for argmax).
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    for (double& e : v) {
      e = rng() % 8 == 0 ? 3e7 : std::ldexp(dist(rng), static_cast<int>(rng() % 48) - 24);
    }
    const auto base = ts::Tensor<double>::from_vector(v, shape, device());
    const ts::Tensor<double> swapped = base.transpose(0, nd - 1).contiguous();
    const auto strided = swapped.transpose(0, nd - 1);
    for (int subset = 1; subset < (1 << nd) - 1; ++subset) {
      std::vector<std::int64_t> dims;
      for (int d = 0; d < nd; ++d) {
        if ((subset >> d) & 1) dims.push_back(d);
      }
      const auto g = groups(base, reduced_mask(nd, dims));
      std::vector<double> sums, means;
      std::vector<std::int64_t> firsts;
      for (const auto& elements : g) {
        double lanes[16] = {};
        for (std::size_t r = 0; r < elements.size(); ++r) lanes[r % 16] += elements[r];
        double acc = 0.0;
        for (const double lane : lanes) acc += lane;
        sums.push_back(acc);
        means.push_back(acc / static_cast<double>(elements.size()));
        firsts.push_back(std::max_element(elements.begin(), elements.end()) - elements.begin());
      }
      const ts::Dims td(dims);
      const std::string what = "shape " + shape.str() + " subset " + std::to_string(subset);
      for (int layout = 0; layout < 3; ++layout) {
        const auto check = [&](const auto& x) {
          EXPECT_EQ(host(ts::sum(x, td)), sums) << what << " layout " << layout;
          EXPECT_EQ(host(ts::mean(x, td)), means) << what << " layout " << layout;
          if (dims.size() == 1) {
            EXPECT_EQ(host(ts::argmax(x, dims[0])), firsts) << what << " layout " << layout;
          }
        };
        if (layout == 0) check(base);
        if (layout == 1) check(strided);
        if (layout == 2) check(base * 1.0);
      }
    }
  }
}

TEST_P(ReduceDims, ArgmaxTakesTheFirstTieAndTheFirstNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> v(40, 1.0f);
  v[5] = 3.0f, v[21] = 3.0f;  // ties across lanes: the first wins
  v[30] = nan, v[38] = nan;
  const auto x = ts::Tensor<float>::from_vector(v, {2, 20}, device());
  EXPECT_EQ(host(ts::argmax(x, 1)), (std::vector<std::int64_t>{5, 10}));
  const auto [values, indices] = ts::max(x, 1);
  EXPECT_EQ(host(indices), (std::vector<std::int64_t>{5, 10}));
  EXPECT_EQ(host(values)[0], 3.0f);
  EXPECT_TRUE(std::isnan(host(values)[1]));
  EXPECT_EQ(host(ts::argmin(x, 1)), (std::vector<std::int64_t>{0, 10}));
  EXPECT_EQ(ts::argmax(x).item(), 30);
  EXPECT_EQ(ts::argmax(x).dim(), 0);
  const auto [cv, ci] =
      ts::cummax(ts::Tensor<float>::from_vector({1, 3, 3, 2, nan, 5}, {6}, device()), 0);
  EXPECT_EQ(host(ci), (std::vector<std::int64_t>{0, 1, 2, 2, 4, 4}));
}

TEST_P(ReduceDims, ScansMatchRunningLoops) {
  std::mt19937_64 rng(38);
  const auto x = random_tensor<std::int32_t>({3, 5, 4}, rng, device());
  const auto xs = host(x.contiguous());
  for (int dim = 0; dim < 3; ++dim) {
    const auto cs = host(ts::cumsum(x, dim));
    const auto cp = host(ts::cumprod(x.transpose(0, 2), 2 - dim));  // a strided input
    const std::int64_t ext[3] = {3, 5, 4};
    std::int64_t stride = 1;
    for (int d = 2; d > dim; --d) stride *= ext[d];
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::int64_t pos = (static_cast<std::int64_t>(i) / stride) % ext[dim];
      std::int64_t sum = 0;
      for (std::int64_t k = 0; k <= pos; ++k) sum += xs[i - (pos - k) * stride];
      EXPECT_EQ(cs[i], sum) << dim << " " << i;
    }
    EXPECT_EQ(cp.size(), xs.size());
  }
  // cumsum of int32 is int64, of float float.
  static_assert(std::is_same_v<decltype(ts::cumsum(x, 0)), ts::Tensor<std::int64_t>>);
}

TEST_P(ReduceDims, BadDimsAreErrorsNamingTheOperation) {
  const auto x = ts::Tensor<float>::ones({3, 4}, device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::sum(x, 2); },
                                          {"sum", "Dimension out of range", "[-2, 1], but got 2"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::mean(x, {0, -3}); }, {"mean", "but got -3"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::sum(x, {1, -1});
      },
      {"sum", "dim 1", "more than once"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::argmax(x, 5); }, {"argmax", "but got 5"}));
  const auto empty = ts::Tensor<float>::ones({3, 0}, device());
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::amax(empty, 1); },
                                          {"amax", "reduction dim 1", "non-zero size"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::max(empty, 1); }, {"max", "dim 1"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::argmin(empty); }, {"argmin"}));
  // Empty reductions that have an identity: PyTorch's values.
  EXPECT_EQ(host(ts::sum(empty, 1)), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(host(ts::prod(empty, 1)), (std::vector<float>{1, 1, 1}));
  EXPECT_TRUE(std::isnan(host(ts::mean(empty, 1))[0]));
  EXPECT_EQ(host(ts::logsumexp(empty, 1))[0], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(host(ts::any(empty, 1)), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(host(ts::all(empty, 1)), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(ts::amax(empty, 0).shape(), ts::Shape{0});  // nothing reduced over an empty dim
}

TEST_P(ReduceDims, WholeTensorValuesAndZeroDimInputs) {
  const auto x = ts::Tensor<double>::from_vector({1, 2, 3, 4}, {2, 2}, device());
  EXPECT_EQ(ts::mean(x), 2.5);
  EXPECT_EQ(ts::prod(x), 24.0);
  EXPECT_DOUBLE_EQ(ts::var(x), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(ts::std(x), std::sqrt(5.0 / 3.0));
  EXPECT_EQ(ts::prod(ts::Tensor<std::int32_t>::full({3}, 1 << 20, device())),
            std::int64_t{1} << 60);
  const auto s = ts::Tensor<float>::full({}, 2.5f, device());
  EXPECT_EQ(ts::sum(s, 0).item(), 2.5f);
  EXPECT_EQ(ts::sum(s, -1, true).dim(), 0);
  EXPECT_EQ(ts::argmax(s, 0).item(), 0);
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { ts::sum(s, 1); }, {"sum", "[-1, 0], but got 1"}));
}

TEST_P(ReduceDims, MethodsAreTheFreeFunctions) {
  const auto a = ts::Tensor<float>::from_vector({1, 5, 2, 8, 3, 4}, {2, 3}, device());
  EXPECT_EQ(host(a.sum(1)), host(ts::sum(a, 1)));
  EXPECT_EQ(host(a.mean({0, 1}, true)), (std::vector<float>{23.0f / 6}));
  EXPECT_EQ(a.mean({0, 1}, true).shape(), (ts::Shape{1, 1}));
  EXPECT_EQ(host(a.amax(-1)), (std::vector<float>{5, 8}));
  EXPECT_EQ(host(a.argmax(1)), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(host(a.cumsum(0)), (std::vector<float>{1, 5, 2, 9, 8, 6}));
  EXPECT_EQ(host((a * 2.0f).max(0).indices), (std::vector<std::int64_t>{1, 0, 1}));
  EXPECT_EQ(host(a.prod(0)), (std::vector<float>{8, 15, 8}));
}
