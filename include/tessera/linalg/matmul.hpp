// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file matmul.hpp
/// Matrix products (PyTorch semantics): `ts::matmul`, `mm`, `bmm`, `mv`, `dot`, `outer` and
/// `tensordot` (einsum: linalg/einsum.hpp; cdist: linalg/cdist.hpp), on every dtype and
/// device, each one call of the product
/// engine (tessera/linalg/product.hpp): float and double through the BLAS (OpenBLAS on the
/// host, cuBLAS on a GPU), integers (accumulated in T, wrapping) and bool (the logical product)
/// through the library's own kernel. Operands of two dtypes are promoted as `+` promotes them;
/// an expression operand is evaluated once. Results are new tensors (0-d for a dot product).

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/core/dtype.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/operators.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

namespace detail {

/// @cond INTERNAL
// The products over tensors of one dtype, precompiled per dtype (src/linalg/matmul.cpp,
// src/linalg/einsum.cpp); each checks its shapes and raises as PyTorch does.
template <class T>
Tensor<T> matmul_tensor(const Tensor<T>& a, const Tensor<T>& b);
template <class T>
Tensor<T> mm_tensor(const Tensor<T>& a, const Tensor<T>& b);
template <class T>
Tensor<T> bmm_tensor(const Tensor<T>& a, const Tensor<T>& b);
template <class T>
Tensor<T> mv_tensor(const Tensor<T>& a, const Tensor<T>& v);
template <class T>
Tensor<T> dot_tensor(const Tensor<T>& v, const Tensor<T>& w);
template <class T>
Tensor<T> outer_tensor(const Tensor<T>& v, const Tensor<T>& w);
template <class T>
Tensor<T> tensordot_tensor(const Tensor<T>& a, const Tensor<T>& b,
                           const std::vector<std::int64_t>& dims_a,
                           const std::vector<std::int64_t>& dims_b);
template <class T>
Tensor<T> tensordot_tensor(const Tensor<T>& a, const Tensor<T>& b, std::int64_t dims);

/// The dtype of a product of A and B: `+`'s promotion.
template <class A, class B>
using product_t = promote_t<typename std::remove_cvref_t<A>::value_type,
                            typename std::remove_cvref_t<B>::value_type>;

/// `e` as a Tensor<T>: itself when it is one, else evaluated once (converted on the way).
template <class T, class E>
Tensor<T> operand_as(const E& e) {
  if constexpr (std::is_same_v<typename std::remove_cvref_t<E>::value_type, T>) {
    return tensor_of(e);
  } else {
    return tensor_of(tessera::cast<T>(e));
  }
}
/// @endcond

}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Matrix products (PyTorch): every dtype, every device
/// @{

/// torch.matmul: 1-D·1-D is the dot product (0-d); 2-D·1-D the matrix-vector product; a 1-D
/// left operand is a row (prepended 1, removed after); N-D operands are batches of matrices
/// whose batch dimensions broadcast. ShapeError for a 0-d operand ("both arguments to matmul
/// need to be at least 1D") or inner extents that differ (naming both shapes).
///
///     auto c = ts::matmul(a, b);   auto y = ts::matmul(batch_of_mats, v);
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> matmul(const A& a, const B& b) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("matmul");
  return detail::matmul_tensor(detail::operand_as<T>(a), detail::operand_as<T>(b));
}
/// The product of two matrices (2-D only, ShapeError otherwise).
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> mm(const A& a, const B& b) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("mm");
  return detail::mm_tensor(detail::operand_as<T>(a), detail::operand_as<T>(b));
}
/// Batched products of 3-D operands with the same batch: (b, n, m) · (b, m, p) → (b, n, p).
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> bmm(const A& a, const B& b) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("bmm");
  return detail::bmm_tensor(detail::operand_as<T>(a), detail::operand_as<T>(b));
}
/// The product of a matrix (n, m) and a vector (m): a vector (n).
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> mv(const A& a, const B& v) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("mv");
  return detail::mv_tensor(detail::operand_as<T>(a), detail::operand_as<T>(v));
}
/// The dot product of two 1-D tensors of one length, as a 0-d tensor (`ts::dot(v, w).item()`).
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> dot(const A& v, const B& w) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("dot");
  return detail::dot_tensor(detail::operand_as<T>(v), detail::operand_as<T>(w));
}
/// The outer product of two 1-D tensors: (n) ⊗ (m) → (n, m).
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> outer(const A& v, const B& w) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("outer");
  return detail::outer_tensor(detail::operand_as<T>(v), detail::operand_as<T>(w));
}
/// Contracts the last `dims` dimensions of `a` with the first `dims` of `b` (torch.tensordot).
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> tensordot(const A& a, const B& b, std::int64_t dims) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("tensordot");
  return detail::tensordot_tensor(detail::operand_as<T>(a), detail::operand_as<T>(b), dims);
}
/// Contracts dimensions `dims.first[i]` of `a` with `dims.second[i]` of `b`, pairwise:
/// `ts::tensordot(a, b, {{1, 2}, {0, 1}})`. The result's dimensions are a's free ones, then b's.
template <Expression A, Expression B>
Tensor<detail::product_t<A, B>> tensordot(
    const A& a, const B& b,
    const std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>& dims) {
  using T = detail::product_t<A, B>;
  const detail::OpScope scope("tensordot");
  return detail::tensordot_tensor(detail::operand_as<T>(a), detail::operand_as<T>(b), dims.first,
                                  dims.second);
}

/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (linalg/matmul_methods.hpp, where they are documented) -----------------------
#if !defined(TESSERA_DOXYGEN)
template <class D>
template <class B>
TESSERA_EVAL_TAG auto MatmulMethods<D>::matmul(const B& other) const {
  return tessera::matmul(self(), other);
}
template <class D>
template <class B>
TESSERA_EVAL_TAG auto MatmulMethods<D>::mm(const B& other) const {
  return tessera::mm(self(), other);
}
template <class D>
template <class B>
TESSERA_EVAL_TAG auto MatmulMethods<D>::bmm(const B& other) const {
  return tessera::bmm(self(), other);
}
template <class D>
template <class B>
TESSERA_EVAL_TAG auto MatmulMethods<D>::mv(const B& vec) const {
  return tessera::mv(self(), vec);
}
template <class D>
template <class B>
TESSERA_EVAL_TAG auto MatmulMethods<D>::dot(const B& other) const {
  return tessera::dot(self(), other);
}
template <class D>
template <class B>
TESSERA_EVAL_TAG auto MatmulMethods<D>::outer(const B& other) const {
  return tessera::outer(self(), other);
}
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
