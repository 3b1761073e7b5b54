// SPDX-License-Identifier: BSD-3-Clause
// cat and stack: checks, then one strided copy per input (a gather plan without index
// tensors) into its slice of the output. Once per dtype.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/gather_plan.hpp"
#include "tessera/expr/broadcast.hpp"
#include "tessera/ops/joining.hpp"

namespace tessera::detail {

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

#define TESSERA_INSTANTIATE_JOIN(T)                                                            \
  template Tensor<T> join_tensors<T>(const char*, const std::vector<Tensor<T>>&, std::int64_t, \
                                     bool);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_JOIN)
#undef TESSERA_INSTANTIATE_JOIN

}  // namespace tessera::detail
