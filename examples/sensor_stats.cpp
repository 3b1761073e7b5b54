// SPDX-License-Identifier: BSD-3-Clause
// Per-column statistics of a sensor matrix (readings x sensors) with the pointwise vocabulary
// and the reductions over dimensions: a calibration with dead readings (NaN) and clipping,
// per-sensor mean / std / extremes / where the peak was, z-scores by broadcasting, running
// totals, a softmax over sensors. Every number is checked against a plain loop on the host.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <vector>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

constexpr std::int64_t kReadings = 200'000;
constexpr std::int64_t kSensors = 6;

/// Raw counts: each sensor its own level and noise, a few dead readings (NaN), rare spikes.
std::vector<float> readings() {
  std::vector<float> raw(static_cast<std::size_t>(kReadings * kSensors));
  example::Uniform uniform(7);  // the same series on every run and device
  for (std::int64_t r = 0; r < kReadings; ++r) {
    for (std::int64_t s = 0; s < kSensors; ++s) {
      const float noise = (uniform() + uniform() + uniform() - 1.5f) * (1.0f + 0.5f * s);
      float v = 300.0f + 40.0f * s + 20.0f * noise + (uniform() < 1e-4f ? 500.0f : 0.0f);
      if (uniform() < 1e-3f) v = std::numeric_limits<float>::quiet_NaN();  // dead reading
      raw[static_cast<std::size_t>(r * kSensors + s)] = v;
    }
  }
  return raw;
}

int run(const ts::Device dev) {
  const std::vector<float> host = readings();
  const auto raw = ts::Tensor<float>::from_vector(host, {kReadings, kSensors}, dev);

  example::Stopwatch stats;
  // [snippet:app-sensor-stats]
  auto volts = ts::clamp(raw * 0.01f - 3.0f, -5.0f, 5.0f);  // lazy: calibrated and clipped
  ts::Tensor<std::int64_t> dead = ts::count_nonzero(ts::isnan(raw), 0);
  ts::Tensor<float> mean = ts::nanmean(volts, 0);  // per sensor, NaN skipped
  auto clean = ts::nan_to_num(volts, 0.0f);        // dead readings count as 0 V
  ts::Tensor<float> sd = ts::std(ts::where(ts::isnan(raw), mean, volts), 0);
  auto [peak, peak_row] = ts::max(clean, 0);  // values and where
  ts::Tensor<float> z = (clean - mean) / sd;  // broadcast (N, 6) with (6)
  ts::Tensor<std::int64_t> outliers = ts::count_nonzero(ts::abs(z) > 4.0f, 0);
  ts::Tensor<float> energy = ts::cumsum(ts::square(clean), 0);       // running totals
  ts::Tensor<float> share = ts::exp(mean - ts::logsumexp(mean, 0));  // softmax over sensors
  // [end-snippet]
  example::wait_for(dev);
  stats.stop("statistics of 200000 x 6");

  // The same numbers by plain loops on the host.
  const auto m = mean.cpu().to_vector(), s = sd.cpu().to_vector(), p = peak.cpu().to_vector();
  const auto pr = peak_row.cpu().to_vector(), d = dead.cpu().to_vector();
  const auto e = energy.select(0, kReadings - 1).cpu().to_vector();
  const auto sh = share.cpu().to_vector();
  double share_sum = 0;
  for (std::int64_t c = 0; c < kSensors; ++c) {
    double sum = 0, sq = 0, best = -1e30, energy_sum = 0;
    std::int64_t n = 0, nan = 0, best_row = 0;
    for (std::int64_t r = 0; r < kReadings; ++r) {
      const float x = host[static_cast<std::size_t>(r * kSensors + c)];
      const float v = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x * 0.01f - 3.0f, -5.0f), 5.0f);
      if (std::isnan(x)) ++nan;
      if (!std::isnan(x)) sum += v, ++n;
      if (v > best) best = v, best_row = r;
      energy_sum += double(v) * v;
    }
    const double mu = sum / n;
    for (std::int64_t r = 0; r < kReadings; ++r) {
      const float x = host[static_cast<std::size_t>(r * kSensors + c)];
      const double v = std::isnan(x) ? mu : std::fmin(std::fmax(x * 0.01f - 3.0f, -5.0f), 5.0f);
      sq += (v - mu) * (v - mu);
    }
    const double sigma = std::sqrt(sq / (kReadings - 1));
    const auto i = static_cast<std::size_t>(c);
    const bool ok = std::fabs(m[i] - mu) < 1e-5 && std::fabs(s[i] - sigma) < 1e-4 &&
                    p[i] == static_cast<float>(best) && pr[i] == best_row && d[i] == nan &&
                    std::fabs(e[i] - energy_sum) < 1e-4 * energy_sum;
    std::printf(
        "sensor %lld: mean %7.4f V  sd %6.4f V  peak %6.3f V at row %6lld  dead %3lld  %s\n",
        static_cast<long long>(c), m[i], s[i], p[i], static_cast<long long>(pr[i]),
        static_cast<long long>(d[i]), ok ? "(checked)" : "(WRONG)");
    if (!ok) return 1;
    share_sum += sh[i];
  }
  std::cout << "readings beyond 4 sd per sensor: " << outliers << '\n';
  std::printf("softmax shares sum to %.6f\n", share_sum);
  return std::fabs(share_sum - 1.0) < 1e-5 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "sensor_stats", run); }
