// SPDX-License-Identifier: BSD-3-Clause
// Linear algebra in two small jobs: a least-squares fit of a noisy linear model (lstsq, and the
// normal equations by matmul + solve as a cross-check) and a principal component analysis of
// correlated data (the covariance by einsum, its eigendecomposition by eigh, the same spectrum
// from the SVD of the centred data). Self-checking: exit status 1 when an answer is off.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

constexpr std::int64_t kSamples = 400;

/// Largest |a - b| over every element.
double max_gap(const ts::Tensor<double>& a, const ts::Tensor<double>& b) {
  return ts::max(ts::abs(a - b));
}

int run(const ts::Device dev) {
  example::Stopwatch clock;
  ts::Generator gen(2026);

  // [snippet:linalg-least-squares]
  // y = 1.5 + 2 x1 - 3 x2 + noise; the design matrix has a column of ones for the intercept.
  ts::Tensor<double> x = ts::rand<double>({kSamples, 2}, {gen, dev}) * 4.0 - 2.0;
  auto ones = ts::Tensor<double>::ones({kSamples, 1}, dev);
  ts::Tensor<double> design = ts::cat({ones, x}, 1);  // (400, 3)
  auto w_true = ts::tensor<double>({1.5, 2.0, -3.0}).to(dev);
  ts::Tensor<double> y =
      ts::matmul(design, w_true) + ts::randn<double>({kSamples}, {gen, dev}) * 0.1;
  auto w = ts::linalg::lstsq(design, y);  // least squares
  auto w_normal = ts::linalg::solve(design.mT().matmul(design), design.mT().matmul(y));
  // [end-snippet]
  const double fit_error = max_gap(w, w_true), normal_gap = max_gap(w, w_normal);
  std::printf(
      "fit: intercept %.3f, slopes %.3f %.3f (|w - w_true| <= %.3f; normal equations "
      "agree to %.1e)\n",
      w.cpu().at({0}), w.cpu().at({1}), w.cpu().at({2}), fit_error, normal_gap);

  // [snippet:linalg-pca]
  // 3 features driven by 2 latent factors (plus a little noise): the third component is ~0.
  auto latent = ts::randn<double>({kSamples, 2}, {gen, dev});
  auto mixing = ts::tensor<double>({{2.0, 1.0, 0.5}, {0.0, 1.0, -1.0}}).to(dev);
  ts::Tensor<double> data =
      ts::matmul(latent, mixing) + ts::randn<double>({kSamples, 3}, {gen, dev}) * 0.01;
  ts::Tensor<double> centred = data - ts::mean(data, 0, true);
  ts::Tensor<double> cov = ts::einsum("ni,nj->ij", {centred, centred}) / double(kSamples - 1);
  auto [variances, axes] = ts::linalg::eigh(cov);  // ascending
  auto singular = ts::linalg::svdvals(centred);    // descending
  ts::Tensor<double> from_svd = singular * singular / double(kSamples - 1);
  // [end-snippet]
  example::wait_for(dev);
  const auto v = variances.cpu();
  const double total = ts::sum(v);
  std::printf("PCA: explained variance %.4f %.4f %.6f (ratios %.3f %.3f %.5f)\n", v.at({2}),
              v.at({1}), v.at({0}), v.at({2}) / total, v.at({1}) / total, v.at({0}) / total);
  const double spectrum_gap = max_gap(variances.flip({0}), from_svd);
  // The eigenvectors are orthonormal: axesᵀ axes = I.
  const double orthogonality =
      max_gap(ts::matmul(axes.mT(), axes), ts::Tensor<double>::eye(3, dev));
  std::printf("eigh and svd agree to %.1e; axes orthonormal to %.1e\n", spectrum_gap,
              orthogonality);
  clock.stop("least_squares");
  const bool ok = fit_error < 0.05 && normal_gap < 1e-9 && spectrum_gap < 1e-9 &&
                  orthogonality < 1e-12 && v.at({0}) / total < 1e-3;
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "least_squares", run); }
