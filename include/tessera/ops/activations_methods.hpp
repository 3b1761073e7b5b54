// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file activations_methods.hpp
/// Activations as methods of every tensor and expression (`x.softmax(1)`,
/// `(x * 2).log_softmax(-1)`), declared before Tensor is complete; tessera/ops/activations.hpp
/// defines them as their free functions.

#include <cstdint>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// The activations as methods; each is the free function of the same name applied to this
/// expression (tessera/ops/activations.hpp documents them).
template <class D>
struct ActivationMethods {
  /// ts::softmax(*this, dim): exp(x) / sum(exp(x)) along `dim`, max-subtracted.
  TESSERA_EVAL_TAG auto softmax(std::int64_t dim) const;
  /// ts::log_softmax(*this, dim): x - logsumexp(x) along `dim`.
  TESSERA_EVAL_TAG auto log_softmax(std::int64_t dim) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
