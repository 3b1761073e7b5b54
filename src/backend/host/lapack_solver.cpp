// SPDX-License-Identifier: BSD-3-Clause
// The solver routines on the host's LAPACK, for host tensors and the emulated device: one _work
// call (after its workspace query) per matrix of a SolverCall, the matrices already
// column-major, the batch run by for_each_matrix (lapack_batch_runner.hpp). Every LAPACK routine
// the library calls is driven here and nowhere else.

#include "backend/host/lapack_solver.hpp"

#include <algorithm>
#include <cstdint>

#include "backend/host/lapack_batch_runner.hpp"
#include "backend/host/lapack_routines.hpp"
#include "backend/host/symmetric_eigen.hpp"
#include "backend/solver_call.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::host_ops {

namespace {

using namespace lapack_batch;  // NOLINT(google-build-using-namespace): the LAPACKE wrappers

// The pivots travel as int32 (cuSOLVER's type); Debian's LAPACKE uses 32-bit integers too.
static_assert(sizeof(lapack_int) == sizeof(std::int32_t));

template <class T>
lapack_int solve_one(const SolverCall& c, std::int64_t i, Scratch<T>& ws) {
  const auto m = static_cast<lapack_int>(c.m);
  const auto n = static_cast<lapack_int>(c.n);
  const auto k = static_cast<lapack_int>(c.k);
  T* a = static_cast<T*>(c.a) + i * c.m * c.n;
  // Runs routine(work, lwork) as LAPACK's workspace query (lwork = -1), then again with the
  // workspace grown to the answer (read after the growth, which may move it).
  const auto with_workspace = [&ws](const auto& routine) {
    T size = T(0);
    const lapack_int status = routine(&size, lapack_int{-1});
    if (status != 0) return status;
    const lapack_int lwork = query_size(size);
    return routine(ws.values(0, lwork), lwork);
  };
  switch (c.routine) {
    case SolverRoutine::Potrf:
      return lapack_potrf(n, a);
    case SolverRoutine::Getrf:
      return lapack_getrf(n, a, c.pivots + i * c.n);
    case SolverRoutine::Gesv: {
      // One gesv call, not getrf + getrs: OpenBLAS's gesv takes its BLAS buffer once, where the
      // two calls spent 40 % of 10000 4 x 4 inversions allocating and freeing it.
      T* b = static_cast<T*>(c.b) + i * c.n * c.k;
      return lapack_gesv(n, k, a, c.pivots + i * c.n, b, n);
    }
    case SolverRoutine::Geqrf: {
      T* tau = static_cast<T*>(c.values) + i * std::min(c.m, c.n);
      return with_workspace(
          [&](T* w, lapack_int lwork) { return lapack_geqrf(m, n, a, tau, w, lwork); });
    }
    case SolverRoutine::Orgqr: {
      // `a` holds geqrf's m x n output; Q's first k columns are rebuilt in place.
      const T* tau = static_cast<const T*>(c.values) + i * c.k;
      return with_workspace(
          [&](T* w, lapack_int lwork) { return lapack_orgqr(m, k, a, tau, w, lwork); });
    }
    case SolverRoutine::Syevd: {
      T* values = static_cast<T*>(c.values) + i * c.n;
      if (c.n >= kSymmetricEigenSplitFrom) {
        T* vectors = a;
        const lapack_int status = symmetric_eigen(n, a, values, vectors, ws);
        if (status == 0 && vectors != a) std::copy(vectors, vectors + c.n * c.n, a);
        return status;
      }
      lapack_int isize = 0;  // the query's integer workspace answer
      return with_workspace([&](T* w, lapack_int lwork) {
        if (lwork < 0) return lapack_syevd(n, a, values, w, lwork, &isize, -1);
        const lapack_int liwork = std::max<lapack_int>(1, isize);
        return lapack_syevd(n, a, values, w, lwork, ws.ints(0, liwork), liwork);
      });
    }
    case SolverRoutine::Svd: {
      T* s = static_cast<T*>(c.values) + i * c.n;
      const bool vectors = c.job != 'N';
      const std::int64_t ucols = c.job == 'A' ? c.m : c.n;
      // U and Vᵀ of a values-only call: never referenced.
      T* u = vectors ? static_cast<T*>(c.u) + i * c.m * ucols : ws.values(1, 1);
      T* vt = vectors ? static_cast<T*>(c.vt) + i * c.n * c.n : ws.values(2, 1);
      const lapack_int ldu = vectors ? m : 1;
      const lapack_int ldvt = vectors ? n : 1;
      lapack_int* iw = ws.ints(0, 8 * c.n);
      return with_workspace([&](T* w, lapack_int lwork) {
        return lapack_gesdd(c.job, m, n, a, s, u, ldu, vt, ldvt, w, lwork, iw);
      });
    }
  }
  return 0;
}

template <class T>
void solve_all(const SolverCall& c) {
  for_each_matrix<T>(c.count, std::max(c.m, c.n),
                     [&c](std::int64_t i, Scratch<T>& ws) { c.info[i] = solve_one<T>(c, i, ws); });
}

}  // namespace

void lapack_solver(const SolverCall& call) {
  if (call.type == GemmType::Float32) {
    solve_all<float>(call);
  } else {
    solve_all<double>(call);
  }
}

}  // namespace tessera::detail::host_ops
