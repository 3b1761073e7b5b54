// SPDX-License-Identifier: BSD-3-Clause
// The host's float and double matrix products on OpenBLAS (OpenMP build), through CBLAS.

#include "backend/host/gemm_blas.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstdint>

#include "backend/gemm_call.hpp"
#include "tessera/core/error.hpp"
#include "tessera/expr/host_parallel.hpp"

namespace tessera::detail::host_ops {

namespace {

/// Products at least this large (m * n * k) get every thread of the pool inside OpenBLAS;
/// smaller ones are spread over the pool one item per thread, where a GEMM's own threading
/// costs more than it saves (OpenBLAS runs single-threaded inside a parallel region).
constexpr std::int64_t kThreadedGemmWork = std::int64_t{1} << 21;

/// An operand as CBLAS reads it.
struct OperandLayout {
  CBLAS_TRANSPOSE trans;
  blasint ld;
};

OperandLayout layout_of(const GemmOperand& x, std::int64_t rows, std::int64_t cols) {
  const LibraryOperand l = library_operand(x, rows, cols, "BLAS");
  return {l.trans ? CblasTrans : CblasNoTrans, static_cast<blasint>(l.ld)};
}

/// OpenBLAS's CBLAS takes 32-bit extents.
blasint blas_int(std::int64_t v) { return static_cast<blasint>(library_int(v, "BLAS")); }

template <class T>
void gemm_one(const GemmCall& call, const OperandLayout& la, const OperandLayout& lb, const T* a,
              const T* b, T* c) {
  const blasint m = blas_int(call.m), n = blas_int(call.n), k = blas_int(call.k);
  if constexpr (sizeof(T) == 4) {
    cblas_sgemm(CblasRowMajor, la.trans, lb.trans, m, n, k, 1.0f, a, la.ld, b, lb.ld, 0.0f, c,
                n > 0 ? n : 1);
  } else {
    cblas_dgemm(CblasRowMajor, la.trans, lb.trans, m, n, k, 1.0, a, la.ld, b, lb.ld, 0.0, c,
                n > 0 ? n : 1);
  }
}

template <class T>
void gemm_typed(const GemmCall& call) {
  const std::int64_t items = call.batch();
  if (items == 0 || call.m == 0 || call.n == 0) return;
  const OperandLayout la = layout_of(call.a, call.m, call.k);
  const OperandLayout lb = layout_of(call.b, call.k, call.n);
  const auto* a = static_cast<const T*>(call.a.data);
  const auto* b = static_cast<const T*>(call.b.data);
  auto* c = static_cast<T*>(call.c);
  const std::int64_t c_item = call.m * call.n;
  const auto run_item = [&](std::int64_t item) {
    std::int64_t a_offset = 0, b_offset = 0;
    call.item_offsets(item, a_offset, b_offset);
    gemm_one<T>(call, la, lb, a + a_offset, b + b_offset, c + item * c_item);
  };
  if (items == 1 || call.m * call.n * call.k >= kThreadedGemmWork) {
    for (std::int64_t item = 0; item < items; ++item) run_item(item);
    return;
  }
  // Blocks of items, a few per thread, so that uneven thread speeds even out.
  const std::int64_t blocks = std::min<std::int64_t>(items, 4 * host_thread_count());
  host_parallel_for(blocks, [&](std::int64_t block) {
    const std::int64_t first = items * block / blocks, last = items * (block + 1) / blocks;
    for (std::int64_t item = first; item < last; ++item) run_item(item);
  });
}

}  // namespace

void gemm_blas(const GemmCall& call) {
  if (call.type == GemmType::Float32) {
    gemm_typed<float>(call);
  } else {
    gemm_typed<double>(call);
  }
}

}  // namespace tessera::detail::host_ops
