// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The rules of the LAPACK-backed ops (src/linalg/decompositions.cpp, src/linalg/solvers.cpp) on
// the solver pipeline: the shape rules of torch.linalg, the statuses of a batch and the
// LinAlgError texts, and the determinant from LU factors. A failure (singular matrix, not
// positive-definite) is recorded per matrix and raised after the batch, for the first one.
//
// The routines run LAPACK's _work calls with LAPACK_COL_MAJOR on column-major copies: no
// transposed copies inside LAPACKE and no NaN screening (LAPACKE's high-level routines refuse a
// NaN input without computing anything, where PyTorch returns NaNs).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "backend/host/lapack_routines.hpp"
#include "tessera/core/error.hpp"
#include "tessera/expr/broadcast.hpp"
#include "tessera/linalg/decompositions.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::solver_rules {

// ---- shapes ------------------------------------------------------------------------------------

/// A batch of matrices: the batch shape, how many matrices, and their extents.
struct MatrixBatch {
  std::vector<std::int64_t> batch;
  std::int64_t count = 1;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

/// Checks that `a` has at least 2 dims (ShapeError with PyTorch's words) and that its matrices
/// are within LAPACK's int range; splits its shape.
inline MatrixBatch matrices_of(const char* op, const Shape& s, const char* name = "A") {
  if (s.size() < 2) {
    raise<ShapeError>(op, "The input tensor ", name, " must have at least 2 dimensions.");
  }
  MatrixBatch m;
  m.batch.assign(s.begin(), s.end() - 2);
  for (const std::int64_t d : m.batch) m.count *= d;
  m.rows = s[s.size() - 2];
  m.cols = s[s.size() - 1];
  constexpr std::int64_t kMax = std::numeric_limits<lapack_int>::max() / 8;
  if (m.rows > kMax || m.cols > kMax || m.rows * m.cols > kMax) {
    raise<ValueError>(op, name, " has ", m.rows, " by ", m.cols,
                      " matrices, more than LAPACK's 32-bit indices address");
  }
  return m;
}

/// As matrices_of, and the matrices must be square.
inline MatrixBatch square_matrices_of(const char* op, const Shape& s) {
  MatrixBatch m = matrices_of(op, s);
  if (m.rows != m.cols) {
    raise<ShapeError>(op, "A must be batches of square matrices, but they are ", m.rows, " by ",
                      m.cols, " matrices");
  }
  return m;
}

/// `batch` followed by `tail`.
inline Shape shape_with(const std::vector<std::int64_t>& batch,
                        std::initializer_list<std::int64_t> tail) {
  std::vector<std::int64_t> dims = batch;
  dims.insert(dims.end(), tail.begin(), tail.end());
  return Shape(dims);
}

/// The broadcast of two batch shapes (ShapeError naming op when they do not broadcast).
inline std::vector<std::int64_t> broadcast_batch(const char* op, const std::vector<std::int64_t>& a,
                                                 const std::vector<std::int64_t>& b) {
  return broadcast_shapes(op, Shape(a), Shape(b)).vec();
}

/// The right-hand side of solve or lstsq: whether B is a vector, its column count, and the
/// broadcast batch of A and B (`m`: A's matrices over that batch).
struct RhsLayout {
  MatrixBatch m;
  bool vector = false;
  std::int64_t k = 1;
};

/// Checks A and B of linalg.solve (torch.linalg.solve's rules) and lays B out.
inline RhsLayout solve_layout(const Shape& a, const Shape& b) {
  const char* op = "linalg.solve";
  RhsLayout r;
  r.m = square_matrices_of(op, a);
  if (b.size() < 1) raise<ShapeError>(op, "The input tensor B must have at least 1 dimension.");
  const std::int64_t n = r.m.rows;
  // B is a vector when 1-D, or A's batch shape plus n (torch.linalg.solve's rule).
  r.vector =
      b.size() == 1 || (b.size() + 1 == a.size() && std::equal(b.begin(), b.end(), a.begin()));
  const std::int64_t brows = r.vector ? b.back() : b[b.size() - 2];
  r.k = r.vector ? 1 : b.back();
  if (brows != n) {
    raise<ShapeError>(op, "Incompatible shapes of A and B for the equation AX = B (", n, "x", n,
                      " and ", brows, "x", r.k, ")");
  }
  const std::vector<std::int64_t> bbatch(b.begin(), b.end() - (r.vector ? 1 : 2));
  r.m.batch = broadcast_batch(op, r.m.batch, bbatch);
  r.m.count = 1;
  for (const std::int64_t d : r.m.batch) r.m.count *= d;
  return r;
}

/// Checks A and B of linalg.lstsq and lays B out (a vector when it has one dim fewer than A).
inline RhsLayout lstsq_layout(const Shape& a, const Shape& b) {
  const char* op = "linalg.lstsq";
  RhsLayout r;
  r.m = matrices_of(op, a);
  if (b.size() < 1 || b.size() > a.size() || a.size() - b.size() > 1) {
    raise<ShapeError>(op, "B must have A's number of dimensions (", a.size(),
                      ") or one fewer, but it has ", b.size());
  }
  r.vector = b.size() + 1 == a.size();
  const std::int64_t brows = r.vector ? b.back() : b[b.size() - 2];
  r.k = r.vector ? 1 : b.back();
  if (brows != r.m.rows) {
    raise<ShapeError>(op, "A.size(-2) = ", r.m.rows, " must match B.size(-2) = ", brows,
                      r.vector ? " (B a vector: B.size(-1))" : "");
  }
  const std::vector<std::int64_t> bbatch(b.begin(), b.end() - (r.vector ? 1 : 2));
  r.m.batch = broadcast_batch(op, r.m.batch, bbatch);
  r.m.count = 1;
  for (const std::int64_t d : r.m.batch) r.m.count *= d;
  return r;
}

/// A and B on one device (DeviceError otherwise).
template <class T>
void same_device(const char* op, const Tensor<T>& a, const Tensor<T>& b) {
  if (a.device() != b.device()) {
    raise<DeviceError>(op, "A is on ", a.device().str(), " and B on ", b.device().str());
  }
}

/// `t` moved to `device` (t itself on the host).
template <class T>
Tensor<T> on(const Tensor<T>& t, Device device) {
  return device.is_cpu() ? t : t.to(device);
}

/// The first nonzero status of a batch (LAPACK's info > 0) and its batch element, or -1.
struct Failure {
  std::int64_t element = -1;
  lapack_int info = 0;
};
inline Failure first_failure(const std::vector<lapack_int>& info) {
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] != 0) return {static_cast<std::int64_t>(b), info[b]};
  }
  return {};
}

/// PyTorch's "(Batch element i): " prefix (counted from 0, as PyTorch does), empty for one
/// matrix (no batch dims).
inline std::string batch_part(const MatrixBatch& m, std::int64_t element) {
  if (m.batch.empty()) return {};
  return "(Batch element " + std::to_string(element) + "): ";
}

/// Status of a matrix that holds a value LAPACK's SVD drivers refuse (NaN; for lstsq also inf):
/// recorded instead of calling them (they would print to stderr and return info < 0).
inline constexpr lapack_int kNonFinite = std::numeric_limits<lapack_int>::min();

/// An argument error inside LAPACK (info < 0) is a bug of this file, never the user's.
[[noreturn]] inline void lapack_bug(const char* op, const char* routine, lapack_int info) {
  raise<Error>(op, "internal error: LAPACK's ", routine, " rejected argument ", -info);
}

/// Raises the LinAlgError of a singular matrix (LU factor with the zero diagonal element
/// `info`), in PyTorch's words for `op` (inv or solve).
[[noreturn]] inline void raise_singular(const char* op, const MatrixBatch& m, const Failure& f) {
  if (std::string(op) == "linalg.inv") {
    raise<LinAlgError>(op, batch_part(m, f.element), "The diagonal element ", f.info,
                       " is zero, the inversion could not be completed because the input matrix "
                       "is singular.");
  }
  raise<LinAlgError>(op, batch_part(m, f.element),
                     "The solver failed because the input matrix is singular.");
}

/// The LinAlgError of a matrix that is not positive-definite (cholesky; info = the order of the
/// failing leading minor).
[[noreturn]] inline void raise_not_positive_definite(const char* op, const MatrixBatch& m,
                                                     const Failure& f) {
  raise<LinAlgError>(op, batch_part(m, f.element),
                     "The factorization could not be completed because the input is not "
                     "positive-definite (the leading minor of order ",
                     f.info, " is not positive-definite).");
}

/// Raises `failed` with LAPACK's error code (a routine that did not converge), or `non_finite`
/// for a matrix refused before the routine ran (kNonFinite).
[[noreturn]] inline void raise_not_converged(const char* op, const MatrixBatch& m, const Failure& f,
                                             const char* failed, const char* non_finite = "") {
  if (f.info == kNonFinite) raise<LinAlgError>(op, batch_part(m, f.element), non_finite);
  raise<LinAlgError>(op, batch_part(m, f.element), failed, " (error code: ", f.info, ").");
}

/// The LinAlgError of an eigendecomposition that did not converge.
[[noreturn]] inline void raise_eigh_failed(const char* op, const MatrixBatch& m, const Failure& f) {
  raise_not_converged(op, m, f,
                      "The algorithm failed to converge because the input matrix is "
                      "ill-conditioned or has too many repeated eigenvalues");
}

/// The LinAlgError of an SVD: a NaN input (kNonFinite) or no convergence.
[[noreturn]] inline void raise_svd_failed(const char* op, const MatrixBatch& m, const Failure& f) {
  raise_not_converged(op, m, f,
                      "The algorithm failed to converge because the input matrix is "
                      "ill-conditioned or has too many repeated singular values",
                      "The algorithm failed to converge because the input matrix contained "
                      "non-finite values.");
}

/// The LinAlgError of lstsq: a non-finite input (kNonFinite) or an SVD that did not converge.
[[noreturn]] inline void raise_lstsq_failed(const char* op, const MatrixBatch& m,
                                            const Failure& f) {
  raise_not_converged(op, m, f,
                      "The least squares solution could not be computed because the SVD of A "
                      "failed to converge",
                      "The least squares solution could not be computed because the input "
                      "contains non-finite values.");
}

/// Checks the statuses of a batch: argument errors are bugs; `on_failure` raises the first
/// positive one.
template <class F>
void check_statuses(const char* op, const char* routine, const std::vector<lapack_int>& info,
                    const F& on_failure) {
  for (const lapack_int i : info) {
    if (i < 0 && i != kNonFinite) lapack_bug(op, routine, i);
  }
  const Failure f = first_failure(info);
  if (f.element >= 0) on_failure(f);
}

// ---- determinants from LU factors -----------------------------------------------------------

/// One matrix's determinant from its LU factors: `diag` holds U's diagonal (n values, `step`
/// apart), `ipiv` getrf's 1-based row swaps, `singular` getrf's info > 0 (an exactly zero
/// pivot: the factorisation is complete, the determinant is 0). Writes the sign (±1, or 0 when
/// singular or a pivot is 0 or NaN, as PyTorch) and log |det| into sign[i] and logabs[i], or
/// the determinant into det[i]; any of the three may be null.
template <class T, class Pivot>
void lu_determinant(const T* diag, std::int64_t step, const Pivot* ipiv, std::int64_t n,
                    bool singular, std::int64_t i, T* sign, T* logabs, T* det) {
  bool swaps_odd = false;
  bool negative = false;
  bool signless = false;
  T product = T(1);
  double log_sum = 0.0;
  for (std::int64_t j = 0; j < n; ++j) {
    const T u = diag[j * step];
    if (ipiv[j] != j + 1) swaps_odd = !swaps_odd;
    if (u < T(0)) negative = !negative;
    if (!(u < T(0)) && !(u > T(0))) signless = true;
    product *= u;
    log_sum += std::log(std::abs(static_cast<double>(u)));
  }
  const T s = (swaps_odd != negative) ? T(-1) : T(1);
  if (sign != nullptr) sign[i] = singular || signless ? T(0) : s;
  if (logabs != nullptr) {
    logabs[i] = singular ? -std::numeric_limits<T>::infinity() : static_cast<T>(log_sum);
  }
  if (det != nullptr) det[i] = singular ? T(0) : (swaps_odd ? -product : product);
}

// NaN in a matrix: it makes every element of the matrix's inverse, of a solution and of its
// determinant NaN, as in torch (MKL's LU carries the NaN into every pivot). OpenBLAS's pivot
// search skips a NaN, so its LU can leave finite values or find a zero pivot: inv, solve, det
// and slogdet look for a NaN while copying the matrix for LAPACK (load_columns; on a device,
// one reduction) and answer NaN without factoring it, never a singular-matrix error.

/// The determinant of a matrix that holds a NaN: NaN, or sign 0 (torch's sign of a NaN pivot)
/// and log |det| NaN.
template <class T>
void nan_determinant(std::int64_t i, T* sign, T* logabs, T* det) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  if (sign != nullptr) sign[i] = T(0);
  if (logabs != nullptr) logabs[i] = nan;
  if (det != nullptr) det[i] = nan;
}

}  // namespace tessera::detail::solver_rules
