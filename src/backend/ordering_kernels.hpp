// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The kernels of sort, argsort and topk over a contiguous input, instantiated per dtype: the
// host's in src/backend/host/ordering.cpp, the device's in src/backend/device/ordering.cu.
// src/ops/ordering.cpp checks the arguments and picks one.

#include <cstdint>

namespace tessera::detail {

/// A contiguous tensor seen as rows along one dimension: `outer` blocks of `n` x `inner`
/// elements; row (o, i) holds the elements o * n * inner + j * inner + i, j in [0, n).
struct OrderingRows {
  std::int64_t outer = 1;  ///< the product of the extents before the dimension
  std::int64_t n = 1;      ///< the extent of the dimension (the row length)
  std::int64_t inner = 1;  ///< the product of the extents after it
  /// The number of rows.
  std::int64_t rows() const noexcept { return outer * inner; }
};

namespace host_ops {
/// Writes the first `k` (k <= rows.n) elements of each row of `in` in stable order
/// (descending: the complemented keys) and their positions: `values` (unless null) and
/// `indices` laid out as rows of length k.
template <class T>
void order_rows(const T* in, const OrderingRows& rows, bool descending, std::int64_t k, T* values,
                std::int64_t* indices);
}  // namespace host_ops

namespace cuda_ops {
/// order_rows on device `device` (every pointer there), on Thrust's stable sort by key; a
/// failure of the device raises DeviceError naming `op`.
template <class T>
void order_rows(const char* op, int device, const T* in, const OrderingRows& rows, bool descending,
                std::int64_t k, T* values, std::int64_t* indices);
}  // namespace cuda_ops

}  // namespace tessera::detail
