// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file statistics_methods.hpp
/// Statistics as methods of every tensor and expression (`x.quantile(0.5)`, `x.median()`,
/// `(x * 1).median(1)`, `x.diff()`, `x.cov()`), declared before Tensor is complete;
/// tessera/ops/statistics.hpp defines them as their free functions.

#include <cstdint>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// How ts::quantile picks a value between the two sorted neighbours of the rank
/// q * (n - 1) (torch.quantile's `interpolation`).
enum class Interpolation {
  Linear,    ///< lerp(below, above, fractional part of the rank)
  Lower,     ///< the value at floor(rank)
  Higher,    ///< the value at ceil(rank)
  Midpoint,  ///< (below + above) / 2, as lerp with weight 0.5
  Nearest    ///< the value at the nearest rank, half to even (as PyTorch)
};

/// The statistics as methods; each is the free function of the same name applied to this
/// expression (tessera/ops/statistics.hpp documents them).
template <class D>
struct StatisticsMethods {
  /// ts::quantile(*this, q, how): the q-quantile of every element, as a host value.
  TESSERA_EVAL_TAG auto quantile(double q, Interpolation how = Interpolation::Linear) const;
  /// ts::quantile(*this, q, dim, keepdim, how): the q-quantile along `dim`.
  TESSERA_EVAL_TAG auto quantile(double q, std::int64_t dim, bool keepdim = false,
                                 Interpolation how = Interpolation::Linear) const;
  /// ts::nanquantile(*this, q, how): quantile of the non-NaN elements, a host value.
  TESSERA_EVAL_TAG auto nanquantile(double q, Interpolation how = Interpolation::Linear) const;
  /// ts::nanquantile(*this, q, dim, keepdim, how): quantile of the non-NaN elements along `dim`.
  TESSERA_EVAL_TAG auto nanquantile(double q, std::int64_t dim, bool keepdim = false,
                                    Interpolation how = Interpolation::Linear) const;
  /// ts::median(*this): the lower median of every element, a host value.
  TESSERA_EVAL_TAG auto median() const;
  /// ts::median(*this, dim, keepdim): the lower medians along `dim` and their positions.
  TESSERA_EVAL_TAG auto median(std::int64_t dim, bool keepdim = false) const;
  /// ts::nanmedian(*this): the lower median of the non-NaN elements, a host value.
  TESSERA_EVAL_TAG auto nanmedian() const;
  /// ts::nanmedian(*this, dim, keepdim): medians of the non-NaN elements and their positions.
  TESSERA_EVAL_TAG auto nanmedian(std::int64_t dim, bool keepdim = false) const;
  /// ts::kthvalue(*this, k, dim, keepdim): the k-th smallest along `dim` and its position.
  TESSERA_EVAL_TAG auto kthvalue(std::int64_t k, std::int64_t dim = -1, bool keepdim = false) const;
  /// ts::mode(*this, dim, keepdim): the most frequent value along `dim` and its last position.
  TESSERA_EVAL_TAG auto mode(std::int64_t dim = -1, bool keepdim = false) const;
  /// ts::diff(*this, n, dim): the n-th forward difference along `dim`.
  TESSERA_EVAL_TAG auto diff(std::int64_t n = 1, std::int64_t dim = -1) const;
  /// ts::cov(*this, correction): the covariance matrix of the rows (variables).
  TESSERA_EVAL_TAG auto cov(double correction = 1.0) const;
  /// ts::corrcoef(*this): the Pearson correlation matrix of the rows (variables).
  TESSERA_EVAL_TAG auto corrcoef() const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
