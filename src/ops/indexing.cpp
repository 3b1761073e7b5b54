// Indexing and gathering: argument checks, the gather plan of each op, and the report of an
// out-of-range entry; once per dtype and index type. Every op here ends in the one gather
// kernel (backend/gather_kernels.hpp); masks first become positions through nonzero.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/gather_kernels.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"
#include "tessera/expr/broadcast.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

/// "[3, 2]": a shape as PyTorch prints it in messages.
std::string list_str(const Shape& shape) {
  std::ostringstream os;
  os << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << ']';
  return os.str();
}

/// dim in [-rank, rank) (a 0-d tensor counts as rank 1, as in PyTorch), made non-negative;
/// IndexError naming op, dim and the range otherwise.
int wrap_dim(const char* op, std::int64_t dim, std::int64_t ndim) {
  const std::int64_t rank = std::max<std::int64_t>(ndim, 1);
  if (dim < -rank || dim >= rank) {
    raise<IndexError>(op, "Dimension out of range (expected to be in range of [", -rank, ", ",
                      rank - 1, "], but got ", dim, ")");
  }
  return static_cast<int>(dim < 0 ? dim + rank : dim);
}

/// DeviceError unless `what` lives on x's device.
void require_same_device(const char* op, const char* what, Device got, Device x) {
  if (got != x) {
    raise<DeviceError>(op, what, " is on ", got, " but the tensor it indexes is on ", x);
  }
}

/// A plan writing every element of the new contiguous tensor `out` (a 0-d one: one extent 1).
template <class T>
GatherPlan plan_into(const Tensor<T>& out) {
  GatherPlan plan;
  const int nd = static_cast<int>(out.dim());
  plan.ndim = std::max(nd, 1);
  plan.shape[0] = 1;
  for (int d = 0; d < nd; ++d) {
    plan.shape[d] = out.shape()[d];
    plan.dst_strides[d] = out.strides()[d];
  }
  return plan;
}

/// ValueError unless a result of `shape` has at most kMaxDims dims.
void require_rank(const char* op, const std::vector<std::int64_t>& shape) {
  if (shape.size() > static_cast<std::size_t>(kMaxDims)) {
    raise<ValueError>(op, "the result would have ", shape.size(), " dims; tensors have at most ",
                      kMaxDims);
  }
}

/// Merges neighbouring output dims that every stride array walks as one (and drops extents of
/// 1), so the kernel's innermost runs are as long as the layouts allow.
void coalesce(GatherPlan& plan) {
  GatherPlan out = plan;
  int n = 0;
  const auto mergeable = [&](int d) {  // dim d continues out's last dim
    const auto fits = [&](const std::int64_t* outer_strides, const std::int64_t* strides) {
      return outer_strides[n - 1] == strides[d] * plan.shape[d];
    };
    if (!fits(out.dst_strides, plan.dst_strides) || !fits(out.src_strides, plan.src_strides)) {
      return false;
    }
    for (int k = 0; k < plan.nindex; ++k) {
      if (!fits(out.index[k].strides, plan.index[k].strides)) return false;
    }
    return true;
  };
  for (int d = 0; d < plan.ndim; ++d) {
    if (plan.shape[d] == 1 && plan.ndim > 1) continue;
    if (n > 0 && mergeable(d)) {
      out.shape[n - 1] *= plan.shape[d];
      out.dst_strides[n - 1] = plan.dst_strides[d];
      out.src_strides[n - 1] = plan.src_strides[d];
      for (int k = 0; k < plan.nindex; ++k) out.index[k].strides[n - 1] = plan.index[k].strides[d];
      continue;
    }
    out.shape[n] = plan.shape[d];
    out.dst_strides[n] = plan.dst_strides[d];
    out.src_strides[n] = plan.src_strides[d];
    for (int k = 0; k < plan.nindex; ++k) out.index[k].strides[n] = plan.index[k].strides[d];
    ++n;
  }
  if (n == 0) {  // every extent 1
    out.shape[0] = 1;
    n = 1;
  }
  for (int d = n; d < kMaxDims; ++d) {
    out.shape[d] = 0;
    out.dst_strides[d] = out.src_strides[d] = 0;
    for (int k = 0; k < plan.nindex; ++k) out.index[k].strides[d] = 0;
  }
  out.ndim = n;
  plan = out;
}

/// The out-of-range entry behind output position p of `plan`: which index tensor, its value
/// (as the user wrote it) and the output coordinates.
struct BadEntry {
  int k = 0;
  std::int64_t entry = 0;
  std::vector<std::int64_t> coords;
};

template <class I>
BadEntry bad_entry(const GatherPlan& plan, std::int64_t p, Device device) {
  BadEntry bad;
  bad.coords.assign(static_cast<std::size_t>(plan.ndim), 0);
  for (int d = plan.ndim - 1; d >= 0; --d) {
    bad.coords[static_cast<std::size_t>(d)] = p % plan.shape[d];
    p /= plan.shape[d];
  }
  for (int k = 0; k < plan.nindex; ++k) {
    const GatherIndex& index = plan.index[k];
    std::int64_t pos = 0;
    for (int d = 0; d < plan.ndim; ++d)
      pos += bad.coords[static_cast<std::size_t>(d)] * index.strides[d];
    I value{};
    const I* at = static_cast<const I*>(index.data) + pos;
    if (device.is_cpu()) {
      value = *at;
    } else {
      device_runtime::copy_to_host(&value, at, sizeof value, device.index());
    }
    auto e = static_cast<std::int64_t>(value);
    const std::int64_t wrapped = plan.wrap && e < 0 ? e + index.extent : e;
    if (wrapped < 0 || wrapped >= index.extent) {
      bad.k = k;
      bad.entry = e;
      return bad;
    }
  }
  return bad;  // not reached: the kernel reported a bad entry at p
}

/// Runs `plan` (dst and src on `device`); an out-of-range entry is handed to `report`, which
/// raises. The plan is coalesced for the kernel; the report sees the plan as built.
template <class T, class I, class Report>
void execute(const char* op, const GatherPlan& plan, const T* src, T* dst, Device device,
             const Report& report) {
  GatherPlan run = plan;
  coalesce(run);
  const std::int64_t bad =
      run_gather<T, I>(op, device.is_cpu() ? 0 : device.index(), device.is_cpu(), run, src, dst);
  if (bad >= 0) report(bad_entry<I>(plan, bad, device));
}

/// Copies `t` broadcast to `shape` into a new contiguous tensor (a K = 0 gather).
template <class T>
Tensor<T> broadcast_copy(const char* op, const Tensor<T>& t, const Shape& shape) {
  auto out = Tensor<T>::empty(shape, t.device());
  GatherPlan plan = plan_into(out);
  const int nd = static_cast<int>(shape.size()), lead = nd - static_cast<int>(t.dim());
  for (int d = lead; d < nd; ++d) {
    const auto i = static_cast<std::size_t>(d - lead);
    plan.src_strides[d] = t.shape()[i] == 1 ? 0 : t.strides()[i];
  }
  execute<T, std::int64_t>(op, plan, t.data(), out.data(), t.device(), [](const BadEntry&) {});
  return out;
}

/// IndexError in PyTorch's words for an entry out of range along dim `dim` of extent `size`.
[[noreturn]] void raise_out_of_bounds(const char* op, std::int64_t entry, std::int64_t dim,
                                      std::int64_t size) {
  raise<IndexError>(op, "index ", entry, " is out of bounds for dimension ", dim, " with size ",
                    size);
}

}  // namespace

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
    const int lead = nb - static_cast<int>(index.dim());
    for (int d = lead; d < nb; ++d) {
      const auto i = static_cast<std::size_t>(d - lead);
      gi.strides[d] = index.shape()[i] == 1 ? 0 : index.strides()[i];
    }
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
  if (md == 0) {  // x[True] adds a dim of 1, x[False] of 0 (PyTorch)
    std::vector<std::int64_t> shape{mask.item() ? 1 : 0};
    shape.insert(shape.end(), x.shape().begin(), x.shape().end());
    require_rank(op, shape);
    return mask.item() ? x.reshape(Shape(shape)).clone()
                       : Tensor<T>::empty(Shape(shape), x.device());
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
                           [&](const BadEntry&) { raise<ValueError>(op, "mask position lost"); });
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
  const int d = wrap_dim(op, dim, x.dim());
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

// ---- index_put_, masked_fill_ ---------------------------------------------------------------

template <class T, class I>
void index_put_tensor(const Tensor<T>& x, const std::vector<Tensor<I>>& indices,
                      const Tensor<T>& values, bool accumulate) {
  const char* op = "index_put_";
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
    const int nb = static_cast<int>(batch.size()), lead = nb - static_cast<int>(index.dim());
    for (int d = lead; d < nb; ++d) {
      const auto i = static_cast<std::size_t>(d - lead);
      gi.strides[d] = index.shape()[i] == 1 ? 0 : index.strides()[i];
    }
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

// ---- cat, stack -------------------------------------------------------------------------------

template <class T>
Tensor<T> join_tensors(const char* op, const std::vector<Tensor<T>>& tensors, std::int64_t dim,
                       bool stack) {
  if (tensors.empty()) raise<ValueError>(op, "expected a non-empty list of tensors");
  const Device device = tensors[0].device();
  for (std::size_t j = 1; j < tensors.size(); ++j) {
    if (tensors[j].device() != device) {
      raise<DeviceError>(op, "tensor ", j, " is on ", tensors[j].device(), " but tensor 0 is on ",
                         device);
    }
  }
  // cat skips empty 1-D tensors (PyTorch's legacy rule); the first other one sets the shape.
  std::vector<const Tensor<T>*> parts;
  std::vector<std::size_t> numbers;
  for (std::size_t j = 0; j < tensors.size(); ++j) {
    if (!stack && tensors[j].dim() == 1 && tensors[j].numel() == 0) continue;
    parts.push_back(&tensors[j]);
    numbers.push_back(j);
  }
  if (parts.empty()) return Tensor<T>::empty({0}, device);
  const Tensor<T>& first = *parts[0];
  const std::int64_t rank = first.dim();
  if (!stack && rank == 0) {
    raise<ShapeError>(op, "zero-dimensional tensor (at position ", numbers[0],
                      ") cannot be concatenated");
  }
  int d = 0;
  if (stack) {
    if (dim < -(rank + 1) || dim > rank) {
      raise<IndexError>(op, "Dimension out of range (expected to be in range of [", -(rank + 1),
                        ", ", rank, "], but got ", dim, ")");
    }
    d = static_cast<int>(dim < 0 ? dim + rank + 1 : dim);
  } else {
    d = wrap_dim(op, dim, rank);
  }
  std::int64_t total = 0;
  for (std::size_t j = 0; j < parts.size(); ++j) {
    const Tensor<T>& t = *parts[j];
    bool same = t.dim() == rank;
    for (std::int64_t i = 0; same && i < rank; ++i) {
      same = t.shape()[i] == first.shape()[i] || (!stack && i == d);
    }
    if (!same) {
      raise<ShapeError>(op, "tensor ", numbers[j], " has shape ", list_str(t.shape()),
                        " but tensor ", numbers[0], " has shape ", list_str(first.shape()),
                        stack ? std::string("; stack needs equal shapes")
                              : "; shapes must match except along dim " + std::to_string(d));
    }
    total += stack ? 1 : t.shape()[static_cast<std::size_t>(d)];
  }
  std::vector<std::int64_t> out_shape(first.shape().begin(), first.shape().end());
  if (stack) {
    out_shape.insert(out_shape.begin() + d, total);
  } else {
    out_shape[static_cast<std::size_t>(d)] = total;
  }
  require_rank(op, out_shape);
  auto out = Tensor<T>::empty(Shape(out_shape), device);
  if (out.numel() == 0) return out;
  const std::int64_t dim_stride = out.strides()[static_cast<std::size_t>(d)];
  std::int64_t offset = 0;
  for (const Tensor<T>* part : parts) {
    const Tensor<T>& t = *part;
    GatherPlan plan;
    plan.ndim = std::max<int>(static_cast<int>(rank), 1);
    plan.shape[0] = 1;
    for (int i = 0; i < static_cast<int>(rank); ++i) {
      // out's strides with the stacked dim left out: t's dim i is out's i, or i + 1 past d.
      const int o = stack && i >= d ? i + 1 : i;
      plan.shape[i] = t.shape()[static_cast<std::size_t>(i)];
      plan.dst_strides[i] = out.strides()[static_cast<std::size_t>(o)];
      plan.src_strides[i] = t.strides()[static_cast<std::size_t>(i)];
    }
    if (t.numel() > 0) {
      execute<T, std::int64_t>(op, plan, t.data(), out.data() + offset * dim_stride, device,
                               [](const BadEntry&) {});
    }
    offset += stack ? 1 : t.shape()[static_cast<std::size_t>(d)];
  }
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
                                            const GatherNdOptions&);                              \
  template void index_put_tensor<T, I>(const Tensor<T>&, const std::vector<Tensor<I>>&,           \
                                       const Tensor<T>&, bool);
#define TESSERA_INSTANTIATE_INDEXING(T)                                                        \
  TESSERA_INSTANTIATE_INDEXING_I(T, std::int32_t)                                              \
  TESSERA_INSTANTIATE_INDEXING_I(T, std::int64_t)                                              \
  template Tensor<T> index_mask<T>(const Tensor<T>&, const Tensor<bool>&);                     \
  template Tensor<T> masked_select_tensor<T>(const Tensor<T>&, const Tensor<bool>&);           \
  template Tensor<T> join_tensors<T>(const char*, const std::vector<Tensor<T>>&, std::int64_t, \
                                     bool);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_INDEXING)
#undef TESSERA_INSTANTIATE_INDEXING
#undef TESSERA_INSTANTIATE_INDEXING_I

}  // namespace tessera::detail
