// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file einsum.hpp
/// Einstein summation (torch.einsum) on the product engine: `ts::einsum("bij,bjk->bik", {a, b})`,
/// each pair of operands one batched product (src/linalg/einsum.cpp).

#include <initializer_list>
#include <string_view>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/linalg/matmul.hpp"

namespace tessera {

namespace detail {
/// @cond INTERNAL
// Precompiled per dtype (src/linalg/einsum.cpp); checks the equation and raises as PyTorch.
template <class T>
Tensor<T> einsum_tensor(std::string_view equation, const std::vector<Tensor<T>>& operands);
/// @endcond
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// Einstein summation (torch.einsum): letters a-z and A-Z, `...` for broadcast dimensions,
/// `->` optional (then the output is the ellipsis and the letters used once, in character-code
/// order); a repeated letter in one operand takes the diagonal; letters absent from the output
/// are summed. The result keeps T (integers wrap). Any number of operands, contracted left to
/// right, each pair as one batched product. ValueError naming the equation and the letter for
/// a malformed equation, a wrong operand count or extents that disagree (1 broadcasts).
///
///     auto c = ts::einsum("bij,bjk->bik", {a, b});   auto tr = ts::einsum("ii", {m});
template <class T>
Tensor<T> einsum(std::string_view equation, std::initializer_list<Tensor<T>> operands) {
  const detail::OpScope scope("einsum");
  return detail::einsum_tensor(equation, std::vector<Tensor<T>>(operands));
}
/// einsum over a vector of operands.
template <class T>
Tensor<T> einsum(std::string_view equation, const std::vector<Tensor<T>>& operands) {
  const detail::OpScope scope("einsum");
  return detail::einsum_tensor(equation, operands);
}

}  // namespace TESSERA_EVAL_NS

}  // namespace tessera
