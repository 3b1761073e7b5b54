// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reduce_methods.hpp
/// The reductions over dimensions and the scans as methods of every tensor and expression
/// (`a.sum(1)`, `a.mean({0, 1}, true)`, `(a * b).argmax(1)`, `a.cumsum(0)`), declared before
/// Tensor is complete; tessera/expr/reduce_dims.hpp defines them as their free functions.

#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/expr/reduce_engine.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// Reductions and scans as methods; each is the free function of the same name applied to
/// this expression (tessera/expr/reduce_dims.hpp documents them).
template <class D>
struct ReduceMethods {
  /// ts::sum(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto sum(const Dims& dims, bool keepdim = false) const;
  /// ts::nansum(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto nansum(const Dims& dims, bool keepdim = false) const;
  /// ts::prod(*this, dim, keepdim).
  TESSERA_EVAL_TAG auto prod(std::int64_t dim, bool keepdim = false) const;
  /// ts::mean(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto mean(const Dims& dims, bool keepdim = false) const;
  /// ts::nanmean(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto nanmean(const Dims& dims, bool keepdim = false) const;
  /// ts::amax(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto amax(const Dims& dims, bool keepdim = false) const;
  /// ts::amin(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto amin(const Dims& dims, bool keepdim = false) const;
  /// ts::any(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto any(const Dims& dims, bool keepdim = false) const;
  /// ts::all(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto all(const Dims& dims, bool keepdim = false) const;
  /// ts::logsumexp(*this, dims, keepdim).
  TESSERA_EVAL_TAG auto logsumexp(const Dims& dims, bool keepdim = false) const;
  /// ts::var(*this, dims, correction, keepdim).
  TESSERA_EVAL_TAG auto var(const Dims& dims, double correction = 1.0, bool keepdim = false) const;
  /// ts::std(*this, dims, correction, keepdim).
  TESSERA_EVAL_TAG auto std(const Dims& dims, double correction = 1.0, bool keepdim = false) const;
  /// ts::argmax(*this, dim, keepdim).
  TESSERA_EVAL_TAG auto argmax(std::int64_t dim, bool keepdim = false) const;
  /// ts::argmax(*this): the flat position, 0-d.
  TESSERA_EVAL_TAG auto argmax() const;
  /// ts::argmin(*this, dim, keepdim).
  TESSERA_EVAL_TAG auto argmin(std::int64_t dim, bool keepdim = false) const;
  /// ts::argmin(*this): the flat position, 0-d.
  TESSERA_EVAL_TAG auto argmin() const;
  /// ts::max(*this, dim, keepdim): values and indices.
  TESSERA_EVAL_TAG auto max(std::int64_t dim, bool keepdim = false) const;
  /// ts::min(*this, dim, keepdim): values and indices.
  TESSERA_EVAL_TAG auto min(std::int64_t dim, bool keepdim = false) const;
  /// ts::cumsum(*this, dim).
  TESSERA_EVAL_TAG auto cumsum(std::int64_t dim) const;
  /// ts::cumprod(*this, dim).
  TESSERA_EVAL_TAG auto cumprod(std::int64_t dim) const;
  /// ts::cummax(*this, dim): values and indices.
  TESSERA_EVAL_TAG auto cummax(std::int64_t dim) const;
  /// ts::cummin(*this, dim): values and indices.
  TESSERA_EVAL_TAG auto cummin(std::int64_t dim) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
