// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file shape_methods.hpp
/// The shape and view operations as methods of lazy expressions: `(r / 9).unsqueeze(1)`,
/// `(a + b).permute({1, 0})`, `(x * 2).flip({0})`. Tensor has these methods itself (views of
/// its memory); an expression is evaluated once into a new tensor, which is then viewed.
/// Declared before Tensor is complete; tessera/ops/shapes.hpp defines them.

#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// The shape methods of an expression D; each returns what the Tensor method of the same name
/// returns for the evaluated expression (tessera/core/tensor_class.hpp documents them).
template <class D>
struct ShapeMethods {
  /// Tensor::reshape of the evaluated expression.
  TESSERA_EVAL_TAG auto reshape(const Shape& shape) const;
  /// Tensor::view of the evaluated expression.
  TESSERA_EVAL_TAG auto view(const Shape& shape) const;
  /// Tensor::slice of the evaluated expression.
  TESSERA_EVAL_TAG auto slice(std::int64_t dim, std::int64_t start,
                              std::int64_t stop = std::numeric_limits<std::int64_t>::max(),
                              std::int64_t step = 1) const;
  /// Tensor::select of the evaluated expression.
  TESSERA_EVAL_TAG auto select(std::int64_t dim, std::int64_t index) const;
  /// Tensor::transpose of the evaluated expression.
  TESSERA_EVAL_TAG auto transpose(std::int64_t dim0, std::int64_t dim1) const;
  /// Tensor::permute of the evaluated expression.
  TESSERA_EVAL_TAG auto permute(const std::vector<std::int64_t>& dims) const;
  /// Tensor::movedim of the evaluated expression.
  TESSERA_EVAL_TAG auto movedim(std::int64_t source, std::int64_t destination) const;
  /// Tensor::unsqueeze of the evaluated expression.
  TESSERA_EVAL_TAG auto unsqueeze(std::int64_t dim) const;
  /// Tensor::squeeze of the evaluated expression.
  TESSERA_EVAL_TAG auto squeeze() const;
  /// Tensor::squeeze(dim) of the evaluated expression.
  TESSERA_EVAL_TAG auto squeeze(std::int64_t dim) const;
  /// Tensor::squeeze(dims) of the evaluated expression.
  TESSERA_EVAL_TAG auto squeeze(const std::vector<std::int64_t>& dims) const;
  /// Tensor::movedim (lists) of the evaluated expression.
  TESSERA_EVAL_TAG auto movedim(const std::vector<std::int64_t>& source,
                                const std::vector<std::int64_t>& destination) const;
  /// Tensor::flatten of the evaluated expression.
  TESSERA_EVAL_TAG auto flatten(std::int64_t start_dim = 0, std::int64_t end_dim = -1) const;
  /// Tensor::unflatten of the evaluated expression.
  TESSERA_EVAL_TAG auto unflatten(std::int64_t dim, const Shape& sizes) const;
  /// Tensor::expand of the evaluated expression.
  TESSERA_EVAL_TAG auto expand(const Shape& shape) const;
  /// Tensor::narrow of the evaluated expression.
  TESSERA_EVAL_TAG auto narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const;
  /// Tensor::t of the evaluated expression.
  TESSERA_EVAL_TAG auto t() const;
  /// Tensor::mT of the evaluated expression.
  TESSERA_EVAL_TAG auto mT() const;
  /// Tensor::diagonal of the evaluated expression.
  TESSERA_EVAL_TAG auto diagonal(std::int64_t offset = 0, std::int64_t dim1 = 0,
                                 std::int64_t dim2 = 1) const;
  /// Tensor::unbind of the evaluated expression.
  TESSERA_EVAL_TAG auto unbind(std::int64_t dim = 0) const;
  /// Tensor::split of the evaluated expression.
  TESSERA_EVAL_TAG auto split(std::int64_t size, std::int64_t dim = 0) const;
  /// Tensor::split (given lengths) of the evaluated expression.
  TESSERA_EVAL_TAG auto split(const std::vector<std::int64_t>& sizes, std::int64_t dim = 0) const;
  /// Tensor::chunk of the evaluated expression.
  TESSERA_EVAL_TAG auto chunk(std::int64_t chunks, std::int64_t dim = 0) const;
  /// Tensor::unfold of the evaluated expression.
  TESSERA_EVAL_TAG auto unfold(std::int64_t dim, std::int64_t size, std::int64_t step) const;
  /// Tensor::flip of the evaluated expression.
  TESSERA_EVAL_TAG auto flip(const std::vector<std::int64_t>& dims) const;
  /// Tensor::repeat of the evaluated expression.
  TESSERA_EVAL_TAG auto repeat(const std::vector<std::int64_t>& repeats) const;
  /// Tensor::roll of the evaluated expression.
  TESSERA_EVAL_TAG auto roll(const std::vector<std::int64_t>& shifts,
                             const std::vector<std::int64_t>& dims = {}) const;
  /// Tensor::tril of the evaluated expression.
  TESSERA_EVAL_TAG auto tril(std::int64_t k = 0) const;
  /// Tensor::triu of the evaluated expression.
  TESSERA_EVAL_TAG auto triu(std::int64_t k = 0) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
