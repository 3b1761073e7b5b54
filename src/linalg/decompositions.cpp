// SPDX-License-Identifier: BSD-3-Clause
// Decompositions (torch.linalg semantics) on the solver pipeline, once per floating dtype and
// for every device: cholesky (potrf), qr (geqrf + orgqr), eigh (syevd; on the host its steps
// for large matrices, backend/host/symmetric_eigen.hpp), svd and svdvals (gesvd / gesdd).

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "linalg/solver_pipeline.hpp"

namespace tessera::detail {

using namespace solver_rules;     // NOLINT(google-build-using-namespace): the rules and texts
using namespace solver_pipeline;  // NOLINT(google-build-using-namespace): the pipeline's steps

// ---- cholesky (potrf) ----------------------------------------------------------------------

template <class T>
Tensor<T> linalg_cholesky(const Tensor<T>& a) {
  const char* op = "linalg.cholesky";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
  if (m.count * n == 0) return Tensor<T>::zeros(a.shape(), a.device());
  Tensor<T> buf = columns_of(a);
  SolverCall call = call_for<T>(SolverRoutine::Potrf, m.count, n, n);
  call.a = buf.data();
  std::vector<lapack_int> info = run(call, a.device());
  // The first NaN on L's diagonal is the failing minor (reference LAPACK stops at a NaN pivot:
  // PyTorch's answer), whatever the backend's potrf made of it (OpenBLAS's carries it on).
  const std::vector<T> diag = buf.diagonal(0, -2, -1).to_vector();
  for (std::int64_t i = 0; i < m.count; ++i) {
    for (std::int64_t j = 0; info[static_cast<std::size_t>(i)] == 0 && j < n; ++j) {
      if (std::isnan(diag[static_cast<std::size_t>(i * n + j)])) {
        info[static_cast<std::size_t>(i)] = static_cast<lapack_int>(j + 1);
      }
    }
  }
  check_statuses(op, "potrf", info,
                 [&](const Failure& f) { raise_not_positive_definite(op, m, f); });
  return rows_of(buf, n, Triangle::Lower);
}

// ---- qr (geqrf + orgqr) --------------------------------------------------------------------

namespace {

/// Q's and R's columns from A's first column with a NaN onwards are NaN, on every device.
/// Column j of Q and of R depends on A's columns 0..j alone (Gram-Schmidt's order), so the
/// columns before stay LAPACK's. torch's answer (MKL) is NaN in a subset of these; OpenBLAS's
/// Householder norms can skip the NaN and leave finite values there.
template <class T>
linalg::QRResult<T> nan_columns_onwards(const Tensor<T>& a, linalg::QRResult<T> f) {
  const Tensor<bool> column_nan = tessera::any(tessera::isnan(a), Dims{-2});  // (batch..., cols)
  const Tensor<bool> from_nan = eval(tessera::cumsum(column_nan, -1) > std::int64_t{0});
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::int64_t k = f.Q.size(-1);
  f.Q = eval(where(from_nan.narrow(-1, 0, k).unsqueeze(-2), nan, f.Q));
  f.R = eval(where(from_nan.unsqueeze(-2), nan, f.R));
  return f;
}

}  // namespace

template <class T>
linalg::QRResult<T> linalg_qr(const Tensor<T>& a) {
  const char* op = "linalg.qr";
  const MatrixBatch m = matrices_of(op, a.shape());
  const std::int64_t k = std::min(m.rows, m.cols);
  if (m.count * k == 0) {
    return {Tensor<T>::zeros(shape_with(m.batch, {m.rows, k}), a.device()),
            Tensor<T>::zeros(shape_with(m.batch, {k, m.cols}), a.device())};
  }
  std::vector<char> nan_in;
  Tensor<T> buf = columns_of(a, &nan_in);
  Tensor<T> tau = Tensor<T>::empty(shape_with(m.batch, {k}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Geqrf, m.count, m.rows, m.cols);
  call.a = buf.data();
  call.values = tau.data();
  check_statuses(op, "geqrf", run(call, a.device()), [](const Failure&) {});
  // R (the upper triangle of geqrf's first k rows) is read before orgqr overwrites it with Q.
  Tensor<T> r = rows_of(buf.narrow(-1, 0, k), k, Triangle::Upper);
  call.routine = SolverRoutine::Orgqr;
  call.k = k;
  check_statuses(op, "orgqr", run(call, a.device()), [](const Failure&) {});
  linalg::QRResult<T> f{rows_of(buf.narrow(-2, 0, k), m.rows), std::move(r)};
  const bool any_nan = std::find(nan_in.begin(), nan_in.end(), 1) != nan_in.end();
  return any_nan ? nan_columns_onwards(a, std::move(f)) : f;
}

// ---- eigh (syevd) --------------------------------------------------------------------------

template <class T>
linalg::EighResult<T> linalg_eigh(const Tensor<T>& a) {
  const char* op = "linalg.eigh";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
  if (m.count * n == 0) {
    return {Tensor<T>::empty(shape_with(m.batch, {n}), a.device()),
            Tensor<T>::empty(a.shape(), a.device())};
  }
  Tensor<T> buf = columns_of(a);
  Tensor<T> values = Tensor<T>::empty(shape_with(m.batch, {n}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Syevd, m.count, n, n);
  call.a = buf.data();
  call.values = values.data();
  check_statuses(op, "syevd", run(call, a.device()),
                 [&](const Failure& f) { raise_eigh_failed(op, m, f); });
  return {values, rows_of(buf, n)};
}

// ---- svd and svdvals -----------------------------------------------------------------------

template <class T>
linalg::SVDResult<T> linalg_svd(const char* op, const Tensor<T>& a, bool full_matrices,
                                bool compute_uv) {
  const MatrixBatch m = matrices_of(op, a.shape());
  const std::int64_t k = std::min(m.rows, m.cols);
  if (m.count * k == 0) {
    // No singular values: a full U or Vh is the identity (as PyTorch).
    const std::int64_t ucols = full_matrices ? m.rows : k;
    const std::int64_t vrows = full_matrices ? m.cols : k;
    linalg::SVDResult<T> out;
    out.S = Tensor<T>::empty(shape_with(m.batch, {k}), a.device());
    if (compute_uv) {
      const auto identities = [&](std::int64_t r, std::int64_t c) {
        return Tensor<T>::eye(r, c, a.device()).expand(shape_with(m.batch, {r, c})).contiguous();
      };
      out.U = identities(m.rows, ucols);
      out.Vh = identities(vrows, m.cols);
    }
    return out;
  }
  // A NaN is refused before the routine sees it (LAPACK's drivers would print to stderr; what
  // cuSOLVER does with one is not documented).
  check_statuses(op, "svd", non_finite(a, false),
                 [&](const Failure& f) { raise_svd_failed(op, m, f); });
  std::vector<lapack_int> info;
  linalg::SVDResult<T> out = factor_svd(a, m, full_matrices, compute_uv, info);
  check_statuses(op, "svd", info, [&](const Failure& f) { raise_svd_failed(op, m, f); });
  return out;
}

#define TESSERA_INSTANTIATE_LINALG(T)                              \
  template Tensor<T> linalg_cholesky<T>(const Tensor<T>&);         \
  template linalg::QRResult<T> linalg_qr<T>(const Tensor<T>&);     \
  template linalg::EighResult<T> linalg_eigh<T>(const Tensor<T>&); \
  template linalg::SVDResult<T> linalg_svd<T>(const char*, const Tensor<T>&, bool, bool);
TESSERA_INSTANTIATE_LINALG(float)
TESSERA_INSTANTIATE_LINALG(double)
#undef TESSERA_INSTANTIATE_LINALG

}  // namespace tessera::detail
