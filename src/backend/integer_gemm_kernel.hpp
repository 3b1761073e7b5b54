#pragma once
// The library's own matrix product, for the dtypes no BLAS has: integers (accumulated in T's
// width and wrapping, as PyTorch's CPU) and bool (the logical product: any a & b). One TESSERA_HD
// functor over output tiles, run by the host pool (src/backend/host/integer_gemm.cpp) and by
// Thrust on a device (src/backend/device/integer_gemm.cu), so both give the same bits.

#include <cstdint>
#include <type_traits>

#include "tessera/core/gemm_call.hpp"
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

/// One tile of a batched product: row i of item `item`, columns [j0, j0 + kTile). Each A
/// element read is used kTile times from a register; the tile's sums stay in registers.
template <class T>
struct IntegerGemmTiles {
  static constexpr std::int64_t kTile = 16;
  GemmCall call;
  std::int64_t col_tiles;  ///< ceil(n / kTile)

  /// The number of tiles (the functor's index range).
  TESSERA_HD std::int64_t count() const { return call.batch() * call.m * col_tiles; }

  TESSERA_HD void operator()(std::int64_t t) const {
    using Acc = integer_gemm_acc_t<T>;
    const std::int64_t tile = t % col_tiles, rest = t / col_tiles;
    const std::int64_t i = rest % call.m, item = rest / call.m;
    std::int64_t a_offset = 0, b_offset = 0;
    call.item_offsets(item, a_offset, b_offset);
    const T* a = static_cast<const T*>(call.a.data) + a_offset + i * call.a.row_stride;
    const T* b = static_cast<const T*>(call.b.data) + b_offset;
    const std::int64_t j0 = tile * kTile;
    const std::int64_t width = call.n - j0 < kTile ? call.n - j0 : kTile;
    const std::int64_t bc = call.b.col_stride, br = call.b.row_stride;
    b += j0 * bc;
    Acc acc[kTile] = {};
    for (std::int64_t p = 0; p < call.k; ++p) {
      const Acc x = static_cast<Acc>(a[p * call.a.col_stride]);
      const T* row = b + p * br;
      if constexpr (std::is_same_v<T, bool>) {
        if (!x) continue;
        for (std::int64_t w = 0; w < width; ++w) acc[w] = acc[w] || row[w * bc];
      } else {
        for (std::int64_t w = 0; w < width; ++w) {
          acc[w] += x * static_cast<Acc>(row[w * bc]);
        }
      }
    }
    T* c = static_cast<T*>(call.c) + (item * call.m + i) * call.n + j0;
    for (std::int64_t w = 0; w < width; ++w) c[w] = static_cast<T>(acc[w]);
  }
};

/// The tiles of `call` (n > 0).
template <class T>
IntegerGemmTiles<T> integer_gemm_tiles(const GemmCall& call) {
  return {call, (call.n + IntegerGemmTiles<T>::kTile - 1) / IntegerGemmTiles<T>::kTile};
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
