// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file gemm_call.hpp
/// One batched matrix product as the product engine hands it to a backend: C = A · B for every
/// index of a batch, with plain C++ types so that the device runtime interface can carry it
/// (the host's OpenBLAS, cuBLAS on a GPU, the library's own kernel for integers and bool).

#include <climits>
#include <cstdint>

#include "tessera/core/error.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::detail {

/// The most batch dimensions a GemmCall holds after adjacent ones are merged (more: the
/// product engine copies the operands, which merges them into one).
inline constexpr int kGemmMaxBatchDims = 8;

/// One operand: element (r, c) of batch item (i0, i1, ...) is
/// `data[sum_d i_d * batch_strides[d] + r * row_stride + c * col_stride]` (strides in elements,
/// any sign; 0 for a broadcast dimension).
struct GemmOperand {
  const void* data = nullptr;                          ///< the first element of item 0
  std::int64_t row_stride = 0;                         ///< between rows
  std::int64_t col_stride = 0;                         ///< between columns
  std::int64_t batch_strides[kGemmMaxBatchDims] = {};  ///< per batch dimension
};

/// The element type of a call.
enum class GemmType : int { Float32, Float64 };

/// `c[item] = a[item] · b[item]` for every item of the batch: a is m x k, b is k x n, c is
/// contiguous (batch..., m, n) and written whole (k = 0 writes zeros).
struct GemmCall {
  GemmType type = GemmType::Float32;                 ///< float or double (BLAS calls only)
  std::int64_t m = 0;                                ///< rows of a and c
  std::int64_t n = 0;                                ///< columns of b and c
  std::int64_t k = 0;                                ///< columns of a, rows of b
  int batch_dims = 0;                                ///< batch dimensions in use
  std::int64_t batch_shape[kGemmMaxBatchDims] = {};  ///< their extents
  GemmOperand a;                                     ///< the left operand
  GemmOperand b;                                     ///< the right operand
  void* c = nullptr;                                 ///< the result

  /// The number of products.
  TESSERA_HD std::int64_t batch() const noexcept {
    std::int64_t count = 1;
    for (int d = 0; d < batch_dims; ++d) count *= batch_shape[d];
    return count;
  }
  /// The element offsets of item `item` (row-major over batch_shape) in a and in b.
  TESSERA_HD void item_offsets(std::int64_t item, std::int64_t& a_offset,
                               std::int64_t& b_offset) const noexcept {
    a_offset = 0;
    b_offset = 0;
    for (int d = batch_dims - 1; d >= 0; --d) {
      const std::int64_t i = item % batch_shape[d];
      item /= batch_shape[d];
      a_offset += i * a.batch_strides[d];
      b_offset += i * b.batch_strides[d];
    }
  }
};

/// How a BLAS reads a rows x cols matrix with these strides without a copy: row-major as it is
/// (`trans` false, element (r, c) at r * ld + c) or as the transpose of a row-major matrix
/// (`trans` true, at c * ld + r); `ok` false when neither fits (then the engine copies it).
struct BlasLayout {
  bool ok = false;      ///< a BLAS can read it in place
  bool trans = false;   ///< read transposed
  std::int64_t ld = 0;  ///< the leading dimension
};

/// The BlasLayout of a rows x cols matrix with strides (row_stride, col_stride); an extent of
/// 1 makes its stride irrelevant. The leading dimension must be at least the row length (BLAS's
/// rule), so broadcast (0) and negative strides are not ok.
constexpr BlasLayout blas_layout(std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                                 std::int64_t col_stride) noexcept {
  const std::int64_t min_row_ld = cols > 1 ? cols : 1;
  const std::int64_t min_col_ld = rows > 1 ? rows : 1;
  if ((cols <= 1 || col_stride == 1) && (rows <= 1 || row_stride >= min_row_ld)) {
    return {true, false, rows <= 1 ? min_row_ld : row_stride};
  }
  if ((rows <= 1 || row_stride == 1) && (cols <= 1 || col_stride >= min_col_ld)) {
    return {true, true, cols <= 1 ? min_col_ld : col_stride};
  }
  return {};
}

/// `v` as a 32-bit extent or leading dimension, as CBLAS and cuBLAS take them (ValueError
/// naming `library` when it does not fit).
inline int library_int(std::int64_t v, const char* library) {
  if (v > INT_MAX) {
    raise<ValueError>("matmul", "an extent or leading dimension of ", v, " exceeds ", library,
                      "'s 32-bit limit (", INT_MAX, ")");
  }
  return static_cast<int>(v);
}

/// How a BLAS reads an operand in place: transposed or not, and its leading dimension.
struct LibraryOperand {
  bool trans = false;
  int ld = 0;
};

/// The LibraryOperand of x as a rows x cols operand of `library`. The product engine copies an
/// operand no BLAS can read in place before the call, so one reaching here is a bug.
inline LibraryOperand library_operand(const GemmOperand& x, std::int64_t rows, std::int64_t cols,
                                      const char* library) {
  const BlasLayout l = blas_layout(rows, cols, x.row_stride, x.col_stride);
  if (!l.ok) raise<Error>("matmul", "internal: operand layout not readable by ", library);
  return {l.trans, library_int(l.ld, library)};
}

}  // namespace tessera::detail
