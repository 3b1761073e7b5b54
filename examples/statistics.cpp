// SPDX-License-Identifier: BSD-3-Clause
// Statistics and sets in two small jobs: histogram equalisation of a skewed signal (histc, a
// cumulative sum, bucketize; quantiles to check the result is flat) and a k-nearest-neighbour
// vote (cdist, topk, mode; unique and bincount to count the classes). Self-checking: exit
// status 1 when an answer is off.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

constexpr std::int64_t kSignal = 200'000;
constexpr std::int64_t kBins = 256;
constexpr std::int64_t kPerClass = 200;
constexpr std::int64_t kTest = 150;

int run(const ts::Device dev) {
  example::Stopwatch clock;
  ts::Generator gen(2026);

  // [snippet:statistics-equalise]
  // A skewed signal (chi-square, 3 degrees of freedom): most samples crowd the low end.
  // Equalising maps each sample to the fraction of samples below it (the middle of its bin),
  // so the result is spread evenly over [0, 1].
  auto z = ts::randn<float>({kSignal, 3}, {gen, dev});
  ts::Tensor<float> signal = ts::sum(z * z, 1);
  const float lo = ts::min(signal), hi = ts::max(signal);
  auto hist = ts::histc(signal, kBins, lo, hi);  // counts per bin (float)
  ts::Tensor<float> cdf = (ts::cumsum(hist, 0) - hist * 0.5f) / float(kSignal);  // bin middles
  auto edges = ts::Tensor<float>::linspace(lo, hi, kBins + 1, dev).narrow(0, 1, kBins - 1);
  auto bin = ts::bucketize(signal, edges, /*right*/ true);  // the bin of each sample
  ts::Tensor<float> equalised = cdf.index_select(0, bin);
  // [end-snippet]
  const float skew_before = ts::quantile(signal, 0.5) / hi;
  const float q25 = ts::quantile(equalised, 0.25), q50 = ts::median(equalised),
              q75 = ts::quantile(equalised, 0.75);
  std::printf("signal: median at %.3f of the range; equalised quartiles %.3f %.3f %.3f\n",
              skew_before, q25, q50, q75);
  const bool flat = std::fabs(q25 - 0.25f) < 0.02f && std::fabs(q50 - 0.5f) < 0.02f &&
                    std::fabs(q75 - 0.75f) < 0.02f;

  // [snippet:statistics-knn]
  // Three clusters in 2-D around (0, 0), (4, 0) and (0, 4); 5 nearest neighbours vote.
  auto centres = ts::tensor<float>({{0, 0}, {4, 0}, {0, 4}}).to(dev);
  auto labels = ts::Tensor<std::int64_t>::arange(0, 3, 1, dev).repeat({kPerClass});
  ts::Tensor<float> train =
      centres.index_select(0, labels) + ts::randn<float>({3 * kPerClass, 2}, {gen, dev});
  auto truth = ts::randint<std::int64_t>(0, 3, {kTest}, {gen, dev});
  ts::Tensor<float> test =
      centres.index_select(0, truth) + ts::randn<float>({kTest, 2}, {gen, dev});
  auto distances = ts::cdist(test, train);                         // (150, 600)
  auto [near, at] = ts::topk(distances, 5, 1, /*largest*/ false);  // 5 nearest per test point
  auto votes = labels.index_select(0, at.flatten()).reshape({kTest, 5});
  auto [predicted, where] = ts::mode(votes, 1);  // the majority label
  auto [classes, inverse, counts] =
      ts::unique(predicted, {.return_inverse = true, .return_counts = true});
  // [end-snippet]
  const double accuracy = ts::mean(ts::cast<double>(predicted == truth));
  const auto per_class = ts::bincount(predicted, 3).cpu();
  example::wait_for(dev);
  std::printf("kNN: accuracy %.3f; predicted per class %lld %lld %lld; %lld classes found\n",
              accuracy, static_cast<long long>(per_class.at({0})),
              static_cast<long long>(per_class.at({1})), static_cast<long long>(per_class.at({2})),
              static_cast<long long>(classes.numel()));
  const bool counted = ts::sum(counts) == kTest && ts::all(counts.cpu() == per_class);
  clock.stop("statistics");
  return flat && accuracy > 0.9 && counted ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "statistics", run); }
