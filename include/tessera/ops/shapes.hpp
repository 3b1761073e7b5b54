// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file shapes.hpp
/// Shapes and views beyond the Tensor methods (PyTorch semantics): `ts::broadcast_to(x, {4, 3})`,
/// `ts::split(x, 2, 0)`, `ts::roll(x, {1, -2}, {0, 1})`, `ts::tile(x, {2, 2})`, `ts::tril(x)`,
/// `ts::diag(v)`, `ts::meshgrid({xs, ys}, ts::Indexing::IJ)`, `ts::zeros_like(x)`; and the
/// definitions of the shape methods of expressions (ops/shape_methods.hpp).
///
/// Views share the input's memory (an expression is evaluated once first); flip, roll,
/// repeat, tile, tril, triu and diag return new tensors. docs/ops/shapes.md has PyTorch's
/// view/copy table beside tessera's.

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// How meshgrid lays out its grids: IJ (matrix indexing, PyTorch's default) gives grid i the
/// extent of input i along dim i; XY (Cartesian, NumPy's default) swaps the first two dims.
enum class Indexing { IJ, XY };

namespace detail {
/// diag: a 1-D input on diagonal k of a new square matrix, or diagonal k of a 2-D input copied.
template <class T>
Tensor<T> diag_tensor(const Tensor<T>& x, std::int64_t k);
/// meshgrid of 0-D or 1-D tensors on one device: expanded views (as torch.meshgrid).
template <class T>
std::vector<Tensor<T>> meshgrid_tensors(const std::vector<Tensor<T>>& tensors, Indexing indexing);
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Shapes and views (PyTorch)
/// @{

/// `x.expand(shape)`: a read-only view of x broadcast to `shape` (torch.broadcast_to).
template <Expression E>
Tensor<typename E::value_type> broadcast_to(const E& x, const Shape& shape) {
  return detail::tensor_of(x).expand(shape);
}

/// x.reshape(shape) (torch.reshape): a view when the strides allow it, a copy otherwise.
template <Expression E>
Tensor<typename E::value_type> reshape(const E& x, const Shape& shape) {
  return detail::tensor_of(x).reshape(shape);
}

/// x.permute(dims) (torch.permute): a view.
template <Expression E>
Tensor<typename E::value_type> permute(const E& x, const std::vector<std::int64_t>& dims) {
  return detail::tensor_of(x).permute(dims);
}

/// x.transpose(dim0, dim1) (torch.transpose): a view.
template <Expression E>
Tensor<typename E::value_type> transpose(const E& x, std::int64_t dim0, std::int64_t dim1) {
  return detail::tensor_of(x).transpose(dim0, dim1);
}

/// x.movedim(source, destination) (torch.movedim): a view.
template <Expression E>
Tensor<typename E::value_type> movedim(const E& x, std::int64_t source, std::int64_t destination) {
  return detail::tensor_of(x).movedim(source, destination);
}

/// x.unsqueeze(dim) (torch.unsqueeze): a view.
template <Expression E>
Tensor<typename E::value_type> unsqueeze(const E& x, std::int64_t dim) {
  return detail::tensor_of(x).unsqueeze(dim);
}

/// x.squeeze() (torch.squeeze): a view without the extent-1 dims.
template <Expression E>
Tensor<typename E::value_type> squeeze(const E& x) {
  return detail::tensor_of(x).squeeze();
}

/// x.squeeze(dim) (torch.squeeze): a view.
template <Expression E>
Tensor<typename E::value_type> squeeze(const E& x, std::int64_t dim) {
  return detail::tensor_of(x).squeeze(dim);
}

/// x.flatten(start_dim, end_dim) (torch.flatten): a view when the strides allow it.
template <Expression E>
Tensor<typename E::value_type> flatten(const E& x, std::int64_t start_dim = 0,
                                       std::int64_t end_dim = -1) {
  return detail::tensor_of(x).flatten(start_dim, end_dim);
}

/// x.unflatten(dim, sizes) (torch.unflatten): a view.
template <Expression E>
Tensor<typename E::value_type> unflatten(const E& x, std::int64_t dim, const Shape& sizes) {
  return detail::tensor_of(x).unflatten(dim, sizes);
}

/// x.narrow(dim, start, length) (torch.narrow): a view.
template <Expression E>
Tensor<typename E::value_type> narrow(const E& x, std::int64_t dim, std::int64_t start,
                                      std::int64_t length) {
  return detail::tensor_of(x).narrow(dim, start, length);
}

/// x.diagonal(offset, dim1, dim2) (torch.diagonal): a view.
template <Expression E>
Tensor<typename E::value_type> diagonal(const E& x, std::int64_t offset = 0, std::int64_t dim1 = 0,
                                        std::int64_t dim2 = 1) {
  return detail::tensor_of(x).diagonal(offset, dim1, dim2);
}

/// Views of `size` elements along `dim`, the last one shorter (torch.split).
template <Expression E>
std::vector<Tensor<typename E::value_type>> split(const E& x, std::int64_t size,
                                                  std::int64_t dim = 0) {
  return detail::tensor_of(x).split(size, dim);
}

/// Views of the given lengths along `dim` (torch.split with a list; they must sum to the extent).
template <Expression E>
std::vector<Tensor<typename E::value_type>> split(const E& x,
                                                  const std::vector<std::int64_t>& sizes,
                                                  std::int64_t dim = 0) {
  return detail::tensor_of(x).split(sizes, dim);
}

/// At most `chunks` views along `dim` (torch.chunk).
template <Expression E>
std::vector<Tensor<typename E::value_type>> chunk(const E& x, std::int64_t chunks,
                                                  std::int64_t dim = 0) {
  return detail::tensor_of(x).chunk(chunks, dim);
}

/// One view per index of `dim` (torch.unbind).
template <Expression E>
std::vector<Tensor<typename E::value_type>> unbind(const E& x, std::int64_t dim = 0) {
  return detail::tensor_of(x).unbind(dim);
}

/// x reversed along each of `dims`, a new tensor (torch.flip).
template <Expression E>
Tensor<typename E::value_type> flip(const E& x, const std::vector<std::int64_t>& dims) {
  return detail::tensor_of(x).flip(dims);
}

/// x rolled by shifts[i] along dims[i], a new tensor (torch.roll); elements shifted past the
/// end come back at the start.
template <Expression E>
Tensor<typename E::value_type> roll(const E& x, const std::vector<std::int64_t>& shifts,
                                    const std::vector<std::int64_t>& dims) {
  return detail::tensor_of(x).roll(shifts, dims);
}

/// x rolled by `shift` along `dim`.
template <Expression E>
Tensor<typename E::value_type> roll(const E& x, std::int64_t shift, std::int64_t dim) {
  return detail::tensor_of(x).roll({shift}, {dim});
}

/// The flattened x rolled by `shift`, in x's shape (torch.roll without dims).
template <Expression E>
Tensor<typename E::value_type> roll(const E& x, std::int64_t shift) {
  return detail::tensor_of(x).roll({shift}, {});
}

/// x tiled `reps[i]` times along dim i (torch.tile: fewer reps than dims lead with 1s).
template <Expression E>
Tensor<typename E::value_type> tile(const E& x, const std::vector<std::int64_t>& reps) {
  const auto t = detail::tensor_of(x);
  std::vector<std::int64_t> full(reps);
  if (static_cast<std::int64_t>(full.size()) < t.dim()) {
    full.insert(full.begin(), static_cast<std::size_t>(t.dim()) - full.size(), 1);
  }
  return t.repeat(full);
}

/// The lower triangle (j - i <= k) of the last two dims of x, zeros elsewhere (torch.tril).
template <Expression E>
Tensor<typename E::value_type> tril(const E& x, std::int64_t k = 0) {
  return detail::tensor_of(x).tril(k);
}

/// The upper triangle (j - i >= k) of the last two dims of x, zeros elsewhere (torch.triu).
template <Expression E>
Tensor<typename E::value_type> triu(const E& x, std::int64_t k = 0) {
  return detail::tensor_of(x).triu(k);
}

/// torch.diag: a 1-D x placed on diagonal k of a new square matrix, or diagonal k of a 2-D x
/// as a new 1-D tensor (ShapeError for other ranks).
template <Expression E>
Tensor<typename E::value_type> diag(const E& x, std::int64_t k = 0) {
  return detail::diag_tensor(detail::tensor_of(x), k);
}

/// Grids over 0-D or 1-D tensors of one dtype and device: grid i holds tensors[i] along its
/// own dim (IJ; XY swaps the first two dims), as expanded read-only views (torch.meshgrid).
template <class T>
std::vector<Tensor<T>> meshgrid(const std::vector<Tensor<T>>& tensors,
                                Indexing indexing = Indexing::IJ) {
  return detail::meshgrid_tensors(tensors, indexing);
}

/// meshgrid of a braced list: `ts::meshgrid({xs, ys}, ts::Indexing::XY)`.
template <class T>
std::vector<Tensor<T>> meshgrid(std::initializer_list<Tensor<T>> tensors,
                                Indexing indexing = Indexing::IJ) {
  return detail::meshgrid_tensors(std::vector<Tensor<T>>(tensors), indexing);
}

/// Uninitialised elements in x's shape, dtype and device (x is not evaluated).
template <Expression E>
Tensor<typename E::value_type> empty_like(const E& x) {
  return Tensor<typename E::value_type>::empty(detail::expr_shape(x), detail::device_of(x));
}

/// Zeros in x's shape, dtype and device (x is not evaluated).
template <Expression E>
Tensor<typename E::value_type> zeros_like(const E& x) {
  return Tensor<typename E::value_type>::zeros(detail::expr_shape(x), detail::device_of(x));
}

/// Ones in x's shape, dtype and device (x is not evaluated).
template <Expression E>
Tensor<typename E::value_type> ones_like(const E& x) {
  return Tensor<typename E::value_type>::ones(detail::expr_shape(x), detail::device_of(x));
}

/// `value` in x's shape, dtype and device (x is not evaluated).
template <Expression E, class V>
requires Arithmetic<V> Tensor<typename E::value_type> full_like(const E& x, V value) {
  using T = typename E::value_type;
  return Tensor<T>::full(detail::expr_shape(x), static_cast<T>(value), detail::device_of(x));
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods of expressions (ops/shape_methods.hpp, where they are documented) ------------
#if !defined(TESSERA_DOXYGEN)
/// Defines ShapeMethods<D>::name(params) as the Tensor method of the evaluated expression.
#define TESSERA_SHAPE_METHOD(name, params, args)             \
  template <class D>                                         \
  TESSERA_EVAL_TAG auto ShapeMethods<D>::name params const { \
    return detail::tensor_of(self()).name args;              \
  }
TESSERA_SHAPE_METHOD(reshape, (const Shape& shape), (shape))
TESSERA_SHAPE_METHOD(view, (const Shape& shape), (shape))
TESSERA_SHAPE_METHOD(slice,
                     (std::int64_t dim, std::int64_t start, std::int64_t stop, std::int64_t step),
                     (dim, start, stop, step))
TESSERA_SHAPE_METHOD(select, (std::int64_t dim, std::int64_t index), (dim, index))
TESSERA_SHAPE_METHOD(transpose, (std::int64_t dim0, std::int64_t dim1), (dim0, dim1))
TESSERA_SHAPE_METHOD(permute, (const std::vector<std::int64_t>& dims), (dims))
TESSERA_SHAPE_METHOD(movedim, (std::int64_t source, std::int64_t destination),
                     (source, destination))
TESSERA_SHAPE_METHOD(unsqueeze, (std::int64_t dim), (dim))
TESSERA_SHAPE_METHOD(squeeze, (), ())
TESSERA_SHAPE_METHOD(squeeze, (std::int64_t dim), (dim))
TESSERA_SHAPE_METHOD(squeeze, (const std::vector<std::int64_t>& dims), (dims))
TESSERA_SHAPE_METHOD(movedim,
                     (const std::vector<std::int64_t>& source,
                      const std::vector<std::int64_t>& destination),
                     (source, destination))
TESSERA_SHAPE_METHOD(flatten, (std::int64_t start_dim, std::int64_t end_dim), (start_dim, end_dim))
TESSERA_SHAPE_METHOD(unflatten, (std::int64_t dim, const Shape& sizes), (dim, sizes))
TESSERA_SHAPE_METHOD(expand, (const Shape& shape), (shape))
TESSERA_SHAPE_METHOD(narrow, (std::int64_t dim, std::int64_t start, std::int64_t length),
                     (dim, start, length))
TESSERA_SHAPE_METHOD(t, (), ())
TESSERA_SHAPE_METHOD(mT, (), ())
TESSERA_SHAPE_METHOD(diagonal, (std::int64_t offset, std::int64_t dim1, std::int64_t dim2),
                     (offset, dim1, dim2))
TESSERA_SHAPE_METHOD(unbind, (std::int64_t dim), (dim))
TESSERA_SHAPE_METHOD(split, (std::int64_t size, std::int64_t dim), (size, dim))
TESSERA_SHAPE_METHOD(split, (const std::vector<std::int64_t>& sizes, std::int64_t dim),
                     (sizes, dim))
TESSERA_SHAPE_METHOD(chunk, (std::int64_t chunks, std::int64_t dim), (chunks, dim))
TESSERA_SHAPE_METHOD(unfold, (std::int64_t dim, std::int64_t size, std::int64_t step),
                     (dim, size, step))
TESSERA_SHAPE_METHOD(flip, (const std::vector<std::int64_t>& dims), (dims))
TESSERA_SHAPE_METHOD(repeat, (const std::vector<std::int64_t>& repeats), (repeats))
TESSERA_SHAPE_METHOD(roll,
                     (const std::vector<std::int64_t>& shifts,
                      const std::vector<std::int64_t>& dims),
                     (shifts, dims))
TESSERA_SHAPE_METHOD(tril, (std::int64_t k), (k))
TESSERA_SHAPE_METHOD(triu, (std::int64_t k), (k))
#undef TESSERA_SHAPE_METHOD
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
