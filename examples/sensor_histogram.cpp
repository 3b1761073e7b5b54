// SPDX-License-Identifier: BSD-3-Clause
// A realistic use of bucketize, scatter and fused expressions: calibrate a long sensor series,
// bin it into a histogram, read quantiles off the cumulative counts, and find the outliers,
// without a temporary for the calibrated series.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

constexpr std::int64_t kSamples = 2'000'000;
constexpr std::int64_t kBins = 24;

/// A noisy drifting signal with rare spikes (fixed seed, the same on every run and device).
std::vector<float> sensor_series(std::int64_t n) {
  std::vector<float> raw(static_cast<std::size_t>(n));
  example::Uniform uniform(42);  // the same series on every run and device
  for (std::int64_t i = 0; i < n; ++i) {
    const float noise = (uniform() + uniform() + uniform() - 1.5f) * 2.0f;  // ~ bell-shaped
    const float drift = 0.5f * static_cast<float>(i) / static_cast<float>(n);
    const float spike = uniform() < 1e-5f ? 40.0f : 0.0f;
    raw[static_cast<std::size_t>(i)] = 512.0f + 100.0f * (noise + drift + spike);
  }
  return raw;
}

int run(const ts::Device dev) {
  example::Stopwatch make;
  const std::vector<float> host_raw = sensor_series(kSamples);
  auto raw = ts::Tensor<float>::from_vector(host_raw, dev);
  example::wait_for(dev);
  make.stop("make + upload series");

  // [snippet:app-histogram]
  const float gain = 0.01f, offset = -5.12f;  // raw counts -> volts
  auto volts = raw * gain + offset;           // lazy: never stored
  example::Stopwatch stats;
  const float lo = ts::min(volts), hi = ts::max(volts);  // one fused pass each
  const float mean = ts::sum(volts) / kSamples;
  const float sd = std::sqrt(ts::sum((volts - mean) * (volts - mean)) / kSamples);
  stats.stop("min, max, mean, sd");

  example::Stopwatch binning;
  // kBins bins over mean +- 4 sd; bin 0 and the last bin also take everything beyond.
  const float first = mean - 4 * sd, width = 8 * sd / kBins;
  ts::Tensor<float> inner = ts::Tensor<float>::arange(1.0f, kBins, 1.0f, dev) * width + first;
  ts::Tensor<int64_t> bin = volts.bucketize(inner, /*right=*/true);  // 0 .. kBins-1
  auto counts = ts::Tensor<int64_t>::zeros({kBins}, dev);
  counts.scatter_nd_add_(bin.reshape({kSamples, 1}), ts::Tensor<int64_t>::ones({kSamples}, dev));
  example::wait_for(dev);
  binning.stop("bucketize + scatter_nd_add_");
  // [end-snippet]

  // [snippet:app-quantiles]
  example::Stopwatch quantiles;
  std::vector<int64_t> cdf = counts.to_vector();  // kBins numbers: host work
  std::partial_sum(cdf.begin(), cdf.end(), cdf.begin());
  auto rank = ts::tensor<int64_t>({kSamples / 2, kSamples * 9 / 10, kSamples * 99 / 100}, dev);
  std::vector<int64_t> qbin =
      ts::Tensor<int64_t>::from_vector(cdf, dev).searchsorted(rank).to_vector();
  quantiles.stop("quantile bins (searchsorted)");

  example::Stopwatch outliers;
  ts::Tensor<int64_t> spikes = (ts::abs(volts - mean) > 6 * sd).nonzero();
  example::wait_for(dev);
  outliers.stop("outliers beyond 6 sd (nonzero)");
  // [end-snippet]

  std::printf("%lld samples: volts in [%.3f, %.3f], mean %.4f, sd %.4f\n",
              static_cast<long long>(kSamples), lo, hi, mean, sd);
  // Bin b covers [edge(b), edge(b + 1)); the outer bins are open-ended.
  auto edge = [&](std::int64_t b) {
    if (b <= 0) return -INFINITY;
    if (b >= kBins) return INFINITY;
    return first + static_cast<float>(b) * width;
  };
  const std::vector<int64_t> hist = counts.to_vector();
  const int64_t peak = *std::max_element(hist.begin(), hist.end());
  for (std::int64_t b = 0; b < kBins; ++b) {
    const auto n = hist[static_cast<std::size_t>(b)];
    std::printf("[%7.3f, %7.3f) %8lld %s\n", edge(b), edge(b + 1), static_cast<long long>(n),
                std::string(static_cast<std::size_t>(50 * n / peak), '#').c_str());
  }
  // The exact quantile (the same calibrated values, ranked on the host) must lie in the bin.
  std::vector<float> sorted(host_raw.size());
  std::transform(host_raw.begin(), host_raw.end(), sorted.begin(),
                 [&](float r) { return r * gain + offset; });
  const char* names[] = {"p50", "p90", "p99"};
  const std::vector<int64_t> ranks = rank.to_vector();
  for (std::size_t q = 0; q < 3; ++q) {
    const std::int64_t b = qbin[q];
    const auto nth = sorted.begin() + (ranks[q] - 1);
    std::nth_element(sorted.begin(), nth, sorted.end());
    const float exact = *nth;
    const bool inside = exact >= edge(b) - 1e-4f && exact <= edge(b + 1) + 1e-4f;
    std::printf("%s in bin %lld [%.3f, %.3f); exact %.4f %s\n", names[q], static_cast<long long>(b),
                edge(b), edge(b + 1), exact, inside ? "(inside)" : "(OUTSIDE)");
    if (!inside) return 1;
  }
  std::cout << spikes.size(0) << " readings beyond 6 sd; the first at rows "
            << spikes.slice(0, 0, 3).reshape({-1}) << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return example::run_example(argc, argv, "sensor_histogram", run);
}
