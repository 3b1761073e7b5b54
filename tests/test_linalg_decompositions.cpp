// SPDX-License-Identifier: BSD-3-Clause
// Decompositions, solvers and norms (issue 46): PyTorch 2.15's answers where they are unique
// (tests/data/linalg_golden.json, written by tools/golden/gen_linalg.py), read as contiguous and
// as transposed (strided) inputs; the properties of the factors that are unique only up to signs
// (Q R = A, U diag(S) Vh = A, A v = λ v, L Lᵀ = A, A inv(A) = I) over random shapes and batches,
// with reference loops (matmul is not used); expression inputs and empty matrices (errors:
// test_linalg_errors.cpp). Float and double, on the CPU and the device (the emulated one in CI).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/errors.hpp"
#include "support/golden.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::decode;
using tessera_test::decode_all;
using tessera_test::expect_throw;
using tessera_test::golden;
using tessera_test::golden_tensor;
using tessera_test::shape_of;

namespace {

/// A golden tensor on `device`: contiguous, or (transposed) a view of the transposed copy, so
/// that the op reads strided matrices.
template <class T>
ts::Tensor<T> golden_matrix(const nlohmann::json& packed, ts::Device device, bool transposed) {
  const auto t = golden_tensor<T>(packed, device);
  if (!transposed || t.dim() < 2) return t;
  return t.mT().contiguous().mT();
}

/// Element-wise closeness: |got - want| <= tol * max(1, max |want|).
template <class T>
::testing::AssertionResult close_to(const ts::Tensor<T>& got, const std::vector<double>& want,
                                    const ts::Shape& shape, double tol) {
  if (got.shape() != shape) {
    return ::testing::AssertionFailure() << "shape " << got.shape() << ", expected " << shape;
  }
  const auto v = got.cpu().to_vector();
  double scale = 1.0;
  for (const double w : want) {
    if (std::isfinite(w)) scale = std::max(scale, std::abs(w));
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double g = static_cast<double>(v[i]);
    const bool ok = std::isnan(want[i])   ? std::isnan(g)
                    : std::isinf(want[i]) ? g == want[i]
                                          : std::abs(g - want[i]) <= tol * scale;
    if (!ok) {
      return ::testing::AssertionFailure() << "element " << i << ": " << g << ", expected "
                                           << want[i] << " (tolerance " << tol * scale << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 5e-4 : 1e-10;
}

/// vector_norm / matrix_norm arguments of a golden case.
ts::Dims dims_of(const nlohmann::json& args, std::vector<std::int64_t> fallback) {
  if (args.contains("dim")) fallback = args["dim"].get<std::vector<std::int64_t>>();
  return ts::Dims(fallback);
}

/// Runs one golden case's op on the inputs.
template <class T>
std::vector<ts::Tensor<T>> run_case(const nlohmann::json& c, const std::vector<ts::Tensor<T>>& in) {
  const std::string op = c["op"];
  const auto& args = c["args"];
  const bool keepdim = args.value("keepdim", false);
  if (op == "solve") return {ts::linalg::solve(in[0], in[1])};
  if (op == "inv") return {ts::linalg::inv(in[0])};
  if (op == "det") return {ts::linalg::det(in[0])};
  if (op == "slogdet") {
    auto [sign, logabsdet] = ts::linalg::slogdet(in[0]);
    return {sign, logabsdet};
  }
  if (op == "cholesky") return {ts::linalg::cholesky(in[0])};
  if (op == "eigvalsh") return {ts::linalg::eigh(in[0]).eigenvalues};
  if (op == "svdvals") return {ts::linalg::svdvals(in[0])};
  if (op == "svd") return {ts::linalg::svd(in[0]).S};
  if (op == "lstsq") return {ts::linalg::lstsq(in[0], in[1])};
  if (op == "norm") return {ts::linalg::norm(in[0])};
  if (op == "trace") return {ts::trace(in[0])};
  if (op == "vector_norm") {
    return {
        ts::linalg::vector_norm(in[0], decode<double>(args["ord"]), dims_of(args, {}), keepdim)};
  }
  if (op == "matrix_norm") {
    const ts::Dims dims = dims_of(args, {-2, -1});
    if (args["ord"].is_string() && (args["ord"] == "fro" || args["ord"] == "nuc")) {
      return {ts::linalg::matrix_norm(in[0], args["ord"].get<std::string>(), dims, keepdim)};
    }
    return {ts::linalg::matrix_norm(in[0], decode<double>(args["ord"]), dims, keepdim)};
  }
  ADD_FAILURE() << "unknown golden op " << op;
  return {};
}

/// Row-major reference product of batched matrices: a (count, m, k) · b (count, k, n).
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b,
                            std::int64_t count, std::int64_t m, std::int64_t k, std::int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(count * m * n), 0.0);
  for (std::int64_t q = 0; q < count; ++q) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0.0;
        for (std::int64_t l = 0; l < k; ++l) {
          s += a[static_cast<std::size_t>((q * m + i) * k + l)] *
               b[static_cast<std::size_t>((q * k + l) * n + j)];
        }
        c[static_cast<std::size_t>((q * m + i) * n + j)] = s;
      }
    }
  }
  return c;
}

/// Each matrix of (count, m, n) transposed.
std::vector<double> transposed(const std::vector<double>& a, std::int64_t count, std::int64_t m,
                               std::int64_t n) {
  std::vector<double> t(a.size());
  for (std::int64_t q = 0; q < count; ++q) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        t[static_cast<std::size_t>((q * n + j) * m + i)] =
            a[static_cast<std::size_t>((q * m + i) * n + j)];
      }
    }
  }
  return t;
}

/// A tensor's values as doubles (row-major, from the host).
template <class T>
std::vector<double> values(const ts::Tensor<T>& t) {
  const auto v = t.cpu().to_vector();
  return {v.begin(), v.end()};
}

/// Batched identity matrices (count, n, n).
std::vector<double> identities(std::int64_t count, std::int64_t n) {
  std::vector<double> e(static_cast<std::size_t>(count * n * n), 0.0);
  for (std::int64_t q = 0; q < count; ++q) {
    for (std::int64_t i = 0; i < n; ++i) e[static_cast<std::size_t>((q * n + i) * n + i)] = 1.0;
  }
  return e;
}

::testing::AssertionResult all_close(const std::vector<double>& got,
                                     const std::vector<double>& want, double tol) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(std::abs(got[i] - want[i]) <= tol)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << got[i] << ", expected " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

/// Random matrices (batch..., m, n) on `device`, contiguous or a transposed view.
template <class T>
ts::Tensor<T> random_matrices(std::mt19937& rng, std::vector<std::int64_t> shape, ts::Device device,
                              bool transposed, double diagonal = 0.0) {
  std::normal_distribution<double> normal;
  const std::int64_t m = shape[shape.size() - 2];
  const std::int64_t n = shape.back();
  std::int64_t count = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i) count *= shape[i];
  std::vector<T> v(static_cast<std::size_t>(count * m * n));
  for (std::int64_t q = 0; q < count; ++q) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        v[static_cast<std::size_t>((q * m + i) * n + j)] =
            static_cast<T>(normal(rng) + (i == j ? diagonal : 0.0));
      }
    }
  }
  if (!transposed) return ts::Tensor<T>::from_vector(v, ts::Shape(shape), device);
  // The same matrices read through a transposed view.
  std::swap(shape[shape.size() - 2], shape.back());
  std::vector<T> t(v.size());
  for (std::int64_t q = 0; q < count; ++q) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        t[static_cast<std::size_t>((q * n + j) * m + i)] =
            v[static_cast<std::size_t>((q * m + i) * n + j)];
      }
    }
  }
  return ts::Tensor<T>::from_vector(t, ts::Shape(shape), device).mT();
}

/// The shapes the property tests run over: batch shapes × matrix extents.
std::vector<std::vector<std::int64_t>> shapes_of(std::int64_t m, std::int64_t n) {
  return {{m, n}, {3, m, n}, {2, 1, m, n}};
}

std::int64_t count_of(const std::vector<std::int64_t>& shape) {
  std::int64_t c = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i) c *= shape[i];
  return c;
}

template <class C>
class LinalgDecompositions : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(LinalgDecompositions, tessera_test::FloatCases, tessera_test::CaseName);

// ---- PyTorch's answers ---------------------------------------------------------------------

TYPED_TEST(LinalgDecompositions, MatchesPyTorch) {
  using T = typename TypeParam::value_type;
  const ts::Device device = this->device();
  for (const auto& c : golden("linalg_golden.json")["cases"]) {
    for (const bool transposed : {false, true}) {
      SCOPED_TRACE(c["op"].get<std::string>() + " " + c["args"].dump() + " input shape " +
                   c["inputs"][0]["shape"].dump() + (transposed ? " transposed" : ""));
      std::vector<ts::Tensor<T>> in;
      for (const auto& p : c["inputs"]) in.push_back(golden_matrix<T>(p, device, transposed));
      if (c.contains("error")) {
        std::string want = c["error"];
        if (want.rfind("torch.", 0) == 0) want = want.substr(6);  // torch's "torch.linalg.solve"
        const std::string got = expect_throw<ts::LinAlgError>([&] { run_case<T>(c, in); });
        EXPECT_EQ(got, want);
        continue;
      }
      const auto out = run_case<T>(c, in);
      ASSERT_EQ(out.size(), c["outputs"].size());
      for (std::size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(out[i].device(), device);
        EXPECT_TRUE(close_to(out[i], decode_all<double>(c["outputs"][i]), shape_of(c["outputs"][i]),
                             tolerance<T>()))
            << "output " << i;
      }
    }
  }
}

// ---- properties of the factors -------------------------------------------------------------

TYPED_TEST(LinalgDecompositions, InverseAndSolveProperties) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(1);
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-11;
  for (const std::int64_t n : {1, 4, 7}) {
    for (const auto& shape : shapes_of(n, n)) {
      for (const bool tr : {false, true}) {
        const auto a = random_matrices<T>(rng, shape, this->device(), tr, 2.0 * n);
        const std::int64_t count = count_of(shape);
        const auto ai = ts::linalg::inv(a);
        EXPECT_TRUE(
            all_close(product(values(a), values(ai), count, n, n, n), identities(count, n), tol));
        // solve(A, A) = I, with A read twice through the same strided view.
        EXPECT_TRUE(all_close(values(ts::linalg::solve(a, a)), identities(count, n), tol));
      }
    }
  }
}

// Matrices of 192 rows and more run one after another, each LAPACK call on OpenBLAS's threads.
TYPED_TEST(LinalgDecompositions, LargeMatricesRunOneByOne) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(6);
  const std::int64_t n = 200;
  const auto a = random_matrices<T>(rng, {2, n, n}, this->device(), true, 4.0 * n);
  const auto ai = ts::linalg::inv(a);
  EXPECT_TRUE(all_close(product(values(a), values(ai), 2, n, n, n), identities(2, n),
                        std::is_same_v<T, float> ? 1e-5 : 1e-13));
  const auto s = values(ts::linalg::svdvals(a));
  ASSERT_EQ(s.size(), 2u * n);
  for (std::int64_t i = 0; i + 1 < 2 * n; ++i) {
    if (i % n != n - 1) {
      EXPECT_GE(s[static_cast<std::size_t>(i)], s[static_cast<std::size_t>(i + 1)]);
    }
  }
}

TYPED_TEST(LinalgDecompositions, QRProperties) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(2);
  const double tol = std::is_same_v<T, float> ? 2e-5 : 1e-12;
  for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{5, 3}, {3, 5}, {4, 4}}) {
    for (const auto& shape : shapes_of(m, n)) {
      const auto a = random_matrices<T>(rng, shape, this->device(), m == 4);
      const std::int64_t count = count_of(shape);
      const std::int64_t k = std::min(m, n);
      auto [q, r] = ts::linalg::qr(a);
      EXPECT_EQ(q.shape().back(), k);
      EXPECT_EQ(r.shape()[r.shape().size() - 2], k);
      const auto qv = values(q);
      const auto rv = values(r);
      EXPECT_TRUE(all_close(product(qv, rv, count, m, k, n), values(a), tol * 10));
      EXPECT_TRUE(all_close(product(transposed(qv, count, m, k), qv, count, k, m, k),
                            identities(count, k), tol * 10));
      for (std::int64_t c = 0; c < count; ++c) {
        for (std::int64_t i = 0; i < k; ++i) {
          for (std::int64_t j = 0; j < std::min(i, n); ++j) {
            EXPECT_EQ(rv[static_cast<std::size_t>((c * k + i) * n + j)], 0.0);
          }
        }
      }
    }
  }
}

TYPED_TEST(LinalgDecompositions, SVDProperties) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(3);
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-11;
  for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{5, 3}, {3, 5}, {4, 4}}) {
    for (const auto& shape : shapes_of(m, n)) {
      for (const bool full : {true, false}) {
        const auto a = random_matrices<T>(rng, shape, this->device(), !full);
        const std::int64_t count = count_of(shape);
        const std::int64_t k = std::min(m, n);
        auto [u, s, vh] = ts::linalg::svd(a, full);
        const std::int64_t uc = full ? m : k;
        const std::int64_t vr = full ? n : k;
        EXPECT_EQ(u.shape().back(), uc);
        EXPECT_EQ(vh.shape()[vh.shape().size() - 2], vr);
        const auto uv = values(u);
        const auto sv = values(s);
        const auto vv = values(vh);
        // U[:, :k] diag(S) Vh[:k, :] = A
        std::vector<double> usv(static_cast<std::size_t>(count * m * n), 0.0);
        for (std::int64_t c = 0; c < count; ++c) {
          for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
              double sum = 0.0;
              for (std::int64_t l = 0; l < k; ++l) {
                sum += uv[static_cast<std::size_t>((c * m + i) * uc + l)] *
                       sv[static_cast<std::size_t>(c * k + l)] *
                       vv[static_cast<std::size_t>((c * vr + l) * n + j)];
              }
              usv[static_cast<std::size_t>((c * m + i) * n + j)] = sum;
            }
            for (std::int64_t l = 0; l + 1 < k; ++l) {
              EXPECT_GE(sv[static_cast<std::size_t>(c * k + l)],
                        sv[static_cast<std::size_t>(c * k + l + 1)]);
            }
          }
        }
        EXPECT_TRUE(all_close(usv, values(a), tol));
        EXPECT_TRUE(all_close(product(transposed(uv, count, m, uc), uv, count, uc, m, uc),
                              identities(count, uc), tol));
        EXPECT_TRUE(all_close(product(vv, transposed(vv, count, vr, n), count, vr, n, vr),
                              identities(count, vr), tol));
        EXPECT_TRUE(all_close(values(ts::linalg::svdvals(a)), sv, tol));
      }
    }
  }
}

TYPED_TEST(LinalgDecompositions, EighAndCholeskyProperties) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(4);
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-11;
  for (const std::int64_t n : {1, 3, 6}) {
    for (const auto& shape : shapes_of(n, n)) {
      const std::int64_t count = count_of(shape);
      // Symmetric positive-definite: B Bᵀ + n I; the upper triangle then overwritten with
      // garbage, which neither eigh nor cholesky may read.
      const auto b = values(random_matrices<T>(rng, shape, ts::Device::cpu(), false));
      auto sym = product(b, transposed(b, count, n, n), count, n, n, n);
      std::vector<T> stored(sym.size());
      for (std::int64_t c = 0; c < count; ++c) {
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = 0; j < n; ++j) {
            const auto at = static_cast<std::size_t>((c * n + i) * n + j);
            if (i == j) sym[at] += static_cast<double>(n);
            sym[at] = static_cast<double>(static_cast<T>(sym[at]));
            stored[at] = j > i ? T(1000) : static_cast<T>(sym[at]);
          }
        }
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = i + 1; j < n; ++j) {
            sym[static_cast<std::size_t>((c * n + i) * n + j)] =
                sym[static_cast<std::size_t>((c * n + j) * n + i)];
          }
        }
      }
      const auto a = ts::Tensor<T>::from_vector(stored, ts::Shape(shape), this->device());
      auto [w, v] = ts::linalg::eigh(a);
      const auto wv = values(w);
      const auto vv = values(v);
      // A V = V diag(w), ascending w, orthonormal V.
      const auto av = product(sym, vv, count, n, n, n);
      std::vector<double> vw(vv.size());
      for (std::int64_t c = 0; c < count; ++c) {
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = 0; j < n; ++j) {
            vw[static_cast<std::size_t>((c * n + i) * n + j)] =
                vv[static_cast<std::size_t>((c * n + i) * n + j)] *
                wv[static_cast<std::size_t>(c * n + j)];
          }
        }
        for (std::int64_t j = 0; j + 1 < n; ++j) {
          EXPECT_LE(wv[static_cast<std::size_t>(c * n + j)],
                    wv[static_cast<std::size_t>(c * n + j + 1)]);
        }
      }
      EXPECT_TRUE(all_close(av, vw, tol * 10 * static_cast<double>(n)));
      EXPECT_TRUE(all_close(product(transposed(vv, count, n, n), vv, count, n, n, n),
                            identities(count, n), tol));
      // L Lᵀ = A, L lower.
      const auto l = values(ts::linalg::cholesky(a));
      EXPECT_TRUE(all_close(product(l, transposed(l, count, n, n), count, n, n, n), sym,
                            tol * 10 * static_cast<double>(n)));
      for (std::int64_t c = 0; c < count; ++c) {
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = i + 1; j < n; ++j) {
            EXPECT_EQ(l[static_cast<std::size_t>((c * n + i) * n + j)], 0.0);
          }
        }
      }
    }
  }
}

TYPED_TEST(LinalgDecompositions, ExpressionsAndEmptyMatrices) {
  using T = typename TypeParam::value_type;
  const ts::Device dev = this->device();
  std::mt19937 rng(5);
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-11;
  const auto a = random_matrices<T>(rng, {2, 4, 4}, dev, true, 8.0);
  // inv(2 A) = inv(A) / 2, det(2 A) = 16 det(A), read from the lazy expression.
  const auto ai = values(ts::linalg::inv(a));
  auto half = ai;
  for (auto& x : half) x /= 2.0;
  EXPECT_TRUE(all_close(values(ts::linalg::inv(a * T(2))), half, tol));
  auto det16 = values(ts::linalg::det(a));
  for (auto& x : det16) x *= 16.0;
  EXPECT_TRUE(all_close(values(ts::linalg::det(a + a)), det16, tol * std::abs(det16[0])));
  // Norms of an expression equal the norms of its value.
  const auto b = random_matrices<T>(rng, {3, 5}, dev, false);
  const ts::Tensor<T> diff = ts::eval(a.select(0, 0).narrow(1, 0, 3).mT() - b.narrow(1, 0, 4));
  for (const double ord : {2.0, 1.0, 3.0, std::numeric_limits<double>::infinity()}) {
    EXPECT_TRUE(all_close(values(ts::linalg::vector_norm(
                              a.select(0, 0).narrow(1, 0, 3).mT() - b.narrow(1, 0, 4), ord, 1)),
                          values(ts::linalg::vector_norm(diff, ord, 1)), tol));
  }
  EXPECT_TRUE(all_close(values(ts::linalg::matrix_norm(diff * T(1), "nuc")),
                        values(ts::linalg::matrix_norm(diff, "nuc")), tol));
  EXPECT_EQ(ts::linalg::norm(diff).dim(), 0);
  // trace: of integers, int64; of an expression.
  const auto ints = ts::Tensor<std::int32_t>::arange(0, 9, 1, dev).reshape({3, 3});
  const ts::Tensor<std::int64_t> tr = ts::trace(ints);
  EXPECT_EQ(tr.item(), 12);
  EXPECT_EQ(ts::trace(ints > 3).item(), 2);
  // Empty matrices and batches.
  EXPECT_EQ(ts::linalg::det(ts::Tensor<T>::zeros({0, 0}, dev)).item(), T(1));
  EXPECT_EQ(ts::linalg::inv(ts::Tensor<T>::zeros({2, 0, 0}, dev)).shape(), ts::Shape({2, 0, 0}));
  EXPECT_EQ(ts::linalg::inv(ts::Tensor<T>::zeros({0, 3, 3}, dev)).shape(), ts::Shape({0, 3, 3}));
  auto [u, s, vh] = ts::linalg::svd(ts::Tensor<T>::zeros({3, 0}, dev));
  EXPECT_EQ(u.shape(), ts::Shape({3, 3}));
  EXPECT_EQ(s.shape(), ts::Shape({0}));
  EXPECT_EQ(vh.shape(), ts::Shape({0, 0}));
  EXPECT_TRUE(all_close(values(u), identities(1, 3), 0.0));
}

}  // namespace
