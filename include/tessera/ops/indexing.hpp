// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file indexing.hpp
/// Indexing and gathering (PyTorch semantics unless marked TF): `x.index(x.nonzero(
/// ts::as_tuple))`, `x.index({rows, cols})`, `x.index(mask)`, `x.masked_select(mask)`,
/// `x.index_select(0, i)`, `x.gather(1, i)`, `x.take(i)`, `x.take_along_dim(x.argsort(1), 1)`,
/// `ts::gather_nd(params, indices, {.batch_dims = 1})` (TF). Joining tensors (`cat`, `stack`):
/// tessera/ops/joining.hpp.
///
/// Every one of them computes where each output element comes from and copies through one
/// gather kernel per device (docs/architecture.md, "which engine runs what"); the kernels are
/// precompiled in the library. Index tensors are int64 or int32 and live on the data's device.
/// An input expression is evaluated once; a tensor is read in place, whatever its strides.
/// Out-of-range entries raise IndexError naming the op, the entry and the extent, and nothing
/// is returned; a device input then waits for the device once, to learn whether one was bad.

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/operators.hpp"
#include "tessera/ops/scatter.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

// [snippet:gather-nd-options]
/// Options of gather_nd (TensorFlow), members in this order.
struct GatherNdOptions {
  /// Leading dims shared by params and indices: gather_nd runs once per batch position.
  std::int64_t batch_dims = 0;
  /// An index row naming no element: IndexError in TF's words (every device), or, with
  /// OutOfBounds::Ignore, zeros for that row (as TensorFlow on a GPU).
  OutOfBounds out_of_bounds = OutOfBounds::Error;
};
// [end-snippet]

namespace detail {

/// The kernels' entry points, precompiled per dtype T and index type I (src/ops/indexing.cpp);
/// each checks its arguments first and names `op` in its errors.
template <class T, class I>
Tensor<T> index_tensors(const Tensor<T>& x, const std::vector<Tensor<I>>& indices);
/// x[mask]: the mask covers x's leading dims.
template <class T>
Tensor<T> index_mask(const Tensor<T>& x, const Tensor<bool>& mask);
/// The elements of x where the mask (x and mask broadcast together) is true, 1-D.
template <class T>
Tensor<T> masked_select_tensor(const Tensor<T>& x, const Tensor<bool>& mask);
/// index_select (1-D or 0-d index).
template <class T, class I>
Tensor<T> index_select_tensor(const Tensor<T>& x, std::int64_t dim, const Tensor<I>& index);
/// gather (PyTorch's shape rules), or take_along_dim (`broadcast`: x and index broadcast
/// together except along dim); op names the caller.
template <class T, class I>
Tensor<T> gather_tensor(const char* op, const Tensor<T>& x, std::int64_t dim,
                        const Tensor<I>& index, bool broadcast);
/// take: flat positions into x in row-major order (negative entries wrap).
template <class T, class I>
Tensor<T> take_tensor(const char* op, const Tensor<T>& x, const Tensor<I>& index);
/// gather_nd (TensorFlow).
template <class T, class I>
Tensor<T> gather_nd_tensor(const Tensor<T>& params, const Tensor<I>& indices,
                           const GatherNdOptions& options);
/// index_put_ (PyTorch): values (x's dtype, any shape broadcasting to the indexed one) written
/// or added at the indexed positions of x, through the scatter engine.
template <class T, class I>
void index_put_tensor(const Tensor<T>& x, const std::vector<Tensor<I>>& indices,
                      const Tensor<T>& values, bool accumulate);

/// masked_fill_'s checks: the mask on x's device (DeviceError) and broadcasting to x's shape
/// (ShapeError naming both shapes).
void check_masked_fill(const Shape& x_shape, Device x_device, const Shape& mask_shape,
                       Device mask_device);

/// An index tensor type, or a compile-time error naming the fix.
template <class I>
constexpr void require_index_type() {
  static_assert(std::is_same_v<I, std::int64_t> || std::is_same_v<I, std::int32_t>,
                "tessera: index tensors are Tensor<int64_t> or Tensor<int32_t> (a bool mask goes "
                "to index(mask) / masked_select); cast first, e.g. i.cast<int64_t>()");
}

}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Indexing and gathering (PyTorch unless marked TF; index tensors int64 or int32)
/// @{

/// `x[i0, i1, ...]`: PyTorch's advanced indexing of the leading `indices.size()` dims. The
/// index tensors broadcast together to shape B; the result has shape B + the unindexed
/// trailing dims of x. Negative entries count from the end (once); any other entry out of
/// range raises IndexError naming the dim, the entry and the extent. `x.index(x.nonzero(
/// ts::as_tuple))` gives the nonzero values of x.
template <Expression E, class I>
Tensor<typename E::value_type> index(const E& x, const std::vector<Tensor<I>>& indices) {
  detail::require_index_type<I>();
  const detail::OpScope scope("index");
  return detail::index_tensors(detail::tensor_of(x), indices);
}

/// `x[mask]`: the mask (bool) covers the leading mask.dim() dims of x and must match them
/// (ShapeError naming both shapes); the result has shape (count, the remaining dims of x...).
/// Waits for a device to learn the count.
template <Expression E>
Tensor<typename E::value_type> index(const E& x, const Tensor<bool>& mask) {
  const detail::OpScope scope("index");
  return detail::index_mask(detail::tensor_of(x), mask);
}

/// `x[i]`: one index tensor over the first dim (the result: i's shape + x's other dims).
template <Expression E, class I>
requires(!std::is_same_v<I, bool>) Tensor<typename E::value_type> index(const E& x,
                                                                        const Tensor<I>& idx) {
  detail::require_index_type<I>();
  const detail::OpScope scope("index");
  return detail::index_tensors(detail::tensor_of(x), std::vector<Tensor<I>>{idx});
}

/// `x[mask]` with a bool expression (`x[x > 0]`): the mask is evaluated once.
template <Expression E, detail::MaskExpression M>
requires(!std::is_same_v<M, Tensor<bool>>) Tensor<typename E::value_type> index(const E& x,
                                                                                const M& mask) {
  const detail::OpScope scope("index");
  return detail::index_mask(detail::tensor_of(x), detail::tensor_of(mask));
}

/// The elements of `x` where `mask` (a bool tensor or expression) is true, in row-major order,
/// as a 1-D tensor; x and mask broadcast together (PyTorch's masked_select). Waits for a
/// device to learn the count.
template <Expression E, detail::MaskExpression M>
Tensor<typename E::value_type> masked_select(const E& x, const M& mask) {
  const detail::OpScope scope("masked_select");
  return detail::masked_select_tensor(detail::tensor_of(x), detail::tensor_of(mask));
}

/// The slices of `x` that the 1-D (or 0-d) `index` names along `dim`, in that order: the
/// result is x's shape with extent index.numel() at dim. Entries must lie in [0, size(dim))
/// (IndexError; PyTorch's index_select does not wrap negatives either).
template <Expression E, class I>
Tensor<typename E::value_type> index_select(const E& x, std::int64_t dim, const Tensor<I>& index) {
  detail::require_index_type<I>();
  const detail::OpScope scope("index_select");
  return detail::index_select_tensor(detail::tensor_of(x), dim, index);
}

/// PyTorch's gather: `out[i][j][k] = x[i][index[i][j][k]][k]` for dim 1, any rank. index has
/// x's rank and no extent larger than x's apart from dim (ShapeError otherwise); the result
/// has index's shape. Entries must lie in [0, size(dim)) (IndexError).
template <Expression E, class I>
Tensor<typename E::value_type> gather(const E& x, std::int64_t dim, const Tensor<I>& index) {
  detail::require_index_type<I>();
  const detail::OpScope scope("gather");
  return detail::gather_tensor("gather", detail::tensor_of(x), dim, index, false);
}

/// The elements of `x` at flat positions `index` (row-major, as if x were 1-D), shaped as
/// index. Negative entries count from the end; others out of range raise IndexError.
template <Expression E, class I>
Tensor<typename E::value_type> take(const E& x, const Tensor<I>& index) {
  detail::require_index_type<I>();
  const detail::OpScope scope("take");
  return detail::take_tensor("take", detail::tensor_of(x), index);
}

/// PyTorch's take_along_dim: x and index (same rank) broadcast together in every dim but
/// `dim`, then gather along dim: `x.take_along_dim(x.argsort(1), 1)` sorts rows. Negative
/// entries count from the end (as PyTorch's does, unlike gather).
template <Expression E, class I>
Tensor<typename E::value_type> take_along_dim(const E& x, const Tensor<I>& index,
                                              std::int64_t dim) {
  detail::require_index_type<I>();
  const detail::OpScope scope("take_along_dim");
  return detail::gather_tensor("take_along_dim", detail::tensor_of(x), dim, index, true);
}

/// take_along_dim without a dim: over the flattened x and flattened index (a 1-D result).
template <Expression E, class I>
Tensor<typename E::value_type> take_along_dim(const E& x, const Tensor<I>& index) {
  detail::require_index_type<I>();
  const detail::OpScope scope("take_along_dim");
  return detail::gather_tensor("take_along_dim", detail::tensor_of(x).reshape({-1}), 0,
                               index.reshape({-1}), true);
}

/// TensorFlow's gather_nd: `indices` (..., K) names elements (K = params.dim() -
/// batch_dims) or slices (K smaller) of params; the result has shape indices.shape[:-1] +
/// params.shape[batch_dims + K:]. With batch_dims b, the first b dims of params and indices
/// are shared (equal extents) and each batch position gathers from its own params slice.
/// Out-of-range rows: IndexError in TF's words (`indices[1] = [4, 0] does not index into
/// param shape [3,2]`) on every device, or zeros with OutOfBounds::Ignore. Reads back what
/// tensor_scatter_nd_update wrote: `gather_nd(t.tensor_scatter_nd_update(i, u), i) == u`.
template <Expression E, class I>
Tensor<typename E::value_type> gather_nd(const E& params, const Tensor<I>& indices,
                                         const GatherNdOptions& options) {
  detail::require_index_type<I>();
  const detail::OpScope scope("gather_nd");
  return detail::gather_nd_tensor(detail::tensor_of(params), indices, options);
}
/// gather_nd with the default options (batch_dims 0, out of range an IndexError).
template <Expression E, class I>
Tensor<typename E::value_type> gather_nd(const E& params, const Tensor<I>& indices) {
  return tessera::gather_nd(params, indices, GatherNdOptions{});
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (ops/indexing_methods.hpp, where they are documented) -----------------------
#if !defined(TESSERA_DOXYGEN)
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::index(const std::vector<Tensor<I>>& indices) const {
  return tessera::index(self(), indices);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::index(std::initializer_list<Tensor<I>> indices) const {
  return tessera::index(self(), std::vector<Tensor<I>>(indices));
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::index(const Tensor<I>& index_or_mask) const {
  if constexpr (std::is_same_v<I, bool>) {
    return tessera::index(self(), index_or_mask);
  } else {
    return tessera::index(self(), std::vector<Tensor<I>>{index_or_mask});
  }
}
template <class D>
template <detail::MaskExpression M>
TESSERA_EVAL_TAG auto IndexingMethods<D>::index(const M& mask) const {
  return tessera::index(self(), mask);
}
template <class D>
template <class M>
TESSERA_EVAL_TAG auto IndexingMethods<D>::masked_select(const M& mask) const {
  return tessera::masked_select(self(), mask);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::index_select(std::int64_t dim,
                                                       const Tensor<I>& index) const {
  return tessera::index_select(self(), dim, index);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::gather(std::int64_t dim, const Tensor<I>& index) const {
  return tessera::gather(self(), dim, index);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::take(const Tensor<I>& index) const {
  return tessera::take(self(), index);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::take_along_dim(const Tensor<I>& index,
                                                         std::int64_t dim) const {
  return tessera::take_along_dim(self(), index, dim);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::take_along_dim(const Tensor<I>& index) const {
  return tessera::take_along_dim(self(), index);
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::gather_nd(const Tensor<I>& indices) const {
  return tessera::gather_nd(self(), indices, GatherNdOptions{});
}
template <class D>
template <class I>
TESSERA_EVAL_TAG auto IndexingMethods<D>::gather_nd(const Tensor<I>& indices,
                                                    const GatherNdOptions& options) const {
  return tessera::gather_nd(self(), indices, options);
}
template <class D>
template <class I, class V>
TESSERA_EVAL_TAG const D& IndexingMethods<D>::index_put_(const std::vector<Tensor<I>>& indices,
                                                         const V& values, bool accumulate) const {
  using T = typename D::value_type;
  static_assert(
      std::is_same_v<D, Tensor<T>>,
      "tessera: index_put_ writes into a Tensor; evaluate the expression first (ts::eval)");
  detail::require_index_type<I>();
  const detail::OpScope scope("index_put_");
  if constexpr (Arithmetic<V>) {
    detail::index_put_tensor(
        self(), indices, Tensor<T>::scalar(static_cast<T>(values), self().device()), accumulate);
  } else {
    static_assert(std::is_same_v<typename V::value_type, T>,
                  "tessera: index_put_ values must have the tensor's dtype (cast first)");
    detail::index_put_tensor(self(), indices, detail::tensor_of(values), accumulate);
  }
  return self();
}
template <class D>
template <class I, class V>
TESSERA_EVAL_TAG const D& IndexingMethods<D>::index_put_(std::initializer_list<Tensor<I>> indices,
                                                         const V& values, bool accumulate) const {
  return index_put_(std::vector<Tensor<I>>(indices), values, accumulate);
}
template <class D>
template <class V>
TESSERA_EVAL_TAG const D& IndexingMethods<D>::masked_fill_(const Tensor<bool>& mask,
                                                           const V& value) const {
  using T = typename D::value_type;
  static_assert(
      std::is_same_v<D, Tensor<T>>,
      "tessera: masked_fill_ writes into a Tensor; evaluate the expression first (ts::eval)");
  static_assert(Arithmetic<V>, "tessera: masked_fill_ takes a number");
  const detail::OpScope scope("masked_fill_");
  detail::check_masked_fill(self().shape(), self().device(), mask.shape(), mask.device());
  Tensor<T> target = self();  // a second handle: assignment writes into the shared elements
  detail::assign_expression(target, where(mask, static_cast<T>(value), self()));
  return self();
}
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
