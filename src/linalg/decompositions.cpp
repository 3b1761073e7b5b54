// SPDX-License-Identifier: BSD-3-Clause
// Decompositions on LAPACK (torch.linalg semantics), once per floating dtype: cholesky
// (potrf), qr (geqrf + orgqr), eigh (syevd, or its steps for large matrices:
// linalg/symmetric_eigen.hpp), svd and svdvals (gesdd). The shared machinery:
// linalg/lapack_batch.hpp.

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "linalg/device_linalg.hpp"
#include "linalg/lapack_batch.hpp"
#include "linalg/symmetric_eigen.hpp"

namespace tessera::detail {

using namespace lapack_batch;  // NOLINT(google-build-using-namespace): this file's vocabulary

// ---- cholesky (potrf) ----------------------------------------------------------------------

template <class T>
Tensor<T> linalg_cholesky(const Tensor<T>& a) {
  const char* op = "linalg.cholesky";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
  if (on_device(a, m.count * n)) return device_linalg::cholesky(a, m);
  const Tensor<T> ha = host_rows(a);
  Tensor<T> l = Tensor<T>::zeros(shape_with(m.batch, {n, n}));
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  if (n > 0) {
    for_each_matrix<T>(m.count, n, [&](std::int64_t i, Scratch<T>& ws) {
      T* w = ws.values(0, n * n);
      load_columns(ha.data() + i * n * n, n, n, w, n);
      lapack_int status = lapack_potrf(static_cast<lapack_int>(n), w);
      // Reference LAPACK stops at a NaN pivot too (PyTorch's answer); OpenBLAS's own potrf
      // carries it on: the first NaN on L's diagonal is the failing minor.
      for (std::int64_t j = 0; status == 0 && j < n; ++j) {
        if (std::isnan(w[j * n + j])) {
          status = static_cast<lapack_int>(j + 1);
        }
      }
      info[static_cast<std::size_t>(i)] = status;
      T* out = l.data() + i * n * n;
      for (std::int64_t r = 0; r < n; ++r) {
        for (std::int64_t c = 0; c <= r; ++c) out[r * n + c] = w[r + c * n];
      }
    });
  }
  check_statuses(op, "potrf", info,
                 [&](const Failure& f) { raise_not_positive_definite(op, m, f); });
  return on(l, a.device());
}

// ---- qr (geqrf + orgqr) --------------------------------------------------------------------

namespace {

/// Q's and R's columns from A's first column with a NaN onwards are NaN, on every device (a
/// device input always passes here; a host one when its copy for LAPACK found a NaN).
/// Column j of Q and of R depends on A's columns 0..j alone (Gram-Schmidt's order), so the
/// columns before stay LAPACK's. torch's answer (MKL) is NaN in a subset of these; OpenBLAS's
/// Householder norms can skip the NaN and leave finite values there.
template <class T>
linalg::QRResult<T> nan_columns_onwards(const Tensor<T>& a, linalg::QRResult<T> f) {
  const Tensor<bool> column_nan = tessera::any(tessera::isnan(a), Dims{-2});  // (batch..., cols)
  if (!tessera::any(column_nan)) return f;
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
  const std::int64_t rows = m.rows;
  const std::int64_t cols = m.cols;
  const std::int64_t k = std::min(rows, cols);
  if (on_device(a, m.count * k)) return nan_columns_onwards(a, device_linalg::qr(a, m));
  const Tensor<T> ha = host_rows(a);
  Tensor<T> q = Tensor<T>::zeros(shape_with(m.batch, {rows, k}));
  Tensor<T> r = Tensor<T>::zeros(shape_with(m.batch, {k, cols}));
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  std::vector<char> nan_in(static_cast<std::size_t>(m.count), 0);
  if (k > 0) {
    for_each_matrix<T>(m.count, std::max(rows, cols), [&](std::int64_t i, Scratch<T>& ws) {
      const auto lm = static_cast<lapack_int>(rows);
      const auto ln = static_cast<lapack_int>(cols);
      const auto lk = static_cast<lapack_int>(k);
      T* w = ws.values(0, rows * cols);
      T* tau = ws.values(1, k);
      nan_in[static_cast<std::size_t>(i)] =
          load_columns(ha.data() + i * rows * cols, rows, cols, w, rows) ? 1 : 0;
      T size_a = T(0);
      T size_b = T(0);
      lapack_int status = lapack_geqrf(lm, ln, w, tau, &size_a, -1);
      if (status == 0) status = lapack_orgqr(lm, lk, w, tau, &size_b, -1);
      const lapack_int lwork = std::max(query_size(size_a), query_size(size_b));
      T* work = ws.values(2, lwork);
      if (status == 0) status = lapack_geqrf(lm, ln, w, tau, work, lwork);
      if (status == 0) {
        T* out_r = r.data() + i * k * cols;
        for (std::int64_t y = 0; y < k; ++y) {
          for (std::int64_t x = y; x < cols; ++x) {
            out_r[y * cols + x] = w[y + x * rows];
          }
        }
        status = lapack_orgqr(lm, lk, w, tau, work, lwork);
        store_rows(w, rows, rows, k, q.data() + i * rows * k);
      }
      info[static_cast<std::size_t>(i)] = status;
    });
  }
  check_statuses(op, "geqrf/orgqr", info, [](const Failure&) {});
  linalg::QRResult<T> f{on(q, a.device()), on(r, a.device())};
  // The copy for LAPACK found any NaN: no second pass over A without one.
  const bool any_nan = std::find(nan_in.begin(), nan_in.end(), 1) != nan_in.end();
  return any_nan ? nan_columns_onwards(a, std::move(f)) : f;
}

// ---- eigh (syevd) --------------------------------------------------------------------------

template <class T>
linalg::EighResult<T> linalg_eigh(const Tensor<T>& a) {
  const char* op = "linalg.eigh";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
  if (on_device(a, m.count * n)) return device_linalg::eigh(a, m);
  const Tensor<T> ha = host_rows(a);
  Tensor<T> values = Tensor<T>::empty(shape_with(m.batch, {n}));
  Tensor<T> vectors = Tensor<T>::empty(shape_with(m.batch, {n, n}));
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  if (n > 0) {
    for_each_matrix<T>(m.count, n, [&](std::int64_t i, Scratch<T>& ws) {
      const auto ln = static_cast<lapack_int>(n);
      T* w = ws.values(0, n * n);
      load_columns(ha.data() + i * n * n, n, n, w, n);
      T* evals = values.data() + i * n;
      lapack_int status = 0;
      T* columns = w;
      if (n >= kSymmetricEigenSplitFrom) {
        status = symmetric_eigen(ln, w, evals, columns, ws);
      } else {
        T work_size = T(0);
        lapack_int iwork_size = 0;
        status = lapack_syevd(ln, w, evals, &work_size, -1, &iwork_size, -1);
        if (status == 0) {
          const lapack_int lwork = query_size(work_size);
          const lapack_int liwork = std::max<lapack_int>(1, iwork_size);
          T* work = ws.values(1, lwork);
          lapack_int* iwork = ws.ints(0, liwork);
          status = lapack_syevd(ln, w, evals, work, lwork, iwork, liwork);
        }
      }
      store_rows(columns, n, n, n, vectors.data() + i * n * n);
      info[static_cast<std::size_t>(i)] = status;
    });
  }
  check_statuses(op, "syevd", info, [&](const Failure& f) { raise_eigh_failed(op, m, f); });
  return {on(values, a.device()), on(vectors, a.device())};
}

// ---- svd and svdvals (gesdd) ---------------------------------------------------------------

template <class T>
linalg::SVDResult<T> linalg_svd(const char* op, const Tensor<T>& a, bool full_matrices,
                                bool compute_uv) {
  const MatrixBatch m = matrices_of(op, a.shape());
  const std::int64_t rows = m.rows;
  const std::int64_t cols = m.cols;
  const std::int64_t k = std::min(rows, cols);
  const std::int64_t ucols = full_matrices ? rows : k;
  const std::int64_t vrows = full_matrices ? cols : k;
  if (on_device(a, m.count * k)) {
    return device_linalg::svd(op, a, m, full_matrices, compute_uv);
  }
  const Tensor<T> ha = host_rows(a);
  linalg::SVDResult<T> out;
  out.S = Tensor<T>::empty(shape_with(m.batch, {k}));
  if (compute_uv) {
    // Written whole by gesdd below, or (k = 0) the identities' zeros.
    out.U = k == 0 ? Tensor<T>::zeros(shape_with(m.batch, {rows, ucols}))
                   : Tensor<T>::empty(shape_with(m.batch, {rows, ucols}));
    out.Vh = k == 0 ? Tensor<T>::zeros(shape_with(m.batch, {vrows, cols}))
                    : Tensor<T>::empty(shape_with(m.batch, {vrows, cols}));
  }
  const char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  for_each_matrix<T>(m.count, std::max(rows, cols), [&](std::int64_t i, Scratch<T>& ws) {
    if (k == 0) {
      // No singular values: a full U or Vh is the identity (as PyTorch).
      if (compute_uv) {
        T* u = out.U.data() + i * rows * ucols;
        for (std::int64_t j = 0; j < std::min(rows, ucols); ++j) u[j * ucols + j] = T(1);
        T* v = out.Vh.data() + i * vrows * cols;
        for (std::int64_t j = 0; j < std::min(vrows, cols); ++j) v[j * cols + j] = T(1);
      }
      return;
    }
    const T* in = ha.data() + i * rows * cols;
    if (has_non_finite(in, rows * cols, false)) {
      info[static_cast<std::size_t>(i)] = kNonFinite;
      return;
    }
    // A's row-major memory is the column-major cols x rows matrix Aᵀ, so gesdd factors
    // Aᵀ = U' S V'ᵀ without a transposed copy. Then A = V' S U'ᵀ: U'ᵀ is Vh and V' is U, and
    // LAPACK's column-major U' (leading dimension cols) and V'ᵀ (leading dimension ucols) are
    // Vh and U row-major, written in place.
    const auto lm = static_cast<lapack_int>(cols);
    const auto ln = static_cast<lapack_int>(rows);
    T* w = ws.values(0, rows * cols);
    std::copy(in, in + rows * cols, w);
    T* u = compute_uv ? out.Vh.data() + i * vrows * cols : ws.values(1, 1);
    T* vt = compute_uv ? out.U.data() + i * rows * ucols : ws.values(2, 1);
    const auto ldu = static_cast<lapack_int>(compute_uv ? cols : 1);
    const auto ldvt = static_cast<lapack_int>(compute_uv ? ucols : 1);
    lapack_int* iwork = ws.ints(0, 8 * k);
    T* s = out.S.data() + i * k;
    T work_size = T(0);
    lapack_int status = lapack_gesdd(jobz, lm, ln, w, s, u, ldu, vt, ldvt, &work_size, -1, iwork);
    if (status == 0) {
      const lapack_int lwork = query_size(work_size);
      T* work = ws.values(3, lwork);
      status = lapack_gesdd(jobz, lm, ln, w, s, u, ldu, vt, ldvt, work, lwork, iwork);
    }
    info[static_cast<std::size_t>(i)] = status;
  });
  check_statuses(op, "gesdd", info, [&](const Failure& f) { raise_svd_failed(op, m, f); });
  const Device device = a.device();
  out.S = on(out.S, device);
  if (compute_uv) {
    out.U = on(out.U, device);
    out.Vh = on(out.Vh, device);
  }
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
