// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the LAPACK-backed ops share (src/linalg/solvers.cpp, src/linalg/decompositions.cpp):
// LAPACKE's _work routines by element type, the shape rules of torch.linalg, the copies between
// row-major tensors and column-major workspaces, the loop over a batch of matrices (small ones
// in parallel on the host pool, where OpenBLAS's LAPACK runs single-threaded; large ones on the
// calling thread, where OpenBLAS uses its own threads), and the LinAlgError texts. A failure
// (singular matrix, not positive-definite) is recorded per matrix and raised after the loop,
// for the first one.
//
// Each matrix is copied into a column-major workspace and handed to a _work routine with
// LAPACK_COL_MAJOR: no transposed copies inside LAPACKE and no NaN screening (LAPACKE's
// high-level routines refuse a NaN input without computing anything, where PyTorch returns
// NaNs).

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
#include "tessera/expr/host_parallel.hpp"
#include "tessera/linalg/decompositions.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::lapack_batch {

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

/// `a` on the host, contiguous, row-major (the input itself when it already is one).
template <class T>
Tensor<T> host_rows(const Tensor<T>& a) {
  const Tensor<T> host = a.device().is_cpu() ? a : a.to(Device::cpu());
  return host.is_contiguous() ? host : host.contiguous();
}

/// `a` broadcast to `shape` on the host, contiguous (a copy when it must be expanded).
template <class T>
Tensor<T> host_rows_as(const Tensor<T>& a, const Shape& shape) {
  const Tensor<T> host = host_rows(a);
  return host.shape() == shape ? host : host.expand(shape).contiguous();
}

/// True when `a` is on a device and there is work for its routines (`work`, a product of the
/// batch size and the extents, above 0): then the device decompositions run
/// (linalg/device_linalg.hpp). Empty problems take the host path, which needs no routine.
template <class T>
bool on_device(const Tensor<T>& a, std::int64_t work) {
  return !a.device().is_cpu() && work > 0;
}

/// `t` moved to `device` (t itself on the host).
template <class T>
Tensor<T> on(const Tensor<T>& t, Device device) {
  return device.is_cpu() ? t : t.to(device);
}

// ---- copies between row-major tensors and column-major workspaces -----------------------------

/// The copies below walk 8 x 8 tiles: a plain loop strides through one side a whole row or
/// column at a time, and with power-of-two extents those lines evict each other (512 x 512
/// doubles: 0.75 ms against 0.13 ms in tiles, a quarter of a 512 x 512 solve; tiles of 16 and
/// more conflict again).
inline constexpr std::int64_t kCopyTile = 8;

/// The row-major rows x cols matrix at `src` into column-major `dst` (leading dimension ld);
/// true when it holds a NaN, found in the same pass (x != x costs nothing beside the copy's
/// memory traffic, where a scan of its own read the matrix again: 3.5 % of a 512 x 512 solve).
template <class T>
bool load_columns(const T* src, std::int64_t rows, std::int64_t cols, T* dst, std::int64_t ld) {
  bool nan = false;
  for (std::int64_t i0 = 0; i0 < rows; i0 += kCopyTile) {
    const std::int64_t i1 = std::min(i0 + kCopyTile, rows);
    for (std::int64_t j0 = 0; j0 < cols; j0 += kCopyTile) {
      const std::int64_t j1 = std::min(j0 + kCopyTile, cols);
      for (std::int64_t j = j0; j < j1; ++j) {
        for (std::int64_t i = i0; i < i1; ++i) {
          const T v = src[i * cols + j];
          nan |= v != v;
          dst[i + j * ld] = v;
        }
      }
    }
  }
  return nan;
}

/// The column-major rows x cols matrix at `src` (leading dimension ld) into row-major `dst`.
template <class T>
void store_rows(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* dst) {
  for (std::int64_t i0 = 0; i0 < rows; i0 += kCopyTile) {
    const std::int64_t i1 = std::min(i0 + kCopyTile, rows);
    for (std::int64_t j0 = 0; j0 < cols; j0 += kCopyTile) {
      const std::int64_t j1 = std::min(j0 + kCopyTile, cols);
      for (std::int64_t i = i0; i < i1; ++i) {
        for (std::int64_t j = j0; j < j1; ++j) dst[i * cols + j] = src[i + j * ld];
      }
    }
  }
}

/// Workspaces that the matrices of one task reuse: each slot grows to the largest size asked
/// for and is neither cleared nor kept on growth. Uninitialised: LAPACK writes before it reads,
/// and zeroing an svd's 8 MB of workspace (512 x 512 doubles) cost a millisecond per call.
template <class T>
class Scratch {
 public:
  /// At least `size` values of T (at least one) in slot `slot` (0 to 3).
  T* values(int slot, std::int64_t size) { return values_[slot].grow(size); }
  /// At least `size` LAPACK integers in slot `slot` (0 or 1).
  lapack_int* ints(int slot, std::int64_t size) { return ints_[slot].grow(size); }

 private:
  template <class U>
  struct Slot {
    std::unique_ptr<U[]> data;
    std::int64_t size = 0;
    U* grow(std::int64_t wanted) {
      wanted = std::max<std::int64_t>(1, wanted);
      if (size < wanted) {
        data.reset(new U[static_cast<std::size_t>(wanted)]);  // default-initialised
        size = wanted;
      }
      return data.get();
    }
  };
  Slot<T> values_[4];
  Slot<lapack_int> ints_[2];
};

/// Runs `f(b, scratch)` for every matrix b of a batch of `count`: in parallel on the host pool
/// when there are several small ones (`size` = the largest extent), in contiguous runs of
/// matrices that share one Scratch; on this thread otherwise (where one LAPACK call uses
/// OpenBLAS's threads).
///
/// OpenBLAS opens a parallel region for each BLAS call inside a LAPACK routine, hundreds per
/// routine; when the pool's threads sleep between regions, each region pays their wake-up, and
/// below kAloneBelow one thread is faster. Float64, two passive threads against one, 2-core
/// AMD EPYC: 512 x 512 solve 4.9 ms against 3.7, cholesky 7.2 against 2.6, eigh 83 against 33,
/// svd 185 against 83; at 1024 solve 21 against 24 (cholesky, eigh and svd still gain). The
/// host scheduler's host_run_library_call keeps those on one OpenBLAS thread.
template <class T, class F>
void for_each_matrix(std::int64_t count, std::int64_t size, const F& f) {
  constexpr std::int64_t kParallelBelow = 192;
  if (count > 1 && size < kParallelBelow) {
    const std::int64_t tasks = std::min<std::int64_t>(count, 4 * host_thread_count());
    host_parallel_for(tasks, [&](std::int64_t t) {
      Scratch<T> scratch;
      for (std::int64_t b = t * count / tasks; b < (t + 1) * count / tasks; ++b) f(b, scratch);
    });
    return;
  }
  constexpr std::int64_t kAloneBelow = 1024;
  host_run_library_call(size, kAloneBelow, [&] {
    Scratch<T> scratch;
    for (std::int64_t b = 0; b < count; ++b) f(b, scratch);
  });
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

/// True when any of the `count` values at `p` is NaN (or, with `infinite`, infinite).

template <class T>
bool has_non_finite(const T* p, std::int64_t count, bool infinite) {
  for (std::int64_t i = 0; i < count; ++i) {
    if (std::isnan(p[i]) || (infinite && std::isinf(p[i]))) return true;
  }
  return false;
}

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

/// The LinAlgError of an eigendecomposition that did not converge.
[[noreturn]] inline void raise_eigh_failed(const char* op, const MatrixBatch& m, const Failure& f) {
  raise<LinAlgError>(op, batch_part(m, f.element),
                     "The algorithm failed to converge because the input matrix is "
                     "ill-conditioned or has too many repeated eigenvalues (error code: ",
                     f.info, ").");
}

/// The LinAlgError of an SVD: a NaN input (kNonFinite) or no convergence.
[[noreturn]] inline void raise_svd_failed(const char* op, const MatrixBatch& m, const Failure& f) {
  if (f.info == kNonFinite) {
    raise<LinAlgError>(op, batch_part(m, f.element),
                       "The algorithm failed to converge because the input matrix contained "
                       "non-finite values.");
  }
  raise<LinAlgError>(op, batch_part(m, f.element),
                     "The algorithm failed to converge because the input matrix is "
                     "ill-conditioned or has too many repeated singular values (error code: ",
                     f.info, ").");
}

/// The LinAlgError of lstsq: a non-finite input (kNonFinite) or an SVD that did not converge.
[[noreturn]] inline void raise_lstsq_failed(const char* op, const MatrixBatch& m,
                                            const Failure& f) {
  if (f.info == kNonFinite) {
    raise<LinAlgError>(op, batch_part(m, f.element),
                       "The least squares solution could not be computed because the input "
                       "contains non-finite values.");
  }
  raise<LinAlgError>(op, batch_part(m, f.element),
                     "The least squares solution could not be computed because the SVD of A "
                     "failed to converge (error code: ",
                     f.info, ").");
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

// ---- solve and inv (gesv) ------------------------------------------------------------------

/// Solves A X = B for every matrix: a (count, n, n), b (count, n, k) row-major host tensors;
/// returns X (count, n, k) row-major and raises for a singular A (`op` names the caller). A
/// matrix that holds a NaN gives a NaN X, never an error ("NaN in a matrix" above).
template <class T>
void gesv_batch(const char* op, const MatrixBatch& m, const T* a, const T* b, std::int64_t k,
                T* x) {
  const std::int64_t n = m.rows;
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  if (n > 0 && k > 0) {
    for_each_matrix<T>(m.count, n, [&](std::int64_t i, Scratch<T>& ws) {
      T* lu = ws.values(0, n * n);
      T* rhs = ws.values(1, n * k);
      lapack_int* ipiv = ws.ints(0, n);
      if (load_columns(a + i * n * n, n, n, lu, n)) {
        std::fill(x + i * n * k, x + (i + 1) * n * k, std::numeric_limits<T>::quiet_NaN());
        return;
      }
      load_columns(b + i * n * k, n, k, rhs, n);
      info[static_cast<std::size_t>(i)] =
          lapack_gesv(static_cast<lapack_int>(n), static_cast<lapack_int>(k), lu, ipiv, rhs,
                      static_cast<lapack_int>(n));
      store_rows(rhs, n, n, k, x + i * n * k);
    });
  }
  check_statuses(op, "gesv", info, [&](const Failure& f) { raise_singular(op, m, f); });
}

}  // namespace tessera::detail::lapack_batch
