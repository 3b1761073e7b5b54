// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file nonzero_methods.hpp
/// The nonzero methods of every tensor and expression, declared before Tensor is complete;
/// tessera/ops/nonzero.hpp defines them.

#include <cstdint>
#include <vector>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

template <class T>
class Tensor;

/// Tag selecting the tuple form of nonzero: `x.nonzero(tessera::as_tuple)`.
struct AsTuple {
  explicit constexpr AsTuple() = default;
};
/// The AsTuple tag value.
inline constexpr AsTuple as_tuple{};

/// nonzero and its family as methods of tensors and expressions (`(x > 0).nonzero()`); each
/// is its free function (tessera/ops/nonzero.hpp) applied to this expression.
template <class D>
struct NonzeroMethods {
  /// Indices of the nonzero elements, (z, dim()) int64 in C order: `(x > 0).nonzero()`.
  TESSERA_EVAL_TAG Tensor<std::int64_t> nonzero() const;
  /// One int64 tensor of shape (z) per dimension (max(dim(), 1) tensors).
  TESSERA_EVAL_TAG std::vector<Tensor<std::int64_t>> nonzero(AsTuple) const;
  /// Writes nonzero() into `out` (resized when its shape differs).
  TESSERA_EVAL_TAG void nonzero_out(Tensor<std::int64_t>& out) const;
  /// The first `size` rows of nonzero(), padded with `fill_value`; never syncs on CUDA.
  TESSERA_EVAL_TAG Tensor<std::int64_t> nonzero_static(std::int64_t size,
                                                       std::int64_t fill_value = -1) const;
  /// Number of nonzero elements.
  TESSERA_EVAL_TAG std::int64_t count_nonzero() const;
  /// Same as nonzero().
  TESSERA_EVAL_TAG Tensor<std::int64_t> argwhere() const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
