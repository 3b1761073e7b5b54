// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// eigh of one large matrix on the host: LAPACK's syevd (3.11, JOBZ = 'V', UPLO = 'L') step by
// step, so that its last step runs on every pool thread. That step, ormtr, applies the
// tridiagonal reduction's reflectors to the tridiagonal matrix's eigenvectors; each column of
// the result depends only on its own column, so column blocks run in parallel, each block's
// ormtr on one OpenBLAS thread (inside the pool's region, OpenBLAS sees omp_in_parallel()).
// OpenBLAS threads one ormtr poorly: for 512 x 512 float64 on the 2-core VM of
// docs/benchmarks.md, 10.5-11.3 ms on two threads, 13.4-14.2 on one, 7.0 as two halves side by
// side (the steps 21.3-22.1 ms, one syevd call 25.8-27.2). The other steps are syevd's own
// calls, in its order, with its scaling, so the answers and the failure statuses are syevd's.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "backend/host/lapack_routines.hpp"
#include "tessera/expr/host_parallel.hpp"

namespace tessera::detail::lapack_batch {

/// From this order on, eigh runs syevd's steps itself. Float64, two threads, spinning pool,
/// medians of 40 calls alternating with one syevd call: order 16 to 32 the same time within
/// 3 %, 48 0.37 against 0.39 ms, 64 0.60 against 0.71, 128 1.07 against 1.31, 256 4.4 against
/// 5.4.
constexpr std::int64_t kSymmetricEigenSplitFrom = 64;

/// Eigenvalues (ascending) into `w` and eigenvectors (column-major, in `vectors`, n x n) of the
/// symmetric matrix whose lower triangle is in `a` (column-major, overwritten). `Workspace`
/// provides `values(slot, size)` (slots 1 and 2) and `ints(slot, size)` (slot 0), as Scratch
/// does. Returns syevd's status: 0, or stedc's > 0 when an eigenvalue did not converge.
template <class T, class Workspace>
lapack_int symmetric_eigen(lapack_int n, T* a, T* w, T*& vectors, Workspace& ws) {
  // syevd's scaling: a matrix norm outside [rmin, rmax] is brought inside first.
  const T safe_min = lapack_lamch('S', T{});
  const T eps = lapack_lamch('P', T{});
  const T small = safe_min / eps;
  const T rmin = std::sqrt(small);
  const T rmax = std::sqrt(T(1) / small);
  const T norm = lapack_lansy_max(n, a);
  T sigma = T(1);
  if (norm > T(0) && norm < rmin) {
    sigma = rmin / norm;
  } else if (norm > rmax) {
    sigma = rmax / norm;
  }
  if (sigma != T(1)) lapack_lascl_lower(n, T(1), sigma, a);

  const auto nn = static_cast<std::int64_t>(n) * n;
  T* z = ws.values(1, nn + 2 * static_cast<std::int64_t>(n));
  T* e = z + nn;
  T* tau = e + n;
  const std::int64_t parts = std::min<std::int64_t>(host_thread_count(), n);
  const auto part_cols = [&](std::int64_t p) {
    return static_cast<lapack_int>((p + 1) * n / parts - p * n / parts);
  };

  // Workspace: the largest of sytrd's and stedc's, and one ormtr workspace per column block.
  T size = T(0);
  lapack_int isize = 0;
  lapack_int status = lapack_sytrd(n, a, w, e, tau, &size, -1);
  lapack_int lwork = query_size(size);
  if (status == 0) status = lapack_stedc(n, w, e, z, &size, -1, &isize, -1);
  lwork = std::max(lwork, query_size(size));
  const auto widest = static_cast<lapack_int>((n + parts - 1) / parts);
  if (status == 0) status = lapack_ormtr(n, widest, a, tau, z, &size, -1);
  if (status != 0) return status;
  const lapack_int part_work = query_size(size);
  T* work = ws.values(2, std::max<std::int64_t>(lwork, parts * part_work));
  lapack_int* iwork = ws.ints(0, std::max<lapack_int>(1, isize));

  status = lapack_sytrd(n, a, w, e, tau, work, lwork);
  if (status == 0)
    status = lapack_stedc(n, w, e, z, work, lwork, iwork, std::max<lapack_int>(1, isize));
  if (status != 0) return status;
  host_parallel_for(parts, [&](std::int64_t p) {
    const std::int64_t first = p * n / parts;
    // Every block is at most `widest` wide, the width the workspace was asked for.
    lapack_ormtr(n, part_cols(p), a, tau, z + first * n, work + p * part_work, part_work);
  });
  if (sigma != T(1)) {
    const T unscale = T(1) / sigma;  // syevd's dscal by 1 / sigma
    for (lapack_int i = 0; i < n; ++i) w[i] *= unscale;
  }
  vectors = z;
  return 0;
}

}  // namespace tessera::detail::lapack_batch
