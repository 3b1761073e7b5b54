// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The host's solver routines: LAPACK (LAPACKE's _work routines) on the column-major matrices of
// a SolverCall. The solver pipeline (src/linalg/solver_pipeline.cpp) calls them for host
// tensors, the emulated runtime inside a device-work window; a GPU build runs the same calls on
// cuSOLVER (src/backend/cuda/solver_cusolver.cu).

namespace tessera::detail {
struct SolverCall;
}  // namespace tessera::detail

namespace tessera::detail::host_ops {

/// Runs `call` on host pointers (small matrices in parallel on the host pool, large ones one
/// after another on OpenBLAS's threads); writes each matrix's LAPACK info.
void lapack_solver(const SolverCall& call);

}  // namespace tessera::detail::host_ops
