// SPDX-License-Identifier: BSD-3-Clause
// The host tensor_scatter_nd_* kernel instantiated once per dtype, index type and op for
// tensors of updates, so that callers compile none of it (expressions of updates instantiate
// the same kernel in the caller, reading the expression in place).

#include "tessera/ops/scatter.hpp"
#include "backend/host/scatter_element_schedule.hpp"
#include "backend/view_kernel.hpp"
#include "tessera/detail/scatter_host.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::host_ops {

template <class T, class Index>
std::int64_t scatter_nd(ScatterOpId op, T* out, const T* source, std::int64_t numel,
                        const ScatterGeometry& g, const Index* indices, std::int64_t rows,
                        const TensorView<T>& updates, bool check) {
  const auto k = leaf_kernel_of(updates);
  const Extents extents = Extents::of_view(updates);
  const bool linear = updates.is_contiguous();
  return with_scatter_op(op, [&](auto functor) -> std::int64_t {
    using Op = decltype(functor);
    if constexpr (std::is_same_v<T, bool> && !std::is_same_v<Op, scatter_ops::Update>) {
      return rows;  // unreachable: scatter.hpp rejects arithmetic on bool at compile time
    } else {
      return scatter_host<Op>(out, source, numel, g, indices, rows, k, extents, linear, check);
    }
  });
}

}  // namespace tessera::detail::host_ops

// The element schedules every op of the instantiations below shares, compiled here for the
// library's other units too (scatter_element_schedule.hpp).
#define TESSERA_INSTANTIATE_SCATTER_ELEMENT_SCHEDULE(T)       \
  template TESSERA_SCATTER_ELEMENT_SCHEDULE(T, std::int32_t); \
  template TESSERA_SCATTER_ELEMENT_SCHEDULE(T, std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_SCATTER_ELEMENT_SCHEDULE)
#undef TESSERA_INSTANTIATE_SCATTER_ELEMENT_SCHEDULE

namespace tessera::detail::host_ops {

#define TESSERA_INSTANTIATE_SCATTER_HOST(T)                                                      \
  template std::int64_t scatter_nd<T, std::int32_t>(ScatterOpId, T*, const T*, std::int64_t,     \
                                                    const ScatterGeometry&, const std::int32_t*, \
                                                    std::int64_t, const TensorView<T>&, bool);   \
  template std::int64_t scatter_nd<T, std::int64_t>(ScatterOpId, T*, const T*, std::int64_t,     \
                                                    const ScatterGeometry&, const std::int64_t*, \
                                                    std::int64_t, const TensorView<T>&, bool);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_SCATTER_HOST)
#undef TESSERA_INSTANTIATE_SCATTER_HOST

}  // namespace tessera::detail::host_ops
