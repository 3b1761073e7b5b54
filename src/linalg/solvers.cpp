// SPDX-License-Identifier: BSD-3-Clause
// Linear solvers on LAPACK (torch.linalg semantics), once per floating dtype: solve and inv
// (gesv), det and slogdet (getrf), lstsq (gelsd), and the shape checks the public templates run
// before they evaluate an expression operand. The shared machinery: linalg/lapack_batch.hpp.

#include "linalg/device_linalg.hpp"
#include "linalg/lapack_batch.hpp"

namespace tessera::detail {

using namespace lapack_batch;  // NOLINT(google-build-using-namespace): this file's vocabulary

template <class T>
Tensor<T> linalg_solve(const Tensor<T>& a, const Tensor<T>& b) {
  const char* op = "linalg.solve";
  const RhsLayout layout = solve_layout(a.shape(), b.shape());
  same_device(op, a, b);
  const MatrixBatch& m = layout.m;
  const std::int64_t n = m.rows;
  const std::int64_t k = layout.k;
  const bool vector = layout.vector;
  if (on_device(a, m.count * n * k)) {
    const Tensor<T> x = device_linalg::solve(op, a, vector ? b.unsqueeze(-1) : b, layout);
    return vector ? x.reshape(shape_with(m.batch, {n})) : x;
  }
  const Tensor<T> ha = host_rows_as(a, shape_with(m.batch, {n, n}));
  const Tensor<T> hb = host_rows_as(vector ? b.unsqueeze(-1) : b, shape_with(m.batch, {n, k}));
  Tensor<T> x = Tensor<T>::empty(shape_with(m.batch, {n, k}));
  gesv_batch(op, m, ha.data(), hb.data(), k, x.data());
  if (vector) x = x.reshape(shape_with(m.batch, {n}));
  return on(x, a.device());
}

template <class T>
Tensor<T> linalg_inv(const Tensor<T>& a) {
  const char* op = "linalg.inv";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
  if (on_device(a, m.count * n)) {
    return device_linalg::solve(op, a, Tensor<T>::eye(n, a.device()), RhsLayout{m, false, n});
  }
  const Tensor<T> ha = host_rows(a);
  // The identity for every matrix: gesv's right-hand side (row-major, one per matrix).
  const Tensor<T> eye = Tensor<T>::eye(n).expand(shape_with(m.batch, {n, n})).contiguous();
  Tensor<T> x = Tensor<T>::empty(shape_with(m.batch, {n, n}));
  gesv_batch(op, m, ha.data(), eye.data(), n, x.data());
  return on(x, a.device());
}

// ---- det and slogdet (getrf) ---------------------------------------------------------------

namespace {

/// The LU factorisation of every matrix: sign (±1, or 0 when singular) and log |det| of each,
/// into `sign` and `logabs`, or the determinant itself into `det` (either may be null).
template <class T>
void lu_determinants(const char* op, const MatrixBatch& m, const T* a, T* sign, T* logabs, T* det) {
  const std::int64_t n = m.rows;
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  for_each_matrix<T>(m.count, n, [&](std::int64_t i, Scratch<T>& ws) {
    T* lu = ws.values(0, n * n);
    lapack_int* ipiv = ws.ints(0, n);
    if (load_columns(a + i * n * n, n, n, lu, n)) {
      nan_determinant(i, sign, logabs, det);
      return;
    }
    lapack_int status = 0;
    if (n > 0) status = lapack_getrf(static_cast<lapack_int>(n), lu, ipiv);
    // info > 0 (an exactly zero pivot): the factorisation is complete, the determinant is 0.
    info[static_cast<std::size_t>(i)] = status < 0 ? status : 0;
    lu_determinant(lu, n + 1, ipiv, n, status > 0, i, sign, logabs, det);
  });
  check_statuses(op, "getrf", info, [](const Failure&) {});
}

}  // namespace

template <class T>
Tensor<T> linalg_det(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.det", a.shape());
  Tensor<T> det = Tensor<T>::empty(Shape(m.batch));
  if (on_device(a, m.count * m.rows)) {
    device_linalg::lu_determinants<T>("linalg.det", a, m, nullptr, nullptr, det.data());
    return det.to(a.device());
  }
  const Tensor<T> ha = host_rows(a);
  lu_determinants<T>("linalg.det", m, ha.data(), nullptr, nullptr, det.data());
  return on(det, a.device());
}

template <class T>
linalg::SlogdetResult<T> linalg_slogdet(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.slogdet", a.shape());
  Tensor<T> sign = Tensor<T>::empty(Shape(m.batch));
  Tensor<T> logabs = Tensor<T>::empty(Shape(m.batch));
  if (on_device(a, m.count * m.rows)) {
    device_linalg::lu_determinants<T>("linalg.slogdet", a, m, sign.data(), logabs.data(), nullptr);
    return {sign.to(a.device()), logabs.to(a.device())};
  }
  const Tensor<T> ha = host_rows(a);
  lu_determinants<T>("linalg.slogdet", m, ha.data(), sign.data(), logabs.data(), nullptr);
  return {on(sign, a.device()), on(logabs, a.device())};
}

// ---- lstsq (gelsd) -------------------------------------------------------------------------

template <class T>
Tensor<T> linalg_lstsq(const Tensor<T>& a, const Tensor<T>& b) {
  const char* op = "linalg.lstsq";
  const RhsLayout layout = lstsq_layout(a.shape(), b.shape());
  same_device(op, a, b);
  const MatrixBatch& m = layout.m;
  const std::int64_t rows = m.rows;
  const std::int64_t cols = m.cols;
  const std::int64_t k = layout.k;
  const bool vector = layout.vector;
  if (on_device(a, m.count * std::min(rows, cols) * k)) {
    const Tensor<T> x = device_linalg::lstsq(a, vector ? b.unsqueeze(-1) : b, layout);
    return vector ? x.reshape(shape_with(m.batch, {cols})) : x;
  }
  const Tensor<T> ha = host_rows_as(a, shape_with(m.batch, {rows, cols}));
  const Tensor<T> hb = host_rows_as(vector ? b.unsqueeze(-1) : b, shape_with(m.batch, {rows, k}));
  Tensor<T> x = Tensor<T>::zeros(shape_with(m.batch, {cols, k}));
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  const std::int64_t ldb = std::max<std::int64_t>({rows, cols, 1});
  const T rcond = std::numeric_limits<T>::epsilon() * static_cast<T>(std::max(rows, cols));
  if (std::min(rows, cols) > 0 && k > 0) {
    for_each_matrix<T>(m.count, std::max(rows, cols), [&](std::int64_t i, Scratch<T>& ws) {
      const auto lm = static_cast<lapack_int>(rows);
      const auto ln = static_cast<lapack_int>(cols);
      const auto lk = static_cast<lapack_int>(k);
      if (has_non_finite(ha.data() + i * rows * cols, rows * cols, true) ||
          has_non_finite(hb.data() + i * rows * k, rows * k, true)) {
        info[static_cast<std::size_t>(i)] = kNonFinite;
        return;
      }
      T* w = ws.values(0, rows * cols);
      T* rhs = ws.values(1, ldb * k);
      std::fill(rhs, rhs + ldb * k, T(0));
      T* s = ws.values(2, std::min(rows, cols));
      load_columns(ha.data() + i * rows * cols, rows, cols, w, rows);
      load_columns(hb.data() + i * rows * k, rows, k, rhs, ldb);
      lapack_int rank = 0;
      T work_size = T(0);
      lapack_int iwork_size = 0;
      lapack_int status = lapack_gelsd(lm, ln, lk, w, rhs, static_cast<lapack_int>(ldb), s, rcond,
                                       &rank, &work_size, -1, &iwork_size);
      if (status == 0) {
        const lapack_int lwork = query_size(work_size);
        T* work = ws.values(3, lwork);
        lapack_int* iwork = ws.ints(0, iwork_size);
        status = lapack_gelsd(lm, ln, lk, w, rhs, static_cast<lapack_int>(ldb), s, rcond, &rank,
                              work, lwork, iwork);
      }
      store_rows(rhs, ldb, cols, k, x.data() + i * cols * k);
      info[static_cast<std::size_t>(i)] = status;
    });
  }
  check_statuses(op, "gelsd", info, [&](const Failure& f) { raise_lstsq_failed(op, m, f); });
  if (vector) x = x.reshape(shape_with(m.batch, {cols}));
  return on(x, a.device());
}

void linalg_check_shapes(const char* op, LinalgShapes rule, const Shape& a, const Shape& b) {
  switch (rule) {
    case LinalgShapes::Matrices:
      (void)matrices_of(op, a);
      break;
    case LinalgShapes::Square:
      (void)square_matrices_of(op, a);
      break;
    case LinalgShapes::Solve:
      (void)solve_layout(a, b);
      break;
    case LinalgShapes::Lstsq:
      (void)lstsq_layout(a, b);
      break;
  }
}

#define TESSERA_INSTANTIATE_LINALG_SOLVERS(T)                             \
  template Tensor<T> linalg_solve<T>(const Tensor<T>&, const Tensor<T>&); \
  template Tensor<T> linalg_inv<T>(const Tensor<T>&);                     \
  template Tensor<T> linalg_det<T>(const Tensor<T>&);                     \
  template linalg::SlogdetResult<T> linalg_slogdet<T>(const Tensor<T>&);  \
  template Tensor<T> linalg_lstsq<T>(const Tensor<T>&, const Tensor<T>&);
TESSERA_INSTANTIATE_LINALG_SOLVERS(float)
TESSERA_INSTANTIATE_LINALG_SOLVERS(double)
#undef TESSERA_INSTANTIATE_LINALG_SOLVERS

}  // namespace tessera::detail
