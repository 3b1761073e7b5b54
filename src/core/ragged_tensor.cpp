// SPDX-License-Identifier: BSD-3-Clause
// RaggedTensor's members, instantiated once per (dtype, row-splits type) in the library.
// Factories validate on a host copy of the partition (one wait for a CUDA device); the row
// queries run on the tensor's own device.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "backend/host/ragged_host.hpp"
#include "tessera/core/error.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

template <class T, class S>
RaggedTensor<T, S>::RaggedTensor() : values_(), row_splits_(Tensor<S>::zeros({1})) {}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_row_splits(const Tensor<T>& values,
                                                       const Tensor<S>& row_splits, bool validate) {
  constexpr const char* op = "RaggedTensor::from_row_splits";
  const detail::OpScope scope(op);
  detail::check_ragged_values(op, values.shape());
  detail::check_ragged_vector(op, "row_splits", row_splits.shape(), row_splits.device(),
                              values.device());
  if (validate) detail::check_row_splits(op, row_splits.to_vector(), values.size(0));
  return RaggedTensor(values, row_splits);
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_row_lengths(const Tensor<T>& values,
                                                        const Tensor<S>& row_lengths,
                                                        bool validate) {
  constexpr const char* op = "RaggedTensor::from_row_lengths";
  const detail::OpScope scope(op);
  detail::check_ragged_values(op, values.shape());
  detail::check_ragged_vector(op, "row_lengths", row_lengths.shape(), row_lengths.device(),
                              values.device());
  const std::vector<S> lengths = row_lengths.to_vector();
  std::vector<S> splits(lengths.size() + 1, 0);
  std::int64_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (validate && lengths[i] < 0) {
      detail::raise<ValueError>(op, "row_lengths[", i,
                                "] = ", static_cast<std::int64_t>(lengths[i]), " must be >= 0");
    }
    // Compared before adding: total <= values.size(0) here, so a length near INT64_MAX cannot
    // overflow the sum (the sum itself fits in uint64: both terms are in [0, INT64_MAX]).
    if (validate && static_cast<std::int64_t>(lengths[i]) > values.size(0) - total) {
      detail::raise<ValueError>(
          op, "row_lengths[:", i + 1, "] sum to ",
          static_cast<std::uint64_t>(total) + static_cast<std::uint64_t>(lengths[i]),
          ", more than the number of values ", values.size(0));
    }
    // Unvalidated input is the caller's promise; wrap rather than overflow if it is broken.
    total = static_cast<std::int64_t>(static_cast<std::uint64_t>(total) +
                                      static_cast<std::uint64_t>(lengths[i]));
    splits[i + 1] = static_cast<S>(total);
  }
  if (validate && total != values.size(0)) {
    detail::raise<ValueError>(op, "row_lengths sum to ", total, ", not the number of values ",
                              values.size(0));
  }
  return RaggedTensor(values, Tensor<S>::from_vector(splits, values.device()));
}

namespace {
/// The checks that need no nrows, named after the entry the user passed: a negative id, or an
/// id smaller than the one before it (TensorFlow's "must be non-decreasing"). Run before any
/// check against nrows, so that `{1, 0}` is reported as out of order and `{0, -5}` as negative,
/// whether nrows was given or inferred from the last id.
template <class S>
void check_value_rowids_order(const std::vector<S>& ids) {
  constexpr const char* op = "RaggedTensor::from_value_rowids";
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto id = static_cast<std::int64_t>(ids[k]);
    if (id < 0) detail::raise<ValueError>(op, "value_rowids[", k, "] = ", id, " must be >= 0");
    if (k > 0 && ids[k] < ids[k - 1]) {
      detail::raise<ValueError>(op, "value_rowids must be non-decreasing, got value_rowids[", k - 1,
                                "] = ", static_cast<std::int64_t>(ids[k - 1]), " > value_rowids[",
                                k, "] = ", id);
    }
  }
}
}  // namespace

namespace {
/// The row splits of `values` partitioned by `ids` (value_rowids on the host) into `nrows`
/// rows, on the values' device; with `validate`, the ids are checked first.
template <class T, class S>
Tensor<S> splits_of_value_rowids(const Tensor<T>& values, const std::vector<S>& ids,
                                 std::int64_t nrows, bool validate) {
  constexpr const char* op = "RaggedTensor::from_value_rowids";
  const auto n = static_cast<std::int64_t>(ids.size());
  if (n != values.size(0)) {
    detail::raise<ValueError>(op, "value_rowids has ", n, " entries but there are ", values.size(0),
                              " values");
  }
  if (nrows < 0) detail::raise<ValueError>(op, "nrows must be >= 0, got ", nrows);
  // The row partition counts rows in S (TensorFlow's nrows has the splits' dtype).
  if (nrows > static_cast<std::int64_t>(std::numeric_limits<S>::max())) {
    detail::raise<ValueError>(op, "nrows = ", nrows, " does not fit the ", dtype_name(dtype_v<S>),
                              " row partition");
  }
  if (validate) {
    check_value_rowids_order(ids);
    for (std::int64_t k = 0; k < n; ++k) {
      if (static_cast<std::int64_t>(ids[k]) >= nrows) {
        detail::raise<ValueError>(op, "value_rowids[", k, "] = ", static_cast<std::int64_t>(ids[k]),
                                  " is not in [0, nrows = ", nrows, ")");
      }
    }
  }
  // nrows is the caller's number: nrows + 1 splits whose byte count overflows int64 are refused
  // here, in this op's name, and a merely impossible request raises the allocator's Error.
  if (nrows >= std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(sizeof(S))) {
    detail::raise<ValueError>(op, "nrows = ", nrows, " needs ", nrows, " + 1 row splits of ",
                              sizeof(S), " bytes, more than fit in int64 bytes");
  }
  // splits[i] = number of values in rows before i. A tessera tensor, not a std::vector: nrows
  // is the caller's number, and a request beyond memory must raise tessera::Error.
  Tensor<S> splits = Tensor<S>::empty({nrows + 1});
  S* const out = splits.data();
  std::int64_t k = 0;
  for (std::int64_t i = 0; i <= nrows; ++i) {
    while (k < n && ids[k] < i) ++k;
    out[i] = static_cast<S>(k);
  }
  return values.device().is_cpu() ? splits : splits.to(values.device());
}
}  // namespace

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_value_rowids(const Tensor<T>& values,
                                                         const Tensor<S>& value_rowids,
                                                         std::int64_t nrows, bool validate) {
  constexpr const char* op = "RaggedTensor::from_value_rowids";
  const detail::OpScope scope(op);
  detail::check_ragged_values(op, values.shape());
  detail::check_ragged_vector(op, "value_rowids", value_rowids.shape(), value_rowids.device(),
                              values.device());
  return RaggedTensor(values,
                      splits_of_value_rowids(values, value_rowids.to_vector(), nrows, validate));
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::from_value_rowids(const Tensor<T>& values,
                                                         const Tensor<S>& value_rowids) {
  constexpr const char* op = "RaggedTensor::from_value_rowids";
  const detail::OpScope scope(op);
  std::vector<S> ids;  // one copy to the host serves nrows, the checks and the splits
  std::int64_t nrows = 0;
  if (value_rowids.dim() == 1 && value_rowids.numel() > 0) {
    // nrows comes from the last id, so the ids are checked first: an error must point at an
    // entry the caller wrote, not at an nrows the caller never passed.
    ids = value_rowids.to_vector();
    check_value_rowids_order(ids);
    const auto last = static_cast<std::int64_t>(ids.back());
    // nrows = last + 1 must be an S, as in TensorFlow (where the sum is taken in S).
    if (last == static_cast<std::int64_t>(std::numeric_limits<S>::max())) {
      detail::raise<ValueError>(op, "value_rowids[-1] = ", last,
                                " leaves no room for nrows = value_rowids[-1] + 1 in ",
                                dtype_name(dtype_v<S>));
    }
    nrows = last + 1;
  }
  detail::check_ragged_values(op, values.shape());
  detail::check_ragged_vector(op, "value_rowids", value_rowids.shape(), value_rowids.device(),
                              values.device());
  // Non-negative and non-decreasing (checked above) with nrows = last + 1: every id is a row.
  return RaggedTensor(values, splits_of_value_rowids(values, ids, nrows, /*validate=*/false));
}

template <class T, class S>
Tensor<S> RaggedTensor<T, S>::row_lengths() const {
  const detail::OpScope scope("RaggedTensor::row_lengths");
  const std::int64_t n = nrows();
  return Tensor<S>(row_splits_.slice(0, 1, n + 1) - row_splits_.slice(0, 0, n));
}

template <class T, class S>
Tensor<S> RaggedTensor<T, S>::value_rowids() const {
  const detail::OpScope scope("RaggedTensor::value_rowids");
  const std::int64_t nvalues = values_.size(0);
  if (device().is_cpu()) {
    Tensor<S> ids = Tensor<S>::empty({nvalues});
    const Tensor<S> splits = row_splits_.contiguous();
    S* const out = ids.data();
    detail::ragged_for_each_run(
        splits.data(), nrows(), nvalues,
        [=](std::int64_t row, std::int64_t first, std::int64_t last, std::int64_t) {
          std::fill(out + first, out + last, static_cast<S>(row));
        });
    return ids;
  }
  // On a GPU: the row of value k is the number of row ends <= k.
  SearchSortedOptions right;
  right.right = true;
  const Tensor<S> ends = row_splits_.slice(0, 1);
  return ends.template searchsorted<S>(Tensor<S>::arange(0, static_cast<S>(nvalues), 1, device()),
                                       right);
}

template <class T, class S>
Tensor<T> RaggedTensor<T, S>::row(std::int64_t i) const {
  const detail::OpScope scope("RaggedTensor::row");
  const std::int64_t n = nrows();
  const std::int64_t r = i < 0 ? i + n : i;
  if (r < 0 || r >= n) {
    detail::raise<IndexError>("RaggedTensor::row", "row ", i, " is out of range for ", n, " rows");
  }
  const std::vector<S> bounds = row_splits_.slice(0, r, r + 2).to_vector();
  return values_.slice(0, bounds[0], bounds[1]);
}

template <class T, class S>
std::vector<std::vector<T>> RaggedTensor<T, S>::to_list() const {
  const detail::OpScope scope("RaggedTensor::to_list");
  if (values_.dim() != 1) {
    detail::raise<ShapeError>("RaggedTensor::to_list", "needs 1-d values, got shape ",
                              values_.shape());
  }
  const auto values = values_.to_vector();
  const std::vector<S> splits = row_splits_.to_vector();
  std::vector<std::vector<T>> rows(splits.size() - 1);
  for (std::size_t i = 0; i + 1 < splits.size(); ++i) {
    rows[i].assign(values.begin() + splits[i], values.begin() + splits[i + 1]);
  }
  return rows;
}

template <class T, class S>
RaggedTensor<T, S> RaggedTensor<T, S>::to(Device device) const {
  const detail::OpScope scope("RaggedTensor::to");
  return RaggedTensor(values_.to(device), row_splits_.to(device));
}

template <class T, class S>
Tensor<T> RaggedTensor<T, S>::to_tensor(T pad) const {
  const detail::OpScope scope("RaggedTensor::to_tensor");
  const std::int64_t n = nrows();
  std::int64_t width = 0;
  if (n > 0) width = static_cast<std::int64_t>(max(row_lengths()));
  Shape shape = values_.shape();
  // Values of shape (m, 2^40, 2^40, 0) exist: the inner product must not overflow before the 0.
  const std::int64_t inner =
      detail::extent_product(shape.data() + 1, static_cast<int>(shape.size()) - 1);
  std::vector<std::int64_t> dims{n, width};
  for (std::size_t d = 1; d < shape.size(); ++d) dims.push_back(shape[d]);
  Tensor<T> dense = Tensor<T>::empty(Shape(dims.begin(), dims.end()), device());
  if (dense.numel() == 0) return dense;
  const Tensor<T> values = values_.contiguous();
  const Tensor<S> splits = row_splits_.contiguous();
  if (!device().is_cpu()) {
    detail::ragged_ops::to_tensor_cuda<T, S>(device().index(), values.data(), splits.data(), n,
                                             width, inner, pad, dense.data());
    return dense;
  }
  const T* src = values.data();
  const S* sp = splits.data();
  T* out = dense.data();
  const std::int64_t row_size = width * inner;
  const std::int64_t rows_per_block =
      std::max<std::int64_t>(1, detail::kRaggedValueBlock / row_size);
  detail::host_parallel_for((n + rows_per_block - 1) / rows_per_block, [=](std::int64_t b) {
    const std::int64_t end = std::min(n, (b + 1) * rows_per_block);
    for (std::int64_t i = b * rows_per_block; i < end; ++i) {
      const std::int64_t used = (static_cast<std::int64_t>(sp[i + 1]) - sp[i]) * inner;
      T* dst = out + i * row_size;
      std::copy(src + sp[i] * inner, src + sp[i] * inner + used, dst);
      std::fill(dst + used, dst + row_size, pad);
    }
  });
  return dense;
}

#define TESSERA_INSTANTIATE_RAGGED(S, T) template class RaggedTensor<T, S>;
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED, int64_t)
#undef TESSERA_INSTANTIATE_RAGGED

}  // namespace tessera
