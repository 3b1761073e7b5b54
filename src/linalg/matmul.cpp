// SPDX-License-Identifier: BSD-3-Clause
// matmul, mm, bmm, mv, dot, outer and tensordot: PyTorch's shape rules, each one call of the
// product engine (detail::batched_matmul) on views of its operands.

#include <cstdint>
#include <numeric>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/linalg/matmul.hpp"
#include "tessera/linalg/product.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

template <class T>
void require_dim(const char* op, const Tensor<T>& x, std::int64_t dim, const char* what) {
  if (x.dim() != dim)
    raise<ShapeError>(op, what, ", but got a ", x.dim(), "-D tensor of shape ", x.shape());
}

}  // namespace

template <class T>
Tensor<T> matmul_tensor(const Tensor<T>& a, const Tensor<T>& b) {
  if (a.dim() == 0 || b.dim() == 0) {
    raise<ShapeError>("matmul", "both arguments to matmul need to be at least 1D, but they are ",
                      a.dim(), "D and ", b.dim(), "D");
  }
  if (a.dim() == 1 && b.dim() == 1) return dot_tensor(a, b);
  if (a.dim() == 1) return batched_matmul("matmul", a.unsqueeze(0), b).squeeze(-2);
  if (b.dim() == 1) return batched_matmul("matmul", a, b.unsqueeze(1)).squeeze(-1);
  return batched_matmul("matmul", a, b);
}

template <class T>
Tensor<T> mm_tensor(const Tensor<T>& a, const Tensor<T>& b) {
  require_dim("mm", a, 2, "self must be a matrix");
  require_dim("mm", b, 2, "mat2 must be a matrix");
  return batched_matmul("mm", a, b);
}

template <class T>
Tensor<T> bmm_tensor(const Tensor<T>& a, const Tensor<T>& b) {
  require_dim("bmm", a, 3, "batch1 must be a 3D tensor");
  require_dim("bmm", b, 3, "batch2 must be a 3D tensor");
  if (b.shape()[0] != a.shape()[0] || b.shape()[1] != a.shape()[2]) {
    raise<ShapeError>("bmm", "Expected size for first two dimensions of batch2 tensor to be: [",
                      a.shape()[0], ", ", a.shape()[2], "] but got: [", b.shape()[0], ", ",
                      b.shape()[1], "] (shapes ", a.shape(), " and ", b.shape(), ")");
  }
  return batched_matmul("bmm", a, b);
}

template <class T>
Tensor<T> mv_tensor(const Tensor<T>& a, const Tensor<T>& v) {
  if (a.dim() != 2 || v.dim() != 1) {
    raise<ShapeError>("mv", "vector + matrix @ vector expected, got a ", a.dim(),
                      "-D matrix and a ", v.dim(), "-D vector (shapes ", a.shape(), " and ",
                      v.shape(), ")");
  }
  if (a.shape()[1] != v.shape()[0]) {
    raise<ShapeError>("mv", "size mismatch, got input (", a.shape()[0], "), mat (", a.shape()[0],
                      "x", a.shape()[1], "), vec (", v.shape()[0], ")");
  }
  return batched_matmul("mv", a, v.unsqueeze(1)).squeeze(-1);
}

template <class T>
Tensor<T> dot_tensor(const Tensor<T>& v, const Tensor<T>& w) {
  if (v.dim() != 1 || w.dim() != 1) {
    raise<ShapeError>("dot", "1D tensors expected, but got ", v.dim(), "D and ", w.dim(),
                      "D tensors");
  }
  if (v.numel() != w.numel()) {
    raise<ShapeError>("dot", "inconsistent tensor size, expected tensor [", v.numel(),
                      "] and src [", w.numel(), "] to have the same number of elements, but got ",
                      v.numel(), " and ", w.numel(), " elements respectively");
  }
  return batched_matmul("dot", v.unsqueeze(0), w.unsqueeze(1)).reshape(Shape{});
}

template <class T>
Tensor<T> outer_tensor(const Tensor<T>& v, const Tensor<T>& w) {
  require_dim("outer", v, 1, "Expected 1-D argument self");
  require_dim("outer", w, 1, "Expected 1-D argument vec2");
  return batched_matmul("outer", v.unsqueeze(1), w.unsqueeze(0));
}

template <class T>
Tensor<T> tensordot_tensor(const Tensor<T>& a, const Tensor<T>& b,
                           const std::vector<std::int64_t>& dims_a,
                           const std::vector<std::int64_t>& dims_b) {
  if (dims_a.size() != dims_b.size()) {
    raise<ShapeError>("tensordot", "both dimension lists should have same length, but got ",
                      dims_a.size(), " and ", dims_b.size());
  }
  if (!dims_a.empty() && (a.dim() == 0 || b.dim() == 0)) {
    raise<IndexError>("tensordot", "cannot contract a dimension of a 0-d tensor (shapes ",
                      a.shape(), " and ", b.shape(), ")");
  }
  std::vector<bool> contracted_a(static_cast<std::size_t>(a.dim())),
      contracted_b(static_cast<std::size_t>(b.dim()));
  std::vector<std::int64_t> da, db;
  std::int64_t k = 1;
  for (std::size_t i = 0; i < dims_a.size(); ++i) {
    const std::int64_t x = wrap_dim("tensordot", dims_a[i], a.dim());
    const std::int64_t y = wrap_dim("tensordot", dims_b[i], b.dim());
    if (contracted_a[static_cast<std::size_t>(x)] || contracted_b[static_cast<std::size_t>(y)]) {
      raise<ValueError>("tensordot", "dimension ",
                        contracted_a[static_cast<std::size_t>(x)] ? x : y,
                        " appears twice in the list of contracted dimensions");
    }
    if (a.shape()[static_cast<std::size_t>(x)] != b.shape()[static_cast<std::size_t>(y)]) {
      raise<ShapeError>("tensordot", "contracted dimensions need to match, but first has size ",
                        a.shape()[static_cast<std::size_t>(x)], " in dim ", x,
                        " and second has size ", b.shape()[static_cast<std::size_t>(y)], " in dim ",
                        y);
    }
    contracted_a[static_cast<std::size_t>(x)] = true;
    contracted_b[static_cast<std::size_t>(y)] = true;
    da.push_back(x);
    db.push_back(y);
    k *= a.shape()[static_cast<std::size_t>(x)];
  }
  // a as (free_a..., contracted...) -> (M, K); b as (contracted..., free_b...) -> (K, N).
  std::vector<std::int64_t> perm_a, perm_b = db, out_dims;
  std::int64_t m = 1, n = 1;
  for (std::int64_t d = 0; d < a.dim(); ++d) {
    if (contracted_a[static_cast<std::size_t>(d)]) continue;
    perm_a.push_back(d);
    out_dims.push_back(a.shape()[static_cast<std::size_t>(d)]);
    m *= a.shape()[static_cast<std::size_t>(d)];
  }
  perm_a.insert(perm_a.end(), da.begin(), da.end());
  for (std::int64_t d = 0; d < b.dim(); ++d) {
    if (contracted_b[static_cast<std::size_t>(d)]) continue;
    perm_b.push_back(d);
    out_dims.push_back(b.shape()[static_cast<std::size_t>(d)]);
    n *= b.shape()[static_cast<std::size_t>(d)];
  }
  const Tensor<T> am = a.permute(perm_a).reshape(Shape{m, k});
  const Tensor<T> bm = b.permute(perm_b).reshape(Shape{k, n});
  return batched_matmul("tensordot", am, bm).reshape(Shape(out_dims));
}

template <class T>
Tensor<T> tensordot_tensor(const Tensor<T>& a, const Tensor<T>& b, std::int64_t dims) {
  if (dims < 0) raise<ValueError>("tensordot", "tensordot expects dims >= 0, but got dims=", dims);
  if (dims > a.dim() || dims > b.dim()) {
    raise<ShapeError>("tensordot", "dims = ", dims, " exceeds the dimensions of the operands (",
                      a.dim(), "-D and ", b.dim(), "-D)");
  }
  std::vector<std::int64_t> da(static_cast<std::size_t>(dims)), db(static_cast<std::size_t>(dims));
  std::iota(da.begin(), da.end(), a.dim() - dims);
  std::iota(db.begin(), db.end(), std::int64_t{0});
  return tensordot_tensor(a, b, da, db);
}

#define TESSERA_INSTANTIATE_MATMUL(T)                                        \
  template Tensor<T> matmul_tensor<T>(const Tensor<T>&, const Tensor<T>&);   \
  template Tensor<T> mm_tensor<T>(const Tensor<T>&, const Tensor<T>&);       \
  template Tensor<T> bmm_tensor<T>(const Tensor<T>&, const Tensor<T>&);      \
  template Tensor<T> mv_tensor<T>(const Tensor<T>&, const Tensor<T>&);       \
  template Tensor<T> dot_tensor<T>(const Tensor<T>&, const Tensor<T>&);      \
  template Tensor<T> outer_tensor<T>(const Tensor<T>&, const Tensor<T>&);    \
  template Tensor<T> tensordot_tensor<T>(const Tensor<T>&, const Tensor<T>&, \
                                         const std::vector<std::int64_t>&,   \
                                         const std::vector<std::int64_t>&);  \
  template Tensor<T> tensordot_tensor<T>(const Tensor<T>&, const Tensor<T>&, std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_MATMUL)
#undef TESSERA_INSTANTIATE_MATMUL

}  // namespace tessera::detail
