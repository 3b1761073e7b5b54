// SPDX-License-Identifier: BSD-3-Clause
// The emulated device's solver routines on the host's LAPACK: one _work call (after its
// workspace query) per matrix of a SolverCall, the matrices already column-major.

#include "backend/host/lapack_solver.hpp"

#include <cstdint>
#include <type_traits>
#include <vector>

#include "backend/host/lapack_routines.hpp"
#include "backend/solver_call.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::host_ops {

namespace {

using namespace lapack_batch;  // NOLINT(google-build-using-namespace): the LAPACKE wrappers

// The pivots travel as int32 (cuSOLVER's type); Debian's LAPACKE uses 32-bit integers too.
static_assert(sizeof(lapack_int) == sizeof(std::int32_t));

template <class T>
lapack_int solve_one(const SolverCall& c, std::int64_t i, std::vector<T>& work,
                     std::vector<lapack_int>& iwork) {
  const auto m = static_cast<lapack_int>(c.m);
  const auto n = static_cast<lapack_int>(c.n);
  const auto k = static_cast<lapack_int>(c.k);
  T* a = static_cast<T*>(c.a) + i * c.m * c.n;
  // Runs routine(work, lwork) as LAPACK's workspace query (lwork = -1), then again with the
  // workspace grown to the answer (read after the growth, which may move it).
  const auto with_workspace = [&work](const auto& routine) {
    T size = T(0);
    const lapack_int status = routine(&size, lapack_int{-1});
    if (status != 0) return status;
    work.resize(static_cast<std::size_t>(query_size(size)));
    return routine(work.data(), static_cast<lapack_int>(work.size()));
  };
  const auto grow_ints = [](std::vector<lapack_int>& v, std::int64_t count) {
    v.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, count)));
    return v.data();
  };
  switch (c.routine) {
    case SolverRoutine::Potrf:
      return lapack_potrf(n, a);
    case SolverRoutine::Getrf:
      return lapack_getrf(n, a, c.pivots + i * c.n);
    case SolverRoutine::Gesv: {
      T* b = static_cast<T*>(c.b) + i * c.n * c.k;
      lapack_int* pivots = c.pivots + i * c.n;
      const lapack_int status = lapack_getrf(n, a, pivots);
      return status == 0 ? lapack_getrs(n, k, a, pivots, b) : status;
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
      lapack_int isize = 0;  // the query's integer workspace answer
      return with_workspace([&](T* w, lapack_int lwork) {
        if (lwork < 0) return lapack_syevd(n, a, values, w, lwork, &isize, -1);
        lapack_int* iw = grow_ints(iwork, isize);
        return lapack_syevd(n, a, values, w, lwork, iw, static_cast<lapack_int>(iwork.size()));
      });
    }
    case SolverRoutine::Svd: {
      T* s = static_cast<T*>(c.values) + i * c.n;
      const bool vectors = c.job != 'N';
      const std::int64_t ucols = c.job == 'A' ? c.m : c.n;
      T unused = T(0);  // U and Vᵀ of a values-only call: never referenced
      T* u = vectors ? static_cast<T*>(c.u) + i * c.m * ucols : &unused;
      T* vt = vectors ? static_cast<T*>(c.vt) + i * c.n * c.n : &unused;
      const lapack_int ldu = vectors ? m : 1;
      const lapack_int ldvt = vectors ? n : 1;
      lapack_int* iw = grow_ints(iwork, 8 * c.n);
      return with_workspace([&](T* w, lapack_int lwork) {
        return lapack_gesdd(c.job, m, n, a, s, u, ldu, vt, ldvt, w, lwork, iw);
      });
    }
  }
  return 0;
}

template <class T>
void solve_all(const SolverCall& c) {
  std::vector<T> work(1);
  std::vector<lapack_int> iwork(1);
  for (std::int64_t i = 0; i < c.count; ++i) c.info[i] = solve_one<T>(c, i, work, iwork);
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
