// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The CUDA libraries' handles (cuBLAS, cuSOLVER): one per host thread and device, as the
// libraries advise, on the legacy default stream that every tessera operation uses. Never
// destroyed: the CUDA runtime may be gone at thread exit.

#include <cublas_v2.h>

#include <array>
#include <cstddef>

#include "tessera/core/error.hpp"

namespace tessera::detail::device_runtime {

/// This thread's handle for `device`, made by `create()` on first use (`op` names the caller
/// in the error for a device number out of range). One table per Handle and Create type.
template <class Handle, class Create>
Handle per_thread_handle(int device, const char* op, const Create& create) {
  constexpr int kMaxDevices = 64;
  thread_local std::array<Handle, kMaxDevices> handles{};
  if (device < 0 || device >= kMaxDevices) raise<DeviceError>(op, "no cuda:", device);
  Handle& h = handles[static_cast<std::size_t>(device)];
  if (h == nullptr) h = create();
  return h;
}

/// This thread's cuBLAS handle for `device` (src/backend/cuda/gemm_cublas.cu): the product
/// engine's, and the batched LU routines' of solver_cusolver.cu.
cublasHandle_t cublas_handle(int device);

}  // namespace tessera::detail::device_runtime
