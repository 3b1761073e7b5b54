// SPDX-License-Identifier: BSD-3-Clause
// Linear algebra's rules (issue 46): PyTorch's error texts with the batch element, and the
// decomposition and norm spellings of the API contract (part 3) and docs/ops/linalg.md. The values
// are checked in test_linalg_decompositions.cpp. Float and double, on the CPU and the device (the
// emulated one in CI).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/errors.hpp"
#include "support/golden.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::expect_throw;

namespace {

template <class C>
class LinalgRules : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(LinalgRules, tessera_test::FloatCases, tessera_test::CaseName);

TYPED_TEST(LinalgRules, Errors) {
  using T = typename TypeParam::value_type;
  const ts::Device dev = this->device();
  const auto eye = ts::Tensor<T>::eye(3, dev);
  // A singular matrix at flat batch element 4 of a (2, 3) batch (PyTorch counts from 0).
  std::vector<T> batch_values(6 * 9, T(0));
  for (int q = 0; q < 6; ++q) {
    for (int i = 0; i < 3; ++i) batch_values[static_cast<std::size_t>(q * 9 + i * 4)] = T(1);
  }
  batch_values[4 * 9 + 8] = T(0);  // element (1, 1), entry (2, 2)
  const auto batch = ts::Tensor<T>::from_vector(batch_values, {2, 3, 3, 3}, dev);
  std::string msg = expect_throw<ts::LinAlgError>([&] { (void)ts::linalg::inv(batch); });
  EXPECT_EQ(msg,
            "linalg.inv: (Batch element 4): The diagonal element 3 is zero, the inversion could "
            "not be completed because the input matrix is singular.");
  msg = expect_throw<ts::LinAlgError>([&] { (void)ts::linalg::solve(batch, eye); });
  EXPECT_NE(msg.find("linalg.solve: (Batch element 4): The solver failed"), std::string::npos);
  msg = expect_throw<ts::LinAlgError>([&] { (void)ts::linalg::cholesky(batch); });
  EXPECT_NE(msg.find("(Batch element 4)"), std::string::npos) << msg;
  // det of a singular matrix: 0, no error.
  EXPECT_EQ(ts::linalg::det(batch).cpu().at({1, 1}), T(0));
  auto [sign, logabs] = ts::linalg::slogdet(batch);
  EXPECT_EQ(sign.cpu().at({1, 1}), T(0));
  EXPECT_EQ(logabs.cpu().at({1, 1}), -std::numeric_limits<T>::infinity());

  // lstsq refuses NaN and inf (LAPACK's gelsd would print to stderr and fail).
  const auto nan_matrix = ts::Tensor<T>::from_vector(
      {T(1), std::numeric_limits<T>::infinity(), T(3), T(4)}, {2, 2}, dev);
  msg = expect_throw<ts::LinAlgError>(
      [&] { (void)ts::linalg::lstsq(nan_matrix, ts::Tensor<T>::ones({2}, dev)); });
  EXPECT_NE(msg.find("linalg.lstsq: The least squares solution could not be computed because "
                     "the input contains non-finite values."),
            std::string::npos)
      << msg;

  const auto rect = ts::Tensor<T>::ones({2, 3}, dev);
  msg = expect_throw<ts::ShapeError>([&] { (void)ts::linalg::inv(rect); });
  EXPECT_EQ(msg, "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices");
  expect_throw<ts::ShapeError>([&] { (void)ts::linalg::det(rect); });
  expect_throw<ts::ShapeError>([&] { (void)ts::linalg::eigh(rect); });
  msg = expect_throw<ts::ShapeError>([&] { (void)ts::linalg::qr(ts::Tensor<T>::ones({3}, dev)); });
  EXPECT_EQ(msg, "linalg.qr: The input tensor A must have at least 2 dimensions.");
  msg = expect_throw<ts::ShapeError>([&] {
    (void)ts::linalg::solve(eye, ts::Tensor<T>::ones({4, 2}, dev));
  });
  EXPECT_EQ(msg,
            "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 4x2)");
  expect_throw<ts::ShapeError>([&] {
    (void)ts::linalg::solve(batch, ts::Tensor<T>::ones({4, 3, 1}, dev));
  });
  expect_throw<ts::ShapeError>([&] {
    (void)ts::linalg::lstsq(rect, ts::Tensor<T>::ones({3, 1}, dev));
  });
  msg = expect_throw<ts::ValueError>([&] { (void)ts::linalg::matrix_norm(eye, 3.0); });
  EXPECT_NE(msg.find("linalg.matrix_norm: Order 3 not supported"), std::string::npos) << msg;
  expect_throw<ts::ValueError>([&] { (void)ts::linalg::matrix_norm(eye, "abc"); });
  expect_throw<ts::ValueError>([&] { (void)ts::linalg::matrix_norm(eye, 1.0, {0, 0}); });
  expect_throw<ts::ValueError>([&] { (void)ts::linalg::matrix_norm(eye, 1.0, 0); });
  expect_throw<ts::IndexError>([&] { (void)ts::linalg::matrix_norm(eye, 1.0, {0, 2}); });
  expect_throw<ts::ShapeError>(
      [&] { (void)ts::linalg::matrix_norm(ts::Tensor<T>::ones({3}, dev)); });
  expect_throw<ts::ValueError>(
      [&] { (void)ts::linalg::vector_norm(eye, std::numeric_limits<double>::quiet_NaN()); });
  expect_throw<ts::IndexError>([&] { (void)ts::linalg::vector_norm(eye, 2.0, 2); });
  // An operand expression that does not broadcast: the error names the op first.
  const auto col = ts::Tensor<T>::ones({4, 1}, dev);
  for (const auto& [name, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"linalg.inv", [&] { (void)ts::linalg::inv(eye + rect); }},
           {"linalg.solve", [&] { (void)ts::linalg::solve(eye, rect + col); }},
           {"linalg.svd", [&] { (void)ts::linalg::svd(eye + rect); }},
           {"linalg.vector_norm", [&] { (void)ts::linalg::vector_norm(eye + rect); }},
           {"linalg.matrix_norm", [&] { (void)ts::linalg::matrix_norm(eye + rect, "nuc"); }},
           {"trace", [&] { (void)ts::trace(eye + rect); }}}) {
    msg = expect_throw<ts::ShapeError>(call);
    EXPECT_EQ(msg.rfind(name + ": ", 0), 0u) << msg;
  }
  msg = expect_throw<ts::ShapeError>([&] { (void)ts::trace(batch); });
  EXPECT_EQ(msg, "trace: expected a matrix, but got tensor with dim 4");
}

// Inputs are never written (the device routines factor a copy, even of a transposed view whose
// transpose is contiguous), NaN and inf are refused or reported as on the host, and a
// rank-deficient lstsq gives LAPACK gelsd's minimum-norm answer on every device.
TYPED_TEST(LinalgRules, InputsStayAndEdgeValues) {
  using T = typename TypeParam::value_type;
  const ts::Device dev = this->device();
  const std::vector<T> spd = {T(4), T(2), T(0.5), T(2), T(5), T(1), T(0.5), T(1), T(3)};
  // A transposed view of contiguous storage (symmetric, so every op has an answer).
  const auto a = ts::Tensor<T>::from_vector(spd, {3, 3}, dev).mT();
  const auto wide = ts::Tensor<T>::from_vector(spd, {1, 9}, dev).reshape({3, 3}).narrow(0, 0, 2);
  const std::vector<std::function<void()>> ops = {
      [&] { (void)ts::linalg::cholesky(a); },      [&] { (void)ts::linalg::qr(a); },
      [&] { (void)ts::linalg::eigh(a); },          [&] { (void)ts::linalg::svd(a); },
      [&] { (void)ts::linalg::svd(wide.mT()); },   [&] { (void)ts::linalg::svdvals(wide); },
      [&] { (void)ts::linalg::solve(a, a); },      [&] { (void)ts::linalg::inv(a); },
      [&] { (void)ts::linalg::det(a); },           [&] { (void)ts::linalg::slogdet(a); },
      [&] { (void)ts::linalg::lstsq(wide, wide); }};
  for (const auto& op : ops) {
    op();
    EXPECT_EQ(a.cpu().to_vector(), (ts::Tensor<T>::from_vector(spd, {3, 3}).to_vector()));
    EXPECT_EQ(wide.cpu().to_vector(), (std::vector<T>(spd.begin(), spd.begin() + 6)));
  }

  // A NaN where the factorisation reaches it: the failing minor is its position (reference
  // LAPACK's rule, whatever the backend's potrf does with it).
  auto with_nan = spd;
  with_nan[4] = std::numeric_limits<T>::quiet_NaN();
  const auto nan_matrix = ts::Tensor<T>::from_vector(with_nan, {3, 3}, dev);
  EXPECT_NE(expect_throw<ts::LinAlgError>([&] {
              (void)ts::linalg::cholesky(nan_matrix);
            }).find("the leading minor of order 2 is not positive-definite"),
            std::string::npos);
  EXPECT_NE(expect_throw<ts::LinAlgError>([&] {
              (void)ts::linalg::svdvals(nan_matrix);
            }).find("contained non-finite values"),
            std::string::npos);
  // inf in B alone is refused too.
  auto rhs = std::vector<T>{T(1), std::numeric_limits<T>::infinity(), T(0)};
  EXPECT_NE(expect_throw<ts::LinAlgError>([&] {
              (void)ts::linalg::lstsq(a, ts::Tensor<T>::from_vector(rhs, {3}, dev));
            }).find("contains non-finite values"),
            std::string::npos);

  // Rank 1: A = u vᵀ, u = (1, 2, 2), v = (2, 1). The minimum-norm solution of A x = b is
  // v (uᵀ b) / (|u|² |v|²); for b = (1, 0, 1): 3 / 45 · (2, 1).
  const auto rank1 = ts::Tensor<T>::from_vector({T(2), T(1), T(4), T(2), T(4), T(2)}, {3, 2}, dev);
  const auto x = ts::linalg::lstsq(rank1, ts::Tensor<T>::from_vector({T(1), T(0), T(1)}, {3}, dev));
  EXPECT_EQ(x.device(), dev);
  const auto xv = x.cpu().to_vector();
  ASSERT_EQ(xv.size(), 2u);
  const double tol = std::is_same_v<T, float> ? 1e-6 : 1e-14;
  EXPECT_NEAR(xv[0], 6.0 / 45.0, tol);
  EXPECT_NEAR(xv[1], 3.0 / 45.0, tol);
}

// eigh of matrices from order 64 on, where the host runs syevd's steps itself
// (src/backend/host/symmetric_eigen.hpp), at norms far below and above syevd's scaling thresholds
// (sqrt(safmin / eps) and its inverse, where squares underflow and overflow): A v = λ v,
// orthonormal v, ascending λ, and λ(s A) = s λ(A). The batch's second matrix is the first
// reversed in order (P A Pᵀ), whose eigenvalues are the same.
/// The outputs of linalg op `op` (as tools/golden/gen_linalg_nan.py names them) for A, B = ones.
template <class T>
std::vector<ts::Tensor<T>> run_nan_case(const std::string& op, const ts::Tensor<T>& a) {
  namespace L = ts::linalg;
  const auto b = ts::Tensor<T>::ones({a.size(-1)}, a.device());
  if (op == "inv") return {L::inv(a)};
  if (op == "solve") return {L::solve(a, b)};
  if (op == "det") return {L::det(a)};
  if (op == "slogdet") {
    auto [sign, logabs] = L::slogdet(a);
    return {sign, logabs};
  }
  if (op == "lstsq") return {L::lstsq(a, b)};
  if (op == "cholesky") return {L::cholesky(a)};
  if (op == "qr") {
    auto [q, r] = L::qr(a);
    return {q, r};
  }
  if (op == "eigh") {
    auto [values, vectors] = L::eigh(a);
    return {values, vectors};
  }
  if (op == "eigvalsh") return {L::eigh(a).eigenvalues};
  if (op == "svd") {
    auto [u, s, vh] = L::svd(a);
    return {u, s, vh};
  }
  if (op == "svdvals") return {L::svdvals(a)};
  ADD_FAILURE() << "unknown op " << op;
  return {};
}

// A NaN anywhere in a matrix never yields a finite result where torch's is NaN (issue 65:
// OpenBLAS's pivot search skips NaN where MKL's does not, so `inv` once gave -0 where torch
// gives NaN). Every op, order 1 to 3, the NaN in every position; torch's NaN masks from
// tools/golden/gen_linalg_nan.py. Where torch raises, tessera raises ts::Error or answers NaN
// in every element (the finite values beside a NaN are the LAPACK build's, not a rule).
TYPED_TEST(LinalgRules, NaNNeverGivesAFiniteAnswer) {
  using T = typename TypeParam::value_type;
  const ts::Device dev = this->device();
  const std::vector<T> base = {T(4), T(1), T(0.5), T(1), T(3), T(0.25), T(0.5), T(0.25), T(2)};
  for (const auto& c : tessera_test::golden("linalg_nan_golden.json")["cases"]) {
    const std::string op = c["op"];
    const std::int64_t n = c["n"];
    const std::int64_t position = c["position"];
    SCOPED_TRACE(op + " of order " + std::to_string(n) + ", NaN at " + std::to_string(position));
    std::vector<T> values;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        values.push_back(base[static_cast<std::size_t>(i * 3 + j)]);
      }
    }
    values[static_cast<std::size_t>(position)] = std::numeric_limits<T>::quiet_NaN();
    const auto a = ts::Tensor<T>::from_vector(values, {n, n}, dev);
    std::vector<ts::Tensor<T>> got;
    try {
      got = run_nan_case<T>(op, a);
    } catch (const ts::LinAlgError&) {
      EXPECT_TRUE(c.contains("error")) << "raised where torch answers";
      continue;
    }
    if (c.contains("error")) {
      for (const auto& t : got) {
        for (const T v : t.cpu().to_vector()) {
          EXPECT_TRUE(std::isnan(v)) << "torch raises";
        }
      }
      continue;
    }
    ASSERT_EQ(got.size(), c["nan"].size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const auto v = got[k].cpu().to_vector();
      const auto want = tessera_test::decode_all<int>(c["nan"][k]);
      ASSERT_EQ(v.size(), want.size()) << "output " << k;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (want[i] != 0) {
          EXPECT_TRUE(std::isnan(v[i])) << "output " << k << " element " << i;
        }
      }
    }
    if (c.contains("sign")) {
      EXPECT_EQ(got[0].cpu().item(), T(c["sign"].get<double>()));
    }
  }
}

TYPED_TEST(LinalgRules, LargeEighAtEveryScale) {
  using T = typename TypeParam::value_type;
  const ts::Device dev = this->device();
  constexpr std::int64_t n = 65;  // column blocks of 32 and 33 on two threads
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> sym(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j <= i; ++j) {
      sym[static_cast<std::size_t>(i * n + j)] = sym[static_cast<std::size_t>(j * n + i)] =
          static_cast<double>(static_cast<T>(uniform(rng)));
    }
  }
  const double eps = std::numeric_limits<T>::epsilon();
  const double rmin = std::sqrt(static_cast<double>(std::numeric_limits<T>::min()) / eps);
  const double tol = (std::is_same_v<T, float> ? 2e-5 : 1e-13) * static_cast<double>(n);
  std::vector<double> unit_values;
  for (const double scale : {1.0, rmin * 1e-12, 1e12 / rmin}) {
    std::vector<T> stored(static_cast<std::size_t>(2 * n * n));
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const double v = sym[static_cast<std::size_t>(i * n + j)] * scale;
        stored[static_cast<std::size_t>(i * n + j)] = static_cast<T>(v);
        stored[static_cast<std::size_t>(((2 * n - 1 - i) * n) + (n - 1 - j))] = static_cast<T>(v);
      }
    }
    auto [w, v] = ts::linalg::eigh(ts::Tensor<T>::from_vector(stored, {2, n, n}, dev));
    const auto wv = w.cpu().to_vector();
    const auto vv = v.cpu().to_vector();
    for (std::int64_t b = 0; b < 2; ++b) {
      const T* vb = vv.data() + b * n * n;
      const T* wb = wv.data() + b * n;
      const std::vector<T> ab(stored.begin() + b * n * n, stored.begin() + (b + 1) * n * n);
      double worst_residual = 0;
      double worst_gram = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        if (k + 1 < n) {
          EXPECT_LE(wb[k], wb[k + 1]);
        }
        for (std::int64_t i = 0; i < n; ++i) {
          double av = 0;
          for (std::int64_t j = 0; j < n; ++j) av += double(ab[i * n + j]) * double(vb[j * n + k]);
          worst_residual =
              std::max(worst_residual, std::abs(av - double(wb[k]) * double(vb[i * n + k])));
        }
        for (std::int64_t l = 0; l <= k; ++l) {
          double dot = 0;
          for (std::int64_t i = 0; i < n; ++i) dot += double(vb[i * n + k]) * double(vb[i * n + l]);
          worst_gram = std::max(worst_gram, std::abs(dot - (k == l ? 1.0 : 0.0)));
        }
      }
      EXPECT_LE(worst_residual, tol * scale * std::sqrt(double(n))) << "scale " << scale;
      EXPECT_LE(worst_gram, tol) << "scale " << scale;
      for (std::int64_t k = 0; k < n; ++k) {
        if (scale == 1.0 && b == 0) unit_values.push_back(double(wb[k]));
        EXPECT_NEAR(double(wb[k]) / scale, unit_values[static_cast<std::size_t>(k)], tol * 4)
            << "scale " << scale << ", matrix " << b << ", eigenvalue " << k;
      }
    }
  }
}

}  // namespace

namespace {

// The API contract, part 3, "linear algebra": the decomposition and norm lines, spelled exactly as
// there (the values are checked above).
TEST(LinalgContract, Spellings) {
  const auto A = ts::Tensor<double>::eye(3) * 2.0 + ts::Tensor<double>::ones({3, 3});
  const ts::Tensor<double> B = ts::Tensor<double>::ones({3, 2});
  const ts::Tensor<double> v = ts::Tensor<double>::ones({3});
  const ts::Tensor<double> a = ts::Tensor<double>::ones({2, 3});
  ts::linalg::solve(A, B);
  ts::linalg::inv(A);
  ts::linalg::det(A);
  ts::linalg::cholesky(A);
  auto [sign, logabsdet] = ts::linalg::slogdet(A);
  auto [Q, R] = ts::linalg::qr(A);            // reduced
  auto [evals, evecs] = ts::linalg::eigh(A);  // ascending eigenvalues, lower triangle read
  auto [U, S, Vh] = ts::linalg::svd(A, /*full_matrices*/ false);
  ts::linalg::svd(A); /* full */
  ts::linalg::svdvals(A);
  auto x = ts::linalg::lstsq(A, B);  // least-squares solution (the tensor); B (m) or (..., m, k)
  ts::linalg::vector_norm(v);
  ts::linalg::vector_norm(a, /*ord*/ 1.0, /*dim*/ 1, /*keepdim*/ false);
  ts::linalg::matrix_norm(A); /* Frobenius */
  ts::linalg::matrix_norm(A, "nuc");
  ts::linalg::matrix_norm(A, 2.0);
  ts::linalg::norm(a);
  ts::trace(A);
  EXPECT_NEAR(ts::linalg::det(A).item(), 20.0, 1e-12);  // eigenvalues 2, 2, 5
  EXPECT_NEAR(sign.item() * std::exp(logabsdet.item()), 20.0, 1e-12);
  EXPECT_EQ(Q.shape(), ts::Shape({3, 3}));
  EXPECT_EQ(R.shape(), ts::Shape({3, 3}));
  EXPECT_NEAR(evals.cpu().at({2}), 5.0, 1e-12);
  EXPECT_EQ(evecs.shape(), ts::Shape({3, 3}));
  EXPECT_NEAR(S.cpu().at({0}), 5.0, 1e-12);
  EXPECT_EQ(U.shape(), ts::Shape({3, 3}));
  EXPECT_EQ(Vh.shape(), ts::Shape({3, 3}));
  EXPECT_EQ(x.shape(), ts::Shape({3, 2}));
  EXPECT_NEAR(ts::trace(A).item(), 9.0, 0.0);
}

}  // namespace

namespace {

// The overview of docs/ops/linalg.md ("Decompositions and norms"), cut from here.
TEST(LinalgDocs, Overview) {
  const auto A = ts::Tensor<double>::eye(3) * 4.0 + ts::Tensor<double>::ones({3, 3});
  const ts::Tensor<double> B = ts::Tensor<double>::ones({3, 2});
  const ts::Tensor<double> v = ts::Tensor<double>::ones({4});
  const ts::Tensor<double> a = ts::Tensor<double>::ones({2, 4});
  // [snippet:linalg-decompositions]
  auto x = ts::linalg::solve(A, B);  // A (..., n, n); B (..., n) or (..., n, k)
  auto Ai = ts::linalg::inv(A);
  double d = ts::linalg::det(A).item();  // 0-d for one matrix
  auto [sign, logabsdet] = ts::linalg::slogdet(A);
  auto L = ts::linalg::cholesky(A);           // lower, A = L Lᵀ
  auto [Q, R] = ts::linalg::qr(A);            // reduced
  auto [evals, evecs] = ts::linalg::eigh(A);  // ascending, eigenvectors in columns
  auto [U, S, Vh] = ts::linalg::svd(A, /*full_matrices*/ false);  // svd(A): full (the default)
  auto s = ts::linalg::svdvals(A);                                // descending
  auto sol = ts::linalg::lstsq(A, B);                             // the solution tensor
  auto n2 = ts::linalg::vector_norm(v);                           // 2-norm of everything
  auto n1 = ts::linalg::vector_norm(a, /*ord*/ 1.0, /*dim*/ 1, /*keepdim*/ false);
  auto fro = ts::linalg::matrix_norm(A);  // Frobenius; "nuc", 1, -1, inf, -inf, 2, -2
  auto sp = ts::linalg::matrix_norm(A, 2.0, /*dim*/ {0, 1}, /*keepdim*/ true);
  auto all = ts::linalg::norm(a);  // 2-norm of the flattened input
  auto tr = ts::trace(A);          // 2-D; int64 for bool and integers
  // [end-snippet]
  EXPECT_NEAR(d, 112.0, 1e-9);  // eigenvalues 4, 4, 7
  EXPECT_NEAR(sign.item() * std::exp(logabsdet.item()), 112.0, 1e-9);
  EXPECT_NEAR(sp.cpu().at({0, 0}), 7.0, 1e-12);
  EXPECT_NEAR(s.cpu().at({0}), 7.0, 1e-12);
  EXPECT_NEAR(n2.item(), 2.0, 0.0);
  EXPECT_EQ(n1.to_vector(), std::vector<double>({4.0, 4.0}));
  EXPECT_NEAR(all.item(), std::sqrt(8.0), 1e-15);
  EXPECT_NEAR(tr.item(), 15.0, 0.0);
  EXPECT_NEAR(fro.item(), std::sqrt(3 * 25.0 + 6.0), 1e-12);
  for (const auto& t : {x, Ai, L, Q, R, evals, evecs, U, S, Vh, sol}) EXPECT_GT(t.numel(), 0);
}

}  // namespace
