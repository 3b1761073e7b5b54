// SPDX-License-Identifier: BSD-3-Clause
// The reduction engine's segment path on the host (ragged reductions), one instantiation per
// segment reduction: outputs split between threads, each folded by the functor the device
// runs too (reduce_segments.hpp), so the bits do not depend on the thread count or device.

#include <algorithm>
#include <cstdint>

#include "tessera/expr/host_parallel.hpp"
#include "tessera/expr/reduce_segments.hpp"
#include "tessera/ragged/reduce.hpp"

namespace tessera::detail::ragged_ops {

/// Names the host work of one segment reduction for host_adaptive_for's records.
template <SegmentId Id, class T>
struct SegmentReduceWork {};

template <SegmentId Id, class T>
void reduce_host(const T* values, const std::int64_t* splits, const SegmentPlan& plan,
                 segment_ops::out_t<Id, T>* out) {
  using Op = typename segment_ops::op_of<Id, T>::type;
  ReduceStore<Op> store;
  store.values = out;
  const SegmentOutput<Op, T, std::int64_t> output{Op{}, values, splits, plan, store};
  // An output's cost is its segment's length (axis 1) or the row count (axis 0).
  const std::int64_t per_output = plan.by_column ? std::max<std::int64_t>(plan.rows, 1) : 8;
  // Row lengths vary with the data: every call prices itself (fresh).
  const HostSplit split{2, std::max<std::int64_t>(1, (1 << 15) / per_output), 16, true};
  host_adaptive_for<SegmentReduceWork<Id, T>>(plan.outputs(), split,
                                              [&](std::int64_t first, std::int64_t end) {
                                                for (std::int64_t o = first; o < end; ++o) {
                                                  output(o);
                                                }
                                              });
}

#define TESSERA_INSTANTIATE_RAGGED_REDUCE_HOST(ID, T)                                            \
  template void reduce_host<SegmentId::ID, T>(const T*, const std::int64_t*, const SegmentPlan&, \
                                              segment_ops::out_t<SegmentId::ID, T>*);
TESSERA_FOR_EACH_SEGMENT_REDUCTION(TESSERA_INSTANTIATE_RAGGED_REDUCE_HOST)
#undef TESSERA_INSTANTIATE_RAGGED_REDUCE_HOST

}  // namespace tessera::detail::ragged_ops
