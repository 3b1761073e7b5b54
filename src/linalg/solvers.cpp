// SPDX-License-Identifier: BSD-3-Clause
// Linear solvers (torch.linalg semantics) on the solver pipeline, once per floating dtype and for
// every device: solve and inv (gesv), det and slogdet (getrf), lstsq (the SVD), and the shape
// checks the public templates run before they evaluate an expression operand.

#include <algorithm>
#include <limits>
#include <vector>

#include "linalg/solver_pipeline.hpp"
#include "tessera/linalg/product.hpp"

namespace tessera::detail {

using namespace solver_rules;     // NOLINT(google-build-using-namespace): the rules and texts
using namespace solver_pipeline;  // NOLINT(google-build-using-namespace): the pipeline's steps

namespace {

/// X of A X = B for every matrix, B (batch..., n, k) (a vector already unsqueezed), or, with
/// `b_columns`, B's column-major buffer (batch..., k, n), which the call overwrites; `op` solve
/// or inv. A matrix that holds a NaN gives a NaN X, never an error ("NaN in a matrix",
/// solver_rules.hpp): the copy for the routine finds it (one reduction on a device).
template <class T>
Tensor<T> gesv(const char* op, const Tensor<T>& a, const Tensor<T>& b, const RhsLayout& layout,
               bool b_columns = false) {
  const MatrixBatch& m = layout.m;
  const std::int64_t n = m.rows;
  const std::int64_t k = layout.k;
  if (m.count * n * k == 0) return Tensor<T>::empty(shape_with(m.batch, {n, k}), a.device());
  std::vector<char> nan_in;
  Tensor<T> lu = columns_of(a.expand(shape_with(m.batch, {n, n})), &nan_in);
  Tensor<T> x = b_columns ? b : columns_of(b.expand(shape_with(m.batch, {n, k})));
  Tensor<std::int32_t> pivots = Tensor<std::int32_t>::empty(shape_with(m.batch, {n}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Gesv, m.count, n, n);
  call.k = k;
  call.a = lu.data();
  call.b = x.data();
  call.pivots = pivots.data();
  std::vector<lapack_int> info = run(call, a.device());
  bool any_nan = false;
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (nan_in[i] != 0) info[i] = 0;
    any_nan = any_nan || nan_in[i] != 0;
  }
  check_statuses(op, "gesv", info, [&](const Failure& f) { raise_singular(op, m, f); });
  const Tensor<T> rows = rows_of(x, n);
  if (!any_nan) return rows;
  const std::vector<bool> flags(nan_in.begin(), nan_in.end());
  const Tensor<bool> nan_matrix =
      Tensor<bool>::from_vector(flags, shape_with(m.batch, {1, 1})).to(a.device());
  return eval(where(nan_matrix, std::numeric_limits<T>::quiet_NaN(), rows));
}

/// The LU factorisation of every matrix: sign (±1, or 0 when singular) and log |det| of each,
/// into `sign` and `logabs`, or the determinant itself into `det` (host arrays of the batch's
/// size; either may be null).
template <class T>
void lu_determinants(const char* op, const Tensor<T>& a, const MatrixBatch& m, T* sign, T* logabs,
                     T* det) {
  const std::int64_t n = m.rows;
  if (m.count == 0) return;
  if (n == 0) {
    for (std::int64_t i = 0; i < m.count; ++i)
      lu_determinant<T, int>(nullptr, 1, nullptr, 0, false, i, sign, logabs, det);
    return;
  }
  std::vector<char> nan_in;
  Tensor<T> lu = columns_of(a, &nan_in);
  Tensor<std::int32_t> pivots = Tensor<std::int32_t>::empty(shape_with(m.batch, {n}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Getrf, m.count, n, n);
  call.a = lu.data();
  call.pivots = pivots.data();
  std::vector<lapack_int> info = run(call, a.device());
  // U's diagonal and the row swaps are all a determinant needs: 2n values per matrix.
  const std::vector<T> diag = lu.diagonal(0, -2, -1).to_vector();
  const std::vector<std::int32_t> swaps = pivots.to_vector();
  for (std::int64_t i = 0; i < m.count; ++i) {
    lapack_int& status = info[static_cast<std::size_t>(i)];
    if (nan_in[static_cast<std::size_t>(i)] != 0) {
      nan_determinant(i, sign, logabs, det);  // solver_rules.hpp, "NaN in a matrix"
      status = 0;
      continue;
    }
    lu_determinant(diag.data() + i * n, 1, swaps.data() + i * n, n, status > 0, i, sign, logabs,
                   det);
    if (status > 0) status = 0;  // an exactly zero pivot: the determinant is 0, not an error
  }
  check_statuses(op, "getrf", info, [](const Failure&) {});
}

}  // namespace

template <class T>
Tensor<T> linalg_solve(const Tensor<T>& a, const Tensor<T>& b) {
  const RhsLayout layout = solve_layout(a.shape(), b.shape());
  same_device("linalg.solve", a, b);
  // A vector B is solved as one column, and X is that column's values.
  const Tensor<T> x = gesv("linalg.solve", a, layout.vector ? b.unsqueeze(-1) : b, layout);
  return layout.vector ? x.squeeze(-1) : x;
}

template <class T>
Tensor<T> linalg_inv(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.inv", a.shape());
  const std::int64_t n = m.rows;
  // The identity is its own column-major copy: gesv's right-hand side as it stands.
  const Tensor<T> identities =
      Tensor<T>::eye(n, a.device()).expand(shape_with(m.batch, {n, n})).contiguous();
  return gesv("linalg.inv", a, identities, RhsLayout{m, false, n}, true);
}

// ---- det and slogdet (getrf) ---------------------------------------------------------------

template <class T>
Tensor<T> linalg_det(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.det", a.shape());
  Tensor<T> det = Tensor<T>::empty(Shape(m.batch));
  lu_determinants<T>("linalg.det", a, m, nullptr, nullptr, det.data());
  return on(det, a.device());
}

template <class T>
linalg::SlogdetResult<T> linalg_slogdet(const Tensor<T>& a) {
  const MatrixBatch m = square_matrices_of("linalg.slogdet", a.shape());
  Tensor<T> sign = Tensor<T>::empty(Shape(m.batch));
  Tensor<T> logabs = Tensor<T>::empty(Shape(m.batch));
  lu_determinants<T>("linalg.slogdet", a, m, sign.data(), logabs.data(), nullptr);
  return {on(sign, a.device()), on(logabs, a.device())};
}

// ---- lstsq ---------------------------------------------------------------------------------

// The minimum-norm least-squares solution on every device, gelsd's answer from the reduced SVD:
// X = V diag(1/s) Uᵀ B over the singular values above rcond · s_max, rcond = eps ·
// max(rows, cols); the others count as zero. (torch's default CPU driver, gelsy, gives another
// solution for rank-deficient A: docs/ops/linalg.md.)
template <class T>
Tensor<T> linalg_lstsq(const Tensor<T>& a, const Tensor<T>& b) {
  const char* op = "linalg.lstsq";
  const RhsLayout layout = lstsq_layout(a.shape(), b.shape());
  same_device(op, a, b);
  const MatrixBatch& m = layout.m;
  const std::int64_t k = layout.k;
  const Tensor<T> ae = a.expand(shape_with(m.batch, {m.rows, m.cols}));
  const Tensor<T> be =
      (layout.vector ? b.unsqueeze(-1) : b).expand(shape_with(m.batch, {m.rows, k}));
  Tensor<T> x;
  if (m.count * std::min(m.rows, m.cols) * k == 0) {
    x = Tensor<T>::zeros(shape_with(m.batch, {m.cols, k}), a.device());
  } else {
    std::vector<lapack_int> info = non_finite(ae, true);
    const std::vector<lapack_int> in_b = non_finite(be, true);
    for (std::size_t i = 0; i < info.size(); ++i) info[i] = info[i] != 0 ? info[i] : in_b[i];
    check_statuses(op, "gelsd", info, [&](const Failure& f) { raise_lstsq_failed(op, m, f); });
    linalg::SVDResult<T> f = factor_svd(ae, m, false, true, info);
    check_statuses(op, "svd", info, [&](const Failure& fail) { raise_lstsq_failed(op, m, fail); });
    const T rcond = std::numeric_limits<T>::epsilon() * static_cast<T>(std::max(m.rows, m.cols));
    const Tensor<T> cutoff = eval(f.S.narrow(-1, 0, 1) * rcond);
    const Tensor<T> inverse = eval(where(f.S > cutoff, T(1) / f.S, T(0)));
    const Tensor<T> ub = batched_matmul<T>(op, f.U.mT(), be);
    x = batched_matmul<T>(op, f.Vh.mT(), eval(ub * inverse.unsqueeze(-1)));
  }
  return layout.vector ? x.squeeze(-1) : x;
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
