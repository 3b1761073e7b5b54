// SPDX-License-Identifier: BSD-3-Clause
// The library's own integer and bool matrix product on the host pool: blocks of output tiles,
// a few per thread.

#include <algorithm>
#include <cstdint>

#include "backend/integer_gemm_kernel.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/expr/host_parallel.hpp"

namespace tessera::detail::host_ops {

namespace {
/// Tiles [first, last) in a clone per vector extension with the tile code inlined (the library
/// is built for the baseline, where the tile's sums fill 16-byte registers only).
template <class T>
TESSERA_VECTOR_CLONES TESSERA_FLATTEN void run_tiles(const IntegerGemmTiles<T>& tiles,
                                                     std::int64_t first, std::int64_t last) {
  for (std::int64_t t = first; t < last; ++t) tiles(t);
}
}  // namespace

template <class T>
void integer_gemm(const GemmCall& call) {
  if (call.batch() == 0 || call.m == 0 || call.n == 0) return;
  const IntegerGemmTiles<T> tiles = integer_gemm_tiles<T>(call);
  const std::int64_t count = tiles.count();
  // Blocks of at least ~64k multiply-adds, so that small products stay on one thread.
  const std::int64_t per_tile =
      std::max<std::int64_t>(1, call.k * IntegerGemmTiles<T>::kTile * IntegerGemmTiles<T>::kRows);
  const std::int64_t min_tiles = std::max<std::int64_t>(1, (std::int64_t{1} << 16) / per_tile);
  const std::int64_t blocks =
      std::min<std::int64_t>(4 * host_thread_count(), (count + min_tiles - 1) / min_tiles);
  host_parallel_for(blocks, [&](std::int64_t block) {
    const std::int64_t first = count * block / blocks, last = count * (block + 1) / blocks;
    run_tiles(tiles, first, last);
  });
}

#define TESSERA_INSTANTIATE_INTEGER_GEMM_HOST(T) template void integer_gemm<T>(const GemmCall&);
TESSERA_FOR_EACH_INTEGER_GEMM_DTYPE(TESSERA_INSTANTIATE_INTEGER_GEMM_HOST)
#undef TESSERA_INSTANTIATE_INTEGER_GEMM_HOST

}  // namespace tessera::detail::host_ops
