// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The solver pipeline, one for every device: each matrix copied transposed into a column-major
// buffer on its tensor's device, one SolverCall per LAPACK routine (the host's LAPACK on the
// host pool for cpu tensors and on the emulated device, cuSOLVER on a GPU), the results read
// back row-major. Only the statuses (one per matrix) and the few values an error check or a
// determinant needs travel to the host. The ops on it: src/linalg/decompositions.cpp and
// src/linalg/solvers.cpp.

#include <cstdint>
#include <vector>

#include "backend/host/lapack_batch_runner.hpp"
#include "backend/solver_call.hpp"
#include "linalg/solver_rules.hpp"

namespace tessera::detail::solver_pipeline {

using lapack_batch::Triangle;
using solver_rules::MatrixBatch;

/// A SolverCall of `routine` for `count` matrices of rows x cols elements of type T.
template <class T>
SolverCall call_for(SolverRoutine routine, std::int64_t count, std::int64_t rows,
                    std::int64_t cols);

/// Runs `call` on `device` (waiting for it); the LAPACK status of each matrix.
std::vector<lapack_int> run(SolverCall& call, Device device);

/// The matrices of `a` (batch..., rows, cols) in a new column-major buffer on a's device: a
/// (batch..., cols, rows) tensor. Always a copy, since the routines overwrite it. With
/// `nan_in`, also whether each matrix holds a NaN (on the host found by the copy itself).
template <class T>
Tensor<T> columns_of(const Tensor<T>& a, std::vector<char>* nan_in = nullptr);

/// The row-major (batch..., rows, cols) matrices whose column-major copies `columns` holds:
/// a (batch..., cols, ld) view with unit stride in its last dim (the first `rows` of each
/// column are the matrix's), zero outside `part`.
template <class T>
Tensor<T> rows_of(const Tensor<T>& columns, std::int64_t rows, Triangle part = Triangle::All);

/// kNonFinite for each matrix of `a` that holds a NaN (with `infinite`, also an infinity), 0
/// for the others.
template <class T>
std::vector<lapack_int> non_finite(const Tensor<T>& a, bool infinite);

/// The SVD of every matrix of `a` (shapes as linalg.svd), the statuses into `info`; `a` holds
/// no NaN (the callers refuse one first).
template <class T>
linalg::SVDResult<T> factor_svd(const Tensor<T>& a, const MatrixBatch& m, bool full_matrices,
                                bool compute_uv, std::vector<lapack_int>& info);

}  // namespace tessera::detail::solver_pipeline
