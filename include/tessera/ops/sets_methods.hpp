// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file sets_methods.hpp
/// unique, unique_consecutive, bincount, histc, histogram and one_hot as methods of every
/// tensor and expression (`t.unique()`, `(x * 1).unique(opts)`, `i.bincount(10)`,
/// `x.histc(10, 0, 1)`), declared before Tensor is complete; tessera/ops/sets.hpp defines them as
/// their free functions.

#include <cstdint>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

template <class T>
class Tensor;
struct UniqueOptions;

/// The sets and histograms as methods; each is the free function of the same name applied to
/// this expression (tessera/ops/sets.hpp documents them).
template <class D>
struct SetsMethods {
  /// ts::unique(*this): the sorted distinct elements, 1-D.
  TESSERA_EVAL_TAG auto unique() const;
  /// ts::unique(*this, options): values, inverse and counts (`auto [v, inv, c] = ...`).
  TESSERA_EVAL_TAG auto unique(const UniqueOptions& options) const;
  /// ts::unique_consecutive(*this): the first element of each run of equal elements, 1-D.
  TESSERA_EVAL_TAG auto unique_consecutive() const;
  /// ts::unique_consecutive(*this, options): values, inverse and counts of the runs.
  TESSERA_EVAL_TAG auto unique_consecutive(const UniqueOptions& options) const;
  /// ts::bincount(*this, minlength): how often each value 0, 1, ... occurs (int64).
  TESSERA_EVAL_TAG auto bincount(std::int64_t minlength = 0) const;
  /// ts::bincount(*this, weights, minlength): the weights summed per value.
  template <class W>
  TESSERA_EVAL_TAG auto bincount(const Tensor<W>& weights, std::int64_t minlength = 0) const;
  /// ts::histc(*this, bins, min, max): counts in `bins` equal bins over [min, max].
  TESSERA_EVAL_TAG auto histc(std::int64_t bins = 100, double min = 0.0, double max = 0.0) const;
  /// ts::histogram(*this, bins): `auto [hist, bin_edges] = x.histogram(10);`.
  TESSERA_EVAL_TAG auto histogram(std::int64_t bins) const;
  /// ts::one_hot(*this, num_classes): int64 labels as one-hot rows (int64).
  TESSERA_EVAL_TAG auto one_hot(std::int64_t num_classes = -1) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
