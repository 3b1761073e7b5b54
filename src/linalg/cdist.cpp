// SPDX-License-Identifier: BSD-3-Clause
// cdist: p-norm distances between the rows of two batches of matrices. Euclidean distances of
// more than 25 rows on either side go through the product engine as PyTorch's do (one product
// of augmented rows gives |x|^2 + |y|^2 - 2 x.y, clamped at 0); every other case reduces |x - y|
// over the columns on the reduction engine, reading the broadcast difference inside the reduction
// (no (P, R, M) temporary).

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/linalg/cdist.hpp"
#include "tessera/linalg/matmul.hpp"
#include "tessera/linalg/product.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {
/// PyTorch's threshold for the product form (use_mm_for_euclid_dist_if_necessary).
constexpr std::int64_t kProductRows = 25;
}  // namespace

template <class T>
Tensor<T> cdist_tensor(const Tensor<T>& a, const Tensor<T>& b, double p) {
  if (a.dim() < 2 || b.dim() < 2) {
    raise<ShapeError>("cdist", "cdist only supports at least 2D tensors, X1 got: ", a.dim(),
                      "D, X2 got: ", b.dim(), "D");
  }
  if (a.size(-1) != b.size(-1)) {
    raise<ShapeError>("cdist", "X1 and X2 must have the same number of columns. X1: ", a.size(-1),
                      " X2: ", b.size(-1));
  }
  if (!(p >= 0)) raise<ValueError>("cdist", "cdist only supports non-negative p values, got ", p);
  if (a.device() != b.device()) {
    raise<DeviceError>("cdist", "expected both operands on the same device, but got ", a.device(),
                       " and ", b.device());
  }
  const std::int64_t rows_a = a.size(-2), rows_b = b.size(-2);
  if (p == 2 && (rows_a > kProductRows || rows_b > kProductRows) && a.size(-1) > 0) {
    // One product gives |x|^2 + |y|^2 - 2 x.y: [-2x, |x|^2, 1] . [y, 1, |y|^2] (PyTorch's
    // _euclidean_dist), then the clamp and the root in place over one contiguous tensor.
    const Tensor<T> norms_a = tessera::sum(a * a, std::int64_t{-1}, true);
    const Tensor<T> norms_b = tessera::sum(b * b, std::int64_t{-1}, true);
    const Tensor<T> left = tessera::cat(
        {Tensor<T>(a * static_cast<T>(-2)), norms_a, Tensor<T>::ones(norms_a.shape(), a.device())},
        -1);
    const Tensor<T> right =
        tessera::cat({b, Tensor<T>::ones(norms_b.shape(), b.device()), norms_b}, -1);
    Tensor<T> out = batched_matmul("cdist", left, right.mT());
    out = tessera::sqrt(tessera::clamp_min(out, static_cast<T>(0)));
    return out;
  }
  const auto x = a.unsqueeze(-2), y = b.unsqueeze(-3);
  if (a.size(-1) == 0) {
    // No columns: every distance is 0, over the broadcast of the batch and row extents.
    std::vector<std::int64_t> shape = detail::broadcast_shapes("cdist", x.shape(), y.shape()).vec();
    shape.pop_back();
    return Tensor<T>::zeros(Shape(shape), a.device());
  }
  const auto d = tessera::abs(x - y);
  if (p == 0) {
    return tessera::sum(d != static_cast<T>(0), std::int64_t{-1}).template cast<T>();
  }
  if (p == 1) return tessera::sum(d, std::int64_t{-1});
  if (p == 2) return Tensor<T>(tessera::sqrt(tessera::sum(d * d, std::int64_t{-1})));
  if (std::isinf(p)) return tessera::amax(d, std::int64_t{-1});
  const T q = static_cast<T>(p);
  return Tensor<T>(
      tessera::pow(tessera::sum(tessera::pow(d, q), std::int64_t{-1}), static_cast<T>(1.0 / p)));
}

template Tensor<float> cdist_tensor<float>(const Tensor<float>&, const Tensor<float>&, double);
template Tensor<double> cdist_tensor<double>(const Tensor<double>&, const Tensor<double>&, double);

}  // namespace tessera::detail
