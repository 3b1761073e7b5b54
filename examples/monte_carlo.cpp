// SPDX-License-Identifier: BSD-3-Clause
// Random numbers and shapes in one small job: a Monte Carlo estimate of pi, a shuffled
// train/test split of two Gaussian clusters, and a nearest-neighbour vote by the pairwise-
// distance idiom (x.unsqueeze(1) - y.unsqueeze(0)). The stream is the same on every device, so
// the run on --device cuda checks itself against the CPU bit for bit.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <vector>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

constexpr std::int64_t kPoints = 1'000'000;
constexpr std::int64_t kSamples = 300;  // two clusters of 150
constexpr std::int64_t kTrain = 240;

/// pi from kPoints uniform points in the unit square, drawn from `seed` on `dev`.
double estimate_pi(std::uint64_t seed, ts::Device dev) {
  ts::Generator gen(seed);
  auto x = ts::rand<double>({kPoints}, {gen, dev});
  auto y = ts::rand<double>({kPoints}, {gen, dev});
  return 4.0 * ts::mean(ts::cast<double>(x * x + y * y < 1.0));
}

int run(const ts::Device dev) {
  example::Stopwatch clock;
  const double pi = estimate_pi(2026, dev);
  const double sd = 4.0 * std::sqrt(M_PI / 4 * (1 - M_PI / 4) / kPoints);
  const bool same = pi == estimate_pi(2026, ts::Device::cpu());
  const bool close = std::fabs(pi - M_PI) < 5 * sd;
  std::printf("pi ~ %.5f (%.1f sd from pi; the CPU draws the same: %s)\n", pi,
              std::fabs(pi - M_PI) / sd, same ? "yes" : "NO");

  // Two clusters in 4 features, around -2 and +2; label = which cluster.
  ts::Generator gen(7);
  ts::Tensor<float> features = ts::randn<float>({kSamples, 4}, {gen, dev});
  auto labels = ts::Tensor<std::int64_t>::zeros({kSamples}, dev);
  labels.narrow(0, kSamples / 2, kSamples / 2).bernoulli_(1.0, gen);  // second half: class 1
  ts::Tensor<float> centre = ts::cast<float>(labels) * 4.0f - 2.0f;   // -2 or +2
  features = features + centre.unsqueeze(1);

  // Shuffle, then split.
  const auto order = ts::randperm(kSamples, {gen, dev});
  const auto train = order.narrow(0, 0, kTrain);
  const auto test = order.narrow(0, kTrain, kSamples - kTrain);
  const auto x_train = features.index_select(0, train);
  const auto x_test = features.index_select(0, test);

  // 1-nearest neighbour: squared distances (test, train) without a (test, train, 4) temporary.
  const auto diff = x_test.unsqueeze(1) - x_train.unsqueeze(0);
  const ts::Tensor<float> dist2 = ts::sum(diff * diff, -1);
  const auto nearest = ts::argmin(dist2, 1);
  const auto predicted = labels.index_select(0, train).index_select(0, nearest);
  const auto truth = labels.index_select(0, test);
  const double accuracy = ts::mean(ts::cast<double>(predicted == truth));
  example::wait_for(dev);
  std::printf("split %lld / %lld, 1-NN accuracy %.3f\n", static_cast<long long>(kTrain),
              static_cast<long long>(kSamples - kTrain), accuracy);

  // The split is a partition of the samples.
  std::vector<std::int64_t> seen(kSamples, 0);
  for (auto i : order.to_vector()) seen[static_cast<std::size_t>(i)] += 1;
  bool partition = true;
  for (auto count : seen) partition = partition && count == 1;
  std::cout << "train and test partition the samples: " << (partition ? "yes" : "NO") << '\n';
  clock.stop("monte_carlo");
  return same && close && partition && accuracy > 0.95 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "monte_carlo", run); }
