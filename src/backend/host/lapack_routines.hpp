// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// LAPACKE's _work routines by element type, column-major, as the host decompositions
// (linalg/lapack_batch.hpp) and the emulated device's solver calls (backend/host/lapack_solver.cpp)
// call them. The _work routines skip LAPACKE's NaN screening, which would refuse a NaN input
// without computing (PyTorch returns NaNs).

#include <lapacke.h>

#include <algorithm>
#include <cmath>

namespace tessera::detail::lapack_batch {

inline lapack_int lapack_gesv(lapack_int n, lapack_int nrhs, float* a, lapack_int* ipiv, float* b,
                              lapack_int ldb) {
  return LAPACKE_sgesv_work(LAPACK_COL_MAJOR, n, nrhs, a, n, ipiv, b, ldb);
}
inline lapack_int lapack_gesv(lapack_int n, lapack_int nrhs, double* a, lapack_int* ipiv, double* b,
                              lapack_int ldb) {
  return LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, nrhs, a, n, ipiv, b, ldb);
}
inline lapack_int lapack_getrf(lapack_int n, float* a, lapack_int* ipiv) {
  return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
inline lapack_int lapack_getrf(lapack_int n, double* a, lapack_int* ipiv) {
  return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
inline lapack_int lapack_potrf(lapack_int n, float* a) {
  return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
}
inline lapack_int lapack_potrf(lapack_int n, double* a) {
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
}
inline lapack_int lapack_geqrf(lapack_int m, lapack_int n, float* a, float* tau, float* work,
                               lapack_int lwork) {
  return LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
}
inline lapack_int lapack_geqrf(lapack_int m, lapack_int n, double* a, double* tau, double* work,
                               lapack_int lwork) {
  return LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
}
inline lapack_int lapack_orgqr(lapack_int m, lapack_int k, float* a, const float* tau, float* work,
                               lapack_int lwork) {
  return LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, m, k, k, a, m, tau, work, lwork);
}
inline lapack_int lapack_orgqr(lapack_int m, lapack_int k, double* a, const double* tau,
                               double* work, lapack_int lwork) {
  return LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, k, k, a, m, tau, work, lwork);
}
inline lapack_int lapack_syevd(lapack_int n, float* a, float* w, float* work, lapack_int lwork,
                               lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, w, work, lwork, iwork, liwork);
}
inline lapack_int lapack_syevd(lapack_int n, double* a, double* w, double* work, lapack_int lwork,
                               lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, w, work, lwork, iwork, liwork);
}
// syevd's steps (linalg/symmetric_eigen.hpp runs them itself): the tridiagonal reduction, its
// eigenvectors by divide and conquer, the reflectors applied to them, and the scaling helpers.
inline lapack_int lapack_sytrd(lapack_int n, float* a, float* d, float* e, float* tau, float* work,
                               lapack_int lwork) {
  return LAPACKE_ssytrd_work(LAPACK_COL_MAJOR, 'L', n, a, n, d, e, tau, work, lwork);
}
inline lapack_int lapack_sytrd(lapack_int n, double* a, double* d, double* e, double* tau,
                               double* work, lapack_int lwork) {
  return LAPACKE_dsytrd_work(LAPACK_COL_MAJOR, 'L', n, a, n, d, e, tau, work, lwork);
}
inline lapack_int lapack_stedc(lapack_int n, float* d, float* e, float* z, float* work,
                               lapack_int lwork, lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_sstedc_work(LAPACK_COL_MAJOR, 'I', n, d, e, z, n, work, lwork, iwork, liwork);
}
inline lapack_int lapack_stedc(lapack_int n, double* d, double* e, double* z, double* work,
                               lapack_int lwork, lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_dstedc_work(LAPACK_COL_MAJOR, 'I', n, d, e, z, n, work, lwork, iwork, liwork);
}
/// C (n x cols, leading dimension n) = Q C, Q from lapack_sytrd's reflectors in `a`.
inline lapack_int lapack_ormtr(lapack_int n, lapack_int cols, const float* a, const float* tau,
                               float* c, float* work, lapack_int lwork) {
  return LAPACKE_sormtr_work(LAPACK_COL_MAJOR, 'L', 'L', 'N', n, cols, a, n, tau, c, n, work,
                             lwork);
}
inline lapack_int lapack_ormtr(lapack_int n, lapack_int cols, const double* a, const double* tau,
                               double* c, double* work, lapack_int lwork) {
  return LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'L', 'L', 'N', n, cols, a, n, tau, c, n, work,
                             lwork);
}
/// The largest |a_ij| of the lower triangle (NaN if one is NaN).
inline float lapack_lansy_max(lapack_int n, const float* a) {
  return LAPACKE_slansy_work(LAPACK_COL_MAJOR, 'M', 'L', n, a, n, nullptr);
}
inline double lapack_lansy_max(lapack_int n, const double* a) {
  return LAPACKE_dlansy_work(LAPACK_COL_MAJOR, 'M', 'L', n, a, n, nullptr);
}
/// The lower triangle times to / from, without overflow or underflow on the way.
inline lapack_int lapack_lascl_lower(lapack_int n, float from, float to, float* a) {
  return LAPACKE_slascl_work(LAPACK_COL_MAJOR, 'L', 0, 0, from, to, n, n, a, n);
}
inline lapack_int lapack_lascl_lower(lapack_int n, double from, double to, double* a) {
  return LAPACKE_dlascl_work(LAPACK_COL_MAJOR, 'L', 0, 0, from, to, n, n, a, n);
}
/// LAPACK's machine parameters: 'S' safe minimum, 'P' eps * base.
inline float lapack_lamch(char what, float /*type*/) { return LAPACKE_slamch_work(what); }
inline double lapack_lamch(char what, double /*type*/) { return LAPACKE_dlamch_work(what); }
inline lapack_int lapack_gesdd(char jobz, lapack_int m, lapack_int n, float* a, float* s, float* u,
                               lapack_int ldu, float* vt, lapack_int ldvt, float* work,
                               lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork,
                             iwork);
}
inline lapack_int lapack_gesdd(char jobz, lapack_int m, lapack_int n, double* a, double* s,
                               double* u, lapack_int ldu, double* vt, lapack_int ldvt, double* work,
                               lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork,
                             iwork);
}

/// The size LAPACK asked for in a workspace query (its answer is a float; at least 1).
template <class T>
lapack_int query_size(T answer) {
  return std::max<lapack_int>(1, static_cast<lapack_int>(std::ceil(answer)));
}

}  // namespace tessera::detail::lapack_batch
