// SPDX-License-Identifier: BSD-3-Clause
// The public API contract, part 3 (shapes and views, random numbers,
// linear algebra, statistics and sets), spelled exactly as there: code outside this repository
// compiles against these lines (parts 1 and 2: test_contract.cpp). Each block follows the
// contract's order.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;

TEST(Contract, ShapesAndViews) {
  auto x = ts::Tensor<float>::arange(0.0f, 24.0f).reshape({2, 3, 4});
  x.permute({2, 0, 1});
  x.movedim(0, -1);
  x.unsqueeze(1);
  x.squeeze();
  x.squeeze(0);
  x.flatten();
  x.flatten(1, 2);
  x.reshape({6, 4}).unflatten(1, {2, 2});
  x.view({6, 4});
  auto m = x.select(0, 0).unsqueeze(0).select(0, 0).slice(0, 0, 2).slice(1, 0, 3);  // (2, 3)
  m.expand({4, 2, 3});
  ts::broadcast_to(m, {4, 2, 3});
  m.narrow(0, 1, 1);
  m.t();
  x.mT();
  m.diagonal();
  x.diagonal(/*offset*/ 1, 0, 1);
  std::vector<ts::Tensor<float>> rows = m.unbind(0);
  m.unfold(/*dim*/ 0, /*size*/ 2, /*step*/ 1);
  auto parts = ts::split(m, /*size*/ 2, /*dim*/ 1);
  ts::split(m, {1, 2}, 1);
  m.chunk(3, 1);
  m.flip({0, 1});
  ts::roll(m, /*shifts*/ {1, -2}, /*dims*/ {0, 1});
  ts::roll(m, 3);
  m.repeat({2, 1});
  ts::tile(m, {2, 2});
  ts::tril(m);
  ts::triu(m, /*k*/ 1);
  auto v = ts::tensor<float>({1, 2, 3});
  auto A = ts::Tensor<float>::eye(3);
  ts::diag(v);
  ts::diag(A, 1);
  auto xs = ts::tensor<float>({1, 2}), ys = ts::tensor<float>({3, 4, 5});
  auto grids = ts::meshgrid({xs, ys}, ts::Indexing::IJ);
  const auto dev = ts::Device::cpu();
  ts::Tensor<float>::linspace(0.0f, 1.0f, 5);
  ts::Tensor<double>::logspace(0.0, 3.0, 4);
  ts::Tensor<float>::linspace(0.0f, 1.0f, 5, dev);
  ts::Tensor<double>::logspace(0.0, 3.0, 4, /*base*/ 2.0, dev);
  ts::Tensor<float>::eye(3);
  ts::Tensor<float>::eye(3, 4, ts::Device::cpu());
  ts::zeros_like(x);
  ts::ones_like(x);
  ts::full_like(x, 7.0f);
  ts::empty_like(x);
  auto r = ts::Tensor<float>::arange(0.0f, 4.0f);
  ts::Tensor<float> d = (r / 9).unsqueeze(1) - r.unsqueeze(0);
  EXPECT_EQ(rows.size(), 2u);
  EXPECT_EQ(parts.size(), 2u);
  EXPECT_EQ(grids[1].shape(), (ts::Shape{2, 3}));
  EXPECT_EQ(d.shape(), (ts::Shape{4, 4}));
  EXPECT_EQ(ts::Tensor<float>::linspace(0.0f, 1.0f, 5).to_vector(),
            (std::vector<float>{0.0f, 0.25f, 0.5f, 0.75f, 1.0f}));
}

// Part 3, "random numbers", spelled as the contract spells it.
TEST(Contract, RandomNumbers) {
  ts::Generator gen(42);
  gen.seed(7);
  gen.offset();
  ts::manual_seed(42);
  ts::default_generator();
  auto u = ts::rand<float>({3, 4});
  auto v = ts::rand<float>({3, 4}, gen);
  const auto dev = ts::cuda_available() ? ts::Device::cuda() : ts::Device::cpu();
  auto w = ts::randn<double>({1000}, {.generator = gen, .device = dev});
  auto k = ts::randint<int64_t>(0, 10, {5}, gen);
  auto g = ts::normal<float>(/*mean*/ 0.0f, /*std*/ 2.0f, {100}, gen);
  auto x = ts::Tensor<float>::zeros({2, 3});
  x.uniform_(-1.0f, 1.0f, gen);
  x.normal_(0.0f, 1.0f);
  x.bernoulli_(0.3, gen);
  auto probs = ts::Tensor<float>::full({4}, 0.5f);
  auto b = ts::bernoulli(probs, gen);
  ts::Tensor<int64_t> perm = ts::randperm(10, gen);
  ts::randperm(10, {.device = dev});
  auto weights = ts::tensor<float>({1, 2, 3, 4});
  auto picks = ts::multinomial(weights, /*num_samples*/ 3, /*replacement*/ false, gen);
  ts::rand_like(x, gen);
  ts::randn_like(x);
  EXPECT_EQ(u.shape(), (ts::Shape{3, 4}));
  EXPECT_EQ(v.shape(), (ts::Shape{3, 4}));
  EXPECT_EQ(w.device(), dev);
  EXPECT_EQ(k.numel(), 5);
  EXPECT_EQ(g.numel(), 100);
  EXPECT_EQ(b.numel(), 4);
  EXPECT_EQ(perm.numel(), 10);
  EXPECT_EQ(picks.numel(), 3);
}

TEST(Contract, LinearAlgebra) {
  auto a = ts::tensor<double>({{4, 1, 0}, {1, 3, 1}, {0, 1, 2}});
  auto b = ts::Tensor<double>::eye(3);
  auto v = ts::tensor<double>({1, 2, 3});
  auto w = ts::tensor<double>({3, 2, 1});
  auto a3 = a.unsqueeze(0).expand({2, 3, 3});
  auto b3 = b.unsqueeze(0).expand({2, 3, 3});
  auto c = ts::matmul(a, b);
  a.matmul(b);
  ts::mm(a, b);
  ts::bmm(a3, b3);
  ts::mv(a, v);
  ts::dot(v, w);
  ts::outer(v, w);
  auto y = ts::einsum("bij,bjk->bik", {a3, b3});
  ts::einsum("ii->i", {a});
  ts::einsum("ij->", {a});
  ts::einsum("...ij,...jk->...ik", {a3, b});
  ts::tensordot(a, b, /*dims*/ 2);
  ts::tensordot(a3, a3.permute({1, 2, 0}), {{1, 2}, {0, 1}});
  auto A = a, B = b;
  ts::linalg::solve(A, B);
  ts::linalg::inv(A);
  ts::linalg::det(A);
  ts::linalg::cholesky(A);
  auto [sign, logabsdet] = ts::linalg::slogdet(A);
  auto [Q, R] = ts::linalg::qr(A);
  auto [evals, evecs] = ts::linalg::eigh(A);
  auto [U, S, Vh] = ts::linalg::svd(A, /*full_matrices*/ false);
  ts::linalg::svd(A);
  ts::linalg::svdvals(A);
  auto x = ts::linalg::lstsq(A, B);
  ts::linalg::vector_norm(v);
  ts::linalg::vector_norm(a, /*ord*/ 1.0, /*dim*/ 1, /*keepdim*/ false);
  ts::linalg::matrix_norm(A);
  ts::linalg::matrix_norm(A, "nuc");
  ts::linalg::matrix_norm(A, 2.0);
  ts::linalg::norm(a);
  ts::trace(A);
  EXPECT_EQ(c.to_vector(), a.to_vector());
  EXPECT_EQ(y.shape(), (ts::Shape{2, 3, 3}));
  EXPECT_EQ(ts::dot(v, w).item(), 10.0);
  EXPECT_NEAR(ts::linalg::det(A).item(), 18.0, 1e-12);
  EXPECT_EQ(sign.item(), 1.0);
  EXPECT_NEAR(logabsdet.item(), std::log(18.0), 1e-12);
  EXPECT_EQ(Q.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(R.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(evals.numel(), 3);
  EXPECT_EQ(evecs.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(U.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(S.numel(), 3);
  EXPECT_EQ(Vh.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(x.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(ts::trace(A).item(), 9.0);
}

TEST(Contract, StatisticsAndSets) {
  auto i = ts::tensor<int64_t>({3, 1, 3, 0, 1, 3});
  ts::Tensor<int64_t> uq = ts::unique(i);
  auto [vals, inverse, counts] = ts::unique(i, {.return_inverse = true, .return_counts = true});
  auto m2d = ts::tensor<int64_t>({{1, 2}, {0, 1}, {1, 2}});
  ts::unique(m2d, {.dim = 0});
  ts::unique_consecutive(i, {.return_counts = true});
  auto weights = ts::tensor<float>({1, 1, 1, 1, 1, 1});
  ts::bincount(i);
  ts::bincount(i, /*minlength*/ 10);
  ts::bincount(i, weights, /*minlength*/ 10);
  auto x = ts::tensor<float>({{0.1f, 0.9f, 0.4f}, {0.3f, 0.7f, 0.2f}});
  ts::histc(x, /*bins*/ 10, /*min*/ 0.0f, /*max*/ 1.0f);
  auto [hist, edges] = ts::histogram(x, /*bins*/ 10);
  auto edges_tensor = ts::Tensor<float>::linspace(0.0f, 1.0f, 5);
  auto w = ts::Tensor<float>::ones({2, 3});
  ts::histogram(x, edges_tensor, {.weight = w, .density = true});
  float q50 = ts::quantile(x, 0.5);
  float md = ts::median(x);
  auto qs = ts::tensor<float>({0.25f, 0.75f});
  ts::quantile(x, qs, /*dim*/ 1, /*keepdim*/ false, ts::Interpolation::Linear);
  ts::nanquantile(x, 0.9);
  auto [med, at] = ts::median(x, 1);
  ts::nanmedian(x);
  ts::nanmedian(x, 1);
  auto [kv, ki] = ts::kthvalue(x, /*k*/ 2, /*dim*/ 1);
  auto [mo, mi] = ts::mode(x, 1);
  ts::softmax(x, 1);
  ts::log_softmax(x, -1);
  auto a = x, b = x;
  ts::cdist(a, b);
  ts::cdist(a, b, /*p*/ 1.0);
  ts::diff(x);
  ts::diff(x, /*n*/ 2, /*dim*/ 0);
  auto obs = x;
  ts::cov(obs);
  ts::corrcoef(obs);
  auto labels = ts::tensor<int64_t>({0, 2, 1});
  ts::Tensor<int64_t> oh = ts::one_hot(labels, /*num_classes*/ 10);
  std::vector<ts::Tensor<float>> parts_list = {x, x};
  ts::cat(parts_list, 0);
  ts::stack(parts_list, 1);
  x.unique();
  x.softmax(1);
  x.quantile(0.5);
  x.median();
  i.bincount();
  EXPECT_EQ(uq.to_vector(), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(counts.to_vector(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(inverse.to_vector(), (std::vector<int64_t>{2, 1, 2, 0, 1, 2}));
  EXPECT_EQ(vals.numel(), 3);
  EXPECT_EQ(hist.numel(), 10);
  EXPECT_EQ(edges.numel(), 11);
  EXPECT_FLOAT_EQ(q50, 0.35f);
  EXPECT_FLOAT_EQ(md, 0.3f);
  EXPECT_EQ(med.numel(), 2);
  EXPECT_EQ(at.numel(), 2);
  EXPECT_EQ(kv.numel(), 2);
  EXPECT_EQ(ki.numel(), 2);
  EXPECT_EQ(mo.numel(), 2);
  EXPECT_EQ(mi.numel(), 2);
  EXPECT_EQ(oh.shape(), (ts::Shape{3, 10}));
  EXPECT_EQ(ts::cdist(a, b).shape(), (ts::Shape{2, 2}));
}

}  // namespace
