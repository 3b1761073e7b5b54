// Decompositions and solvers on LAPACK (torch.linalg semantics), once per floating dtype: the
// argument checks, the host loops over batches of matrices and the device round trip.
//
// Each matrix is copied from a row-major host tensor into a column-major workspace and handed
// to LAPACKE's _work routines with LAPACK_COL_MAJOR: no transposed copies inside LAPACKE and no
// NaN screening (LAPACKE's high-level routines refuse a NaN input without computing anything,
// where PyTorch returns NaNs). The matrices of a batch of small ones are factored in parallel on
// the host pool, where OpenBLAS's LAPACK runs single-threaded; a single matrix, or large ones,
// run on the calling thread, where OpenBLAS uses its own threads. A failure (singular matrix,
// not positive-definite) is recorded per matrix and raised after the loop, for the first one.

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/expr/broadcast.hpp"
#include "tessera/expr/host_parallel.hpp"
#include "tessera/linalg/decompositions.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

// ---- LAPACKE by element type -----------------------------------------------------------------

lapack_int lapack_gesv(lapack_int n, lapack_int nrhs, float* a, lapack_int* ipiv, float* b,
                       lapack_int ldb) {
  return LAPACKE_sgesv_work(LAPACK_COL_MAJOR, n, nrhs, a, n, ipiv, b, ldb);
}
lapack_int lapack_gesv(lapack_int n, lapack_int nrhs, double* a, lapack_int* ipiv, double* b,
                       lapack_int ldb) {
  return LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, nrhs, a, n, ipiv, b, ldb);
}
lapack_int lapack_getrf(lapack_int n, float* a, lapack_int* ipiv) {
  return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
lapack_int lapack_getrf(lapack_int n, double* a, lapack_int* ipiv) {
  return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
lapack_int lapack_potrf(lapack_int n, float* a) {
  return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
}
lapack_int lapack_potrf(lapack_int n, double* a) {
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
}
lapack_int lapack_geqrf(lapack_int m, lapack_int n, float* a, float* tau, float* work,
                        lapack_int lwork) {
  return LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
}
lapack_int lapack_geqrf(lapack_int m, lapack_int n, double* a, double* tau, double* work,
                        lapack_int lwork) {
  return LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
}
lapack_int lapack_orgqr(lapack_int m, lapack_int k, float* a, const float* tau, float* work,
                        lapack_int lwork) {
  return LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, m, k, k, a, m, tau, work, lwork);
}
lapack_int lapack_orgqr(lapack_int m, lapack_int k, double* a, const double* tau, double* work,
                        lapack_int lwork) {
  return LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, k, k, a, m, tau, work, lwork);
}
lapack_int lapack_syevd(lapack_int n, float* a, float* w, float* work, lapack_int lwork,
                        lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, w, work, lwork, iwork, liwork);
}
lapack_int lapack_syevd(lapack_int n, double* a, double* w, double* work, lapack_int lwork,
                        lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, w, work, lwork, iwork, liwork);
}
lapack_int lapack_gesdd(char jobz, lapack_int m, lapack_int n, float* a, float* s, float* u,
                        lapack_int ldu, float* vt, lapack_int ldvt, float* work, lapack_int lwork,
                        lapack_int* iwork) {
  return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork,
                             iwork);
}
lapack_int lapack_gesdd(char jobz, lapack_int m, lapack_int n, double* a, double* s, double* u,
                        lapack_int ldu, double* vt, lapack_int ldvt, double* work, lapack_int lwork,
                        lapack_int* iwork) {
  return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork,
                             iwork);
}
lapack_int lapack_gelsd(lapack_int m, lapack_int n, lapack_int nrhs, float* a, float* b,
                        lapack_int ldb, float* s, float rcond, lapack_int* rank, float* work,
                        lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_sgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, m, b, ldb, s, rcond, rank, work,
                             lwork, iwork);
}
lapack_int lapack_gelsd(lapack_int m, lapack_int n, lapack_int nrhs, double* a, double* b,
                        lapack_int ldb, double* s, double rcond, lapack_int* rank, double* work,
                        lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, m, b, ldb, s, rcond, rank, work,
                             lwork, iwork);
}

/// The size LAPACK asked for in a workspace query (its answer is a float; at least 1).
template <class T>
lapack_int query_size(T answer) {
  return std::max<lapack_int>(1, static_cast<lapack_int>(std::ceil(answer)));
}

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
MatrixBatch matrices_of(const char* op, const Shape& s, const char* name = "A") {
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
MatrixBatch square_matrices_of(const char* op, const Shape& s) {
  MatrixBatch m = matrices_of(op, s);
  if (m.rows != m.cols) {
    raise<ShapeError>(op, "A must be batches of square matrices, but they are ", m.rows, " by ",
                      m.cols, " matrices");
  }
  return m;
}

/// `batch` followed by `tail`.
Shape shape_with(const std::vector<std::int64_t>& batch, std::initializer_list<std::int64_t> tail) {
  std::vector<std::int64_t> dims = batch;
  dims.insert(dims.end(), tail.begin(), tail.end());
  return Shape(dims);
}

/// The broadcast of two batch shapes (ShapeError naming op when they do not broadcast).
std::vector<std::int64_t> broadcast_batch(const char* op, const std::vector<std::int64_t>& a,
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
RhsLayout solve_layout(const Shape& a, const Shape& b) {
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
RhsLayout lstsq_layout(const Shape& a, const Shape& b) {
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

/// `t` moved to `device` (t itself on the host).
template <class T>
Tensor<T> on(const Tensor<T>& t, Device device) {
  return device.is_cpu() ? t : t.to(device);
}

// ---- copies between row-major tensors and column-major workspaces -----------------------------

/// The row-major rows x cols matrix at `src` into column-major `dst` (leading dimension ld).
template <class T>
void load_columns(const T* src, std::int64_t rows, std::int64_t cols, T* dst, std::int64_t ld) {
  for (std::int64_t j = 0; j < cols; ++j) {
    for (std::int64_t i = 0; i < rows; ++i) dst[i + j * ld] = src[i * cols + j];
  }
}

/// The column-major rows x cols matrix at `src` (leading dimension ld) into row-major `dst`.
template <class T>
void store_rows(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* dst) {
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) dst[i * cols + j] = src[i + j * ld];
  }
}

/// Workspaces that the matrices of one task reuse: each slot grows to the largest size asked
/// for and is not cleared between matrices.
template <class T>
class Scratch {
 public:
  /// At least `size` values of T (at least one) in slot `slot` (0 to 3).
  T* values(int slot, std::int64_t size) { return grow(values_[slot], size); }
  /// At least `size` LAPACK integers in slot `slot` (0 or 1).
  lapack_int* ints(int slot, std::int64_t size) { return grow(ints_[slot], size); }

 private:
  template <class U>
  static U* grow(std::vector<U>& v, std::int64_t size) {
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(1, size));
    if (v.size() < n) v.resize(n);
    return v.data();
  }
  std::vector<T> values_[4];
  std::vector<lapack_int> ints_[2];
};

/// Runs `f(b, scratch)` for every matrix b of a batch of `count`: in parallel on the host pool
/// when there are several small ones (`size` = the largest extent), in contiguous runs of
/// matrices that share one Scratch; on this thread otherwise (where one LAPACK call uses
/// OpenBLAS's threads).
template <class T, class F>
void for_each_matrix(std::int64_t count, std::int64_t size, const F& f) {
  constexpr std::int64_t kParallelBelow = 192;
  if (count > 1 && size < kParallelBelow) {
    const std::int64_t tasks = std::min<std::int64_t>(count, 4 * host_thread_count());
    host_parallel_for(tasks, [&](std::int64_t t) {
      Scratch<T> scratch;
      for (std::int64_t b = t * count / tasks; b < (t + 1) * count / tasks; ++b) f(b, scratch);
    });
  } else {
    Scratch<T> scratch;
    for (std::int64_t b = 0; b < count; ++b) f(b, scratch);
  }
}

/// The first nonzero status of a batch (LAPACK's info > 0) and its batch element, or -1.
struct Failure {
  std::int64_t element = -1;
  lapack_int info = 0;
};
Failure first_failure(const std::vector<lapack_int>& info) {
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] != 0) return {static_cast<std::int64_t>(b), info[b]};
  }
  return {};
}

/// PyTorch's "(Batch element i): " prefix (counted from 0, as PyTorch does), empty for one
/// matrix (no batch dims).
std::string batch_part(const MatrixBatch& m, std::int64_t element) {
  if (m.batch.empty()) return {};
  return "(Batch element " + std::to_string(element) + "): ";
}

/// Status of a matrix that holds a value LAPACK's SVD drivers refuse (NaN; for lstsq also inf):
/// recorded instead of calling them (they would print to stderr and return info < 0).
constexpr lapack_int kNonFinite = std::numeric_limits<lapack_int>::min();

/// True when any of the `count` values at `p` is NaN (or, with `infinite`, infinite).
template <class T>
bool has_non_finite(const T* p, std::int64_t count, bool infinite) {
  for (std::int64_t i = 0; i < count; ++i) {
    if (std::isnan(p[i]) || (infinite && std::isinf(p[i]))) return true;
  }
  return false;
}

/// An argument error inside LAPACK (info < 0) is a bug of this file, never the user's.
[[noreturn]] void lapack_bug(const char* op, const char* routine, lapack_int info) {
  raise<Error>(op, "internal error: LAPACK's ", routine, " rejected argument ", -info);
}

/// Raises the LinAlgError of a singular matrix (LU factor with the zero diagonal element
/// `info`), in PyTorch's words for `op` (inv or solve).
[[noreturn]] void raise_singular(const char* op, const MatrixBatch& m, const Failure& f) {
  if (std::string(op) == "linalg.inv") {
    raise<LinAlgError>(op, batch_part(m, f.element), "The diagonal element ", f.info,
                       " is zero, the inversion could not be completed because the input matrix "
                       "is singular.");
  }
  raise<LinAlgError>(op, batch_part(m, f.element),
                     "The solver failed because the input matrix is singular.");
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

// ---- solve and inv (gesv) ------------------------------------------------------------------

/// Solves A X = B for every matrix: a (count, n, n), b (count, n, k) row-major host tensors;
/// returns X (count, n, k) row-major and raises for a singular A (`op` names the caller).
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
      load_columns(a + i * n * n, n, n, lu, n);
      load_columns(b + i * n * k, n, k, rhs, n);
      info[static_cast<std::size_t>(i)] =
          lapack_gesv(static_cast<lapack_int>(n), static_cast<lapack_int>(k), lu, ipiv, rhs,
                      static_cast<lapack_int>(n));
      store_rows(rhs, n, n, k, x + i * n * k);
    });
  }
  check_statuses(op, "gesv", info, [&](const Failure& f) { raise_singular(op, m, f); });
}

}  // namespace

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
  // The identity for every matrix: gesv's right-hand side.
  Tensor<T> eye = Tensor<T>::zeros(shape_with(m.batch, {n, n}));
  T* e = eye.data();
  for (std::int64_t i = 0; i < m.count; ++i) {
    for (std::int64_t j = 0; j < n; ++j) e[(i * n + j) * n + j] = T(1);
  }
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

// ---- cholesky (potrf) ----------------------------------------------------------------------

template <class T>
Tensor<T> linalg_cholesky(const Tensor<T>& a) {
  const char* op = "linalg.cholesky";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
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
  check_statuses(op, "potrf", info, [&](const Failure& f) {
    raise<LinAlgError>(op, batch_part(m, f.element),
                       "The factorization could not be completed because the input is not "
                       "positive-definite (the leading minor of order ",
                       f.info, " is not positive-definite).");
  });
  return on(l, a.device());
}

// ---- qr (geqrf + orgqr) --------------------------------------------------------------------

template <class T>
linalg::QRResult<T> linalg_qr(const Tensor<T>& a) {
  const char* op = "linalg.qr";
  const MatrixBatch m = matrices_of(op, a.shape());
  const std::int64_t rows = m.rows;
  const std::int64_t cols = m.cols;
  const std::int64_t k = std::min(rows, cols);
  const Tensor<T> ha = host_rows(a);
  Tensor<T> q = Tensor<T>::zeros(shape_with(m.batch, {rows, k}));
  Tensor<T> r = Tensor<T>::zeros(shape_with(m.batch, {k, cols}));
  std::vector<lapack_int> info(static_cast<std::size_t>(m.count), 0);
  if (k > 0) {
    for_each_matrix<T>(m.count, std::max(rows, cols), [&](std::int64_t i, Scratch<T>& ws) {
      const auto lm = static_cast<lapack_int>(rows);
      const auto ln = static_cast<lapack_int>(cols);
      const auto lk = static_cast<lapack_int>(k);
      T* w = ws.values(0, rows * cols);
      T* tau = ws.values(1, k);
      load_columns(ha.data() + i * rows * cols, rows, cols, w, rows);
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
  return {on(q, a.device()), on(r, a.device())};
}

// ---- eigh (syevd) --------------------------------------------------------------------------

template <class T>
linalg::EighResult<T> linalg_eigh(const Tensor<T>& a) {
  const char* op = "linalg.eigh";
  const MatrixBatch m = square_matrices_of(op, a.shape());
  const std::int64_t n = m.rows;
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
      T work_size = T(0);
      lapack_int iwork_size = 0;
      lapack_int status = lapack_syevd(ln, w, evals, &work_size, -1, &iwork_size, -1);
      if (status == 0) {
        const lapack_int lwork = query_size(work_size);
        const lapack_int liwork = std::max<lapack_int>(1, iwork_size);
        T* work = ws.values(1, lwork);
        lapack_int* iwork = ws.ints(0, liwork);
        status = lapack_syevd(ln, w, evals, work, lwork, iwork, liwork);
      }
      store_rows(w, n, n, n, vectors.data() + i * n * n);
      info[static_cast<std::size_t>(i)] = status;
    });
  }
  check_statuses(op, "syevd", info, [&](const Failure& f) {
    raise<LinAlgError>(op, batch_part(m, f.element),
                       "The algorithm failed to converge because the input matrix is "
                       "ill-conditioned or has too many repeated eigenvalues (error code: ",
                       f.info, ").");
  });
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
  const Tensor<T> ha = host_rows(a);
  linalg::SVDResult<T> out;
  out.S = Tensor<T>::empty(shape_with(m.batch, {k}));
  if (compute_uv) {
    out.U = Tensor<T>::zeros(shape_with(m.batch, {rows, ucols}));
    out.Vh = Tensor<T>::zeros(shape_with(m.batch, {vrows, cols}));
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
    if (has_non_finite(ha.data() + i * rows * cols, rows * cols, false)) {
      info[static_cast<std::size_t>(i)] = kNonFinite;
      return;
    }
    const auto lm = static_cast<lapack_int>(rows);
    const auto ln = static_cast<lapack_int>(cols);
    T* w = ws.values(0, rows * cols);
    load_columns(ha.data() + i * rows * cols, rows, cols, w, rows);
    T* u = ws.values(1, compute_uv ? rows * ucols : 1);
    T* vt = ws.values(2, compute_uv ? vrows * cols : 1);
    const auto ldu = static_cast<lapack_int>(compute_uv ? rows : 1);
    const auto ldvt = static_cast<lapack_int>(compute_uv ? vrows : 1);
    lapack_int* iwork = ws.ints(0, 8 * k);
    T* s = out.S.data() + i * k;
    T work_size = T(0);
    lapack_int status = lapack_gesdd(jobz, lm, ln, w, s, u, ldu, vt, ldvt, &work_size, -1, iwork);
    if (status == 0) {
      const lapack_int lwork = query_size(work_size);
      T* work = ws.values(3, lwork);
      status = lapack_gesdd(jobz, lm, ln, w, s, u, ldu, vt, ldvt, work, lwork, iwork);
    }
    if (compute_uv) {
      store_rows(u, rows, rows, ucols, out.U.data() + i * rows * ucols);
      store_rows(vt, vrows, vrows, cols, out.Vh.data() + i * vrows * cols);
    }
    info[static_cast<std::size_t>(i)] = status;
  });
  check_statuses(op, "gesdd", info, [&](const Failure& f) {
    if (f.info == kNonFinite) {
      raise<LinAlgError>(op, batch_part(m, f.element),
                         "The algorithm failed to converge because the input matrix contained "
                         "non-finite values.");
    }
    raise<LinAlgError>(op, batch_part(m, f.element),
                       "The algorithm failed to converge because the input matrix is "
                       "ill-conditioned or has too many repeated singular values (error code: ",
                       f.info, ").");
  });
  const Device device = a.device();
  out.S = on(out.S, device);
  if (compute_uv) {
    out.U = on(out.U, device);
    out.Vh = on(out.Vh, device);
  }
  return out;
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

#define TESSERA_INSTANTIATE_LINALG(T)                                                     \
  template Tensor<T> linalg_solve<T>(const Tensor<T>&, const Tensor<T>&);                 \
  template Tensor<T> linalg_inv<T>(const Tensor<T>&);                                     \
  template Tensor<T> linalg_det<T>(const Tensor<T>&);                                     \
  template linalg::SlogdetResult<T> linalg_slogdet<T>(const Tensor<T>&);                  \
  template Tensor<T> linalg_cholesky<T>(const Tensor<T>&);                                \
  template linalg::QRResult<T> linalg_qr<T>(const Tensor<T>&);                            \
  template linalg::EighResult<T> linalg_eigh<T>(const Tensor<T>&);                        \
  template linalg::SVDResult<T> linalg_svd<T>(const char*, const Tensor<T>&, bool, bool); \
  template Tensor<T> linalg_lstsq<T>(const Tensor<T>&, const Tensor<T>&);
TESSERA_INSTANTIATE_LINALG(float)
TESSERA_INSTANTIATE_LINALG(double)
#undef TESSERA_INSTANTIATE_LINALG

}  // namespace tessera::detail
