// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ordering_methods.hpp
/// sort, argsort and topk as methods of every tensor and expression (`t.sort()`,
/// `(a - b).argsort(0, true)`, `t.topk(5)`), declared before Tensor is complete;
/// tessera/ops/ordering.hpp defines them as their free functions.

#include <cstdint>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// The ordering operations as methods; each is the free function of the same name applied to
/// this expression (tessera/ops/ordering.hpp documents them).
template <class D>
struct OrderingMethods {
  /// ts::sort(*this, dim, descending): the sorted values and their positions along `dim`.
  TESSERA_EVAL_TAG auto sort(std::int64_t dim = -1, bool descending = false) const;
  /// ts::argsort(*this, dim, descending): the positions that sort along `dim` (int64).
  TESSERA_EVAL_TAG auto argsort(std::int64_t dim = -1, bool descending = false) const;
  /// ts::topk(*this, k, dim, largest, sorted): the k largest (or smallest) along `dim`.
  TESSERA_EVAL_TAG auto topk(std::int64_t k, std::int64_t dim = -1, bool largest = true,
                             bool sorted = true) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
