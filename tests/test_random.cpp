// SPDX-License-Identifier: BSD-3-Clause
// Random numbers (docs/ops/random.md): the stream against an independent Philox4x32-10
// written from its definition (checked against Random123's published known answers), the
// layout of every distribution, the same bits on every device and thread count, statistical
// tests at fixed seeds, generator handles and offsets, errors that draw nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <thread>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

/// Philox4x32-10 from its definition (Salmon et al., SC'11), independent of Random123.
std::vector<std::uint32_t> philox(std::uint64_t seed, std::uint64_t block) {
  std::uint32_t c[4] = {static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                        0, 0};
  std::uint32_t k0 = static_cast<std::uint32_t>(seed);
  std::uint32_t k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c[0];
    const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * c[2];
    const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k0;
    const std::uint32_t n1 = static_cast<std::uint32_t>(p1);
    const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k1;
    const std::uint32_t n3 = static_cast<std::uint32_t>(p0);
    c[0] = n0;
    c[1] = n1;
    c[2] = n2;
    c[3] = n3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {c[0], c[1], c[2], c[3]};
}

/// Word j of a call starting at block `first`.
std::uint32_t word(std::uint64_t seed, std::uint64_t first, std::uint64_t j) {
  return philox(seed, first + j / 4)[j % 4];
}
std::uint64_t word64(std::uint64_t seed, std::uint64_t first, std::uint64_t j) {
  return (static_cast<std::uint64_t>(word(seed, first, j)) << 32) | word(seed, first, j + 1);
}

/// Kolmogorov-Smirnov statistic of sorted samples against a CDF.
template <class T, class Cdf>
double ks_statistic(std::vector<T> v, Cdf cdf) {
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(static_cast<double>(v[i]));
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

}  // namespace

TEST(RandomStream, ReferencePhiloxGivesRandom123sKnownAnswers) {
  // kat_vectors of Random123: philox4x32 10, counter 0 and key 0, and the pi digits.
  EXPECT_EQ(philox(0, 0),
            (std::vector<std::uint32_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  // Through the library: randint over [0, 2^32) is the raw words (word i = element i).
  const auto w = ts::randint<std::int64_t>(0, std::int64_t{1} << 32, {4}, ts::Generator(0));
  EXPECT_EQ(w.to_vector(),
            (std::vector<std::int64_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
}

TEST(RandomStream, EveryDistributionTakesTheWordsSpecSays) {
  const std::uint64_t seed = 0x123456789abcdefULL;
  for (const auto device : tessera_test::available_devices()) {
    ts::Generator gen(seed);
    // Words of the seed's key: the high half of the seed is the second key word.
    const auto raw = ts::randint<std::int64_t>(0, std::int64_t{1} << 32, {9}, {gen, device});
    for (std::uint64_t i = 0; i < 9; ++i) {
      EXPECT_EQ(static_cast<std::uint64_t>(raw.cpu().to_vector()[i]), word(seed, 0, i)) << i;
    }
    EXPECT_EQ(gen.offset(), 3u);  // 9 words: ceil(9 / 4) blocks
    // float rand: (w >> 8) * 2^-24 from word i of the next blocks.
    const auto f = ts::rand<float>({7}, {gen, device}).to_vector();
    for (std::uint64_t i = 0; i < 7; ++i) {
      EXPECT_EQ(f[i], static_cast<float>(word(seed, 3, i) >> 8) * 0x1.0p-24f) << i;
    }
    EXPECT_EQ(gen.offset(), 5u);
    // double rand: words 2i, 2i+1.
    const auto d = ts::rand<double>({3}, {gen, device}).to_vector();
    for (std::uint64_t i = 0; i < 3; ++i) {
      EXPECT_EQ(d[i], static_cast<double>(word64(seed, 5, 2 * i) >> 11) * 0x1.0p-53) << i;
    }
    EXPECT_EQ(gen.offset(), 7u);  // 6 words
    // randn: Box-Muller over consecutive pairs; an odd count still draws the pair.
    const auto z = ts::randn<double>({3}, {gen, device}).to_vector();
    for (std::uint64_t k = 0; k < 2; ++k) {
      const double u1 = static_cast<double>(word64(seed, 7, 4 * k) >> 11) * 0x1.0p-53;
      const double u2 = static_cast<double>(word64(seed, 7, 4 * k + 2) >> 11) * 0x1.0p-53;
      const double r = std::sqrt(-2.0 * std::log(1.0 - u1));
      const double t = 2.0 * M_PI * u2;
      const double tol = 4 * 0x1.0p-52 * (std::abs(r) + 2 * M_PI * u2 * r) + 1e-15;
      EXPECT_NEAR(z[2 * k], r * std::cos(t), tol) << k;
      if (2 * k + 1 < 3) {
        EXPECT_NEAR(z[2 * k + 1], r * std::sin(t), tol) << k;
      }
    }
    EXPECT_EQ(gen.offset(), 9u);  // 4 doubles = 8 words
    // randint over a range above 2^32: lo + mulhi64(x, r) of words 2i, 2i+1.
    const std::int64_t lo = -(std::int64_t{1} << 40);
    const std::uint64_t range = std::uint64_t{3} << 41;
    const auto big =
        ts::randint<std::int64_t>(lo, lo + static_cast<std::int64_t>(range), {2}, {gen, device})
            .to_vector();
    for (std::uint64_t i = 0; i < 2; ++i) {
      const auto x = static_cast<unsigned __int128>(word64(seed, 9, 2 * i));
      const auto k = static_cast<std::uint64_t>((x * range) >> 64);
      EXPECT_EQ(big[i], lo + static_cast<std::int64_t>(k)) << i;
    }
    EXPECT_EQ(gen.offset(), 10u);
  }
}

TEST(RandomStream, SameBitsOnEveryDeviceAndThreadCount) {
  const auto draw = [](ts::Device device) {
    ts::Generator gen(2026);
    std::vector<double> all;
    const auto add = [&all](const auto& t) {
      for (auto v : t.cpu().to_vector()) all.push_back(static_cast<double>(v));
    };
    add(ts::rand<float>({1000, 1000}, {gen, device}));
    add(ts::randn<float>({333, 3}, {gen, device}));
    add(ts::randn<double>({1001}, {gen, device}));
    add(ts::normal<float>(2.0f, 3.0f, {17}, {gen, device}));
    add(ts::randint<std::int16_t>(-300, 300, {999}, {gen, device}));
    add(ts::randperm(5000, {gen, device}));
    add(ts::bernoulli(ts::Tensor<float>::full({100}, 0.3f, device), gen));
    const auto w = ts::Tensor<double>::arange(0.0, 12.0, 1.0, device).reshape({3, 4});
    add(ts::multinomial(w, 3, false, gen));
    add(ts::multinomial(w, 5, true, gen));
    auto x = ts::Tensor<float>::zeros({40, 30}, device);
    x.t().uniform_(-1.0, 1.0, gen);  // strided destination: row-major numbering of x.t()
    add(x);
    x.normal_(0.0, 1.0, gen);
    add(x);
    x.bernoulli_(0.5, gen);
    add(x);
    all.push_back(static_cast<double>(gen.offset()));
    return all;
  };
  const auto reference = draw(ts::Device::cpu());
  ASSERT_GT(reference.size(), 1'000'000u);
  tessera_test::with_host_threads({1, 2, 4},
                                  [&] { EXPECT_EQ(draw(ts::Device::cpu()), reference); });
  if (ts::cuda_available()) {
    EXPECT_EQ(draw(ts::Device::cuda(0)), reference);
  }
}

TEST(RandomStream, FloatNormalsAreWithinSpecOfTheFormula) {
  // float randn runs on the library's own log and sincos (the same bits everywhere, vectorised
  // on the host): every value of 2^19 pairs against Box-Muller in double from the same float
  // uniforms, within the stream's bound of 2 ulp + 4 eps (|z| + 2 pi u2 r).
  const std::uint64_t seed = 77;
  const std::int64_t n = std::int64_t{1} << 20;
  for (const auto device : tessera_test::available_devices()) {
    const auto z = ts::randn<float>({n}, {ts::Generator(seed), device}).to_vector();
    int bad = 0;
    for (std::int64_t k = 0; k < n / 2 && bad < 10; ++k) {
      const auto j = static_cast<std::uint64_t>(2 * k);
      const double u1 = static_cast<double>(static_cast<float>(word(seed, 0, j) >> 8) * 0x1.0p-24f);
      const double u2 =
          static_cast<double>(static_cast<float>(word(seed, 0, j + 1) >> 8) * 0x1.0p-24f);
      const double r = std::sqrt(-2.0 * std::log(1.0 - u1));
      const double exact[2] = {r * std::cos(2.0 * M_PI * u2), r * std::sin(2.0 * M_PI * u2)};
      for (int i = 0; i < 2; ++i) {
        const double got = z[static_cast<std::size_t>(2 * k + i)];
        const double ulp = std::nextafter(std::abs(static_cast<float>(exact[i])), INFINITY) -
                           std::abs(static_cast<float>(exact[i]));
        const double tol = 2 * ulp + 4 * 0x1.0p-23 * (std::abs(exact[i]) + 2 * M_PI * u2 * r);
        if (!(std::abs(got - exact[i]) <= tol)) {
          ADD_FAILURE() << "pair " << k << " element " << i << ": u1 " << u1 << " u2 " << u2
                        << " got " << got << " exact " << exact[i];
          ++bad;
        }
      }
    }
  }
}

TEST(RandomStream, RandpermIsTheStableArgsortOfItsKeys) {
  // The host finds randperm's order by buckets (uniform keys), the device by argsort: both
  // equal the stable argsort of the 64-bit keys (words 2i, 2i+1), at every thread count.
  const std::uint64_t seed = 31;
  for (const std::int64_t n : {std::int64_t{3}, std::int64_t{5000}, std::int64_t{300'000}}) {
    std::vector<std::uint64_t> keys(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      keys[static_cast<std::size_t>(i)] = word64(seed, 0, 2 * static_cast<std::uint64_t>(i));
    }
    std::vector<std::int64_t> expected(static_cast<std::size_t>(n));
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(), [&](std::int64_t a, std::int64_t b) {
      return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
    });
    tessera_test::with_host_threads({1, 2, 3}, [&] {
      for (const auto device : tessera_test::available_devices()) {
        EXPECT_EQ(ts::randperm(n, {ts::Generator(seed), device}).cpu().to_vector(), expected)
            << n << " on " << device;
      }
    });
  }
}

TEST(RandomStream, StridedInPlaceFillsNumberElementsRowMajor) {
  for (const auto device : tessera_test::available_devices()) {
    auto x = ts::Tensor<float>::zeros({3, 5}, device);
    x.t().uniform_(0.0, 1.0, ts::Generator(7));
    const auto direct = ts::rand<float>({5, 3}, {ts::Generator(7), device});
    EXPECT_EQ(x.t().contiguous().to_vector(), direct.to_vector());
  }
}

TEST(RandomGenerator, HandlesShareStateAndSeedResetsTheOffset) {
  ts::Generator a(5);
  ts::Generator b = a;  // the same stream
  EXPECT_TRUE(a == b);
  (void)ts::rand<float>({8}, a);
  EXPECT_EQ(b.offset(), 2u);
  b.seed(9);
  EXPECT_EQ(a.seed(), 9u);
  EXPECT_EQ(a.offset(), 0u);
  const auto first = ts::rand<double>({4}, a).to_vector();
  a.set_offset(0);
  EXPECT_EQ(ts::rand<double>({4}, b).to_vector(), first);
  EXPECT_FALSE(a == ts::Generator(9));
  // The default generator and manual_seed.
  ts::manual_seed(42);
  const auto u = ts::rand<float>({3, 4}).to_vector();
  ts::manual_seed(42);
  EXPECT_EQ(ts::rand<float>({3, 4}).to_vector(), u);
  EXPECT_EQ(ts::rand<float>({3, 4}, ts::Generator(42)).to_vector(), u);
  EXPECT_EQ(ts::default_generator().offset(), 3u);
}

TEST(RandomGenerator, ConcurrentCallsTakeDisjointBlocks) {
  ts::Generator gen(11);
  std::vector<std::vector<float>> parts(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back(
        [&, t] { parts[static_cast<std::size_t>(t)] = ts::rand<float>({4000}, gen).to_vector(); });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(gen.offset(), 4000u);
  // Together they are the first 16000 numbers of the stream, each part one aligned quarter.
  const auto all = ts::rand<float>({16000}, ts::Generator(11)).to_vector();
  for (const auto& part : parts) {
    const auto at = std::search(all.begin(), all.end(), part.begin(), part.end());
    ASSERT_NE(at, all.end());
    EXPECT_EQ((at - all.begin()) % 4000, 0);
  }
}

TEST(RandomStatistics, UniformNormalAndIntegersPassTheirTestsAtFixedSeeds) {
  ts::Generator gen(1234);
  const std::int64_t n = 200'000;
  const auto u = ts::rand<float>({n}, gen).to_vector();
  EXPECT_LT(*std::max_element(u.begin(), u.end()), 1.0f);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), 0.0f);
  const double mean = std::accumulate(u.begin(), u.end(), 0.0) / n;
  EXPECT_NEAR(mean, 0.5, 0.003);
  // KS at the 0.1 % level: D < 1.95 / sqrt(n).
  const double bound = 1.95 / std::sqrt(static_cast<double>(n));
  EXPECT_LT(ks_statistic(u, [](double x) { return x; }), bound);
  const auto z = ts::randn<double>({n}, gen).to_vector();
  for (double v : z) ASSERT_TRUE(std::isfinite(v));
  EXPECT_LT(ks_statistic(z, [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }), bound);
  const auto g = ts::normal<float>(3.0f, 2.0f, {n}, gen).to_vector();
  const double gm = std::accumulate(g.begin(), g.end(), 0.0) / n;
  double gv = 0;
  for (float v : g) gv += (v - gm) * (v - gm);
  EXPECT_NEAR(gm, 3.0, 0.03);
  EXPECT_NEAR(std::sqrt(gv / n), 2.0, 0.02);
  // Chi-square of randint over 10 values (9 degrees of freedom; 27.9 is the 0.1 % point).
  const auto k = ts::randint<std::int32_t>(-5, 5, {n}, gen).to_vector();
  std::vector<double> counts(10, 0.0);
  for (auto v : k) {
    ASSERT_TRUE(v >= -5 && v < 5);
    counts[static_cast<std::size_t>(v + 5)] += 1;
  }
  double chi2 = 0;
  for (double c : counts) chi2 += (c - n / 10.0) * (c - n / 10.0) / (n / 10.0);
  EXPECT_LT(chi2, 27.9);
  // bernoulli's frequency and randperm is a permutation.
  const auto b = ts::bernoulli(ts::Tensor<double>::full({n}, 0.25), gen).to_vector();
  EXPECT_NEAR(std::accumulate(b.begin(), b.end(), 0.0) / n, 0.25, 0.005);
  auto p = ts::randperm(10000, gen).to_vector();
  std::vector<std::int64_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int64_t> iota(10000);
  std::iota(iota.begin(), iota.end(), 0);
  EXPECT_EQ(sorted, iota);
  EXPECT_NE(p, iota);
}

TEST(RandomStatistics, MultinomialFollowsTheWeights) {
  ts::Generator gen(99);
  const auto w = ts::tensor<double>({1.0, 0.0, 3.0, 6.0});
  const auto draws = ts::multinomial(w, 20000, true, gen).to_vector();
  std::vector<double> counts(4, 0.0);
  for (auto d : draws) counts[static_cast<std::size_t>(d)] += 1;
  EXPECT_EQ(counts[1], 0.0);  // a zero weight is never drawn
  EXPECT_NEAR(counts[0] / 20000, 0.1, 0.01);
  EXPECT_NEAR(counts[2] / 20000, 0.3, 0.015);
  EXPECT_NEAR(counts[3] / 20000, 0.6, 0.015);
  // Without replacement: distinct, positive-weight categories only; the heaviest first most
  // often.
  int heaviest_first = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const auto pick = ts::multinomial(w, 3, false, gen).to_vector();
    ASSERT_EQ(pick.size(), 3u);
    std::vector<std::int64_t> s = pick;
    std::sort(s.begin(), s.end());
    EXPECT_EQ(s, (std::vector<std::int64_t>{0, 2, 3}));
    heaviest_first += pick[0] == 3;
  }
  EXPECT_NEAR(heaviest_first / 2000.0, 0.6, 0.04);
  const auto rows = ts::multinomial(ts::tensor<float>({{1, 1}, {0, 1}}), 4, true, gen);
  EXPECT_EQ(rows.shape(), (ts::Shape{2, 4}));
  EXPECT_EQ(rows.select(0, 1).to_vector(), (std::vector<std::int64_t>{1, 1, 1, 1}));
}

TEST(RandomErrors, BadArgumentsRaiseAndDrawNothing) {
  ts::Generator gen(3);
  auto x = ts::Tensor<float>::zeros({4});
  EXPECT_THROW(x.uniform_(1.0, 0.0, gen), ts::ValueError);
  EXPECT_THROW(x.normal_(0.0, -1.0, gen), ts::ValueError);
  EXPECT_THROW(x.bernoulli_(1.5, gen), ts::ValueError);
  EXPECT_THROW(ts::Tensor<std::int32_t>::zeros({2}).uniform_(0.0, 1.0, gen), ts::ValueError);
  EXPECT_THROW(ts::normal<float>(0.0f, -2.0f, {3}, gen), ts::ValueError);
  // Messages name the op the user called (normal runs randn's code: issue 65).
  EXPECT_TRUE(tessera_test::throws_with<ts::ValueError>(
      [&] { (void)ts::normal<double>(0.0, -1.0, {3}, gen); },
      {"normal: expects std >= 0.0, but found std -1"}));
  EXPECT_TRUE(tessera_test::throws_with<ts::ValueError>(
      [&] { (void)ts::normal<float>(0.0f, NAN, {3}, gen); }, {"normal: ", "found std nan"}));
  EXPECT_THROW(ts::randint<std::int64_t>(5, 5, {3}, gen), ts::ValueError);
  EXPECT_THROW(ts::randint<std::uint8_t>(-1, 10, {3}, gen), ts::ValueError);
  EXPECT_THROW(ts::randint<std::int8_t>(0, 129, {3}, gen), ts::ValueError);
  EXPECT_THROW(ts::randperm(-1, gen), ts::ValueError);
  EXPECT_THROW(ts::bernoulli(ts::tensor<float>({0.5f, 1.5f}), gen), ts::ValueError);
  EXPECT_THROW(ts::bernoulli(ts::tensor<float>({NAN}), gen), ts::ValueError);
  EXPECT_THROW(ts::multinomial(ts::tensor<float>({1, -1}), 1, true, gen), ts::ValueError);
  EXPECT_THROW(ts::multinomial(ts::tensor<float>({0, 0}), 1, true, gen), ts::ValueError);
  EXPECT_THROW(ts::multinomial(ts::tensor<float>({1, INFINITY}), 1, true, gen), ts::ValueError);
  EXPECT_THROW(ts::multinomial(ts::tensor<float>({1, 0, 2}), 3, false, gen), ts::ValueError);
  EXPECT_THROW(ts::multinomial(ts::tensor<float>({1, 2}), 0, true, gen), ts::ValueError);
  EXPECT_THROW(ts::multinomial(ts::Tensor<float>::ones({2, 2, 2}), 1, true, gen), ts::ShapeError);
  EXPECT_THROW(x.unsqueeze(0).expand({3, 4}).uniform_(0.0, 1.0, gen), ts::ValueError);
  EXPECT_THROW(ts::rand<float>({-1}, gen), ts::ShapeError);
  EXPECT_EQ(gen.offset(), 0u);  // nothing was drawn
  EXPECT_EQ(x.to_vector(), std::vector<float>(4, 0.0f));
  // Edges that are fine: empty shapes draw no block, integer bernoulli_, 0-d, rand_like.
  EXPECT_EQ(ts::rand<float>({0, 3}, gen).numel(), 0);
  EXPECT_EQ(gen.offset(), 0u);
  auto i = ts::Tensor<std::int64_t>::zeros({5});
  i.bernoulli_(1.0, gen);
  EXPECT_EQ(i.to_vector(), std::vector<std::int64_t>(5, 1));
  EXPECT_EQ(ts::randn<float>({}, gen).dim(), 0);
  EXPECT_EQ(ts::rand_like(x * 2.0f, gen).shape(), x.shape());
  EXPECT_EQ(ts::randn_like(x).shape(), x.shape());
  EXPECT_EQ(ts::randint<double>(0, 3, {4}, gen).to_vector().size(), 4u);
}

TEST(RandomDocs, MonteCarloPiAndATrainTestSplit) {
  for (const auto dev : tessera_test::available_devices()) {
    // [snippet:random-tour]
    ts::Generator gen(2026);                             // a stream: seed 2026, offset 0
    auto x = ts::rand<double>({1'000'000}, {gen, dev});  // U[0, 1), on dev
    auto y = ts::rand<double>({1'000'000}, {gen, dev});  // the next numbers of the stream
    double pi = 4.0 * ts::mean(ts::cast<double>(x * x + y * y < 1.0));
    auto order = ts::randperm(150, {gen, dev});  // a shuffle of 150 samples
    auto train = order.narrow(0, 0, 120);        // 120 to train on
    auto test = order.narrow(0, 120, 30);        // 30 held out
    // [end-snippet]
    EXPECT_NEAR(pi, 3.14159, 0.01);
    auto all = ts::cat({train, test}, 0).to_vector();
    std::sort(all.begin(), all.end());
    std::vector<std::int64_t> iota(150);
    std::iota(iota.begin(), iota.end(), 0);
    EXPECT_EQ(all, iota);
    // The same seed gives the same numbers on every device.
    EXPECT_EQ(x.cpu().to_vector(), ts::rand<double>({1'000'000}, ts::Generator(2026)).to_vector());
  }
}
