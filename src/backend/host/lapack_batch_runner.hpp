// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// How the host runs a batch of LAPACK calls: the tiled copies between row-major tensors and
// column-major workspaces, the per-task workspaces, and the loop over a batch of matrices (small
// ones in parallel on the host pool, where OpenBLAS's LAPACK runs single-threaded; large ones on
// the calling thread, where OpenBLAS uses its own threads). The host's solver routines
// (lapack_solver.cpp) and the solver pipeline's host copies (src/linalg/solver_pipeline.cpp)
// run on it.

#include <algorithm>
#include <cstdint>
#include <memory>

#include "backend/host/lapack_routines.hpp"
#include "tessera/expr/host_parallel.hpp"

namespace tessera::detail::lapack_batch {

/// The copies below walk 8 x 8 tiles: a plain loop strides through one side a whole row or
/// column at a time, and with power-of-two extents those lines evict each other (512 x 512
/// doubles: 0.75 ms against 0.13 ms in tiles, a quarter of a 512 x 512 solve; tiles of 16 and
/// more conflict again).
inline constexpr std::int64_t kCopyTile = 8;

/// The row-major rows x cols matrix at `src` into column-major `dst` (leading dimension ld);
/// true when it holds a NaN, found in the same pass (x != x costs nothing beside the copy's
/// memory traffic, where a scan of its own read the matrix again: 3.5 % of a 512 x 512 solve).
template <class T>
bool load_columns(const T* src, std::int64_t rows, std::int64_t cols, T* dst, std::int64_t ld) {
  bool nan = false;
  for (std::int64_t i0 = 0; i0 < rows; i0 += kCopyTile) {
    const std::int64_t i1 = std::min(i0 + kCopyTile, rows);
    for (std::int64_t j0 = 0; j0 < cols; j0 += kCopyTile) {
      const std::int64_t j1 = std::min(j0 + kCopyTile, cols);
      for (std::int64_t j = j0; j < j1; ++j) {
        for (std::int64_t i = i0; i < i1; ++i) {
          const T v = src[i * cols + j];
          nan |= v != v;
          dst[i + j * ld] = v;
        }
      }
    }
  }
  return nan;
}

/// Which part of a matrix a copy keeps; the rest becomes zero (cholesky's L, qr's R).
enum class Triangle { All, Lower, Upper };

/// The column-major rows x cols matrix at `src` (leading dimension ld) into row-major `dst`,
/// zero outside `part`.
template <class T>
void store_rows(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* dst,
                Triangle part = Triangle::All) {
  for (std::int64_t i0 = 0; i0 < rows; i0 += kCopyTile) {
    const std::int64_t i1 = std::min(i0 + kCopyTile, rows);
    for (std::int64_t j0 = 0; j0 < cols; j0 += kCopyTile) {
      const std::int64_t j1 = std::min(j0 + kCopyTile, cols);
      for (std::int64_t i = i0; i < i1; ++i) {
        for (std::int64_t j = j0; j < j1; ++j) {
          const bool kept = part == Triangle::All || (part == Triangle::Lower ? j <= i : j >= i);
          dst[i * cols + j] = kept ? src[i + j * ld] : T(0);
        }
      }
    }
  }
}

/// Workspaces that the matrices of one task reuse: each slot grows to the largest size asked
/// for and is neither cleared nor kept on growth. Uninitialised: LAPACK writes before it reads,
/// and zeroing an svd's 8 MB of workspace (512 x 512 doubles) cost a millisecond per call.
template <class T>
class Scratch {
 public:
  /// At least `size` values of T (at least one) in slot `slot` (0 to 3).
  T* values(int slot, std::int64_t size) { return values_[slot].grow(size); }
  /// At least `size` LAPACK integers in slot `slot` (0 or 1).
  lapack_int* ints(int slot, std::int64_t size) { return ints_[slot].grow(size); }

 private:
  template <class U>
  struct Slot {
    std::unique_ptr<U[]> data;
    std::int64_t size = 0;
    U* grow(std::int64_t wanted) {
      wanted = std::max<std::int64_t>(1, wanted);
      if (size < wanted) {
        data.reset(new U[static_cast<std::size_t>(wanted)]);  // default-initialised
        size = wanted;
      }
      return data.get();
    }
  };
  Slot<T> values_[4];
  Slot<lapack_int> ints_[2];
};

/// Runs `run(first, end)` over [0, count) in contiguous runs, up to 4 per pool thread, in
/// parallel: a batch's matrices, each run sharing what it allocates.
template <class F>
void for_each_run(std::int64_t count, const F& run) {
  const std::int64_t tasks = std::min<std::int64_t>(count, 4 * host_thread_count());
  host_parallel_for(tasks,
                    [&](std::int64_t t) { run(t * count / tasks, (t + 1) * count / tasks); });
}

/// Runs `f(b, scratch)` for every matrix b of a batch of `count`: in parallel on the host pool
/// when there are several small ones (`size` = the largest extent), in contiguous runs of
/// matrices that share one Scratch; on this thread otherwise (where one LAPACK call uses
/// OpenBLAS's threads).
///
/// OpenBLAS opens a parallel region for each BLAS call inside a LAPACK routine, hundreds per
/// routine; when the pool's threads sleep between regions, each region pays their wake-up, and
/// below kAloneBelow one thread is faster. Float64, two passive threads against one, 2-core
/// AMD EPYC: 512 x 512 solve 4.9 ms against 3.7, cholesky 7.2 against 2.6, eigh 83 against 33,
/// svd 185 against 83; at 1024 solve 21 against 24 (cholesky, eigh and svd still gain). The
/// host scheduler's host_run_library_call keeps those on one OpenBLAS thread.
template <class T, class F>
void for_each_matrix(std::int64_t count, std::int64_t size, const F& f) {
  constexpr std::int64_t kParallelBelow = 192;
  if (count > 1 && size < kParallelBelow) {
    for_each_run(count, [&](std::int64_t first, std::int64_t end) {
      Scratch<T> scratch;
      for (std::int64_t b = first; b < end; ++b) f(b, scratch);
    });
    return;
  }
  constexpr std::int64_t kAloneBelow = 1024;
  host_run_library_call(size, kAloneBelow, [&] {
    Scratch<T> scratch;
    for (std::int64_t b = 0; b < count; ++b) f(b, scratch);
  });
}

}  // namespace tessera::detail::lapack_batch
