// SPDX-License-Identifier: BSD-3-Clause
// Validation and plans of the reductions over dimensions and of the scans: which dimensions
// are folded, the result's shape, and the errors PyTorch raises (in tessera's words, naming the
// operation and the values).

#include <cstdint>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/expr/reduce_engine.hpp"

namespace tessera::detail {

namespace {
/// dim normalised into [0, ndim) (a 0-d input takes 0 and -1 and reduces its one element).
int normalise_dim(const char* op, std::int64_t dim, int ndim) {
  return static_cast<int>(wrap_dim(op, dim, ndim));
}

ReducePlan plan_of(const Shape& shape, const bool* reduced) {
  ReducePlan p;
  p.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < p.ndim; ++d) {
    p.shape[d] = shape[d];
    p.reduced[d] = reduced[d];
    if (reduced[d]) {
      p.red_dims[p.nred++] = d;
      p.count *= shape[d];
    } else {
      p.kept_dims[p.nkept++] = d;
      p.outputs *= shape[d];
    }
  }
  return p;
}
}  // namespace

ReducePlan make_reduce_plan(const char* op, const Shape& shape, const Dims& dims) {
  const int ndim = static_cast<int>(shape.size());
  if (ndim > kMaxDims) raise<ShapeError>(op, "tensors of more than ", kMaxDims, " dimensions");
  if (dims.size() > kMaxDims) {
    raise<ValueError>(op, dims.size(), " dims given; a tensor has at most ", kMaxDims);
  }
  bool reduced[kMaxDims] = {};
  if (dims.size() == 0) {  // no dims: every dimension (PyTorch's dim=None)
    for (int d = 0; d < ndim; ++d) reduced[d] = true;
  }
  bool seen[kMaxDims] = {};
  for (int i = 0; i < dims.size(); ++i) {
    const int d = normalise_dim(op, dims[i], ndim);
    if (seen[d]) {
      raise<ValueError>(op, "dim ", d, " appears more than once in the list of dims");
    }
    seen[d] = true;
    if (ndim > 0) reduced[d] = true;
  }
  return plan_of(shape, reduced);
}

ReducePlan make_dim_plan(const char* op, const Shape& shape, std::int64_t dim) {
  return make_reduce_plan(op, shape, Dims(dim));
}

Shape reduced_shape(const ReducePlan& plan, bool keepdim) {
  std::vector<std::int64_t> extents;
  for (int d = 0; d < plan.ndim; ++d) {
    if (!plan.reduced[d]) {
      extents.push_back(plan.shape[d]);
    } else if (keepdim) {
      extents.push_back(1);
    }
  }
  return Shape(extents.begin(), extents.end());
}

void require_nonempty_reduction(const char* op, const ReducePlan& plan) {
  for (int i = 0; i < plan.nred; ++i) {
    const int d = plan.red_dims[i];
    if (plan.shape[d] == 0) {
      raise<IndexError>(op, "expected reduction dim ", d,
                        " to have non-zero size (the input has shape ",
                        Shape(plan.shape, plan.shape + plan.ndim), ")");
    }
  }
}

}  // namespace tessera::detail
