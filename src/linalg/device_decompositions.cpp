// SPDX-License-Identifier: BSD-3-Clause
// Decompositions of device tensors through the device runtime's solver routines (cuSOLVER on a
// GPU, the host's LAPACK on the emulated device), once per floating dtype. A row-major matrix
// read transposed is its column-major copy: each routine gets `a.mT().clone()`, and its
// column-major results are read back through `.mT()`. The rules and texts are the host's
// (linalg/lapack_batch.hpp).

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "backend/solver_call.hpp"
#include "linalg/device_linalg.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/linalg/product.hpp"

namespace tessera::detail::device_linalg {

using namespace lapack_batch;  // NOLINT(google-build-using-namespace): this file's vocabulary

namespace {

template <class T>
SolverCall call_for(SolverRoutine routine, std::int64_t count, std::int64_t rows,
                    std::int64_t cols) {
  SolverCall call;
  call.routine = routine;
  call.type = std::is_same_v<T, float> ? GemmType::Float32 : GemmType::Float64;
  call.count = count;
  call.m = rows;
  call.n = cols;
  return call;
}

/// Runs `call` on `device` (waiting for it); the status of each matrix.
std::vector<lapack_int> run(SolverCall& call, Device device) {
  std::vector<std::int32_t> info(static_cast<std::size_t>(call.count), 0);
  call.info = info.data();
  device_runtime::lapack(call, device.index());
  return {info.begin(), info.end()};
}

/// The matrices of `a` (batch..., rows, cols) in a new column-major buffer on a's device: a
/// (batch..., cols, rows) tensor. Always a copy, since the routines overwrite it.
template <class T>
Tensor<T> columns_of(const Tensor<T>& a) {
  return a.mT().clone();
}

/// The status kNonFinite for each matrix of `a` that holds a NaN (with `infinite`, also an
/// infinity), 0 for the others. x · 0 is NaN exactly where x is NaN or infinite, so one
/// reduction serves both tests.
template <class T>
std::vector<lapack_int> non_finite(const Tensor<T>& a, bool infinite) {
  const T scale = infinite ? T(0) : T(1);
  const std::vector<bool> flags = tessera::any(tessera::isnan(a * scale), Dims{-2, -1}).to_vector();
  std::vector<lapack_int> info(flags.size(), 0);
  for (std::size_t i = 0; i < flags.size(); ++i) info[i] = flags[i] ? kNonFinite : 0;
  return info;
}

/// The SVD of every matrix of `a` (shapes as linalg.svd), statuses into `info`. The routine
/// needs rows ≥ columns (cuSOLVER's gesvd does): a wide A is factored as Aᵀ = U' S V'ᵀ, whose
/// column-major buffer is A's row-major copy; then U = V' and Vh = U'ᵀ, which are the buffers as
/// they stand.
template <class T>
linalg::SVDResult<T> factor_svd(const Tensor<T>& a, const MatrixBatch& m, bool full_matrices,
                                bool compute_uv, std::vector<lapack_int>& info) {
  const Device device = a.device();
  const bool wide = m.rows < m.cols;
  const std::int64_t rows = wide ? m.cols : m.rows;
  const std::int64_t k = wide ? m.rows : m.cols;
  const std::int64_t ucols = full_matrices ? rows : k;
  Tensor<T> buf = wide ? a.clone() : columns_of(a);
  linalg::SVDResult<T> out;
  out.S = Tensor<T>::empty(shape_with(m.batch, {k}), device);
  Tensor<T> u;
  Tensor<T> vt;
  SolverCall call = call_for<T>(SolverRoutine::Svd, m.count, rows, k);
  call.a = buf.data();
  call.values = out.S.data();
  call.job = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  if (compute_uv) {
    u = Tensor<T>::empty(shape_with(m.batch, {ucols, rows}), device);
    vt = Tensor<T>::empty(shape_with(m.batch, {k, k}), device);
    call.u = u.data();
    call.vt = vt.data();
  }
  info = run(call, device);
  if (compute_uv) {
    out.U = wide ? vt : u.mT().contiguous();
    out.Vh = wide ? u : vt.mT().contiguous();
  }
  return out;
}

}  // namespace

template <class T>
Tensor<T> cholesky(const Tensor<T>& a, const MatrixBatch& m) {
  const char* op = "linalg.cholesky";
  const std::int64_t n = m.rows;
  Tensor<T> buf = columns_of(a);
  SolverCall call = call_for<T>(SolverRoutine::Potrf, m.count, n, n);
  call.a = buf.data();
  std::vector<lapack_int> info = run(call, a.device());
  // The first NaN on L's diagonal is the failing minor (reference LAPACK's rule, PyTorch's
  // answer), whatever the backend's potrf made of it.
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
  return buf.mT().tril();
}

template <class T>
linalg::QRResult<T> qr(const Tensor<T>& a, const MatrixBatch& m) {
  const char* op = "linalg.qr";
  const std::int64_t k = std::min(m.rows, m.cols);
  Tensor<T> buf = columns_of(a);
  Tensor<T> tau = Tensor<T>::empty(shape_with(m.batch, {k}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Geqrf, m.count, m.rows, m.cols);
  call.a = buf.data();
  call.values = tau.data();
  check_statuses(op, "geqrf", run(call, a.device()), [](const Failure&) {});
  // R is copied out before orgqr overwrites the reflectors with Q.
  Tensor<T> r = buf.mT().narrow(-2, 0, k).triu();
  call.routine = SolverRoutine::Orgqr;
  call.k = k;
  check_statuses(op, "orgqr", run(call, a.device()), [](const Failure&) {});
  return {buf.narrow(-2, 0, k).mT().contiguous(), r};
}

template <class T>
linalg::EighResult<T> eigh(const Tensor<T>& a, const MatrixBatch& m) {
  const char* op = "linalg.eigh";
  const std::int64_t n = m.rows;
  Tensor<T> buf = columns_of(a);
  Tensor<T> values = Tensor<T>::empty(shape_with(m.batch, {n}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Syevd, m.count, n, n);
  call.a = buf.data();
  call.values = values.data();
  check_statuses(op, "syevd", run(call, a.device()),
                 [&](const Failure& f) { raise_eigh_failed(op, m, f); });
  return {values, buf.mT().contiguous()};
}

template <class T>
linalg::SVDResult<T> svd(const char* op, const Tensor<T>& a, const MatrixBatch& m,
                         bool full_matrices, bool compute_uv) {
  // A NaN is refused before the routine sees it, as on the host (LAPACK's drivers would print
  // to stderr; what cuSOLVER does with one is not documented).
  check_statuses(op, "svd", non_finite(a, false),
                 [&](const Failure& f) { raise_svd_failed(op, m, f); });
  std::vector<lapack_int> info;
  linalg::SVDResult<T> out = factor_svd(a, m, full_matrices, compute_uv, info);
  check_statuses(op, "svd", info, [&](const Failure& f) { raise_svd_failed(op, m, f); });
  return out;
}

template <class T>
Tensor<T> solve(const char* op, const Tensor<T>& a, const Tensor<T>& b, const RhsLayout& layout) {
  const MatrixBatch& m = layout.m;
  const std::int64_t n = m.rows;
  const std::int64_t k = layout.k;
  const Tensor<T> ae = a.expand(shape_with(m.batch, {n, n}));
  Tensor<T> lu = columns_of(ae);
  Tensor<T> x = columns_of(b.expand(shape_with(m.batch, {n, k})));
  Tensor<std::int32_t> pivots = Tensor<std::int32_t>::empty(shape_with(m.batch, {n}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Gesv, m.count, n, n);
  call.k = k;
  call.a = lu.data();
  call.b = x.data();
  call.pivots = pivots.data();
  std::vector<lapack_int> info = run(call, a.device());
  // A matrix with a NaN: a NaN solution, never an error (lapack_batch.hpp, "NaN in a matrix").
  const Tensor<bool> nan_matrix = tessera::any(tessera::isnan(ae), Dims{-2, -1}, true);
  const std::vector<bool> nan_in = nan_matrix.to_vector();
  bool any_nan = false;
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (nan_in[i]) info[i] = 0;
    any_nan = any_nan || nan_in[i];
  }
  check_statuses(op, "gesv", info, [&](const Failure& f) { raise_singular(op, m, f); });
  if (!any_nan) return x.mT().contiguous();
  return eval(where(nan_matrix, std::numeric_limits<T>::quiet_NaN(), x.mT()));
}

template <class T>
void lu_determinants(const char* op, const Tensor<T>& a, const MatrixBatch& m, T* sign, T* logabs,
                     T* det) {
  const std::int64_t n = m.rows;
  Tensor<T> lu = columns_of(a);
  Tensor<std::int32_t> pivots = Tensor<std::int32_t>::empty(shape_with(m.batch, {n}), a.device());
  SolverCall call = call_for<T>(SolverRoutine::Getrf, m.count, n, n);
  call.a = lu.data();
  call.pivots = pivots.data();
  std::vector<lapack_int> info = run(call, a.device());
  const std::vector<lapack_int> nan_in = non_finite(a, false);
  // U's diagonal and the row swaps are all a determinant needs: 2n values per matrix.
  const std::vector<T> diag = lu.diagonal(0, -2, -1).to_vector();
  const std::vector<std::int32_t> swaps = pivots.to_vector();
  for (std::int64_t i = 0; i < m.count; ++i) {
    lapack_int& status = info[static_cast<std::size_t>(i)];
    if (nan_in[static_cast<std::size_t>(i)] != 0) {
      nan_determinant(i, sign, logabs, det);  // lapack_batch.hpp, "NaN in a matrix"
      status = 0;
      continue;
    }
    lu_determinant(diag.data() + i * n, 1, swaps.data() + i * n, n, status > 0, i, sign, logabs,
                   det);
    if (status > 0) status = 0;  // an exactly zero pivot: the determinant is 0, not an error
  }
  check_statuses(op, "getrf", info, [](const Failure&) {});
}

template <class T>
Tensor<T> lstsq(const Tensor<T>& a, const Tensor<T>& b, const RhsLayout& layout) {
  const char* op = "linalg.lstsq";
  const MatrixBatch& m = layout.m;
  const Tensor<T> ae = a.expand(shape_with(m.batch, {m.rows, m.cols}));
  const Tensor<T> be = b.expand(shape_with(m.batch, {m.rows, layout.k}));
  std::vector<lapack_int> info = non_finite(ae, true);
  const std::vector<lapack_int> in_b = non_finite(be, true);
  for (std::size_t i = 0; i < info.size(); ++i) info[i] = info[i] != 0 ? info[i] : in_b[i];
  check_statuses(op, "gelsd", info, [&](const Failure& f) { raise_lstsq_failed(op, m, f); });
  // gelsd's answer from the reduced SVD: X = V diag(1/s) Uᵀ B over the singular values above
  // rcond · s_max, rcond = eps · max(rows, cols); the others count as zero.
  linalg::SVDResult<T> f = factor_svd(ae, m, false, true, info);
  check_statuses(op, "svd", info, [&](const Failure& fail) { raise_lstsq_failed(op, m, fail); });
  const T rcond = std::numeric_limits<T>::epsilon() * static_cast<T>(std::max(m.rows, m.cols));
  const Tensor<T> cutoff = eval(f.S.narrow(-1, 0, 1) * rcond);
  const Tensor<T> inverse = eval(where(f.S > cutoff, T(1) / f.S, T(0)));
  const Tensor<T> ub = batched_matmul<T>(op, f.U.mT(), be);
  return batched_matmul<T>(op, f.Vh.mT(), eval(ub * inverse.unsqueeze(-1)));
}

#define TESSERA_INSTANTIATE_DEVICE_LINALG(T)                                                       \
  template Tensor<T> cholesky<T>(const Tensor<T>&, const MatrixBatch&);                            \
  template linalg::QRResult<T> qr<T>(const Tensor<T>&, const MatrixBatch&);                        \
  template linalg::EighResult<T> eigh<T>(const Tensor<T>&, const MatrixBatch&);                    \
  template linalg::SVDResult<T> svd<T>(const char*, const Tensor<T>&, const MatrixBatch&, bool,    \
                                       bool);                                                      \
  template Tensor<T> solve<T>(const char*, const Tensor<T>&, const Tensor<T>&, const RhsLayout&);  \
  template void lu_determinants<T>(const char*, const Tensor<T>&, const MatrixBatch&, T*, T*, T*); \
  template Tensor<T> lstsq<T>(const Tensor<T>&, const Tensor<T>&, const RhsLayout&);
TESSERA_INSTANTIATE_DEVICE_LINALG(float)
TESSERA_INSTANTIATE_DEVICE_LINALG(double)
#undef TESSERA_INSTANTIATE_DEVICE_LINALG

}  // namespace tessera::detail::device_linalg
