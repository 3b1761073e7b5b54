// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file searchsorted.hpp
/// searchsorted and bucketize (PyTorch semantics) on tensors and expressions:
/// `seq.searchsorted(v)`, `seq.searchsorted<int32_t>(v, {.right = true})`,
/// `seq.searchsorted_out(v, out)`, `x.bucketize(boundaries)`, `(x * 2).bucketize(b, true)`.
///
/// The comparison is PyTorch's (left: step past x while `!(x >= v)`, right: while `!(x > v)`),
/// so NaN and ±inf land where PyTorch puts them. Values and sequence compare in their common
/// type. Values that are an expression are read inside the host kernel (no temporary). Nothing
/// waits for the GPU, except the range check of a sorter (PyTorch waits there too).

#include <cstdint>
#include <optional>
#include <type_traits>

#include "tessera/core/tensor_class.hpp"
#include "tessera/detail/search_kernels.hpp"
#include "tessera/detail/searchsorted_host.hpp"
#include "tessera/expr/evaluate.hpp"

#if TESSERA_DEVICE_CODE
#include "tessera/detail/searchsorted_device.cuh"
#endif

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

// [snippet:searchsorted-options]
/// Options of searchsorted, in PyTorch's order; designated initializers name what they set:
/// `{.right = true}`, `{.side = Side::Right}`, `{.sorter = order}`.
struct SearchSortedOptions {
  /// Report the last suitable position (`seq[i-1] <= v < seq[i]`) instead of the first.
  bool right = false;
  /// The preferred spelling of `right`; Side::Left together with right = true is a ValueError.
  std::optional<Side> side = std::nullopt;
  /// int64 of the sequence's shape: row-relative positions that sort each row ascending (as
  /// `argsort`); the results then index the sorted order.
  std::optional<Tensor<std::int64_t>> sorter = std::nullopt;
};
// [end-snippet]

namespace detail {

// Argument checks (src/ops/searchsorted_checks.cpp); each names op, argument and values.
/// `right` after reconciling it with `side` (ValueError when they disagree).
bool search_right(const char* op, bool right, std::optional<Side> side);
/// ShapeError unless `sequence` (named `sequence_name`) is n-d with n >= 1 and `values` fits it.
void check_search_shapes(const char* op, const char* sequence_name, const Shape& sequence,
                         const Shape& values);
/// Shape, device and range (IndexError) of a sorter for `sequence`.
void check_search_sorter(const char* op, const Tensor<std::int64_t>& sorter, const Shape& sequence,
                         Device device);
/// ValueError when int32 results cannot index rows of `sequence`'s length.
void check_search_int32(const char* op, const Shape& sequence);
/// ShapeError unless bucketize's boundaries are 1-d.
void check_bucketize_boundaries(const char* op, const Shape& boundaries);
/// DeviceError unless `got` (of argument `what`) is `expected`.
void check_search_device(const char* op, const char* what, Device got, Device expected);

template <class Index>
inline constexpr bool is_search_index_v =
    std::is_same_v<Index, std::int32_t> || std::is_same_v<Index, std::int64_t>;

/// The rows of `sequence` (and `sorter`) as the kernels read them.
template <class S>
SearchRows<S> search_rows_of(const Tensor<S>& sequence, const Tensor<std::int64_t>* sorter) {
  SearchRows<S> rows;
  const auto lead = static_cast<int>(sequence.dim()) - 1;
  rows.data = sequence.data();
  rows.length = sequence.shape().back();
  rows.stride = sequence.strides().back();
  rows.lead_ndim = lead;
  for (int d = 0; d < lead; ++d) {
    rows.lead_shape[d] = sequence.shape()[d];
    rows.lead_strides[d] = sequence.strides()[d];
  }
  if (sorter != nullptr) {
    rows.sorter = sorter->data();
    rows.sorter_stride = sorter->strides().back();
    for (int d = 0; d < lead; ++d) rows.sorter_lead_strides[d] = sorter->strides()[d];
  }
  return rows;
}

}  // namespace detail

namespace detail::cuda_ops {
/// The CUDA kernel over rows and values already in the compare type C (src/backend/cuda/).
template <class C, class Index>
void searchsorted(int device, const SearchRows<C>& rows, const TensorView<C>& values,
                  std::int64_t per_row, bool right, const TensorView<Index>& out);
}  // namespace detail::cuda_ops

/// Instantiates detail::cuda_ops::searchsorted for compare type C and both index types (the CUDA
/// backend, or its stand-in that raises DeviceError).
#define TESSERA_INSTANTIATE_SEARCHSORTED_CUDA(C)                                               \
  template void searchsorted<C, std::int32_t>(int, const SearchRows<C>&, const TensorView<C>&, \
                                              std::int64_t, bool,                              \
                                              const TensorView<std::int32_t>&);                \
  template void searchsorted<C, std::int64_t>(int, const SearchRows<C>&, const TensorView<C>&, \
                                              std::int64_t, bool,                              \
                                              const TensorView<std::int64_t>&);

namespace detail {
inline namespace TESSERA_EVAL_NS {

// The search itself, overloaded on the executor (executors.hpp); the device executor's
// overload is in detail/searchsorted_device.cuh.

template <class C, class Index, class S, class V>
void searchsorted_with(HostExecutor, const Tensor<S>&, const SearchRows<S>& rows, const V& values,
                       const Shape& values_shape, std::int64_t per_row, bool right,
                       const TensorView<Index>& result) {
  const auto k = expr_bind(values, values_shape);
  const bool linear = expr_linear(values, values_shape);
  const auto extents = Extents::of(values_shape);
  if (right) {
    searchsorted_host<true, C>(rows, k, extents, linear, per_row, result);
  } else {
    searchsorted_host<false, C>(rows, k, extents, linear, per_row, result);
  }
}

/// Host-compiled callers reach the precompiled device kernel with the values in C on the device
/// (searchsorted_into converts the sequence to C first).
template <class C, class Index, class S, class V>
void searchsorted_with(const cuda_nodes::NodeExecutor& executor, const Tensor<S>&,
                       const SearchRows<S>& rows, const V& values, const Shape&,
                       std::int64_t per_row, bool right, const TensorView<Index>& result) {
  if constexpr (!std::is_same_v<S, C>) {
    raise<DeviceError>("searchsorted", "internal: device rows must be in the compare type");
  } else {
    using VT = typename V::value_type;
    const Device device = Device::cuda(executor.device);
    Tensor<C> on_device;
    if constexpr (is_scalar_node<V>::value) {
      on_device = Tensor<C>::scalar(static_cast<C>(values.value), device);
    } else if constexpr (std::is_same_v<V, Tensor<C>>) {
      on_device = values;
    } else {
      static_assert(is_dtype_v<VT>);
      on_device = materialize<C>(values);
    }
    cuda_ops::searchsorted<C, Index>(executor.device, rows, on_device.view(), per_row, right,
                                     result);
  }
}

/// Answers every value against `sequence` (a tensor whose rows the kernels read) into `result`.
template <class C, class Index, class S, class V>
void searchsorted_run(const Tensor<S>& sequence, const V& values, const Shape& values_shape,
                      bool right, const Tensor<std::int64_t>* sorter,
                      const TensorView<Index>& result) {
  const auto rows = search_rows_of(sequence, sorter);
  const std::int64_t per_row = values_shape.empty() ? 1 : values_shape.back();
  with_executor(sequence.device(), [&](const auto& executor) {
    searchsorted_with<C>(executor, sequence, rows, values, values_shape, per_row, right, result);
  });
}

/// searchsorted(sequence, values) into `out`: validates everything first (so an error leaves
/// `out` untouched), writes into `out` when it has the values' shape (through its strides),
/// otherwise rebinds it to a new tensor.
template <class Index, class Seq, class Values>
void searchsorted_into(const char* op, const char* sequence_name, const Seq& sequence,
                       const Values& values_operand, bool right, const Tensor<std::int64_t>* sorter,
                       Tensor<Index>& out, bool out_given) {
  TESSERA_REQUIRE_ORDERED(typename Seq::value_type, "searchsorted, searchsorted_out and bucketize");
  const OpScope scope(op);
  static_assert(is_search_index_v<Index>,
                "searchsorted/bucketize: the result type is int64_t (default) or int32_t");
  const auto values = as_node(values_operand);
  using ValuesNode = std::remove_cvref_t<decltype(values)>;
  using S = typename Seq::value_type;
  using V = typename ValuesNode::value_type;
  static_assert(!std::is_same_v<S, bool> && !std::is_same_v<V, bool>,
                "searchsorted/bucketize: bool sequences and values are not supported (PyTorch "
                "refuses them too)");
  using C = common_t<Seq, ValuesNode>;

  const Shape sequence_shape = expr_shape(sequence);
  const Shape values_shape = expr_shape(values);
  check_search_shapes(op, sequence_name, sequence_shape, values_shape);
  const Device device = device_of(sequence);
  if (const auto values_device = expr_device(values)) {
    check_search_device(op, "values", *values_device, device);
  }
  if (out_given) check_search_device(op, "out", out.device(), device);
  if (sorter != nullptr) check_search_sorter(op, *sorter, sequence_shape, device);
  if constexpr (std::is_same_v<Index, std::int32_t>) check_search_int32(op, sequence_shape);

  // Write straight into `out` unless it must be resized or shares memory with an input in any
  // way (the out= rule, docs/reliability.md): even a value read element for element may be read
  // again after its slot is written (the merge path reads values ahead).
  bool in_place = out_given && out.shape() == values_shape && out.storage().data() != nullptr;
  if (in_place) require_writable(op, out.shape(), out.strides());
  if (in_place) {
    in_place = !expr_reads_storage_of(values, out) && !expr_reads_storage_of(sequence, out) &&
               !(sorter != nullptr && sorter->storage().data() == out.storage().data());
  }
  Tensor<Index> result = in_place ? out : Tensor<Index>::empty(values_shape, device);

  // The kernels read rows of C fastest from a contiguous row; a sequence of another type or
  // layout is converted once (a copy of the sequence, small next to the values it serves)
  // unless it is the larger input, where the host converts on every probe instead.
  const std::int64_t values_count = values_shape.numel();
  if (values_count != 0) {
    if constexpr (std::is_same_v<Seq, Tensor<S>>) {
      const bool larger = sequence.numel() > values_count;
      const bool read_as_is = std::is_same_v<S, C>
                                  ? sorter != nullptr || larger || sequence.strides().back() == 1
                                  : device.is_cpu() && sorter == nullptr && larger;
      if (read_as_is) {
        searchsorted_run<C>(sequence, values, values_shape, right, sorter, result.view());
      } else {
        searchsorted_run<C>(materialize<C>(sequence), values, values_shape, right, sorter,
                            result.view());
      }
    } else {
      searchsorted_run<C>(materialize<C>(sequence), values, values_shape, right, sorter,
                          result.view());
    }
  }
  if (in_place) return;
  if (out_given && out.shape() == values_shape) {
    assign_expression(out, result);  // shared memory: copy through out's strides
  } else {
    out = result;
  }
}

}  // namespace TESSERA_EVAL_NS
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// Indices into each row of `sorted_sequence` at which `values` would be inserted to keep it
/// sorted (PyTorch's `torch.searchsorted`). The result has the values' shape (0-d for a scalar)
/// and type Index (int64_t, or int32_t for PyTorch's out_int32).
///
///     auto seq = tessera::tensor<float>({1, 3, 5, 7, 9});
///     auto i = tessera::searchsorted(seq, tessera::tensor<float>({3, 6, 9}));  // [1, 3, 4]
///     auto j = tessera::searchsorted(seq, tessera::tensor<float>({3, 6, 9}), {.right = true});
template <class Index = std::int64_t, Expression Seq, Operand Values>
Tensor<Index> searchsorted(const Seq& sorted_sequence, const Values& values,
                           const SearchSortedOptions& options = {}) {
  const bool right = detail::search_right("searchsorted", options.right, options.side);
  Tensor<Index> out;
  detail::searchsorted_into<Index>("searchsorted", "sorted_sequence", sorted_sequence, values,
                                   right, options.sorter ? &*options.sorter : nullptr, out, false);
  return out;
}

/// searchsorted into `out` (int32 or int64, on the sequence's device): written through its
/// strides when it has the values' shape, resized otherwise; untouched when an argument is bad.
template <Expression Seq, Operand Values, class Index>
void searchsorted_out(const Seq& sorted_sequence, const Values& values, Tensor<Index>& out,
                      const SearchSortedOptions& options = {}) {
  const bool right = detail::search_right("searchsorted_out", options.right, options.side);
  detail::searchsorted_into<Index>("searchsorted_out", "sorted_sequence", sorted_sequence, values,
                                   right, options.sorter ? &*options.sorter : nullptr, out, true);
}

/// The index of the bucket of each element of `input` among the 1-d sorted `boundaries`
/// (PyTorch's `torch.bucketize`): right = false gives `boundaries[i-1] < x <= boundaries[i]`,
/// right = true `boundaries[i-1] <= x < boundaries[i]` (the opposite of `numpy.digitize`).
/// Equal to `searchsorted(boundaries, input, {.right = right})`.
template <class Index = std::int64_t, Operand Input, Expression Boundaries>
Tensor<Index> bucketize(const Input& input, const Boundaries& boundaries, bool right = false) {
  detail::check_bucketize_boundaries("bucketize", detail::expr_shape(boundaries));
  Tensor<Index> out;
  detail::searchsorted_into<Index>("bucketize", "boundaries", boundaries, input, right, nullptr,
                                   out, false);
  return out;
}

/// bucketize into `out` (int32 or int64): as searchsorted_out.
template <Operand Input, Expression Boundaries, class Index>
void bucketize_out(const Input& input, const Boundaries& boundaries, Tensor<Index>& out,
                   bool right = false) {
  detail::check_bucketize_boundaries("bucketize_out", detail::expr_shape(boundaries));
  detail::searchsorted_into<Index>("bucketize_out", "boundaries", boundaries, input, right, nullptr,
                                   out, true);
}

}  // namespace TESSERA_EVAL_NS

template <class D>
template <class Index, class Values>
TESSERA_EVAL_TAG Tensor<Index> SearchSortedMethods<D>::searchsorted(const Values& values) const {
  return tessera::searchsorted<Index>(self(), values);
}
template <class D>
template <class Index, class Values>
TESSERA_EVAL_TAG Tensor<Index> SearchSortedMethods<D>::searchsorted(
    const Values& values, const SearchSortedOptions& options) const {
  return tessera::searchsorted<Index>(self(), values, options);
}
template <class D>
template <class Values, class Index>
TESSERA_EVAL_TAG void SearchSortedMethods<D>::searchsorted_out(const Values& values,
                                                               Tensor<Index>& out) const {
  tessera::searchsorted_out(self(), values, out);
}
template <class D>
template <class Values, class Index>
TESSERA_EVAL_TAG void SearchSortedMethods<D>::searchsorted_out(
    const Values& values, Tensor<Index>& out, const SearchSortedOptions& options) const {
  tessera::searchsorted_out(self(), values, out, options);
}
template <class D>
template <class Index, class Boundaries>
TESSERA_EVAL_TAG Tensor<Index> SearchSortedMethods<D>::bucketize(const Boundaries& boundaries,
                                                                 bool right) const {
  return tessera::bucketize<Index>(self(), boundaries, right);
}
template <class D>
template <class Boundaries, class Index>
TESSERA_EVAL_TAG void SearchSortedMethods<D>::bucketize_out(const Boundaries& boundaries,
                                                            Tensor<Index>& out, bool right) const {
  tessera::bucketize_out(self(), boundaries, out, right);
}

}  // namespace tessera

TESSERA_EVAL_TAGS_END
