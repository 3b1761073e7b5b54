// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file indexing_methods.hpp
/// Indexing and gathering as methods of every tensor and expression (`x.index(x.nonzero(
/// ts::as_tuple))`, `x.index_select(0, i)`, `x.gather(1, i)`, `x.take(i)`,
/// `x.take_along_dim(x.argsort(1), 1)`, `x.masked_select(m)`, `params.gather_nd(i)`), declared
/// before Tensor is complete; tessera/ops/indexing.hpp defines them as their free functions.

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

template <class T>
class Tensor;
template <class Derived>
struct Expr;
struct GatherNdOptions;

namespace detail {
/// A bool expression other than a tensor (`x > 0`): a mask that is evaluated once.
template <class M>
concept MaskExpression =
    std::is_base_of_v<Expr<M>, M> && std::is_same_v<typename M::value_type, bool>;
}  // namespace detail

/// The indexing operations as methods; each is the free function of the same name applied to
/// this expression (tessera/ops/indexing.hpp documents them). Index tensors are int64 or int32.
template <class D>
struct IndexingMethods {
  /// `x[i0, i1, ...]` (PyTorch advanced indexing of the leading dims): the index tensors
  /// broadcast together; negative entries count from the end. ts::index.
  template <class I>
  TESSERA_EVAL_TAG auto index(const std::vector<Tensor<I>>& indices) const;
  /// `x[{i0, i1}]` spelled as a braced list of index tensors.
  template <class I>
  TESSERA_EVAL_TAG auto index(std::initializer_list<Tensor<I>> indices) const;
  /// `x[i]`: one index tensor over the first dim, or a bool mask over the leading dims
  /// (`x[mask]`: shape (count, rest...)).
  template <class I>
  TESSERA_EVAL_TAG auto index(const Tensor<I>& index_or_mask) const;
  /// `x[mask]` with a bool expression as the mask: `x.index(x > 0)`.
  template <detail::MaskExpression M>
  TESSERA_EVAL_TAG auto index(const M& mask) const;
  /// ts::masked_select(*this, mask): the elements where the (broadcast) mask is true, 1-D;
  /// the mask a bool tensor or expression (`x.masked_select(x > 0)`).
  template <class M>
  TESSERA_EVAL_TAG auto masked_select(const M& mask) const;
  /// ts::index_select(*this, dim, index): the slices `index` names along `dim`.
  template <class I>
  TESSERA_EVAL_TAG auto index_select(std::int64_t dim, const Tensor<I>& index) const;
  /// ts::gather(*this, dim, index): out[..., j, ...] = x[..., index[..., j, ...], ...].
  template <class I>
  TESSERA_EVAL_TAG auto gather(std::int64_t dim, const Tensor<I>& index) const;
  /// ts::take(*this, index): the elements at flat (row-major) positions, shaped as `index`.
  template <class I>
  TESSERA_EVAL_TAG auto take(const Tensor<I>& index) const;
  /// ts::take_along_dim(*this, index, dim): gather along `dim` after broadcasting.
  template <class I>
  TESSERA_EVAL_TAG auto take_along_dim(const Tensor<I>& index, std::int64_t dim) const;
  /// ts::take_along_dim(*this, index): over the flattened tensor.
  template <class I>
  TESSERA_EVAL_TAG auto take_along_dim(const Tensor<I>& index) const;
  /// ts::gather_nd(*this, indices) (TensorFlow, batch_dims 0, out of range an IndexError).
  template <class I>
  TESSERA_EVAL_TAG auto gather_nd(const Tensor<I>& indices) const;
  /// ts::gather_nd(*this, indices, options) (TensorFlow).
  template <class I>
  TESSERA_EVAL_TAG auto gather_nd(const Tensor<I>& indices, const GatherNdOptions& options) const;
  /// `x[i0, i1, ...] = values` in place (accumulate: `+=`, every duplicate added, in index
  /// order on the host), PyTorch's index_put_; values (a tensor, expression or number)
  /// broadcast to the indexed shape and may view x. Tensors only; returns *this.
  template <class I, class V>
  TESSERA_EVAL_TAG const D& index_put_(const std::vector<Tensor<I>>& indices, const V& values,
                                       bool accumulate = false) const;
  /// index_put_ with a braced list of index tensors: `x.index_put_({rows, cols}, v)`.
  template <class I, class V>
  TESSERA_EVAL_TAG const D& index_put_(std::initializer_list<Tensor<I>> indices, const V& values,
                                       bool accumulate = false) const;
  /// `x[mask] = value` in place: the mask broadcasts to x's shape (ShapeError otherwise).
  /// Tensors only; returns *this.
  template <class V>
  TESSERA_EVAL_TAG const D& masked_fill_(const Tensor<bool>& mask, const V& value) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
