// Linear solvers on LAPACK (torch.linalg semantics), once per floating dtype: solve and inv
// (gesv), det and slogdet (getrf), lstsq (gelsd), and the shape checks the public templates run
// before they evaluate an expression operand. The shared machinery: linalg/lapack_batch.hpp.

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
    load_columns(a + i * n * n, n, n, lu, n);
    lapack_int status = 0;
    if (n > 0) status = lapack_getrf(static_cast<lapack_int>(n), lu, ipiv);
    // info > 0 (an exactly zero pivot): the factorisation is complete, the determinant is 0.
    info[static_cast<std::size_t>(i)] = status < 0 ? status : 0;
    // det = (-1)^(row swaps) * prod(diag U); the sign and log |det| from the same factors.
    // The sign is (-1)^(swaps) times the product of sgn(u) (PyTorch's: 0 for a zero or NaN u).
    bool swaps_odd = false;
    bool negative = false;
    bool signless = false;
    T product = T(1);
    double log_sum = 0.0;
    for (std::int64_t j = 0; j < n; ++j) {
      const T u = lu[j * n + j];
      if (ipiv[j] != j + 1) swaps_odd = !swaps_odd;
      if (u < T(0)) negative = !negative;
      if (!(u < T(0)) && !(u > T(0))) signless = true;
      product *= u;
      log_sum += std::log(std::abs(static_cast<double>(u)));
    }
    const T s = (swaps_odd != negative) ? T(-1) : T(1);
    const bool singular = status > 0;
    if (sign != nullptr) sign[i] = singular || signless ? T(0) : s;
    if (logabs != nullptr) {
      logabs[i] = singular ? -std::numeric_limits<T>::infinity() : static_cast<T>(log_sum);
    }
    if (det != nullptr) det[i] = singular ? T(0) : (swaps_odd ? -product : product);
  });
  check_statuses(op, "getrf", info, [](const Failure&) {});
}

}  // namespace

template <class T>
Tensor<T> linalg_det(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.det", a.shape());
  const Tensor<T> ha = host_rows(a);
  Tensor<T> det = Tensor<T>::empty(Shape(m.batch));
  lu_determinants<T>("linalg.det", m, ha.data(), nullptr, nullptr, det.data());
  return on(det, a.device());
}

template <class T>
linalg::SlogdetResult<T> linalg_slogdet(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.slogdet", a.shape());
  const Tensor<T> ha = host_rows(a);
  Tensor<T> sign = Tensor<T>::empty(Shape(m.batch));
  Tensor<T> logabs = Tensor<T>::empty(Shape(m.batch));
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
  check_statuses(op, "gelsd", info, [&](const Failure& f) {
    if (f.info == kNonFinite) {
      raise<LinAlgError>(op, batch_part(m, f.element),
                         "The least squares solution could not be computed because the input "
                         "contains non-finite values.");
    }
    raise<LinAlgError>(op, batch_part(m, f.element),
                       "The least squares solution could not be computed because the SVD of A "
                       "failed to converge (error code: ",
                       f.info, ").");
  });
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
