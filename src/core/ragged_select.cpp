// SPDX-License-Identifier: BSD-3-Clause
// RaggedTensors built by selecting from others (TensorFlow semantics): rows picked by index
// (`tf.gather`), a dense batch cut back into rows (`from_tensor` with lengths or padding), and
// the masked entries of each row (`tf.ragged.boolean_mask`). The values move on the gather
// kernel, on the tensors' device: the source position of every value comes from
// `ragged::range` (rows [start, limit) of the source) or from `nonzero` (a mask), then
// `index_select` copies. Only O(rows) inputs visit the host: from_tensor's lengths, and the
// lengths that padding leaves (computed from a host copy of dense).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/extent_product.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace {

/// Elements per entry of `shape` past its first `lead` dims.
std::int64_t inner_of(const Shape& shape, int lead) {
  return detail::extent_product(shape.data() + lead, static_cast<int>(shape.size()) - lead);
}

/// The shape (total, shape[lead:]...) of values gathered from entries of `shape`.
Shape values_shape(std::int64_t total, const Shape& shape, int lead) {
  std::vector<std::int64_t> dims{total};
  for (auto d = static_cast<std::size_t>(lead); d < shape.size(); ++d) dims.push_back(shape[d]);
  return Shape(dims.begin(), dims.end());
}

/// ShapeError unless a dense batch has rows and columns.
void check_dense(const char* op, const Shape& dense) {
  if (dense.size() < 2) {
    detail::raise<ShapeError>(op, "dense must have at least 2 dims (rows, columns), got shape ",
                              dense);
  }
}

void check_same_device(const char* op, const char* what, Device got, Device expected) {
  if (got != expected) {
    detail::raise<DeviceError>(op, what, " is on ", got, ", the tensor on ", expected);
  }
}

}  // namespace

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor(const Tensor<T>& dense,
                                                   const Tensor<S>& lengths) {
  constexpr const char* op = "RaggedTensor::from_tensor";
  const detail::OpScope scope(op);
  check_dense(op, dense.shape());
  const std::int64_t nrows = dense.size(0);
  const std::int64_t width = dense.size(1);
  if (lengths.dim() != 1 || lengths.size(0) != nrows) {
    detail::raise<ShapeError>(op, "lengths must have shape (", nrows, "), one per row of dense ",
                              dense.shape(), ", got ", lengths.shape());
  }
  check_same_device(op, "lengths", lengths.device(), dense.device());
  const std::vector<S> len = lengths.to_vector();  // O(rows): checked, and the rows' bounds
  std::vector<S> starts(len.size()), limits(len.size());
  for (std::size_t i = 0; i < len.size(); ++i) {
    if (len[i] < 0 || static_cast<std::int64_t>(len[i]) > width) {
      detail::raise<ValueError>(op, "lengths[", i, "] = ", static_cast<std::int64_t>(len[i]),
                                " is not in [0, ", width, "] (the width of dense)");
    }
    starts[i] = static_cast<S>(static_cast<std::int64_t>(i) * width);
    limits[i] = static_cast<S>(starts[i] + len[i]);
  }
  const auto positions = ragged::range<S, S>(Tensor<S>::from_vector(starts, dense.device()),
                                             Tensor<S>::from_vector(limits, dense.device()));
  const Tensor<T> entries = dense.reshape(values_shape(nrows * width, dense.shape(), 2));
  return RaggedTensor(entries.index_select(0, positions.values()), positions.row_splits());
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor_padded(const Tensor<T>& dense, T pad) {
  constexpr const char* op = "RaggedTensor::from_tensor";
  const detail::OpScope scope(op);
  check_dense(op, dense.shape());
  const std::int64_t nrows = dense.size(0);
  const std::int64_t width = dense.size(1);
  const std::int64_t inner = inner_of(dense.shape(), 2);
  const Tensor<T> src = dense.contiguous().cpu();
  const T* data = src.data();
  std::vector<S> lengths(static_cast<std::size_t>(nrows));
  for (std::int64_t i = 0; i < nrows; ++i) {
    std::int64_t n = width;
    const auto is_pad = [&](std::int64_t j) {
      const T* entry = data + (i * width + j) * inner;
      return std::all_of(entry, entry + inner, [&](T v) { return v == pad; });
    };
    while (n > 0 && is_pad(n - 1)) --n;
    lengths[static_cast<std::size_t>(i)] = static_cast<S>(n);
  }
  return from_tensor(dense, Tensor<S>::from_vector(lengths, dense.device()));
}

template <class T, class S>
template <class I>
RaggedTensor<T, S> RaggedTensor<T, S>::gather_rows(const Tensor<I>& rows) const {
  constexpr const char* op = "RaggedTensor::gather";
  const detail::OpScope scope(op);
  if (rows.dim() != 1) {
    detail::raise<ShapeError>(op, "rows must be 1-d, got shape ", rows.shape());
  }
  check_same_device(op, "rows", rows.device(), device());
  const std::int64_t n = nrows();
  Tensor<S> starts, limits;
  try {
    starts = row_splits_.slice(0, 0, n).index_select(0, rows);
    limits = row_splits_.slice(0, 1, n + 1).index_select(0, rows);
  } catch (const IndexError&) {  // TF's words: which entry of rows, and the range
    const std::vector<I> picked = rows.to_vector();
    for (std::size_t k = 0; k < picked.size(); ++k) {
      const auto row = static_cast<std::int64_t>(picked[k]);
      if (row < 0 || row >= n) {
        detail::raise<IndexError>(op, "rows[", k, "] = ", row, " is not in [0, ", n, ")");
      }
    }
    throw;
  }
  // Row k of the result holds the source positions [splits[rows[k]], splits[rows[k] + 1]).
  const auto positions = ragged::range<S, S>(starts, limits);
  return RaggedTensor(values_.index_select(0, positions.values()), positions.row_splits());
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int64_t>& rows) const {
  return gather_rows(rows);
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int32_t>& rows) const {
  return gather_rows(rows);
}

namespace ragged {

template <class T>
RaggedTensor<T> boolean_mask(const Tensor<T>& x, const Tensor<bool>& mask) {
  constexpr const char* op = "ragged::boolean_mask";
  const tessera::detail::OpScope scope(op);
  if (mask.dim() != 2 || x.dim() < 2 || x.size(0) != mask.size(0) || x.size(1) != mask.size(1)) {
    tessera::detail::raise<ShapeError>(op,
                                       "mask must be 2-d with the shape of x's first two dims: x ",
                                       x.shape(), ", mask ", mask.shape());
  }
  check_same_device(op, "mask", mask.device(), x.device());
  const std::int64_t nrows = x.size(0);
  const std::int64_t width = x.size(1);
  // The kept entries' flat positions (row-major), then each row's count, summed up.
  const Tensor<std::int64_t> positions = mask.reshape({-1}).nonzero().select(1, 0);
  const Tensor<std::int64_t> ends = count_nonzero(mask, {1}).cumsum(0);
  const Tensor<std::int64_t> splits = cat({Tensor<std::int64_t>::zeros({1}, x.device()), ends});
  const Tensor<T> entries = x.reshape(values_shape(nrows * width, x.shape(), 2));
  return RaggedTensor<T>::from_row_splits(entries.index_select(0, positions), splits, false);
}

#define TESSERA_INSTANTIATE_BOOLEAN_MASK(T) \
  template RaggedTensor<T> boolean_mask<T>(const Tensor<T>&, const Tensor<bool>&);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_BOOLEAN_MASK)
#undef TESSERA_INSTANTIATE_BOOLEAN_MASK

}  // namespace ragged

#define TESSERA_INSTANTIATE_RAGGED_SELECT(S, T)                                                    \
  template RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor(const Tensor<T>&, const Tensor<S>&); \
  template RaggedTensor<T, S> RaggedTensor<T, S>::from_tensor_padded(const Tensor<T>&, T);         \
  template RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int64_t>&) const;       \
  template RaggedTensor<T, S> RaggedTensor<T, S>::gather(const Tensor<std::int32_t>&) const;
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED_SELECT, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED_SELECT, int64_t)
#undef TESSERA_INSTANTIATE_RAGGED_SELECT

}  // namespace tessera
