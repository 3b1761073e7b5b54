// SPDX-License-Identifier: BSD-3-Clause
// sort, argsort and topk: argument checks, results and the choice of backend, once per dtype.

#include <cstdint>

#include "backend/ordering_kernels.hpp"
#include "tessera/core/error.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

/// dim made non-negative by wrap_dim (a 0-d tensor counts as rank 1, as in PyTorch).
int ordering_dim(const char* op, std::int64_t dim, std::int64_t ndim) {
  return static_cast<int>(wrap_dim(op, dim, ndim));
}

/// `shape` as rows along dimension d (a 0-d shape: one row of one element).
OrderingRows rows_along(const Shape& shape, int d) {
  OrderingRows rows;
  const int nd = static_cast<int>(shape.size());
  if (nd == 0) return rows;
  rows.n = shape[d];
  for (int i = 0; i < d; ++i) rows.outer *= shape[i];
  for (int i = d + 1; i < nd; ++i) rows.inner *= shape[i];
  return rows;
}

/// Runs the kernel of x's device (`op` names the operation in a device failure): the first k
/// of each row into values (unless null) and indices.
template <class T>
void run_order_rows(const char* op, const Tensor<T>& x, const OrderingRows& rows, bool descending,
                    std::int64_t k, T* values, std::int64_t* indices) {
  if (rows.rows() == 0 || k == 0) return;
  const Tensor<T> in = x.is_contiguous() ? x : x.contiguous();
  if (x.device().is_cpu()) {
    host_ops::order_rows(in.data(), rows, descending, k, values, indices);
  } else {
    cuda_ops::order_rows(op, x.device().index(), in.data(), rows, descending, k, values, indices);
  }
}

}  // namespace

template <class T>
ValuesIndices<T> sort_tensor(const char* op, const Tensor<T>& x, std::int64_t dim, bool descending,
                             bool values) {
  const int d = ordering_dim(op, dim, x.dim());
  const OrderingRows rows = rows_along(x.shape(), d);
  ValuesIndices<T> out;
  if (values) out.values = Tensor<T>::empty(x.shape(), x.device());
  out.indices = Tensor<std::int64_t>::empty(x.shape(), x.device());
  run_order_rows(op, x, rows, descending, rows.n, values ? out.values.data() : nullptr,
                 out.indices.data());
  return out;
}

template <class T>
ValuesIndices<T> topk_tensor(const Tensor<T>& x, std::int64_t k, std::int64_t dim, bool largest) {
  const int d = ordering_dim("topk", dim, x.dim());
  const OrderingRows rows = rows_along(x.shape(), d);
  if (k < 0 || k > rows.n) {
    raise<IndexError>("topk", "selected index k out of range (k = ", k, ", size along dim ", d,
                      " = ", rows.n, ")");
  }
  Shape shape = x.shape();
  if (x.dim() > 0) shape[d] = k;
  ValuesIndices<T> out{Tensor<T>::empty(shape, x.device()),
                       Tensor<std::int64_t>::empty(shape, x.device())};
  // A 0-d result holds one element whatever k (0 or 1): PyTorch returns the value for both.
  run_order_rows("topk", x, rows, largest, x.dim() == 0 ? 1 : k, out.values.data(),
                 out.indices.data());
  return out;
}

#define TESSERA_INSTANTIATE_ORDERING(T)                                                       \
  template ValuesIndices<T> sort_tensor<T>(const char*, const Tensor<T>&, std::int64_t, bool, \
                                           bool);                                             \
  template ValuesIndices<T> topk_tensor<T>(const Tensor<T>&, std::int64_t, std::int64_t, bool);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_ORDERING)
#undef TESSERA_INSTANTIATE_ORDERING

}  // namespace tessera::detail
