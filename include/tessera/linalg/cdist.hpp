// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file cdist.hpp
/// Pairwise distances between rows (torch.cdist): `ts::cdist(points, centroids)`, on the product
/// engine for p = 2 and on the reduction engine otherwise (src/linalg/cdist.cpp).

#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/error.hpp"
#include "tessera/linalg/matmul.hpp"

namespace tessera {

namespace detail {
/// @cond INTERNAL
// Precompiled per floating dtype (src/linalg/cdist.cpp).
template <class T>
Tensor<T> cdist_tensor(const Tensor<T>& a, const Tensor<T>& b, double p);
/// @endcond
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// The p-norm distances between the rows of `a` (..., P, M) and of `b` (..., R, M): (..., P, R),
/// batch dimensions broadcast (torch.cdist). p >= 0 (0 counts differing columns, infinity takes
/// the largest difference); float and double (integers are converted to float, as a sum of
/// products would be). For p = 2 with more than 25 rows on either side the distances come from
/// the product engine (|x|^2 + |y|^2 - 2 x.y, clamped at 0), as PyTorch computes them, so
/// equal rows may be a rounding error apart; otherwise from |x - y| on the reduction engine.
/// ShapeError for fewer than 2 dimensions or column counts that differ, ValueError for p < 0.
///
///     auto d = ts::cdist(points, centroids);   auto l1 = ts::cdist(a, b, 1.0);
template <Expression A, Expression B>
auto cdist(const A& a, const B& b, double p = 2.0) {
  using P = detail::product_t<A, B>;
  using T = std::conditional_t<Floating<P>, P, float>;
  const detail::OpScope scope("cdist");
  return detail::cdist_tensor(detail::operand_as<T>(a), detail::operand_as<T>(b), p);
}

}  // namespace TESSERA_EVAL_NS

}  // namespace tessera
