// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The library's own matrix product, for the dtypes no BLAS has: integers (accumulated in T's
// width and wrapping, as PyTorch's CPU) and bool (the logical product: any a & b). One TESSERA_HD
// functor over output tiles, run by the host pool (src/backend/host/integer_gemm.cpp) and by
// Thrust on a device (src/backend/device/integer_gemm.cu), so both give the same bits.

#include <cstdint>
#include <type_traits>

#include "backend/gemm_call.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::detail {

/// What a product accumulates in: bool for bool; for integers an unsigned type at least 32 bits
/// wide, whose arithmetic wraps without undefined behaviour (narrower unsigned types promote to
/// int, where 65535 * 65535 overflows) and whose sums, converted back to T (modular in C++20),
/// are T's wrapped sums.
template <class T>
using integer_gemm_acc_t =
    std::conditional_t<std::is_same_v<T, bool>, bool,
                       std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>>;

/// One tile of a batched product: rows [i0, i0 + kRows) of item `item`, columns
/// [j0, j0 + kTile). A full tile over unit-stride rows of B keeps its kRows x kTile sums in
/// registers (each B row segment loaded once for kRows rows, each A element used kTile times)
/// with compile-time extents, so the host compiler vectorises it; edge tiles and other
/// layouts take the row-at-a-time loop.
template <class T>
struct IntegerGemmTiles {
  static constexpr std::int64_t kTile = 32;
  static constexpr std::int64_t kRows = 4;
  GemmCall call;
  std::int64_t col_tiles;  ///< ceil(n / kTile)
  std::int64_t row_tiles;  ///< ceil(m / kRows)

  /// The number of tiles (the functor's index range).
  TESSERA_HD std::int64_t count() const { return call.batch() * row_tiles * col_tiles; }

  TESSERA_HD void operator()(std::int64_t t) const {
    const std::int64_t tile = t % col_tiles, rest = t / col_tiles;
    const std::int64_t i0 = (rest % row_tiles) * kRows, item = rest / row_tiles;
    std::int64_t a_offset = 0, b_offset = 0;
    call.item_offsets(item, a_offset, b_offset);
    const T* a = static_cast<const T*>(call.a.data) + a_offset;
    const T* b = static_cast<const T*>(call.b.data) + b_offset;
    const std::int64_t j0 = tile * kTile;
    const std::int64_t width = call.n - j0 < kTile ? call.n - j0 : kTile;
    const std::int64_t rows = call.m - i0 < kRows ? call.m - i0 : kRows;
    T* c = static_cast<T*>(call.c) + (item * call.m + i0) * call.n + j0;
    if (width == kTile && rows == kRows && call.b.col_stride == 1) {
      full_tile(a + i0 * call.a.row_stride, b + j0, c);
      return;
    }
    for (std::int64_t r = 0; r < rows; ++r) {
      edge_row(a + (i0 + r) * call.a.row_stride, b + j0 * call.b.col_stride, width, c + r * call.n);
    }
  }

 private:
  using Acc = integer_gemm_acc_t<T>;

  TESSERA_HD static void add_product(Acc& acc, Acc x, T y) {
    if constexpr (std::is_same_v<T, bool>) {
      acc = acc || (x && y);
    } else {
      acc += x * static_cast<Acc>(y);
    }
  }

  /// kRows x kTile sums over unit-stride B rows.
  TESSERA_HD void full_tile(const T* a, const T* b, T* c) const {
    Acc acc[kRows][kTile] = {};
    const std::int64_t ar = call.a.row_stride, ac = call.a.col_stride, br = call.b.row_stride;
    for (std::int64_t p = 0; p < call.k; ++p) {
      const T* row = b + p * br;
      for (std::int64_t r = 0; r < kRows; ++r) {
        const Acc x = static_cast<Acc>(a[r * ar + p * ac]);
        for (std::int64_t w = 0; w < kTile; ++w) add_product(acc[r][w], x, row[w]);
      }
    }
    for (std::int64_t r = 0; r < kRows; ++r) {
      for (std::int64_t w = 0; w < kTile; ++w) c[r * call.n + w] = static_cast<T>(acc[r][w]);
    }
  }

  /// One row of `width` sums, any strides.
  TESSERA_HD void edge_row(const T* a, const T* b, std::int64_t width, T* c) const {
    Acc acc[kTile] = {};
    const std::int64_t bc = call.b.col_stride, br = call.b.row_stride;
    for (std::int64_t p = 0; p < call.k; ++p) {
      const Acc x = static_cast<Acc>(a[p * call.a.col_stride]);
      const T* row = b + p * br;
      for (std::int64_t w = 0; w < width; ++w) add_product(acc[w], x, row[w * bc]);
    }
    for (std::int64_t w = 0; w < width; ++w) c[w] = static_cast<T>(acc[w]);
  }
};

/// The tiles of `call` (n > 0).
template <class T>
IntegerGemmTiles<T> integer_gemm_tiles(const GemmCall& call) {
  using Tiles = IntegerGemmTiles<T>;
  return {call, (call.n + Tiles::kTile - 1) / Tiles::kTile,
          (call.m + Tiles::kRows - 1) / Tiles::kRows};
}

namespace host_ops {
/// The integer or bool product `call` on the host pool (host pointers).
template <class T>
void integer_gemm(const GemmCall& call);
}  // namespace host_ops

namespace cuda_ops {
/// The integer or bool product `call` on device `device` (every pointer there).
template <class T>
void integer_gemm(int device, const GemmCall& call);
}  // namespace cuda_ops

/// Expands X(type) for the dtypes the library's own product serves.
#define TESSERA_FOR_EACH_INTEGER_GEMM_DTYPE(X) \
  X(bool) X(std::uint8_t) X(std::int8_t) X(std::int16_t) X(std::int32_t) X(std::int64_t)

}  // namespace tessera::detail
