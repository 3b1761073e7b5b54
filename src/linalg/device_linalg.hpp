// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The decompositions of device tensors (cuda:N): each matrix copied transposed into a
// column-major buffer on the device, one SolverCall per LAPACK routine through the device
// runtime (cuSOLVER on a GPU, the host's LAPACK on the emulated device), the results read back
// through transposed views. Only the statuses (one per matrix) and the few values an error
// check or a determinant needs travel to the host. src/linalg/device_decompositions.cpp;
// decompositions.cpp and solvers.cpp call these for device inputs with at least one element
// to compute, after their shape checks.

#include "linalg/lapack_batch.hpp"

namespace tessera::detail::device_linalg {

using lapack_batch::MatrixBatch;
using lapack_batch::RhsLayout;

template <class T>
Tensor<T> cholesky(const Tensor<T>& a, const MatrixBatch& m);
template <class T>
linalg::QRResult<T> qr(const Tensor<T>& a, const MatrixBatch& m);
template <class T>
linalg::EighResult<T> eigh(const Tensor<T>& a, const MatrixBatch& m);
/// svd (`op` "linalg.svd") and svdvals (`compute_uv` false).
template <class T>
linalg::SVDResult<T> svd(const char* op, const Tensor<T>& a, const MatrixBatch& m,
                         bool full_matrices, bool compute_uv);
/// X of A X = B with B (batch..., n, k) (B a vector already unsqueezed); `op` solve or inv.
template <class T>
Tensor<T> solve(const char* op, const Tensor<T>& a, const Tensor<T>& b, const RhsLayout& layout);
/// Determinants into det, or signs and log |det| into sign and logabs (host tensors of the
/// batch shape; unused ones null).
template <class T>
void lu_determinants(const char* op, const Tensor<T>& a, const MatrixBatch& m, T* sign, T* logabs,
                     T* det);
/// The minimum-norm least-squares solution (batch..., cols, k), B already unsqueezed.
template <class T>
Tensor<T> lstsq(const Tensor<T>& a, const Tensor<T>& b, const RhsLayout& layout);

}  // namespace tessera::detail::device_linalg
