// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What every gather-like op shares on its way to the gather kernel (backend/gather_kernels.hpp):
// argument checks in PyTorch's words, the plan of a new output, the merging of dims the kernel
// walks, running a plan and turning a reported output position into the bad entry behind it.
// Private to src/ops (indexing.cpp, index_put.cpp, join.cpp).

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "backend/gather_kernels.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

/// "[3, 2]": a shape as PyTorch prints it in messages.
inline std::string list_str(const Shape& shape) {
  std::ostringstream os;
  os << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << ']';
  return os.str();
}

/// DeviceError unless `what` lives on x's device.
inline void require_same_device(const char* op, const char* what, Device got, Device x) {
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
inline void require_rank(const char* op, const std::vector<std::int64_t>& shape) {
  if (shape.size() > static_cast<std::size_t>(kMaxDims)) {
    raise<ValueError>(op, "the result would have ", shape.size(), " dims; tensors have at most ",
                      kMaxDims);
  }
}

/// Merges neighbouring output dims that every stride array walks as one (and drops extents of
/// 1), so the kernel's innermost runs are as long as the layouts allow.
inline void coalesce(GatherPlan& plan) {
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
[[noreturn]] inline void raise_out_of_bounds(const char* op, std::int64_t entry, std::int64_t dim,
                                             std::int64_t size) {
  raise<IndexError>(op, "index ", entry, " is out of bounds for dimension ", dim, " with size ",
                    size);
}

/// Index tensor `index`'s strides over the nb output dims it broadcasts to (right-aligned;
/// extents of 1 repeat, stride 0).
template <class I>
void set_broadcast_strides(GatherIndex& gi, const Tensor<I>& index, int nb) {
  const int lead = nb - static_cast<int>(index.dim());
  for (int d = lead; d < nb; ++d) {
    const auto i = static_cast<std::size_t>(d - lead);
    gi.strides[d] = index.shape()[i] == 1 ? 0 : index.strides()[i];
  }
}

}  // namespace tessera::detail
