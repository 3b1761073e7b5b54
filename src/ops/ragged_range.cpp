// SPDX-License-Identifier: BSD-3-Clause
// ragged::range: argument shapes and devices, broadcasting of scalars, and the dispatch to the
// host or CUDA kernel (which check the row sizes and the total before allocating values).

#include <cstdint>
#include <optional>

#include "tessera/core/error.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/tensor.hpp"

namespace tessera::ragged::detail {

namespace {

template <class T>
tessera::detail::RangeOperand<T> operand_of(const RangeArg<T>& arg) {
  tessera::detail::RangeOperand<T> op;
  if (!arg.is_tensor()) {
    op.value = arg.value();
    return op;
  }
  const Tensor<T>& t = arg.tensor();
  if (t.dim() == 0 && t.device().is_cpu()) {
    op.value = *t.data();
    return op;
  }
  op.data = t.data();
  op.stride = t.dim() == 0 ? 0 : t.strides()[0];  // a 0-d tensor on a GPU broadcasts in place
  return op;
}

}  // namespace

template <class T, class S>
RaggedTensor<T, S> range_impl(const RangeArg<T>& starts, const RangeArg<T>& limits,
                              const RangeArg<T>& deltas, Device device) {
  constexpr const char* op = "ragged::range";
  const tessera::detail::OpScope scope(op);
  const RangeArg<T>* args[] = {&starts, &limits, &deltas};
  const char* names[] = {"starts", "limits", "deltas"};
  std::optional<std::int64_t> nrows;
  int sized_by = 0;
  std::optional<Device> on;
  for (int a = 0; a < 3; ++a) {
    if (!args[a]->is_tensor()) continue;
    const Tensor<T>& t = args[a]->tensor();
    if (t.dim() > 1) {
      tessera::detail::raise<ShapeError>(op, names[a], " must be a scalar or vector, got shape ",
                                         t.shape());
    }
    if (on && *on != t.device()) {
      tessera::detail::raise<DeviceError>(op, names[a], " is on ", t.device(), " but ",
                                          names[sized_by], " is on ", *on);
    }
    on = t.device();
    if (t.dim() == 0) continue;
    if (nrows && *nrows != t.numel()) {
      tessera::detail::raise<ShapeError>(
          op, "starts, limits, and deltas must have the same shape, got ", names[sized_by],
          " of shape ", args[sized_by]->tensor().shape(), " and ", names[a], " of shape ",
          t.shape());
    }
    nrows = t.numel();
    sized_by = a;
  }
  const Device target = on.value_or(device);
  const tessera::detail::RangeOperands<T> operands{operand_of(starts), operand_of(limits),
                                                   operand_of(deltas)};
  Tensor<S> splits;
  Tensor<T> values;
  if (target.is_cpu()) {
    tessera::detail::ragged_ops::range_host<T, S>(operands, nrows.value_or(1), splits, values);
  } else {
    tessera::detail::ragged_ops::range_cuda<T, S>(target.index(), operands, nrows.value_or(1),
                                                  splits, values);
  }
  return RaggedTensor<T, S>::from_row_splits(values, splits, /*validate=*/false);
}

#define TESSERA_INSTANTIATE_RANGE_IMPL(T, S)                                           \
  template RaggedTensor<T, S> range_impl<T, S>(const RangeArg<T>&, const RangeArg<T>&, \
                                               const RangeArg<T>&, Device);
TESSERA_FOR_EACH_RAGGED_RANGE_TYPE(TESSERA_INSTANTIATE_RANGE_IMPL)
#undef TESSERA_INSTANTIATE_RANGE_IMPL

}  // namespace tessera::ragged::detail
