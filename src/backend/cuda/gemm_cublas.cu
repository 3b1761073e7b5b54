// SPDX-License-Identifier: BSD-3-Clause
// The device runtime's float and double matrix products on cuBLAS (CUDA builds only). cuBLAS
// is column-major: a row-major m x n product C = A B is the column-major n x m product
// C^T = B^T A^T, so the operands swap places and each keeps its own transpose flag. No TF32
// (the handle's default math mode), so float32 products keep float32 accuracy.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "backend/cuda/library_handles.hpp"
#include "backend/gemm_call.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::device_runtime {

namespace {

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    raise<DeviceError>("matmul", what, " failed: ", cublasGetStatusString(status));
  }
}

int cublas_int(std::int64_t v) { return library_int(v, "cuBLAS"); }

/// An operand as cuBLAS reads it.
struct Operand {
  cublasOperation_t op;
  int ld;
};

Operand operand_of(const GemmOperand& x, std::int64_t rows, std::int64_t cols) {
  const LibraryOperand l = library_operand(x, rows, cols, "cuBLAS");
  return {l.trans ? CUBLAS_OP_T : CUBLAS_OP_N, l.ld};
}

template <class T>
void gemm_typed(const GemmCall& call, cublasHandle_t h) {
  const std::int64_t items = call.batch();
  if (items == 0 || call.m == 0 || call.n == 0) return;
  const Operand a = operand_of(call.a, call.m, call.k);
  const Operand b = operand_of(call.b, call.k, call.n);
  const int m = cublas_int(call.m), n = cublas_int(call.n), k = cublas_int(call.k);
  const T one = 1, zero = 0;
  const auto* pa = static_cast<const T*>(call.a.data);
  const auto* pb = static_cast<const T*>(call.b.data);
  auto* pc = static_cast<T*>(call.c);
  const long long c_item = static_cast<long long>(call.m) * call.n;
  const auto gemm = [&](const T* x, const T* y, T* z) {
    if constexpr (sizeof(T) == 4) {
      check_cublas(cublasSgemm(h, b.op, a.op, n, m, k, &one, y, b.ld, x, a.ld, &zero, z, n),
                   "cublasSgemm");
    } else {
      check_cublas(cublasDgemm(h, b.op, a.op, n, m, k, &one, y, b.ld, x, a.ld, &zero, z, n),
                   "cublasDgemm");
    }
  };
  if (call.batch_dims <= 1 && items > 1) {
    const long long sa = call.a.batch_strides[0], sb = call.b.batch_strides[0];
    const int count = cublas_int(items);
    if constexpr (sizeof(T) == 4) {
      check_cublas(cublasSgemmStridedBatched(h, b.op, a.op, n, m, k, &one, pb, b.ld, sb, pa, a.ld,
                                             sa, &zero, pc, n, c_item, count),
                   "cublasSgemmStridedBatched");
    } else {
      check_cublas(cublasDgemmStridedBatched(h, b.op, a.op, n, m, k, &one, pb, b.ld, sb, pa, a.ld,
                                             sa, &zero, pc, n, c_item, count),
                   "cublasDgemmStridedBatched");
    }
    return;
  }
  for (std::int64_t item = 0; item < items; ++item) {
    std::int64_t a_offset = 0, b_offset = 0;
    call.item_offsets(item, a_offset, b_offset);
    gemm(pa + a_offset, pb + b_offset, pc + item * c_item);
  }
}

}  // namespace

cublasHandle_t cublas_handle(int device) {
  return per_thread_handle<cublasHandle_t>(device, "matmul", [] {
    cublasHandle_t h = nullptr;
    check_cublas(cublasCreate(&h), "cublasCreate");
    check_cublas(cublasSetStream(h, cudaStreamLegacy), "cublasSetStream");
    return h;
  });
}

void gemm(const GemmCall& call, int device) {
  const DeviceScope scope(device);
  cublasHandle_t h = cublas_handle(device);
  if (call.type == GemmType::Float32) {
    gemm_typed<float>(call, h);
  } else {
    gemm_typed<double>(call, h);
  }
}

}  // namespace tessera::detail::device_runtime
