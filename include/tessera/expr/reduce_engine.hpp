// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_engine.hpp
/// The one reduction engine: every reduction over dimensions (sum, mean, var, argmax, ...) and
/// every scan (cumsum, cummax, ...) is an op struct of reduce_ops.hpp run by the code here over
/// a bound expression kernel, on the host and, through the same TESSERA_HD functions, on the
/// device.
///
/// The order of combination is part of the definition, so every device and every thread count
/// gives the same bits: the reduced elements of one output are numbered r = 0, 1, ... in
/// row-major order over the reduced dimensions; element r folds into lane r % 16 (in order of
/// r), and the 16 lanes merge in lane order. Lanes let the host vectorise a sum without
/// reordering it at run time. A scan steps through its line in order.

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/expr/reduce_ops.hpp"

namespace tessera {

/// One dimension or a braced list of them, for reductions: `ts::sum(a, 1)`,
/// `ts::sum(a, {0, 2}, true)`. Negative dimensions count from the end.
class Dims {
 public:
  /// One dimension.
  Dims(std::int64_t dim) : size_(1) { dims_[0] = dim; }  // NOLINT(google-explicit-constructor)
  /// Several dimensions (at most 8; more is an error when the reduction checks them).
  Dims(std::initializer_list<std::int64_t> dims)  // NOLINT(google-explicit-constructor)
      : size_(static_cast<int>(dims.size())) {
    int i = 0;
    for (const std::int64_t d : dims) {
      if (i < kMaxDims) dims_[i] = d;
      ++i;
    }
  }
  /// The dimensions of a list (at most 8; more is an error when the reduction checks them).
  explicit Dims(const std::vector<std::int64_t>& dims) : size_(static_cast<int>(dims.size())) {
    for (int i = 0; i < size_ && i < kMaxDims; ++i) dims_[i] = dims[static_cast<std::size_t>(i)];
  }
  /// How many dimensions were given.
  int size() const noexcept { return size_; }
  /// Dimension i as given (possibly negative).
  std::int64_t operator[](int i) const noexcept { return dims_[i]; }

 private:
  std::int64_t dims_[kMaxDims] = {};
  int size_ = 0;
};

namespace detail {

/// Lanes of a reduction (see the file comment).
inline constexpr int kReduceLanes = 16;

/// Which dimensions of an input shape a reduction folds, and how outputs and reduced elements
/// are numbered (row-major over the kept, resp. reduced, dimensions). Trivially copyable.
struct ReducePlan {
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  bool reduced[kMaxDims] = {};
  int nkept = 0;
  int nred = 0;
  int kept_dims[kMaxDims] = {};
  int red_dims[kMaxDims] = {};
  std::int64_t outputs = 1;  // product of the kept extents
  std::int64_t count = 1;    // product of the reduced extents

  /// The input multi-index of output o's first reduced element (reduced dims at 0).
  TESSERA_HD void base_index(std::int64_t o, std::int64_t* index) const {
    for (int d = 0; d < ndim; ++d) index[d] = 0;
    for (int i = nkept - 1; i >= 0; --i) {
      const int d = kept_dims[i];
      index[d] = o % shape[d];
      o /= shape[d];
    }
  }
  /// Advances `index` to the next reduced element (row-major over the reduced dimensions).
  TESSERA_HD void next_reduced(std::int64_t* index) const {
    for (int i = nred - 1; i >= 0; --i) {
      const int d = red_dims[i];
      if (++index[d] < shape[d]) return;
      index[d] = 0;
    }
  }
  /// True when the reduced dimensions are the last nred ones (each output's elements are one
  /// contiguous stretch of the row-major order).
  bool reduces_suffix() const {
    for (int i = 0; i < nred; ++i) {
      if (red_dims[i] != ndim - nred + i) return false;
    }
    return nred > 0;
  }
};

/// The plan of reducing `shape` over `dims` (`op` names the operation in errors): IndexError for
/// a dimension out of range, ValueError for one given twice. A 0-d input accepts 0 and -1
/// (PyTorch) and reduces its one element.
ReducePlan make_reduce_plan(const char* op, const Shape& shape, const Dims& dims);
/// The plan of a scan or of a one-dimension reduction along `dim`.
ReducePlan make_dim_plan(const char* op, const Shape& shape, std::int64_t dim);
/// The shape of a reduction's result: the kept extents, and 1 for reduced ones when keepdim.
Shape reduced_shape(const ReducePlan& plan, bool keepdim);
/// IndexError naming the first reduced dimension of extent 0 (amax, argmax, ... of nothing).
void require_nonempty_reduction(const char* op, const ReducePlan& plan);

/// Folds the reduced elements of output o of kernel `k` (any expression kernel: `at(index)`)
/// in the engine's order; the result is the merged accumulator.
template <class Op, class K>
TESSERA_HD typename Op::Acc reduce_output(const Op& op, const K& k, const ReducePlan& p,
                                          std::int64_t o) {
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  Acc lanes[kReduceLanes];
  for (int l = 0; l < kReduceLanes; ++l) lanes[l] = op.init();
  std::int64_t index[kMaxDims];
  p.base_index(o, index);
  int lane = 0;
  for (std::int64_t r = 0; r < p.count; ++r) {
    lanes[lane] = op.step(lanes[lane], static_cast<In>(k.at(index)), r);
    lane = (lane + 1) & (kReduceLanes - 1);
    p.next_reduced(index);
  }
  Acc acc = op.init();
  for (int l = 0; l < kReduceLanes; ++l) acc = op.merge(acc, lanes[l]);
  return acc;
}

/// Where a reduction writes: values (contiguous, one per output) and, for ops with positions,
/// the int64 positions along the reduced elements.
template <class Op>
struct ReduceStore {
  typename Op::Out* values = nullptr;
  std::int64_t* positions = nullptr;
  TESSERA_HD void operator()(const Op& op, std::int64_t o, typename Op::Acc acc,
                             std::int64_t count) const {
    if (values != nullptr) values[o] = op.finish(acc, count);
    if constexpr (reduce_ops::WithPositions<Op>) {
      if (positions != nullptr) positions[o] = Op::position(acc);
    }
  }
};

/// One output of a reduction, end to end (the device executor's per-output functor).
template <class Op, class K>
struct ReduceOutput {
  Op op;
  K k;
  ReducePlan plan;
  ReduceStore<Op> store;
  TESSERA_HD void operator()(std::int64_t o) const {
    store(op, o, reduce_output(op, k, plan, o), plan.count);
  }
};

/// One line of a scan along `plan`'s one reduced dimension: the op's running accumulator after
/// each element, finished, written at that element's row-major position in the outputs.
template <class Op, class K>
struct ScanLine {
  Op op;
  K k;
  ReducePlan plan;
  ReduceStore<Op> store;
  TESSERA_HD void operator()(std::int64_t line) const {
    using In = typename Op::In;
    std::int64_t index[kMaxDims];
    plan.base_index(line, index);
    const int d = plan.red_dims[0];
    std::int64_t stride = 1;  // of the scanned dimension in the row-major output
    for (int e = plan.ndim - 1; e > d; --e) stride *= plan.shape[e];
    std::int64_t out = 0;
    for (int e = 0; e < plan.ndim; ++e) {
      std::int64_t step = 1;
      for (int f = plan.ndim - 1; f > e; --f) step *= plan.shape[f];
      out += index[e] * step;
    }
    auto acc = op.init();
    for (std::int64_t r = 0; r < plan.count; ++r) {
      acc = op.step(acc, static_cast<In>(k.at(index)), r);
      store(op, out, acc, r + 1);
      ++index[d];
      out += stride;
    }
  }
};

}  // namespace detail
}  // namespace tessera
