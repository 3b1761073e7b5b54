// SPDX-License-Identifier: BSD-3-Clause
// Sets and histograms (API part 3, "statistics and sets"): unique, unique_consecutive,
// bincount, histc, histogram and one_hot against PyTorch's answers (tools/golden/gen_sets.py)
// on every device present, contiguous and strided; properties against reference loops (random
// inputs, NaN, empty); expressions and method twins; bit-identical float sums; the error rules;
// cat and stack of vectors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "support/pointwise_check.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::available_devices;
using tessera_test::decode_all;
using tessera_test::golden;
using tessera_test::shape_of;
using tessera_test::with_dtype;

namespace {

/// The same values in memory of another layout: every other element of a wider last dim.
template <class T>
ts::Tensor<T> strided(const ts::Tensor<T>& x) {
  if (x.dim() == 0) return x;
  std::vector<std::int64_t> dims = x.shape().vec();
  dims.back() *= 2;
  auto wide = ts::Tensor<T>::zeros(ts::Shape(dims), x.device());
  auto view = wide.slice(x.dim() - 1, 0, dims.back(), 2);
  view = ts::cast<T>(x);
  return view;
}

/// A packed golden tensor on `device`, laid out strided when asked.
template <class T>
ts::Tensor<T> input_of(const nlohmann::json& packed, ts::Device device, bool strides) {
  auto x = tessera_test::golden_tensor<T>(packed, device);
  return strides ? strided(x) : x;
}

/// Equal values (NaN equal to NaN, -0.0 distinct from +0.0) and shape.
template <class T>
void expect_equal(const ts::Tensor<T>& got, const nlohmann::json& want, const std::string& what) {
  ASSERT_EQ(got.shape(), shape_of(want)) << what;
  const auto g = got.to_vector();
  const auto w = decode_all<T>(want);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(w[i])) {
        EXPECT_TRUE(std::isnan(g[i])) << what << " at " << i;
        continue;
      }
      EXPECT_EQ(std::signbit(g[i]), std::signbit(w[i])) << what << " at " << i;
    }
    EXPECT_EQ(g[i], w[i]) << what << " at " << i;
  }
}

std::string describe(const nlohmann::json& c, ts::Device device, bool strides) {
  return c["op"].get<std::string>() + " " + c["input"]["dtype"].get<std::string>() + " " +
         c["args"].dump() + " on " + device.str() + (strides ? " strided" : "");
}

template <class T>
void run_golden(const nlohmann::json& c, ts::Device device, bool strides) {
  const std::string op = c["op"];
  const auto& a = c["args"];
  const std::string what = describe(c, device, strides);
  const auto x = input_of<T>(c["input"], device, strides);
  const bool error = c.contains("error");
  const auto& outs = error ? c["args"] : c["outputs"];
  if (op == "unique" || op == "unique_consecutive") {
    ts::UniqueOptions o{.return_inverse = true, .return_counts = true};
    if (a.contains("dim")) o.dim = a["dim"].get<std::int64_t>();
    auto run = [&] { return op == "unique" ? ts::unique(x, o) : ts::unique_consecutive(x, o); };
    if (error) {
      EXPECT_THROW(run(), ts::Error) << what;
      return;
    }
    auto [values, inverse, counts] = run();
    expect_equal(values, outs[0], what + " values");
    expect_equal(inverse, outs[1], what + " inverse");
    expect_equal(counts, outs[2], what + " counts");
    return;
  }
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (op == "bincount") {
      if (error) {
        EXPECT_THROW(ts::bincount(x, a["minlength"].get<std::int64_t>()), ts::Error) << what;
        return;
      }
      expect_equal(ts::bincount(x, a["minlength"].get<std::int64_t>()), outs[0], what);
      return;
    }
    if (op == "bincount_weights") {
      with_dtype(c["extras"][0]["dtype"], [&](auto w_tag) {
        using W = typename decltype(w_tag)::type;
        if constexpr (!std::is_same_v<W, bool>) {
          const auto w = input_of<W>(c["extras"][0], device, strides);
          expect_equal(ts::bincount(x, w, a["minlength"].get<std::int64_t>()), outs[0], what);
        }
      });
      return;
    }
    if (op == "one_hot") {
      if constexpr (std::is_same_v<T, std::int64_t>) {
        if (error) {
          EXPECT_THROW(ts::one_hot(x, a["num_classes"].get<std::int64_t>()), ts::ValueError)
              << what;
          return;
        }
        expect_equal(ts::one_hot(x, a["num_classes"].get<std::int64_t>()), outs[0], what);
      }
      return;
    }
  }
  if constexpr (!std::is_same_v<T, bool>) {
    if (op == "histc" || op == "histc_int") {
      auto run = [&] {
        return ts::histc(x, a["bins"].get<std::int64_t>(), a["min"].get<double>(),
                         a["max"].get<double>());
      };
      if (error) {
        EXPECT_THROW(run(), ts::ValueError) << what;
        return;
      }
      expect_equal(run(), outs[0], what);
      return;
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (op == "histogram" || op == "histogram_edges") {
      ts::HistogramOptions<T> o;
      o.density = a.value("density", false);
      if (a.contains("range"))
        o.range = std::pair{a["range"][0].get<double>(), a["range"][1].get<double>()};
      const bool edges = op == "histogram_edges";
      if (a.value("weight", false)) {
        o.weight = input_of<T>(c["extras"][edges ? 1 : 0], device, strides);
      }
      auto [hist, bin_edges] = edges
                                   ? ts::histogram(x, input_of<T>(c["extras"][0], device, false), o)
                                   : ts::histogram(x, a["bins"].get<std::int64_t>(), o);
      expect_equal(hist, outs[0], what + " hist");
      expect_equal(bin_edges, outs[1], what + " bin_edges");
      return;
    }
  }
  ADD_FAILURE() << "unhandled golden case " << what;
}

TEST(SetsGolden, MatchesPyTorch) {
  const auto& cases = golden("sets_golden.json")["cases"];
  ASSERT_GT(cases.size(), 50u);
  for (const ts::Device device : available_devices()) {
    for (const auto& c : cases) {
      for (const bool strides : {false, true}) {
        with_dtype(c["input"]["dtype"],
                   [&](auto tag) { run_golden<typename decltype(tag)::type>(c, device, strides); });
      }
    }
  }
}

// ---- properties against reference loops -------------------------------------------------------

template <class T>
std::vector<T> random_values(std::size_t n, int distinct, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, distinct - 1);
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(pick(gen) - distinct / 3);
  return v;
}

class SetsOnDevice : public tessera_test::OnEachDevice {};

TEST_P(SetsOnDevice, UniqueMatchesReferenceLoop) {
  const auto v = random_values<std::int32_t>(3000, 257, 7);
  // A strided expression input: every other element of a (3000, 2) tensor, plus zero.
  auto wide = ts::Tensor<std::int32_t>::from_vector(
                  [&] {
                    std::vector<std::int32_t> w;
                    for (auto e : v) w.insert(w.end(), {e, -99});
                    return w;
                  }(),
                  {3000, 2})
                  .to(device());
  const auto col = wide.select(1, 0);
  auto [values, inverse, counts] =
      (col + 0).unique({.return_inverse = true, .return_counts = true});
  std::map<std::int32_t, std::int64_t> ref;
  for (auto e : v) ++ref[e];
  ASSERT_EQ(values.numel(), static_cast<std::int64_t>(ref.size()));
  const auto got = values.to_vector();
  const auto cnt = counts.to_vector();
  std::size_t k = 0;
  for (const auto& [value, count] : ref) {
    EXPECT_EQ(got[k], value);
    EXPECT_EQ(cnt[k], count);
    ++k;
  }
  const auto inv = inverse.to_vector();
  ASSERT_EQ(inverse.shape(), ts::Shape{3000});
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(got[inv[i]], v[i]);
  // The method without options, on a tensor and on an expression.
  EXPECT_EQ(col.unique().to_vector(), got);
  EXPECT_EQ(ts::unique(col * 1).to_vector(), got);
}

TEST_P(SetsOnDevice, UniqueFloatNaNsAreLastAndDistinct) {
  const float nan = std::nanf("");
  const auto x = ts::Tensor<float>::from_vector({nan, 2.0f, nan, -1.0f, 2.0f}).to(device());
  auto r = ts::unique(x, {.return_inverse = true, .return_counts = true});
  const auto v = r.values.to_vector();
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0], -1.0f);
  EXPECT_EQ(v[1], 2.0f);
  EXPECT_TRUE(std::isnan(v[2]) && std::isnan(v[3]));
  EXPECT_EQ(r.counts.to_vector(), (std::vector<std::int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(r.inverse.to_vector(), (std::vector<std::int64_t>{2, 1, 3, 0, 1}));
  auto c = ts::unique_consecutive(x, {.return_counts = true});
  EXPECT_EQ(c.values.numel(), 5);
  EXPECT_EQ(c.inverse.numel(), 0);  // not asked for
}

TEST_P(SetsOnDevice, UniqueSlicesAreLexicographic) {
  // 40 rows of 3 from few values: many duplicates; compare with std::map over rows.
  const auto v = random_values<std::int64_t>(120, 3, 11);
  const auto m = ts::Tensor<std::int64_t>::from_vector(v, {40, 3}).to(device());
  // dim = 1 of the transpose: the same slices, a strided input.
  auto [values, inverse, counts] =
      ts::unique(m.t(), {.return_inverse = true, .return_counts = true, .dim = 1});
  std::map<std::vector<std::int64_t>, std::int64_t> ref;
  for (std::size_t r = 0; r < 40; ++r) ++ref[{v[3 * r], v[3 * r + 1], v[3 * r + 2]}];
  ASSERT_EQ(values.shape(), (ts::Shape{3, static_cast<std::int64_t>(ref.size())}));
  const auto rows = values.t().contiguous().to_vector();
  const auto cnt = counts.to_vector();
  std::size_t k = 0;
  for (const auto& [row, count] : ref) {
    EXPECT_EQ(std::vector<std::int64_t>(rows.begin() + 3 * k, rows.begin() + 3 * k + 3), row);
    EXPECT_EQ(cnt[k], count);
    ++k;
  }
  const auto inv = inverse.to_vector();
  for (std::size_t r = 0; r < 40; ++r) {
    EXPECT_EQ(std::vector<std::int64_t>(rows.begin() + 3 * inv[r], rows.begin() + 3 * inv[r] + 3),
              (std::vector<std::int64_t>{v[3 * r], v[3 * r + 1], v[3 * r + 2]}));
  }
}

TEST_P(SetsOnDevice, BincountMatchesReferenceLoopAndIsBitIdentical) {
  const std::size_t n = 20000;
  auto idx = random_values<std::int64_t>(n, 300, 3);
  for (auto& e : idx) e = e < 0 ? -e : e;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> w(n);
  for (auto& e : w) e = u(gen) * 1e3f;
  const auto i = ts::Tensor<std::int64_t>::from_vector(idx).to(device());
  const auto wt = ts::Tensor<float>::from_vector(w).to(device());
  std::vector<std::int64_t> ref_counts(350, 0);
  std::vector<float> ref_sums(350, 0.0f);
  for (std::size_t k = 0; k < n; ++k) {
    ++ref_counts[idx[k]];
    ref_sums[idx[k]] += w[k];  // index order, in float: PyTorch's CPU loop
  }
  const auto counts = i.bincount(350);
  EXPECT_EQ(counts.to_vector(), ref_counts);
  const auto sums = ts::bincount(i, wt, 350);
  const auto got = sums.to_vector();
  ASSERT_EQ(got.size(), ref_sums.size());
  EXPECT_EQ(std::memcmp(got.data(), ref_sums.data(), got.size() * sizeof(float)), 0);
  EXPECT_EQ(ts::bincount(i, wt, 350).to_vector(), got);  // run after run
  // int8 indices through an expression; length max + 1.
  const auto small = ts::Tensor<std::int8_t>::from_vector({3, 0, 3}).to(device());
  EXPECT_EQ(ts::bincount(small * 1).to_vector(), (std::vector<std::int64_t>{1, 0, 0, 2}));
}

TEST_P(SetsOnDevice, HistcAndHistogramMatchReferenceLoops) {
  std::mt19937 gen(9);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<double> v(5000);
  for (auto& e : v) e = g(gen);
  v[0] = std::nan("");
  v[1] = 2.0;  // the top edge: the last bin
  const auto x = ts::Tensor<double>::from_vector(v, {50, 100}).to(device()).t();
  const auto h = ts::histc(x, 8, -2.0, 2.0).to_vector();
  std::vector<double> ref(8, 0.0);
  for (double e : v) {
    if (!(e >= -2.0 && e <= 2.0)) continue;
    const auto pos = static_cast<std::int64_t>((e + 2.0) * 8 / 4.0);
    ref[std::min<std::int64_t>(pos, 7)] += 1;
  }
  EXPECT_EQ(h, ref);
  // Integer input: float32 counts of the values binned in float64.
  const auto xi =
      ts::Tensor<std::int16_t>::from_vector({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}).to(device());
  const auto hi = ts::histc(xi, 5, 0, 10);
  static_assert(std::is_same_v<decltype(hi), const ts::Tensor<float>>);
  EXPECT_EQ(hi.to_vector(), (std::vector<float>{2, 2, 2, 2, 3}));
  // histogram over edges with weights against a loop.
  const auto edges = ts::Tensor<double>::from_vector({-1.0, -0.25, 0.0, 0.5, 3.0}).to(device());
  const auto w = ts::Tensor<double>::full({100, 50}, 0.5, device());
  auto [hist, bin_edges] = ts::histogram(x, edges, {.weight = w});
  std::vector<double> href(4, 0.0);
  const double e[] = {-1.0, -0.25, 0.0, 0.5, 3.0};
  for (double val : v) {
    if (!(val >= -1.0 && val <= 3.0)) continue;
    int b = 0;
    while (b < 3 && val >= e[b + 1]) ++b;
    href[b] += 0.5;
  }
  EXPECT_EQ(hist.to_vector(), href);
  EXPECT_EQ(bin_edges.to_vector(), edges.to_vector());
  // The data's range is NaN: an error, as PyTorch's; with a range, every non-NaN element counts.
  EXPECT_THROW((x * 1.0).histogram(4), ts::ValueError);
  auto [h2, e2] = ts::histogram(x * 1.0, 4, {.range = std::pair{-10.0, 10.0}});
  EXPECT_EQ(e2.numel(), 5);
  EXPECT_EQ(ts::sum(h2), 4999.0);
}

TEST_P(SetsOnDevice, OneHotAndEmptyInputs) {
  const auto labels = ts::Tensor<std::int64_t>::from_vector({2, 0, 1}).to(device());
  EXPECT_EQ(labels.one_hot().to_vector(), (std::vector<std::int64_t>{0, 0, 1, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(ts::one_hot(labels * 2, 5).shape(), (ts::Shape{3, 5}));
  const auto none = ts::Tensor<std::int64_t>::empty({0}, device());
  EXPECT_EQ(ts::one_hot(none, 3).shape(), (ts::Shape{0, 3}));
  EXPECT_EQ(ts::unique(none).numel(), 0);
  EXPECT_EQ(ts::unique_consecutive(none).numel(), 0);
  EXPECT_EQ(ts::bincount(none, 4).to_vector(), (std::vector<std::int64_t>(4, 0)));
  EXPECT_EQ(ts::histc(ts::Tensor<float>::empty({0}, device()), 3).to_vector(),
            (std::vector<float>(3, 0.0f)));
}

TEST_P(SetsOnDevice, ErrorsNameTheOpAndTheValues) {
  const auto i = ts::Tensor<std::int64_t>::from_vector({1, -3, 2}).to(device());
  const auto f = ts::Tensor<float>::from_vector({0.5f, 1.5f}).to(device());
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const ts::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THROW(ts::bincount(i), ts::ValueError);
  EXPECT_NE(message([&] { ts::bincount(i); }).find("-3"), std::string::npos);
  EXPECT_NE(message([&] { ts::bincount(i); }).find("bincount"), std::string::npos);
  EXPECT_THROW(ts::bincount(i.reshape({1, 3})), ts::ShapeError);
  EXPECT_THROW(ts::bincount((i * i), -1), ts::ValueError);
  EXPECT_THROW(ts::bincount((i * i), f), ts::ShapeError);
  EXPECT_THROW(ts::histc(f, 0), ts::ValueError);
  EXPECT_NE(message([&] { ts::histc(f, 3, 2.0, 1.0); }).find("min = 2"), std::string::npos);
  EXPECT_THROW(ts::histc(f, 3, 0.0, INFINITY), ts::ValueError);
  EXPECT_THROW(ts::histogram(f, -1), ts::ValueError);
  // Edges: one edge is no bin (torch: "bins must be > 0"); decreasing edges have no meaning
  // (NumPy: "bins must increase monotonically"); equal edges are an empty bin (issue 65).
  EXPECT_TRUE(tessera_test::throws_with<ts::ValueError>(
      [&] { (void)ts::histogram(f, ts::Tensor<float>::from_vector({1.0f}, {1}, device())); },
      {"histogram: bins must be > 0"}));
  EXPECT_TRUE(tessera_test::throws_with<ts::ValueError>(
      [&] {
        (void)ts::histogram(f, ts::Tensor<float>::from_vector({3.0f, 2.0f, 5.0f}, {3}, device()));
      },
      {"histogram: bins must increase monotonically", "edge 0 is 3", "edge 1 is 2"}));
  EXPECT_EQ(
      ts::histogram(f, ts::Tensor<float>::from_vector({0.0f, 1.0f, 1.0f, 9.0f}, {4}, device()))
          .hist.numel(),
      3);
  EXPECT_THROW(ts::histogram(f, 2, {.range = std::pair{1.0, 0.0}}), ts::ValueError);
  EXPECT_THROW(ts::histogram(f, 2, {.weight = ts::Tensor<float>::ones({3}, device())}),
               ts::ShapeError);
  EXPECT_THROW(ts::one_hot(i, 3), ts::ValueError);
  EXPECT_THROW(ts::one_hot((i * i), 2), ts::ValueError);
  EXPECT_THROW(ts::one_hot((i * i), -2), ts::ValueError);
  EXPECT_THROW(ts::unique(i, {.dim = 1}), ts::IndexError);
  EXPECT_NE(message([&] { ts::unique(i, {.dim = 1}); }).find("unique"), std::string::npos);
}

TEST_P(SetsOnDevice, CatAndStackTakeVectors) {
  std::vector<ts::Tensor<float>> parts;
  for (int k = 0; k < 3; ++k) parts.push_back(ts::Tensor<float>::full({2, 2}, float(k), device()));
  EXPECT_EQ(ts::cat(parts, 0).shape(), (ts::Shape{6, 2}));
  EXPECT_EQ(ts::cat(parts, 1).to_vector(),
            (std::vector<float>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(ts::stack(parts, 1).shape(), (ts::Shape{2, 3, 2}));
  EXPECT_EQ(ts::stack(parts, 0).select(0, 2).to_vector(), (std::vector<float>(4, 2.0f)));
}

TEST_P(SetsOnDevice, MethodTwinsOnExpressions) {
  const auto x = ts::Tensor<std::int32_t>::from_vector({4, 4, 1, 4, 1, 1}).to(device());
  EXPECT_EQ((x * 1).unique_consecutive().to_vector(), (std::vector<std::int32_t>{4, 1, 4, 1}));
  auto [v, inverse, counts] = (x + 0).unique_consecutive({.return_counts = true});
  EXPECT_EQ(counts.to_vector(), (std::vector<std::int64_t>{2, 1, 1, 2}));
  EXPECT_EQ(inverse.numel(), 0);
  EXPECT_EQ((x - 1).bincount().to_vector(), (std::vector<std::int64_t>{3, 0, 0, 3}));
  const auto w = ts::Tensor<double>::full({6}, 0.25, device());
  EXPECT_EQ(x.bincount(w, 6).to_vector(), (std::vector<double>{0, 0.75, 0, 0, 0.75, 0}));
  EXPECT_EQ((x * 2).histc(4, 0, 8).to_vector(), (std::vector<float>{0, 3, 0, 3}));
  EXPECT_EQ(x.cast<std::int64_t>().one_hot(5).shape(), (ts::Shape{6, 5}));
  const auto u = x.unique({.return_inverse = true});
  EXPECT_EQ(u.values.to_vector(), (std::vector<std::int32_t>{1, 4}));
  EXPECT_EQ(u.inverse.to_vector(), (std::vector<std::int64_t>{1, 1, 0, 1, 0, 0}));
  EXPECT_EQ(u.counts.numel(), 0);
}

TESSERA_INSTANTIATE_ON_EACH_DEVICE(SetsOnDevice);

TEST(SetsDevices, DeviceAnswersEqualHostAnswers) {
  if (!ts::cuda_available()) GTEST_SKIP() << "no CUDA device";
  const auto v = random_values<std::int64_t>(4000, 500, 21);
  std::vector<double> w(v.size());
  for (std::size_t k = 0; k < w.size(); ++k) w[k] = 1.0 / static_cast<double>(k + 3);
  const auto x = ts::Tensor<std::int64_t>::from_vector(v);
  const auto xd = x.to(ts::Device::cuda(0));
  auto a = ts::unique(x, {.return_inverse = true, .return_counts = true});
  auto b = ts::unique(xd, {.return_inverse = true, .return_counts = true});
  EXPECT_EQ(a.values.to_vector(), b.values.to_vector());
  EXPECT_EQ(a.inverse.to_vector(), b.inverse.to_vector());
  EXPECT_EQ(a.counts.to_vector(), b.counts.to_vector());
  const auto ids = ts::eval(x * x);
  const auto wt = ts::Tensor<double>::from_vector(w);
  const auto hs = ts::bincount(ids, wt).to_vector();
  const auto ds = ts::bincount(ids.to(ts::Device::cuda(0)), wt.to(ts::Device::cuda(0))).to_vector();
  ASSERT_EQ(hs.size(), ds.size());
  EXPECT_EQ(std::memcmp(hs.data(), ds.data(), hs.size() * sizeof(double)), 0);
}

}  // namespace
