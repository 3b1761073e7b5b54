// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The emulated device's solver routines: the host's LAPACK (LAPACKE's _work routines) on the
// column-major matrices of a SolverCall, called by the emulated runtime inside a device-work
// window. A GPU build runs the same calls on cuSOLVER (src/backend/cuda/solver_cusolver.cu).

namespace tessera::detail {
struct SolverCall;
}  // namespace tessera::detail

namespace tessera::detail::host_ops {

/// Runs `call` on host pointers, one matrix after another; writes each matrix's LAPACK info.
void lapack_solver(const SolverCall& call);

}  // namespace tessera::detail::host_ops
