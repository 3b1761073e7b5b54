// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file product.hpp
/// The product engine's entry: every matrix product of the library (matmul, mm, bmm, mv, dot,
/// outer, tensordot, einsum) is one call of `detail::batched_matmul`. float and double go to
/// the BLAS (OpenBLAS on the host and the emulated device, cuBLAS on a GPU); integers and bool
/// to the library's own tiled kernel on either device.

#include "tessera/core/tensor_class.hpp"

namespace tessera::detail {

/// `a` (..., m, k) times `b` (..., k, n): a new contiguous tensor of shape (batch..., m, n), the
/// batch dimensions broadcast (NumPy rules). Operands a BLAS can read in place (one unit
/// stride, a leading dimension no smaller than a row) are not copied, nor are any operands of
/// the integer kernel; others are copied once. k = 0 gives zeros. `op` names the operation in
/// errors: ShapeError when the inner extents differ or the batches do not broadcast, DeviceError
/// when the operands live on different devices. Both operands need at least two dimensions
/// (the callers shape vectors into matrices). Precompiled per dtype (src/linalg/product.cpp).
template <class T>
Tensor<T> batched_matmul(const char* op, const Tensor<T>& a, const Tensor<T>& b);

}  // namespace tessera::detail
