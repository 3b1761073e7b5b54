// SPDX-License-Identifier: BSD-3-Clause
// Indexing and gathering: argument checks and the gather plan of each op (index with tensors,
// masks and nonzero's tuple, masked_select, index_select, gather, take, take_along_dim,
// gather_nd), once per dtype and index type. Every op ends in the one gather kernel; masks
// first become positions through nonzero.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/gather_plan.hpp"
#include "tessera/expr/broadcast.hpp"

namespace tessera::detail {

// ---- index ---------------------------------------------------------------------------------

template <class T, class I>
Tensor<T> index_tensors(const Tensor<T>& x, const std::vector<Tensor<I>>& indices) {
  const char* op = "index";
  const auto k_count = static_cast<std::int64_t>(indices.size());
  if (k_count > x.dim()) {
    raise<IndexError>(op, "too many indices for tensor of dimension ", x.dim(), " (got ", k_count,
                      ")");
  }
  Shape batch = k_count == 0 ? Shape{} : indices[0].shape();
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::string what = "indices[" + std::to_string(k) + "]";
    require_same_device(op, what.c_str(), indices[k].device(), x.device());
    if (indices[k].shape() != batch) {
      std::ostringstream shapes;
      for (std::size_t j = 0; j < indices.size(); ++j) {
        shapes << (j ? ", " : "") << list_str(indices[j].shape());
      }
      const Shape b = batch;
      try {
        batch = broadcast_shapes(op, b, indices[k].shape());
      } catch (const ShapeError&) {
        raise<ShapeError>(op,
                          "shape mismatch: indexing tensors could not be broadcast together "
                          "with shapes ",
                          shapes.str());
      }
    }
  }
  std::vector<std::int64_t> out_shape(batch.begin(), batch.end());
  for (std::int64_t d = k_count; d < x.dim(); ++d) out_shape.push_back(x.shape()[d]);
  require_rank(op, out_shape);
  auto out = Tensor<T>::empty(Shape(out_shape), x.device());
  if (out.numel() == 0) return out;
  GatherPlan plan = plan_into(out);
  const int nb = static_cast<int>(batch.size());
  for (int d = nb; d < static_cast<int>(out_shape.size()); ++d) {
    plan.src_strides[d] = x.strides()[static_cast<std::size_t>(d - nb + k_count)];
  }
  plan.nindex = static_cast<int>(k_count);
  plan.wrap = true;
  for (int k = 0; k < plan.nindex; ++k) {
    const Tensor<I>& index = indices[static_cast<std::size_t>(k)];
    GatherIndex& gi = plan.index[k];
    gi.data = index.data();
    gi.extent = x.shape()[static_cast<std::size_t>(k)];
    gi.src_stride = x.strides()[static_cast<std::size_t>(k)];
    set_broadcast_strides(gi, index, nb);
  }
  execute<T, I>(op, plan, x.data(), out.data(), x.device(), [&](const BadEntry& bad) {
    raise_out_of_bounds(op, bad.entry, bad.k, plan.index[bad.k].extent);
  });
  return out;
}

template <class T>
Tensor<T> index_mask(const Tensor<T>& x, const Tensor<bool>& mask) {
  const char* op = "index";
  require_same_device(op, "the mask", mask.device(), x.device());
  const std::int64_t md = mask.dim();
  if (md > x.dim()) {
    raise<IndexError>(op, "too many indices for tensor of dimension ", x.dim(), " (got a mask of ",
                      md, " dims)");
  }
  for (std::int64_t d = 0; d < md; ++d) {
    if (mask.shape()[d] != x.shape()[d]) {
      raise<ShapeError>(op, "The shape of the mask ", list_str(mask.shape()), " at index ", d,
                        " does not match the shape of the indexed tensor ", list_str(x.shape()),
                        " at index ", d);
    }
  }
  if (md == 0) {                    // x[True] adds a dim of 1, x[False] of 0 (PyTorch)
    const bool keep = mask.item();  // one read of the device
    std::vector<std::int64_t> shape{keep ? 1 : 0};
    shape.insert(shape.end(), x.shape().begin(), x.shape().end());
    require_rank(op, shape);
    return keep ? x.reshape(Shape(shape)).clone() : Tensor<T>::empty(Shape(shape), x.device());
  }
  // The leading dims of x walked as one (strides permitting): one flat position per element
  // of the mask instead of one coordinate per masked dim.
  bool flat = md > 1;
  for (std::int64_t d = 0; flat && d + 1 < md; ++d) {
    flat = x.shape()[d] == 1 || x.strides()[d] == x.strides()[d + 1] * x.shape()[d + 1];
  }
  if (!flat) return index_tensors(x, mask.nonzero(as_tuple));
  const Tensor<std::int64_t> positions = mask.reshape({-1}).nonzero().select(1, 0);
  std::int64_t lead = 1;
  for (std::int64_t d = 0; d < md; ++d) lead *= x.shape()[d];
  std::vector<std::int64_t> folded{lead};
  std::vector<std::int64_t> folded_strides{x.strides()[static_cast<std::size_t>(md - 1)]};
  for (std::int64_t d = md; d < x.dim(); ++d) {
    folded.push_back(x.shape()[d]);
    folded_strides.push_back(x.strides()[d]);
  }
  // x seen with its masked dims folded into one (same memory, a plan of its own).
  std::vector<std::int64_t> out_shape{positions.numel()};
  out_shape.insert(out_shape.end(), folded.begin() + 1, folded.end());
  auto out = Tensor<T>::empty(Shape(out_shape), x.device());
  if (out.numel() == 0) return out;
  GatherPlan plan = plan_into(out);
  for (std::size_t d = 1; d < folded.size(); ++d) plan.src_strides[d] = folded_strides[d];
  plan.nindex = 1;
  plan.index[0].data = positions.data();
  plan.index[0].strides[0] = positions.strides()[0];
  plan.index[0].extent = lead;
  plan.index[0].src_stride = folded_strides[0];
  execute<T, std::int64_t>(op, plan, x.data(), out.data(), x.device(),
                           [](const BadEntry&) {});  // nonzero's positions are in range
  return out;
}

template <class T>
Tensor<T> masked_select_tensor(const Tensor<T>& x, const Tensor<bool>& mask) {
  const char* op = "masked_select";
  require_same_device(op, "the mask", mask.device(), x.device());
  const Shape shape = broadcast_shapes(op, x.shape(), mask.shape());
  const Tensor<T> xb = x.shape() == shape ? x : broadcast_copy(op, x, shape);
  const Tensor<bool> mb = mask.shape() == shape ? mask : broadcast_copy(op, mask, shape);
  if (shape.size() == 0) return index_mask(xb.reshape({1}), mb.reshape({1}));
  return index_mask(xb, mb);
}

// ---- index_select, gather, take_along_dim, take --------------------------------------------

template <class T, class I>
Tensor<T> index_select_tensor(const Tensor<T>& x, std::int64_t dim, const Tensor<I>& index) {
  const char* op = "index_select";
  const int d = wrap_dim(op, dim, x.dim());
  require_same_device(op, "index", index.device(), x.device());
  if (index.dim() > 1) {
    raise<IndexError>(op, "Index is supposed to be a vector, got shape ", list_str(index.shape()));
  }
  if (x.dim() == 0 && index.numel() != 1) {
    raise<IndexError>(op, "Index to scalar can have only 1 value, got ", index.numel(),
                      " value(s)");
  }
  std::vector<std::int64_t> out_shape(x.shape().begin(), x.shape().end());
  if (x.dim() > 0) out_shape[static_cast<std::size_t>(d)] = index.numel();
  auto out = Tensor<T>::empty(Shape(out_shape), x.device());
  if (out.numel() == 0) return out;
  GatherPlan plan = plan_into(out);
  plan.nindex = 1;
  GatherIndex& gi = plan.index[0];
  gi.data = index.data();
  gi.extent = x.dim() == 0 ? 1 : x.shape()[static_cast<std::size_t>(d)];
  if (x.dim() > 0) {
    for (int i = 0; i < static_cast<int>(x.dim()); ++i) {
      plan.src_strides[i] = i == d ? 0 : x.strides()[static_cast<std::size_t>(i)];
    }
    gi.src_stride = x.strides()[static_cast<std::size_t>(d)];
    gi.strides[d] = index.dim() == 1 ? index.strides()[0] : 0;
  }
  execute<T, I>(op, plan, x.data(), out.data(), x.device(),
                [&](const BadEntry& bad) { raise_out_of_bounds(op, bad.entry, d, gi.extent); });
  return out;
}

template <class T, class I>
Tensor<T> gather_tensor(const char* op, const Tensor<T>& x, std::int64_t dim,
                        const Tensor<I>& index, bool broadcast) {
  // take_along_dim has no dimension to take along in a 0-d tensor (PyTorch: IndexError);
  // gather and index_select treat it as one element along dim 0, as PyTorch does.
  if (broadcast && x.dim() == 0) {
    raise<IndexError>(op, "Dimension specified as ", dim, " but tensor has no dimensions");
  }
  const int d = static_cast<int>(wrap_dim(op, dim, x.dim()));
  require_same_device(op, "index", index.device(), x.device());
  const std::int64_t nd = std::max<std::int64_t>(x.dim(), 1);
  if (index.dim() != x.dim() && !(index.dim() <= 1 && x.dim() <= 1)) {
    if (broadcast) {
      raise<ShapeError>(op, "input and indices should have the same number of dimensions, but got ",
                        x.dim(), " dimensions for input, and ", index.dim(),
                        " dimensions for indices");
    }
    raise<ShapeError>(op, "Index tensor must have the same number of dimensions as input tensor ",
                      "(got index of shape ", list_str(index.shape()), " and input of shape ",
                      list_str(x.shape()), ")");
  }
  // Extents as rank-nd shapes (a 0-d tensor is one element along one dim).
  const auto extent = [](const auto& t, std::int64_t i) {
    return t.dim() == 0 ? std::int64_t{1} : t.shape()[static_cast<std::size_t>(i)];
  };
  const auto stride = [](const auto& t, std::int64_t i) {
    return t.dim() == 0 ? std::int64_t{0} : t.strides()[static_cast<std::size_t>(i)];
  };
  std::vector<std::int64_t> out_shape(index.shape().begin(), index.shape().end());
  for (std::int64_t i = 0; i < nd; ++i) {
    if (i == d) continue;
    const std::int64_t xi = extent(x, i), ii = extent(index, i);
    if (broadcast) {
      if (xi != ii && xi != 1 && ii != 1) {
        raise<ShapeError>(op, "shapes ", list_str(x.shape()), " and ", list_str(index.shape()),
                          " cannot be broadcast together apart from dimension ", d);
      }
      if (index.dim() > 0) out_shape[static_cast<std::size_t>(i)] = std::max(xi, ii);
      if (xi == 0 || ii == 0) out_shape[static_cast<std::size_t>(i)] = 0;
    } else if (ii > xi) {
      raise<ShapeError>(op, "Size does not match at dimension ", i, " expected index ",
                        list_str(index.shape()), " to be smaller than self ", list_str(x.shape()),
                        " apart from dimension ", d);
    }
  }
  auto out = Tensor<T>::empty(Shape(out_shape), x.device());
  if (out.numel() == 0) return out;
  GatherPlan plan = plan_into(out);
  plan.nindex = 1;
  plan.wrap = broadcast;  // take_along_dim counts negative entries from the end, gather does not
  GatherIndex& gi = plan.index[0];
  gi.data = index.data();
  gi.extent = extent(x, d);
  gi.src_stride = stride(x, d);
  for (int i = 0; i < static_cast<int>(nd); ++i) {
    const bool x_broadcast = broadcast && extent(x, i) == 1 && plan.shape[i] != 1;
    const bool i_broadcast = broadcast && extent(index, i) == 1 && plan.shape[i] != 1;
    plan.src_strides[i] = i == d || x_broadcast ? 0 : stride(x, i);
    gi.strides[i] = i_broadcast ? 0 : stride(index, i);
  }
  execute<T, I>(op, plan, x.data(), out.data(), x.device(),
                [&](const BadEntry& bad) { raise_out_of_bounds(op, bad.entry, d, gi.extent); });
  return out;
}

template <class T, class I>
Tensor<T> take_tensor(const char* op, const Tensor<T>& x, const Tensor<I>& index) {
  require_same_device(op, "index", index.device(), x.device());
  const Tensor<T> flat = x.is_contiguous() ? x : x.contiguous();
  auto out = Tensor<T>::empty(index.shape(), x.device());
  if (out.numel() == 0) return out;
  GatherPlan plan = plan_into(out);
  plan.nindex = 1;
  plan.wrap = true;
  GatherIndex& gi = plan.index[0];
  gi.data = index.data();
  gi.extent = x.numel();
  gi.src_stride = 1;
  for (int i = 0; i < static_cast<int>(index.dim()); ++i) {
    gi.strides[i] = index.strides()[static_cast<std::size_t>(i)];
  }
  execute<T, I>(op, plan, flat.data(), out.data(), x.device(), [&](const BadEntry& bad) {
    raise<IndexError>(op, "out of range: tried to access index ", bad.entry, " on a tensor of ",
                      x.numel(), " elements.");
  });
  return out;
}

// ---- gather_nd (TensorFlow) -----------------------------------------------------------------

template <class T, class I>
Tensor<T> gather_nd_tensor(const Tensor<T>& params, const Tensor<I>& indices,
                           const GatherNdOptions& options) {
  const char* op = "gather_nd";
  require_same_device(op, "indices", indices.device(), params.device());
  const std::int64_t b = options.batch_dims, ri = indices.dim(), rp = params.dim();
  if (ri < 1) {
    raise<ShapeError>(op, "indices must be at least a vector; got shape ",
                      list_str(indices.shape()));
  }
  if (b < 0 || b >= ri || b > rp) {
    raise<ValueError>(op, "batch_dims = ", b, " must be in [0, ", std::min(ri - 1, rp),
                      "] for indices of rank ", ri, " and params of rank ", rp);
  }
  for (std::int64_t d = 0; d < b; ++d) {
    if (params.shape()[d] != indices.shape()[d]) {
      raise<ShapeError>(op, "params.shape[:batch_dims] = ", list_str(params.shape()),
                        " and indices.shape[:batch_dims] = ", list_str(indices.shape()),
                        " differ at dim ", d, " (batch_dims = ", b, ")");
    }
  }
  const std::int64_t k_count = indices.shape()[static_cast<std::size_t>(ri - 1)];
  if (k_count > rp - b) {
    raise<ShapeError>(op, "index innermost dimension length must be <= params rank; saw: ", k_count,
                      " vs. ", rp - b, " (indices shape ", list_str(indices.shape()),
                      ", params shape ", list_str(params.shape()), ", batch_dims ", b, ")");
  }
  std::vector<std::int64_t> out_shape(indices.shape().begin(), indices.shape().end() - 1);
  for (std::int64_t d = b + k_count; d < rp; ++d) out_shape.push_back(params.shape()[d]);
  require_rank(op, out_shape);
  auto out = Tensor<T>::empty(Shape(out_shape), params.device());
  if (out.numel() == 0) return out;
  GatherPlan plan = plan_into(out);
  const auto rows = static_cast<int>(ri - 1);  // out dims that walk the index rows
  for (int d = 0; d < rows; ++d) {
    plan.src_strides[d] = d < b ? params.strides()[static_cast<std::size_t>(d)] : 0;
  }
  for (int d = rows; d < static_cast<int>(out_shape.size()); ++d) {
    plan.src_strides[d] = params.strides()[static_cast<std::size_t>(d - rows + b + k_count)];
  }
  plan.nindex = static_cast<int>(k_count);
  plan.zero_bad = options.out_of_bounds == OutOfBounds::Ignore;
  const std::int64_t last_stride = indices.strides()[static_cast<std::size_t>(ri - 1)];
  for (int k = 0; k < plan.nindex; ++k) {
    GatherIndex& gi = plan.index[k];
    gi.data = indices.data() + k * last_stride;
    gi.extent = params.shape()[static_cast<std::size_t>(b + k)];
    gi.src_stride = params.strides()[static_cast<std::size_t>(b + k)];
    for (int d = 0; d < rows; ++d) gi.strides[d] = indices.strides()[static_cast<std::size_t>(d)];
  }
  execute<T, I>(op, plan, params.data(), out.data(), params.device(), [&](const BadEntry& bad) {
    // TF: "indices[1] = [4, 0] does not index into param shape [3,2]": the row's position
    // among indices' leading dims and its entries (TF 2.21's words,
    // tests/data/gather_nd_golden.json).
    std::ostringstream row, shape;
    const auto at = [&](int k) {
      std::int64_t pos = 0;
      for (int d = 0; d < rows; ++d)
        pos += bad.coords[static_cast<std::size_t>(d)] * plan.index[k].strides[d];
      I value{};
      const I* p = static_cast<const I*>(plan.index[k].data) + pos;
      if (params.device().is_cpu()) {
        value = *p;
      } else {
        device_runtime::copy_to_host(&value, p, sizeof value, params.device().index());
      }
      return static_cast<std::int64_t>(value);
    };
    row << "indices[";
    for (int d = 0; d < rows; ++d) row << (d ? "," : "") << bad.coords[static_cast<std::size_t>(d)];
    row << "] = [";  // with batch dims, TF names the row by its batch position and entries
    for (std::int64_t d = 0; d < b; ++d)
      row << (d ? ", " : "") << bad.coords[static_cast<std::size_t>(d)];
    for (int k = 0; k < plan.nindex; ++k) row << (k || b ? ", " : "") << at(k);
    row << "]";
    shape << '[';
    for (std::int64_t d = 0; d < rp; ++d) shape << (d ? "," : "") << params.shape()[d];
    shape << ']';
    raise<IndexError>(op, row.str(), " does not index into param shape ", shape.str());
  });
  return out;
}

// ---- instantiations -----------------------------------------------------------------------------

#define TESSERA_INSTANTIATE_INDEXING_I(T, I)                                                      \
  template Tensor<T> index_tensors<T, I>(const Tensor<T>&, const std::vector<Tensor<I>>&);        \
  template Tensor<T> index_select_tensor<T, I>(const Tensor<T>&, std::int64_t, const Tensor<I>&); \
  template Tensor<T> gather_tensor<T, I>(const char*, const Tensor<T>&, std::int64_t,             \
                                         const Tensor<I>&, bool);                                 \
  template Tensor<T> take_tensor<T, I>(const char*, const Tensor<T>&, const Tensor<I>&);          \
  template Tensor<T> gather_nd_tensor<T, I>(const Tensor<T>&, const Tensor<I>&,                   \
                                            const GatherNdOptions&);
#define TESSERA_INSTANTIATE_INDEXING(T)                                    \
  TESSERA_INSTANTIATE_INDEXING_I(T, std::int32_t)                          \
  TESSERA_INSTANTIATE_INDEXING_I(T, std::int64_t)                          \
  template Tensor<T> index_mask<T>(const Tensor<T>&, const Tensor<bool>&); \
  template Tensor<T> masked_select_tensor<T>(const Tensor<T>&, const Tensor<bool>&);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_INDEXING)
#undef TESSERA_INSTANTIATE_INDEXING
#undef TESSERA_INSTANTIATE_INDEXING_I

}  // namespace tessera::detail
