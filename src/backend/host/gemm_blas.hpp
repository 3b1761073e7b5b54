// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The host's float and double matrix products: OpenBLAS through CBLAS. The host ops call it
// directly; the emulated device's runtime calls it inside a device-work window.

namespace tessera::detail {
struct GemmCall;
}  // namespace tessera::detail

namespace tessera::detail::host_ops {

/// Runs `call` (host pointers; each operand's layout must be BLAS-readable, see blas_layout)
/// on OpenBLAS: one multithreaded GEMM per item for large products, items spread over the
/// host pool (each GEMM then single-threaded) for small ones.
void gemm_blas(const GemmCall& call);

}  // namespace tessera::detail::host_ops
