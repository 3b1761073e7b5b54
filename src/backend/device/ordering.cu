// SPDX-License-Identifier: BSD-3-Clause
// The device kernels of sort, argsort and topk, on Thrust, instantiated per dtype. Each element
// becomes its order key (src/backend/ordering_keys.hpp) and its position p = row * n + j; one
// stable sort by key orders all rows at once, a second stable sort by row id (the row of each
// sorted position) groups them back into rows without disturbing the order inside each (on CUDA
// both are CUB radix sorts). Then the first k of each row are written out.

#include <cstdint>
#include <limits>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>

#include "backend/ordering_kernels.hpp"
#include "backend/ordering_keys.hpp"
#include "tessera/core/dtype.hpp"
#include "tessera/detail/device_work.cuh"

namespace tessera::detail::cuda_ops {

namespace {

/// keys[p] = the order key of element j of row r (p = r * n + j), perm[p] = p.
template <class T>
struct MakeKeys {
  const T* in;
  OrderingRows rows;
  bool descending;
  order_key_t<T>* keys;
  std::int64_t* perm;
  TESSERA_HD void operator()(std::int64_t p) const {
    const std::int64_t r = p / rows.n, j = p % rows.n;
    const std::int64_t o = r / rows.inner, i = r % rows.inner;
    keys[p] = order_key(in[(o * rows.n + j) * rows.inner + i], descending);
    perm[p] = p;
  }
};

/// row[p] = the row of the element at sorted position p.
template <class R>
struct RowOf {
  const std::int64_t* perm;
  std::int64_t n;
  R* row;
  TESSERA_HD void operator()(std::int64_t p) const { row[p] = static_cast<R>(perm[p] / n); }
};

/// Result q = (r, j), j < k: element perm[r * n + j] of the input, and its position.
template <class T>
struct WriteFirst {
  const T* in;
  OrderingRows rows;
  std::int64_t k;
  const std::int64_t* perm;
  T* values;
  std::int64_t* indices;
  TESSERA_HD void operator()(std::int64_t q) const {
    const std::int64_t r = q / k, j = q % k;
    const std::int64_t from = perm[r * rows.n + j] % rows.n;
    const std::int64_t o = r / rows.inner, i = r % rows.inner;
    const std::int64_t to = (o * k + j) * rows.inner + i;
    indices[to] = from;
    if (values != nullptr) values[to] = in[(o * rows.n + from) * rows.inner + i];
  }
};

/// Groups the sorted positions `perm` back into rows (stable by row id of type R).
template <class R, class Policy>
void group_rows(Policy&& policy, int device, std::int64_t* perm, std::int64_t total,
                std::int64_t n) {
  DeviceBuffer<R> row(total, device);
  thrust::for_each_n(policy, thrust::counting_iterator<std::int64_t>(0), total,
                     RowOf<R>{perm, n, row.data()});
  thrust::stable_sort_by_key(policy, row.data(), row.data() + total, perm);
}

}  // namespace

template <class T>
void order_rows(const char* op, int device, const T* in, const OrderingRows& rows, bool descending,
                std::int64_t k, T* values, std::int64_t* indices) {
  const std::int64_t count = rows.rows(), total = count * rows.n;
  if (count == 0 || k == 0) return;
  device_call(op, device, [&] {
    DeviceWork work(device);
    DeviceBuffer<order_key_t<T>> keys(total, device);
    DeviceBuffer<std::int64_t> perm(total, device);
    const thrust::counting_iterator<std::int64_t> first(0);
    thrust::for_each_n(work.policy(), first, total,
                       MakeKeys<T>{in, rows, descending, keys.data(), perm.data()});
    thrust::stable_sort_by_key(work.policy(), keys.data(), keys.data() + total, perm.data());
    if (count > 1) {
      if (count - 1 <= std::numeric_limits<std::uint32_t>::max()) {
        group_rows<std::uint32_t>(work.policy(), device, perm.data(), total, rows.n);
      } else {
        group_rows<std::uint64_t>(work.policy(), device, perm.data(), total, rows.n);
      }
    }
    thrust::for_each_n(work.policy(), first, count * k,
                       WriteFirst<T>{in, rows, k, perm.data(), values, indices});
  });
}

#define TESSERA_INSTANTIATE_ORDER_ROWS_CUDA(T)                                                     \
  template void order_rows<T>(const char*, int, const T*, const OrderingRows&, bool, std::int64_t, \
                              T*, std::int64_t*);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_ORDER_ROWS_CUDA)
#undef TESSERA_INSTANTIATE_ORDER_ROWS_CUDA

}  // namespace tessera::detail::cuda_ops
