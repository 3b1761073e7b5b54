// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_methods.hpp
/// The scatter methods of `Tensor<T>` (TensorFlow's tensor_scatter_nd_* family), declared
/// before Tensor is complete; tessera/ops/scatter.hpp defines them.

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

template <class T>
class Tensor;

/// What tensor_scatter_nd_* does with out-of-bounds index rows (tessera/ops/scatter.hpp).
enum class OutOfBounds;
/// Options of tensor_scatter_nd_* (defined in tessera/ops/scatter.hpp).
struct ScatterOptions;

/// Scatter methods exist on tensors only (the in-place form needs storage): nothing for other
/// expressions.
template <class D>
struct ScatterMethods {};

/// The scatter methods of Tensor<T>.
template <class T>
struct ScatterMethods<Tensor<T>> {
  /// @name Scatter (TensorFlow semantics)
  /// Row i of `indices` (Tensor<int32_t|int64_t>, last extent K) names element or slice
  /// `[indices[i, 0], ..., indices[i, K-1]]`; `updates` (a tensor or an expression of shape
  /// `indices.shape[:-1] + shape[K:]`) combine there, duplicates in index order.
  /// `tensor_scatter_nd_*` returns a new tensor; `scatter_nd_*_` works in place. Options:
  /// `{.out_of_bounds = OutOfBounds::Ignore, .deterministic = true}`. Called on an rvalue
  /// (`std::move(t).tensor_scatter_nd_add(i, u)`, `Tensor<T>::zeros(n).tensor_scatter_nd_add(i,
  /// u)`), the result reuses the tensor's memory when tessera allocated it, no other handle,
  /// view, expression or DLPack export holds it, and the tensor is contiguous and covers it
  /// (docs/ops/scatter.md, "Storage reuse"); otherwise it is copied as for an lvalue.
  /// @{

  /// A copy of this tensor with `updates` subtracted at `indices`.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_sub(const Tensor<Index>& indices,
                                                   const Updates& updates) const&;
  /// On an rvalue (`std::move(t)`, a temporary): the same result, written into this tensor's
  /// memory when nothing else shares it (otherwise a copy, as above).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_sub(const Tensor<Index>& indices,
                                                   const Updates& updates) &&;
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_sub(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) const&;
  /// On an rvalue, with options: written in place when nothing else shares the memory.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_sub(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) &&;
  /// In place: this tensor with `updates` subtracted at `indices`; returns *this.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_sub_(const Tensor<Index>& indices, const Updates& updates);
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_sub_(const Tensor<Index>& indices, const Updates& updates,
                                              const ScatterOptions& options);
  /// A copy of this tensor with `updates` added at `indices`.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_add(const Tensor<Index>& indices,
                                                   const Updates& updates) const&;
  /// On an rvalue (`std::move(t)`, a temporary): the same result, written into this tensor's
  /// memory when nothing else shares it (otherwise a copy, as above).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_add(const Tensor<Index>& indices,
                                                   const Updates& updates) &&;
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_add(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) const&;
  /// On an rvalue, with options: written in place when nothing else shares the memory.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_add(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) &&;
  /// In place: this tensor with `updates` added at `indices`; returns *this.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_add_(const Tensor<Index>& indices, const Updates& updates);
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_add_(const Tensor<Index>& indices, const Updates& updates,
                                              const ScatterOptions& options);
  /// A copy of this tensor with `updates` written at `indices`.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_update(const Tensor<Index>& indices,
                                                      const Updates& updates) const&;
  /// On an rvalue (`std::move(t)`, a temporary): the same result, written into this tensor's
  /// memory when nothing else shares it (otherwise a copy, as above).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_update(const Tensor<Index>& indices,
                                                      const Updates& updates) &&;
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_update(const Tensor<Index>& indices,
                                                      const Updates& updates,
                                                      const ScatterOptions& options) const&;
  /// On an rvalue, with options: written in place when nothing else shares the memory.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_update(const Tensor<Index>& indices,
                                                      const Updates& updates,
                                                      const ScatterOptions& options) &&;
  /// In place: this tensor with `updates` written at `indices`; returns *this.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_update_(const Tensor<Index>& indices,
                                                 const Updates& updates);
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_update_(const Tensor<Index>& indices,
                                                 const Updates& updates,
                                                 const ScatterOptions& options);
  /// A copy of this tensor with `updates` combined by min at `indices`.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_min(const Tensor<Index>& indices,
                                                   const Updates& updates) const&;
  /// On an rvalue (`std::move(t)`, a temporary): the same result, written into this tensor's
  /// memory when nothing else shares it (otherwise a copy, as above).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_min(const Tensor<Index>& indices,
                                                   const Updates& updates) &&;
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_min(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) const&;
  /// On an rvalue, with options: written in place when nothing else shares the memory.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_min(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) &&;
  /// In place: this tensor with `updates` combined by min at `indices`; returns *this.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_min_(const Tensor<Index>& indices, const Updates& updates);
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_min_(const Tensor<Index>& indices, const Updates& updates,
                                              const ScatterOptions& options);
  /// A copy of this tensor with `updates` combined by max at `indices`.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_max(const Tensor<Index>& indices,
                                                   const Updates& updates) const&;
  /// On an rvalue (`std::move(t)`, a temporary): the same result, written into this tensor's
  /// memory when nothing else shares it (otherwise a copy, as above).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_max(const Tensor<Index>& indices,
                                                   const Updates& updates) &&;
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_max(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) const&;
  /// On an rvalue, with options: written in place when nothing else shares the memory.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T> tensor_scatter_nd_max(const Tensor<Index>& indices,
                                                   const Updates& updates,
                                                   const ScatterOptions& options) &&;
  /// In place: this tensor with `updates` combined by max at `indices`; returns *this.
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_max_(const Tensor<Index>& indices, const Updates& updates);
  /// The same with options (`{.out_of_bounds = OutOfBounds::Ignore}`, `{.deterministic = true}`).
  template <class Index, class Updates>
  TESSERA_EVAL_TAG Tensor<T>& scatter_nd_max_(const Tensor<Index>& indices, const Updates& updates,
                                              const ScatterOptions& options);
  /// @}

 private:
  const Tensor<T>& self() const noexcept { return static_cast<const Tensor<T>&>(*this); }
  Tensor<T>& self() noexcept { return static_cast<Tensor<T>&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
