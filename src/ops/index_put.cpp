// SPDX-License-Identifier: BSD-3-Clause
// index_put_ and masked_fill_'s checks: the gather kernel (emit-offsets) turns the index
// tensors into checked, wrapped positions, and the scatter engine's precompiled ordered kernels
// write or add the values there. Once per dtype and index type.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/gather_plan.hpp"
#include "tessera/expr/broadcast.hpp"

namespace tessera::detail {

// ---- index_put_, masked_fill_ ---------------------------------------------------------------

template <class T, class I>
void index_put_tensor(const Tensor<T>& x, const std::vector<Tensor<I>>& indices,
                      const Tensor<T>& values, bool accumulate) {
  const char* op = "index_put_";
  require_writable(op, x.shape(), x.strides());
  const auto k_count = static_cast<std::int64_t>(indices.size());
  if (k_count > x.dim()) {
    raise<IndexError>(op, "too many indices for tensor of dimension ", x.dim(), " (got ", k_count,
                      ")");
  }
  require_same_device(op, "values", values.device(), x.device());
  Shape batch = k_count == 0 ? Shape{} : indices[0].shape();
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::string what = "indices[" + std::to_string(k) + "]";
    require_same_device(op, what.c_str(), indices[k].device(), x.device());
    batch = broadcast_shapes(op, batch, indices[k].shape());
  }
  std::vector<std::int64_t> target(batch.begin(), batch.end());
  for (std::int64_t d = k_count; d < x.dim(); ++d) target.push_back(x.shape()[d]);
  require_rank(op, target);
  const Shape target_shape(target);
  bool fits = values.dim() <= static_cast<std::int64_t>(target.size());
  for (std::int64_t i = 1; fits && i <= values.dim(); ++i) {
    const std::int64_t v = values.shape()[static_cast<std::size_t>(values.dim() - i)];
    fits = v == 1 || v == target[target.size() - static_cast<std::size_t>(i)];
  }
  if (!fits) {
    raise<ShapeError>(op, "shape mismatch: value tensor of shape ", list_str(values.shape()),
                      " cannot be broadcast to indexing result of shape ", list_str(target_shape));
  }
  const std::int64_t rows = batch.numel();
  if (rows == 0 || target_shape.numel() == 0) return;
  // x's memory seen contiguous with its K indexed dims folded into one, (lead, rest...): each
  // index row becomes one scatter row, the flat position among the leading dims. The gather
  // kernel computes them (negatives wrapped, every entry checked before anything is written).
  const Tensor<T> into = x.is_contiguous() ? x : x.contiguous();
  std::vector<std::int64_t> folded{1};
  for (std::int64_t d = 0; d < x.dim(); ++d) {
    if (d < k_count) {
      folded[0] *= x.shape()[d];
    } else {
      folded.push_back(x.shape()[d]);
    }
  }
  auto positions = Tensor<std::int64_t>::empty(batch, x.device());
  GatherPlan plan = plan_into(positions);
  plan.nindex = static_cast<int>(k_count);
  plan.wrap = true;
  plan.emit_offsets = true;
  std::int64_t stride = 1;
  for (auto k = static_cast<int>(k_count); k-- > 0;) {
    const Tensor<I>& index = indices[static_cast<std::size_t>(k)];
    GatherIndex& gi = plan.index[k];
    gi.data = index.data();
    gi.extent = x.shape()[static_cast<std::size_t>(k)];
    gi.src_stride = stride;
    stride *= gi.extent;
    set_broadcast_strides(gi, index, static_cast<int>(batch.size()));
  }
  execute<std::int64_t, I>(op, plan, nullptr, positions.data(), x.device(),
                           [&](const BadEntry& bad) {
                             raise_out_of_bounds(op, bad.entry, bad.k, plan.index[bad.k].extent);
                           });
  // A new tensor: values may view x, and the scatter then reads them as they were.
  std::vector<std::int64_t> update_shape{rows};
  update_shape.insert(update_shape.end(), folded.begin() + 1, folded.end());
  const Tensor<T> updates = broadcast_copy(op, values, target_shape).reshape(Shape(update_shape));
  const auto g = ScatterGeometry::of(Shape(folded), 1);
  // Duplicates in index order on every device: the last write wins, additions in order.
  ScatterOpId id = accumulate ? ScatterOpId::Add : ScatterOpId::Update;
  const auto scatter = [&](auto* out, const auto& update_view) {
    using E = std::remove_pointer_t<decltype(out)>;
    if (x.device().is_cpu()) {
      host_ops::scatter_nd<E, std::int64_t>(id, out, nullptr, into.numel(), g, positions.data(),
                                            rows, update_view, false);
    } else {
      cuda_ops::scatter_nd<E, std::int64_t>(x.device().index(), id, out, g, positions.data(), rows,
                                            update_view, true);
    }
  };
  if constexpr (std::is_same_v<T, bool>) {
    // PyTorch adds bools as a logical or: the maximum of their 0/1 bytes.
    const TensorView<bool> u = updates.view();
    TensorView<std::uint8_t> bytes{reinterpret_cast<std::uint8_t*>(u.data), u.ndim, {}, {}};
    std::copy(u.shape, u.shape + kMaxDims, bytes.shape);
    std::copy(u.strides, u.strides + kMaxDims, bytes.strides);
    if (accumulate) id = ScatterOpId::Max;
    scatter(reinterpret_cast<std::uint8_t*>(into.data()), bytes);
  } else {
    scatter(into.data(), updates.view());
  }
  if (!x.is_contiguous()) {  // back through x's strides: a copy on the gather kernel
    GatherPlan back;
    back.ndim = static_cast<int>(x.dim());
    for (int d = 0; d < back.ndim; ++d) {
      back.shape[d] = x.shape()[static_cast<std::size_t>(d)];
      back.dst_strides[d] = x.strides()[static_cast<std::size_t>(d)];
      back.src_strides[d] = into.strides()[static_cast<std::size_t>(d)];
    }
    execute<T, std::int64_t>(op, back, into.data(), x.data(), x.device(), [](const BadEntry&) {});
  }
}

void check_masked_fill(const Shape& x_shape, Device x_device, const Shape& mask_shape,
                       Device mask_device) {
  const char* op = "masked_fill_";
  require_same_device(op, "the mask", mask_device, x_device);
  if (broadcast_shapes(op, x_shape, mask_shape) != x_shape) {
    raise<ShapeError>(op, "the mask of shape ", list_str(mask_shape),
                      " does not broadcast to the tensor's shape ", list_str(x_shape));
  }
}

#define TESSERA_INSTANTIATE_INDEX_PUT(T)                                                   \
  template void index_put_tensor<T, std::int32_t>(                                         \
      const Tensor<T>&, const std::vector<Tensor<std::int32_t>>&, const Tensor<T>&, bool); \
  template void index_put_tensor<T, std::int64_t>(                                         \
      const Tensor<T>&, const std::vector<Tensor<std::int64_t>>&, const Tensor<T>&, bool);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_INDEX_PUT)
#undef TESSERA_INSTANTIATE_INDEX_PUT

}  // namespace tessera::detail
