// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter.hpp
/// tensor_scatter_nd_sub and its siblings add, update, min and max (TensorFlow semantics):
/// `t.tensor_scatter_nd_sub(indices, updates)` returns a new tensor, `t.scatter_nd_sub_(...)`
/// works in place, `tessera::tensor_scatter_nd_sub(t, indices, updates)` is the free twin.
///
/// Row i of `indices` (int32 or int64, last extent K) names element or slice
/// `t[indices[i, 0], ..., indices[i, K-1]]`, which is combined with `updates[i]`. Duplicate
/// rows all apply, in index order on the host (bit-identical to TensorFlow's CPU loop, run
/// after run). An index outside the tensor raises IndexError in TensorFlow's words on every
/// device before anything is written, unless `{.out_of_bounds = OutOfBounds::Ignore}` skips
/// such rows. Updates may be an expression (`u * 0.5f`), read inside the host kernel.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/core/tensor_class.hpp"
#include "tessera/detail/scatter_host.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/evaluate.hpp"

#if TESSERA_DEVICE_CODE
#include "tessera/detail/scatter_device.cuh"
#endif

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

// [snippet:scatter-options]
/// What tensor_scatter_nd_* does with an index row that names no element of the tensor.
enum class OutOfBounds {
  Error,  ///< IndexError before anything is written (TensorFlow's CPU behaviour), every device
  Ignore  ///< skip the row (TensorFlow's `bad_indices_policy="IGNORE"`)
};

/// Options of tensor_scatter_nd_*, members in this order (designated initializers name what
/// they set: `{.out_of_bounds = OutOfBounds::Ignore, .deterministic = true}`).
struct ScatterOptions {
  /// What an index row outside the tensor does (an IndexError by default).
  OutOfBounds out_of_bounds = OutOfBounds::Error;
  /// CUDA: apply duplicates in index order (a stable sort by destination), giving the host's
  /// bits, instead of atomics. The host is always deterministic.
  bool deterministic = false;
};
// [end-snippet]

namespace detail {

// Argument checks (src/ops/scatter_checks.cpp); each names op, argument and values.
/// ShapeError unless tensor (n >= 1 dims), indices (rank >= 1, last extent K in [1, n]) and
/// updates (`indices.shape[:-1] + tensor.shape[K:]`) fit together, and unless updates go into
/// a tensor without elements.
void check_scatter_shapes(const char* op, const Shape& tensor, const Shape& indices,
                          const Shape& updates);
/// DeviceError unless `got` (of argument `what`) is the tensor's device.
void check_scatter_device(const char* op, const char* what, Device got, Device expected);
/// IndexError in TensorFlow's words: `indices[2] = [6] does not index into shape [6]`.
[[noreturn]] void raise_scatter_out_of_bounds(const char* op, const Shape& indices,
                                              std::int64_t row, const std::int64_t* values,
                                              const Shape& tensor);

namespace host_ops {
/// The host kernel over a tensor of updates, instantiated once in the library
/// (src/backend/host/scatter.cpp); returns the first bad row as scatter_host does.
template <class T, class Index>
std::int64_t scatter_nd(ScatterOpId op, T* out, const T* source, std::int64_t numel,
                        const ScatterGeometry& g, const Index* indices, std::int64_t rows,
                        const TensorView<T>& updates, bool check);
}  // namespace host_ops

namespace cuda_ops {
/// The lowest position of a row outside `g` (or `rows`): one device reduction, one sync.
template <class Index>
std::int64_t scatter_first_bad(int device, const ScatterGeometry& g, const Index* indices,
                               std::int64_t rows);
/// Applies op in place on the contiguous `out`, skipping rows outside `g`; queued, no sync.
template <class T, class Index>
void scatter_nd(int device, ScatterOpId op, T* out, const ScatterGeometry& g, const Index* indices,
                std::int64_t rows, const TensorView<T>& updates, bool deterministic);
}  // namespace cuda_ops

/// Instantiates cuda_ops::scatter_first_bad for an index type (the CUDA backend or its stand-in).
#define TESSERA_INSTANTIATE_SCATTER_CHECK_CUDA(Index)                                       \
  template std::int64_t scatter_first_bad<Index>(int, const ScatterGeometry&, const Index*, \
                                                 std::int64_t);
/// Instantiates cuda_ops::scatter_nd for dtype T and both index types.
#define TESSERA_INSTANTIATE_SCATTER_CUDA(T)                                               \
  template void scatter_nd<T, std::int32_t>(int, ScatterOpId, T*, const ScatterGeometry&, \
                                            const std::int32_t*, std::int64_t,            \
                                            const TensorView<T>&, bool);                  \
  template void scatter_nd<T, std::int64_t>(int, ScatterOpId, T*, const ScatterGeometry&, \
                                            const std::int64_t*, std::int64_t,            \
                                            const TensorView<T>&, bool);

template <class Index>
inline constexpr bool is_scatter_index_v =
    std::is_same_v<Index, std::int32_t> || std::is_same_v<Index, std::int64_t>;

/// True when the scatter of an rvalue `tensor` may write into its memory and return it: tessera
/// allocated the memory (not from_blob / from_dlpack, which something outside may still use),
/// this is its only owner (no other handle, view, expression or DLPack export), and the tensor
/// is contiguous from the storage's first byte to its last.
template <class T>
bool scatter_may_reuse(const Tensor<T>& tensor) noexcept {
  const Storage& storage = tensor.storage();
  return storage.use_count() == 1 && !storage.is_external() && tensor.storage_offset() == 0 &&
         tensor.is_contiguous() &&
         static_cast<std::size_t>(tensor.numel()) * sizeof(T) == storage.nbytes();
}

inline namespace TESSERA_EVAL_NS {

/// Raises the IndexError for row `row` of the contiguous `indices` (any device).
template <class Index>
[[noreturn]] void raise_scatter_row(const char* op, const Tensor<Index>& indices, std::int64_t row,
                                    const Shape& indices_shape, const Shape& tensor) {
  const std::int64_t k = indices_shape.back();
  const auto values = indices.reshape({-1, k}).select(0, row).template cast<std::int64_t>();
  const auto host = values.to_vector();
  raise_scatter_out_of_bounds(op, indices_shape, row, host.data(), tensor);
}

// The device half of the scatter, overloaded on the executor (executors.hpp); the device
// executor's overloads are in detail/scatter_device.cuh.

/// Host-compiled units: the precompiled bounds check.
template <class Index>
std::int64_t scatter_first_bad_with(const cuda_nodes::NodeExecutor& executor,
                                    const ScatterGeometry& g, const Index* indices,
                                    std::int64_t rows) {
  return cuda_ops::scatter_first_bad(executor.device, g, indices, rows);
}

/// Host-compiled units: the precompiled kernel reads a tensor of T, so other updates (and
/// updates that read the output's memory) become one first.
template <class Op, class T, class Index, class U>
void scatter_apply_with(const cuda_nodes::NodeExecutor& executor, T* out, const ScatterGeometry& g,
                        const Index* indices, std::int64_t rows, const U& updates_operand,
                        const Shape&, bool updates_alias, bool deterministic) {
  Tensor<T> updates;
  if constexpr (std::is_same_v<U, Tensor<T>>) {
    updates = updates_alias ? updates_operand.clone() : updates_operand;
  } else {
    updates = materialize<T>(updates_operand);
  }
  cuda_ops::scatter_nd<T, Index>(executor.device, Op::id, out, g, indices, rows, updates.view(),
                                 deterministic);
}

/// The family's one implementation: validates everything, then combines `updates` into
/// `target` (in place) or into a copy of `tensor` (returned).
template <class Op, class T, class Index, class U>
Tensor<T> scatter_nd_run(const Tensor<T>& tensor, const Tensor<Index>& indices_operand,
                         const U& updates_operand, const ScatterOptions& options, bool in_place) {
  static_assert(is_scatter_index_v<Index>,
                "tensor_scatter_nd_*: indices must be Tensor<int32_t> or Tensor<int64_t>");
  static_assert(std::is_same_v<Op, scatter_ops::Update> || !std::is_same_v<T, bool>,
                "tensor_scatter_nd_sub/add/min/max: bool tensors are not supported (TensorFlow "
                "has no bool kernel either); tensor_scatter_nd_update accepts them");
  static_assert(Expression<U>, "tensor_scatter_nd_*: updates must be a tensor or an expression");
  using V = typename U::value_type;
  static_assert(std::is_convertible_v<V, T>,
                "tensor_scatter_nd_*: the updates' element type must convert to the tensor's");
  const char* op = Op::name;
  const OpScope scope(op);
  const Shape updates_shape = expr_shape(updates_operand);
  check_scatter_shapes(op, tensor.shape(), indices_operand.shape(), updates_shape);
  const Device device = tensor.device();
  check_scatter_device(op, "indices", indices_operand.device(), device);
  if (const auto updates_device = expr_device(updates_operand)) {
    check_scatter_device(op, "updates", *updates_device, device);
  }

  const Shape& indices_shape = indices_operand.shape();
  const int k = static_cast<int>(indices_shape.back());
  const std::int64_t rows = indices_shape.numel() / k;
  const auto g = ScatterGeometry::of(tensor.shape(), k);
  const bool check = options.out_of_bounds == OutOfBounds::Error;
  const std::int64_t numel = tensor.numel();

  // In place, updates or indices that read the tensor's memory are copied first, so the
  // scatter never reads what it has already written.
  const Tensor<Index> indices =
      in_place && indices_operand.storage().data() == tensor.storage().data()
          ? indices_operand.clone()
          : indices_operand.contiguous();
  bool updates_alias = false;
  if (in_place && tensor.storage().data() != nullptr) {
    const AliasQuery query{tensor.storage().data(), nullptr, &tensor.shape(), &tensor.strides()};
    updates_alias = expr_aliases(updates_operand, query);
  }

  if (device.is_cpu()) {
    // The output: the tensor itself (in place, contiguous), or a fresh tensor that the kernel
    // fills from a contiguous source while it scatters.
    Tensor<T> out;
    const T* source = nullptr;
    if (in_place && tensor.is_contiguous()) {
      out = tensor;
    } else if (!in_place && tensor.is_contiguous()) {
      out = Tensor<T>::empty(tensor.shape(), device);
      source = tensor.data();
    } else {
      out = tensor.clone();
    }
    if (rows > 0 || source != nullptr) {
      std::int64_t bad = rows;
      if constexpr (std::is_same_v<U, Tensor<T>>) {
        const Tensor<T> updates = updates_alias ? updates_operand.clone() : updates_operand;
        bad = host_ops::scatter_nd<T, Index>(Op::id, out.data(), source, numel, g, indices.data(),
                                             rows, updates.view(), check);
      } else if (updates_alias) {
        const auto updates = materialize<T>(updates_operand);
        bad = host_ops::scatter_nd<T, Index>(Op::id, out.data(), source, numel, g, indices.data(),
                                             rows, updates.view(), check);
      } else {
        bad =
            scatter_host<Op>(out.data(), source, numel, g, indices.data(), rows,
                             expr_bind(updates_operand, updates_shape), Extents::of(updates_shape),
                             expr_linear(updates_operand, updates_shape), check);
      }
      // In place the kernel wrote nothing; out of place `out` is dropped unseen.
      if (check && bad < rows) raise_scatter_row(op, indices, bad, indices_shape, tensor.shape());
    }
    if (in_place && !tensor.is_contiguous()) {
      Tensor<T> target = tensor;
      assign_expression(target, out);
    }
    return out;
  }

  const UnitDeviceExecutor executor{device.index()};
  if (check && rows > 0) {
    const std::int64_t bad = scatter_first_bad_with(executor, g, indices.data(), rows);
    if (bad < rows) raise_scatter_row(op, indices, bad, indices_shape, tensor.shape());
  }
  Tensor<T> out = in_place && tensor.is_contiguous() ? tensor : tensor.clone();
  if (rows > 0) {
    scatter_apply_with<Op>(executor, out.data(), g, indices.data(), rows, updates_operand,
                           updates_shape, updates_alias, options.deterministic);
  }
  if (in_place && !tensor.is_contiguous()) {
    Tensor<T> target = tensor;
    assign_expression(target, out);
  }
  return out;
}

}  // namespace TESSERA_EVAL_NS
}  // namespace detail

// One block per member of the family: the copying form, its rvalue overload (which writes into
// the rvalue's memory when detail::scatter_may_reuse allows, else copies), the in-place form
// (`name_`), each with and without options, as free functions and as Tensor methods.
/// Defines tensor_scatter_nd_NAME and INPLACE (free functions and Tensor methods) for OP.
#define TESSERA_SCATTER_FAMILY(NAME, INPLACE, OP)                                               \
  inline namespace TESSERA_EVAL_NS {                                                            \
  template <class T, class Index, Expression Updates>                                           \
  Tensor<T> NAME(const Tensor<T>& tensor, const Tensor<Index>& indices, const Updates& updates, \
                 const ScatterOptions& options = {}) {                                          \
    return detail::scatter_nd_run<detail::scatter_ops::OP>(tensor, indices, updates, options,   \
                                                           false);                              \
  }                                                                                             \
  template <class T, class Index, Expression Updates>                                           \
  Tensor<T> NAME(Tensor<T>&& tensor, const Tensor<Index>& indices, const Updates& updates,      \
                 const ScatterOptions& options = {}) {                                          \
    if (!detail::scatter_may_reuse(tensor)) {                                                   \
      return NAME(std::as_const(tensor), indices, updates, options);                            \
    }                                                                                           \
    detail::scatter_nd_run<detail::scatter_ops::OP>(tensor, indices, updates, options, true);   \
    return std::exchange(tensor, Tensor<T>());                                                  \
  }                                                                                             \
  template <class T, class Index, Expression Updates>                                           \
  Tensor<T>& INPLACE(Tensor<T>& tensor, const Tensor<Index>& indices, const Updates& updates,   \
                     const ScatterOptions& options = {}) {                                      \
    detail::scatter_nd_run<detail::scatter_ops::OP>(tensor, indices, updates, options, true);   \
    return tensor;                                                                              \
  }                                                                                             \
  }                                                                                             \
  template <class T>                                                                            \
  template <class Index, class Updates>                                                         \
  TESSERA_EVAL_TAG Tensor<T> ScatterMethods<Tensor<T>>::NAME(const Tensor<Index>& indices,      \
                                                             const Updates& updates) const& {   \
    return tessera::NAME(self(), indices, updates);                                             \
  }                                                                                             \
  template <class T>                                                                            \
  template <class Index, class Updates>                                                         \
  TESSERA_EVAL_TAG Tensor<T> ScatterMethods<Tensor<T>>::NAME(const Tensor<Index>& indices,      \
                                                             const Updates& updates)&& {        \
    return tessera::NAME(std::move(self()), indices, updates);                                  \
  }                                                                                             \
  template <class T>                                                                            \
  template <class Index, class Updates>                                                         \
  TESSERA_EVAL_TAG Tensor<T> ScatterMethods<Tensor<T>>::NAME(                                   \
      const Tensor<Index>& indices, const Updates& updates, const ScatterOptions& options)      \
      const& {                                                                                  \
    return tessera::NAME(self(), indices, updates, options);                                    \
  }                                                                                             \
  template <class T>                                                                            \
  template <class Index, class Updates>                                                         \
  TESSERA_EVAL_TAG Tensor<T> ScatterMethods<Tensor<T>>::NAME(                                   \
      const Tensor<Index>& indices, const Updates& updates, const ScatterOptions& options)&& {  \
    return tessera::NAME(std::move(self()), indices, updates, options);                         \
  }                                                                                             \
  template <class T>                                                                            \
  template <class Index, class Updates>                                                         \
  TESSERA_EVAL_TAG Tensor<T>& ScatterMethods<Tensor<T>>::INPLACE(const Tensor<Index>& indices,  \
                                                                 const Updates& updates) {      \
    return tessera::INPLACE(self(), indices, updates);                                          \
  }                                                                                             \
  template <class T>                                                                            \
  template <class Index, class Updates>                                                         \
  TESSERA_EVAL_TAG Tensor<T>& ScatterMethods<Tensor<T>>::INPLACE(                               \
      const Tensor<Index>& indices, const Updates& updates, const ScatterOptions& options) {    \
    return tessera::INPLACE(self(), indices, updates, options);                                 \
  }

/// `tensor_scatter_nd_sub(t, indices, updates)`: a copy of t with updates subtracted at indices
/// (TensorFlow's `tf.tensor_scatter_nd_sub`); `scatter_nd_sub_` subtracts in place.
///
///     auto t = tessera::Tensor<int32_t>::ones({8});
///     auto i = tessera::tensor<int64_t>({{4}, {3}, {1}, {7}});
///     auto u = tessera::tensor<int32_t>({9, 10, 11, 12});
///     auto r = t.tensor_scatter_nd_sub(i, u);  // [1, -10, 1, -9, -8, 1, 1, -11]
TESSERA_SCATTER_FAMILY(tensor_scatter_nd_sub, scatter_nd_sub_, Sub)
/// `tensor_scatter_nd_add`: adds updates at indices; `scatter_nd_add_` in place.
TESSERA_SCATTER_FAMILY(tensor_scatter_nd_add, scatter_nd_add_, Add)
/// `tensor_scatter_nd_update`: replaces at indices (duplicates: the last row wins on the host
/// and with `deterministic`; any of them with CUDA atomics); `scatter_nd_update_` in place.
TESSERA_SCATTER_FAMILY(tensor_scatter_nd_update, scatter_nd_update_, Update)
/// `tensor_scatter_nd_min`: the smaller of the element and its updates; `scatter_nd_min_`.
TESSERA_SCATTER_FAMILY(tensor_scatter_nd_min, scatter_nd_min_, Min)
/// `tensor_scatter_nd_max`: the larger of the element and its updates; `scatter_nd_max_`.
TESSERA_SCATTER_FAMILY(tensor_scatter_nd_max, scatter_nd_max_, Max)

#undef TESSERA_SCATTER_FAMILY

}  // namespace tessera

TESSERA_EVAL_TAGS_END
