#pragma once
/// @file host_executor.hpp
/// Runs kernel functors on the host through the configured Thrust host system (OpenMP by
/// default), in blocks so that each thread walks a contiguous stretch of the output. Contiguous
/// same-shape operands are read by linear index; strided and broadcast ones row by row (see
/// "row evaluation" below), and reductions keep several accumulators so that they vectorise.

#include <algorithm>
#include <cstdint>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include "tessera/config.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/kernels.hpp"

#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
#include <thrust/system/omp/execution_policy.h>
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
#include <thrust/system/tbb/execution_policy.h>
#else
#include <thrust/system/cpp/execution_policy.h>
#endif

namespace tessera::detail {

/// The Thrust execution policy of host kernels.
inline auto host_policy() {
#if TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_OMP
  return thrust::omp::par;
#elif TESSERA_HOST_SYSTEM == TESSERA_HOST_SYSTEM_TBB
  return thrust::tbb::par;
#else
  return thrust::cpp::par;
#endif
}

/// Extents of an iteration space (the output shape of an elementwise kernel).
struct Extents {
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};

  static Extents of(const Shape& s) {
    Extents e;
    e.ndim = static_cast<int>(s.size());
    for (int d = 0; d < e.ndim; ++d) e.shape[d] = s[d];
    return e;
  }
  TESSERA_HD std::int64_t numel() const {
    std::int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[d];
    return n;
  }
  /// Row-major multi-index of linear position i.
  TESSERA_HD void unravel(std::int64_t i, std::int64_t* index) const {
    for (int d = ndim - 1; d >= 0; --d) {
      index[d] = i % shape[d];
      i /= shape[d];
    }
  }
  /// Advances a multi-index by one (row-major); returns the innermost dimension that changed.
  TESSERA_HD int increment(std::int64_t* index) const {
    for (int d = ndim - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) return d;
      index[d] = 0;
    }
    return 0;
  }
};

/// Runs `f(block)` for every block in [0, blocks) on the host policy (inline for one block).
template <class F>
void host_parallel_for(std::int64_t blocks, const F& f) {
  if (blocks <= 0) return;
  if (blocks == 1) {
    f(std::int64_t{0});
    return;
  }
  thrust::for_each_n(host_policy(), thrust::counting_iterator<std::int64_t>(0), blocks, f);
}

// ---- row evaluation ------------------------------------------------------------------------
// Strided and broadcast outputs are walked one row (innermost dimension) at a time. Binding a
// kernel to a row replaces every tensor leaf by a pointer to that row and its inner stride, so
// the loop over the row does one multiply-add per leaf instead of a dot product over all
// dimensions, and unit-stride rows are plain pointer loops the compiler vectorises. Rows reuse
// the kernel templates themselves (`BinaryKernel<Op, C, R, RowA, RowB>`) and call `linear(j)`,
// so the arithmetic is written once, in kernels.hpp.

/// A leaf's row: `data[j * stride]`, or `data[j]` when Unit (inner stride 1).
template <class T, bool Unit>
struct LeafRow {
  using value_type = T;
  const T* data;
  std::int64_t stride;
  TESSERA_HD T linear(std::int64_t j) const { return Unit ? data[j] : data[j * stride]; }
};

/// The row of a kernel the row machinery does not know: evaluates through `at(index)`.
template <class K>
struct IndexedRow {
  using value_type = typename K::value_type;
  K k;
  std::int64_t* index;
  int last;
  TESSERA_HD value_type linear(std::int64_t j) const {
    index[last] = j;
    return k.at(index);
  }
};

/// True when every leaf of `k` steps by 1 along dimension `last` (scalars trivially do).
template <class K>
bool unit_rows(const K&, int) {
  return false;
}
template <class T>
bool unit_rows(const LeafKernel<T>& k, int last) {
  return k.strides[last] == 1;
}
template <class T>
bool unit_rows(const ScalarKernel<T>&, int) {
  return true;
}
template <class Op, class V, class A>
bool unit_rows(const UnaryKernel<Op, V, A>& k, int last) {
  return unit_rows(k.a, last);
}
template <class Op, class C, class R, class A, class B>
bool unit_rows(const BinaryKernel<Op, C, R, A, B>& k, int last) {
  return unit_rows(k.a, last) && unit_rows(k.b, last);
}
template <class V, class Cond, class A, class B>
bool unit_rows(const WhereKernel<V, Cond, A, B>& k, int last) {
  return unit_rows(k.cond, last) && unit_rows(k.a, last) && unit_rows(k.b, last);
}
template <class U, class A>
bool unit_rows(const CastKernel<U, A>& k, int last) {
  return unit_rows(k.a, last);
}

/// `k` bound to the row of `index` (index[last] is ignored). Unit only where unit_rows(k).
template <bool Unit, class K>
IndexedRow<K> bind_row(const K& k, std::int64_t* index, int last) {
  return {k, index, last};
}
template <bool Unit, class T>
LeafRow<T, Unit> bind_row(const LeafKernel<T>& k, std::int64_t* index, int last) {
  std::int64_t offset = 0;
  for (int d = 0; d < last; ++d) offset += index[d] * k.strides[d];
  return {k.data + offset, k.strides[last]};
}
template <bool Unit, class T>
ScalarKernel<T> bind_row(const ScalarKernel<T>& k, std::int64_t*, int) {
  return k;
}
template <bool Unit, class Op, class V, class A>
auto bind_row(const UnaryKernel<Op, V, A>& k, std::int64_t* index, int last) {
  using RA = decltype(bind_row<Unit>(k.a, index, last));
  return UnaryKernel<Op, V, RA>{bind_row<Unit>(k.a, index, last)};
}
template <bool Unit, class Op, class C, class R, class A, class B>
auto bind_row(const BinaryKernel<Op, C, R, A, B>& k, std::int64_t* index, int last) {
  using RA = decltype(bind_row<Unit>(k.a, index, last));
  using RB = decltype(bind_row<Unit>(k.b, index, last));
  return BinaryKernel<Op, C, R, RA, RB>{bind_row<Unit>(k.a, index, last),
                                        bind_row<Unit>(k.b, index, last)};
}
template <bool Unit, class V, class Cond, class A, class B>
auto bind_row(const WhereKernel<V, Cond, A, B>& k, std::int64_t* index, int last) {
  using RC = decltype(bind_row<Unit>(k.cond, index, last));
  using RA = decltype(bind_row<Unit>(k.a, index, last));
  using RB = decltype(bind_row<Unit>(k.b, index, last));
  return WhereKernel<V, RC, RA, RB>{bind_row<Unit>(k.cond, index, last),
                                    bind_row<Unit>(k.a, index, last),
                                    bind_row<Unit>(k.b, index, last)};
}
template <bool Unit, class U, class A>
auto bind_row(const CastKernel<U, A>& k, std::int64_t* index, int last) {
  using RA = decltype(bind_row<Unit>(k.a, index, last));
  return CastKernel<U, RA>{bind_row<Unit>(k.a, index, last)};
}

/// Folds Acc(value(j)) for j in [0, count) into `init` (the identity of `combine`) with
/// independent accumulators, so that the compiler keeps them in SIMD lanes: every combine
/// tessera reduces with (+, min, max, and, or) is associative and commutative. Floating-point
/// sums thereby add in a different, but fixed, order than one running total.
template <class Acc, class Combine, class F>
Acc fold_lanes(std::int64_t count, Acc init, const Combine& combine, const F& value) {
  constexpr int kLanes = 8;
  Acc lanes[kLanes];
  for (auto& lane : lanes) lane = init;
  std::int64_t j = 0;
  for (; j + kLanes <= count; j += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] = combine(lanes[l], static_cast<Acc>(value(j + l)));
  }
  for (; j < count; ++j) lanes[0] = combine(lanes[0], static_cast<Acc>(value(j)));
  Acc acc = init;
  for (const auto& lane : lanes) acc = combine(acc, lane);
  return acc;
}

struct HostExecutor {
  /// Elements per task: large enough to amortise scheduling, small enough to balance 2+ cores.
  static constexpr std::int64_t kBlock = std::int64_t{1} << 15;

  /// out[i] = Out(k(i)) for every element of out.
  template <class Out, class K>
  static void run(const TensorView<Out>& out, const K& k, bool linear) {
    const std::int64_t n = out.numel();
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    if (linear) {
      Out* const data = out.data;
      host_parallel_for(blocks, [data, k, n](std::int64_t b) {
        const std::int64_t begin = b * kBlock;
        const std::int64_t end = std::min(n, begin + kBlock);
        for (std::int64_t i = begin; i < end; ++i) data[i] = static_cast<Out>(k.linear(i));
      });
      return;
    }
    if (n == 0) return;
    if (out.ndim == 0) {
      std::int64_t index[kMaxDims] = {};
      *out.data = static_cast<Out>(k.at(index));
      return;
    }
    const Extents extents = extents_of(out);
    const int last = out.ndim - 1;
    if (out.strides[last] == 1 && unit_rows(k, last)) {
      host_parallel_for(blocks,
                        [out, k, extents](std::int64_t b) { run_rows<true>(out, k, extents, b); });
    } else {
      host_parallel_for(blocks,
                        [out, k, extents](std::int64_t b) { run_rows<false>(out, k, extents, b); });
    }
  }

  /// Combines Acc(k(i)) over every element of `extents`, block by block (each block in a fixed
  /// order); `init` must be the identity of `combine`.
  template <class Acc, class K, class Combine>
  static Acc reduce(const Extents& extents, const K& k, bool linear, Acc init, Combine combine) {
    const std::int64_t n = extents.numel();
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    const int last = extents.ndim - 1;
    const bool unit = !linear && last >= 0 && unit_rows(k, last);
    auto block_value = [k, n, extents, linear, unit, init, combine](std::int64_t b) {
      const std::int64_t begin = b * kBlock;
      const std::int64_t end = std::min(n, begin + kBlock);
      if (linear) {
        return fold_lanes(end - begin, init, combine,
                          [&k, begin](std::int64_t j) { return k.linear(begin + j); });
      }
      if (extents.ndim == 0) {
        std::int64_t index[kMaxDims] = {};
        return combine(init, static_cast<Acc>(k.at(index)));
      }
      return unit ? reduce_rows<true>(extents, k, begin, end, init, combine)
                  : reduce_rows<false>(extents, k, begin, end, init, combine);
    };
    if (blocks <= 1) return blocks == 1 ? block_value(0) : init;
    return thrust::transform_reduce(host_policy(), thrust::counting_iterator<std::int64_t>(0),
                                    thrust::counting_iterator<std::int64_t>(blocks), block_value,
                                    init, combine);
  }

 private:
  template <class Out>
  static Extents extents_of(const TensorView<Out>& out) {
    Extents extents;
    extents.ndim = out.ndim;
    for (int d = 0; d < out.ndim; ++d) extents.shape[d] = out.shape[d];
    return extents;
  }

  /// Calls f(index, j0, len) for each row segment of elements [begin, end): index holds the
  /// segment's multi-index (its innermost entry is j0), and the segment covers row positions
  /// [j0, j0 + len). Segments are whole rows except at the ends of the range.
  template <class F>
  static void for_each_segment(const Extents& extents, std::int64_t begin, std::int64_t end,
                               const F& f) {
    const int last = extents.ndim - 1;
    const std::int64_t cols = extents.shape[last];
    std::int64_t index[kMaxDims] = {};
    extents.unravel(begin, index);
    for (std::int64_t i = begin; i < end;) {
      const std::int64_t j0 = index[last];
      const std::int64_t len = std::min(end - i, cols - j0);
      f(index, j0, len);
      i += len;
      index[last] = j0 + len - 1;  // the segment's last element, then step to the next row
      extents.increment(index);
    }
  }

  /// Block b of a strided or broadcast evaluation, row segment by row segment.
  template <bool Unit, class Out, class K>
  static void run_rows(const TensorView<Out>& out, const K& k, const Extents& extents,
                       std::int64_t b) {
    const std::int64_t begin = b * kBlock;
    const std::int64_t end = std::min(extents.numel(), begin + kBlock);
    const int last = out.ndim - 1;
    const std::int64_t step = out.strides[last];
    auto segment = [&](std::int64_t* index, std::int64_t j0, std::int64_t len) {
      std::int64_t offset = 0;
      for (int d = 0; d < last; ++d) offset += index[d] * out.strides[d];
      Out* const row_out = out.data + offset;
      const auto row = bind_row<Unit>(k, index, last);
      for (std::int64_t j = j0; j < j0 + len; ++j) {
        row_out[Unit ? j : j * step] = static_cast<Out>(row.linear(j));
      }
    };
    for_each_segment(extents, begin, end, segment);
  }

  /// The reduction of elements [begin, end) of a strided or broadcast expression.
  template <bool Unit, class Acc, class K, class Combine>
  static Acc reduce_rows(const Extents& extents, const K& k, std::int64_t begin, std::int64_t end,
                         Acc init, const Combine& combine) {
    const int last = extents.ndim - 1;
    Acc acc = init;
    auto segment = [&](std::int64_t* index, std::int64_t j0, std::int64_t len) {
      const auto row = bind_row<Unit>(k, index, last);
      auto value = [&row, j0](std::int64_t j) { return row.linear(j0 + j); };
      acc = combine(acc, fold_lanes(len, init, combine, value));
    };
    for_each_segment(extents, begin, end, segment);
    return acc;
  }
};

}  // namespace tessera::detail
