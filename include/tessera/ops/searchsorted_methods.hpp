// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file searchsorted_methods.hpp
/// The searchsorted and bucketize methods of every tensor and expression, declared before
/// Tensor is complete; tessera/ops/searchsorted.hpp defines them.

#include <cstdint>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

template <class T>
class Tensor;

/// Which boundary searchsorted reports for values equal to sequence elements.
enum class Side {
  Left,  ///< the first suitable position (`seq[i-1] < v <= seq[i]`)
  Right  ///< the last suitable position (`seq[i-1] <= v < seq[i]`)
};
/// Options of searchsorted (defined in tessera/ops/searchsorted.hpp).
struct SearchSortedOptions;

/// searchsorted and bucketize as methods of tensors and expressions (`seq.searchsorted(v * 2)`);
/// each is its free function (tessera/ops/searchsorted.hpp) applied to this expression.
template <class D>
struct SearchSortedMethods {
  /// Positions at which `values` (a tensor, expression or scalar) would be inserted into this
  /// sorted sequence to keep it sorted: `seq.searchsorted(v)`, `seq.searchsorted<int32_t>(v)`.
  template <class Index = std::int64_t, class Values>
  TESSERA_EVAL_TAG Tensor<Index> searchsorted(const Values& values) const;
  /// With options: `seq.searchsorted(v, {.right = true})`, `{.side = Side::Right}`,
  /// `{.sorter = order}`.
  template <class Index = std::int64_t, class Values>
  TESSERA_EVAL_TAG Tensor<Index> searchsorted(const Values& values,
                                              const SearchSortedOptions& options) const;
  /// searchsorted into `out` (int32 or int64; resized to the values' shape when it differs).
  template <class Values, class Index>
  TESSERA_EVAL_TAG void searchsorted_out(const Values& values, Tensor<Index>& out) const;
  /// searchsorted_out() with options.
  template <class Values, class Index>
  TESSERA_EVAL_TAG void searchsorted_out(const Values& values, Tensor<Index>& out,
                                         const SearchSortedOptions& options) const;
  /// The bucket of each element among 1-d sorted `boundaries`:
  /// `boundaries.searchsorted(*this, right)`.
  template <class Index = std::int64_t, class Boundaries>
  TESSERA_EVAL_TAG Tensor<Index> bucketize(const Boundaries& boundaries, bool right = false) const;
  /// bucketize into `out` (int32 or int64; resized to this shape when it differs).
  template <class Boundaries, class Index>
  TESSERA_EVAL_TAG void bucketize_out(const Boundaries& boundaries, Tensor<Index>& out,
                                      bool right = false) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
