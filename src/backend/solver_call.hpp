// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One LAPACK routine over a batch of column-major matrices, as the device decompositions hand it
// to the device runtime (`device_runtime::lapack`): cuSOLVER on a GPU, the host's LAPACK on the
// emulated device. Plain C++ types, so host-compiled code and the CUDA runtime share it. Each
// routine keeps LAPACK's meaning; the differences between the two implementations stay inside
// them.

#include <cstdint>

#include "backend/gemm_call.hpp"

namespace tessera::detail {

/// The routines the device decompositions call, by LAPACK's names.
enum class SolverRoutine : int {
  Potrf,  ///< Cholesky factor in the lower triangle of `a` (n x n)
  Getrf,  ///< LU factors of `a` (n x n) with 1-based row swaps in `pivots`
  Gesv,   ///< getrf, then getrs with the `k` right-hand sides in `b` (n x k): b becomes X
  Geqrf,  ///< QR of `a` (m x n): R and the reflectors in `a`, their scalars in `values`
  Orgqr,  ///< Q's first k columns, in place, from geqrf's output in `a` (m x n) and `values`
  Syevd,  ///< eigenvalues (ascending, into `values`) and eigenvectors (columns of `a`), lower
  /// Singular values (`values`, descending) and, by `job`, U (m x m or m x n) and Vᵀ (n x n);
  /// m ≥ n. cuSOLVER's gesvd; the host's LAPACK runs gesdd, its faster driver with the same
  /// outputs (OpenBLAS's gesvd takes 1.3 s for a 512 x 512 U, gesdd 70 ms).
  Svd,
};

/// One routine for `count` matrices. Every pointer but `info` is device memory of the call's
/// device; matrix i starts i * m * n elements into `a` (leading dimension m), and the other
/// arrays are packed the same way (`b`: n * k each, `values`: min(m, n) or n each, `pivots`: n
/// each, `u`: m * m or m * n each, `vt`: n * n each).
struct SolverCall {
  SolverRoutine routine = SolverRoutine::Potrf;
  GemmType type = GemmType::Float32;  ///< float or double
  std::int64_t count = 0;             ///< matrices
  std::int64_t m = 0;                 ///< rows
  std::int64_t n = 0;                 ///< columns
  std::int64_t k = 0;                 ///< Gesv: right-hand sides; Orgqr: min(m, n)
  void* a = nullptr;
  void* b = nullptr;
  void* values = nullptr;
  void* u = nullptr;
  void* vt = nullptr;
  std::int32_t* pivots = nullptr;
  char job = 'N';                ///< Svd: 'A' (full U), 'S' (m x n U), 'N' (values only)
  std::int32_t* info = nullptr;  ///< host memory: LAPACK's info of each matrix (count of them)
};

}  // namespace tessera::detail
