// SPDX-License-Identifier: BSD-3-Clause
// The ragged reductions' one entry point (ragged/reduce.hpp), instantiated for every segment
// reduction: checks the axis, sizes the result and hands the fold to the host or the device.

#include <cstdint>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/extent_product.hpp"
#include "tessera/ragged/reduce.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::ragged_ops {

template <SegmentId Id, class T>
Tensor<segment_ops::out_t<Id, T>> reduce(const char* op, const Tensor<T>& values,
                                         const Tensor<std::int64_t>& splits, std::int64_t axis) {
  using Out = segment_ops::out_t<Id, T>;
  const OpScope scope(op);
  const Shape& shape = values.shape();
  const auto rank = static_cast<std::int64_t>(shape.size()) + 1;  // (nrows, None, inner...)
  if (axis < -rank || axis >= rank) {
    raise<IndexError>(op, "axis ", axis, " is out of range for a ragged tensor of rank ", rank,
                      " (expected an axis in [", -rank, ", ", rank - 1, "])");
  }
  const std::int64_t dim = axis < 0 ? axis + rank : axis;
  if (dim > 1) {
    raise<ValueError>(op, "axis ", axis, " reduces a uniform inner dimension; ragged reductions ",
                      "take axis 1 (each row) or 0 (each column position)");
  }
  SegmentPlan plan;
  plan.rows = splits.numel() - 1;
  plan.inner = extent_product(shape.data() + 1, static_cast<int>(shape.size()) - 1);
  plan.by_column = dim == 0;
  plan.segments = plan.rows;
  if (plan.by_column && plan.rows > 0) {
    const auto lengths =
        RaggedTensor<T, std::int64_t>::from_row_splits(values, splits, false).row_lengths();
    plan.segments = static_cast<std::int64_t>(max(lengths));
  }
  std::vector<std::int64_t> dims{plan.segments};
  for (std::size_t d = 1; d < shape.size(); ++d) dims.push_back(shape[d]);
  Tensor<Out> out = Tensor<Out>::empty(Shape(dims.begin(), dims.end()), values.device());
  if (out.numel() == 0) return out;
  if (values.device().is_cpu()) {
    reduce_host<Id, T>(values.data(), splits.data(), plan, out.data());
  } else {
    reduce_cuda<Id, T>(values.device().index(), values.data(), splits.data(), plan, out.data());
  }
  return out;
}

#define TESSERA_INSTANTIATE_RAGGED_REDUCE(ID, T)                                  \
  template Tensor<segment_ops::out_t<SegmentId::ID, T>> reduce<SegmentId::ID, T>( \
      const char*, const Tensor<T>&, const Tensor<std::int64_t>&, std::int64_t);
TESSERA_FOR_EACH_SEGMENT_REDUCTION(TESSERA_INSTANTIATE_RAGGED_REDUCE)
#undef TESSERA_INSTANTIATE_RAGGED_REDUCE

}  // namespace tessera::detail::ragged_ops
