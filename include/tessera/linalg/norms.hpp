// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file norms.hpp
/// Vector and matrix norms (torch.linalg semantics) and the trace:
/// `ts::linalg::vector_norm(a, 1.0, 1)`, `ts::linalg::matrix_norm(A, "nuc")`,
/// `ts::linalg::norm(a)`, `ts::trace(A)`.
///
/// The norms are compositions of the reduction engine's sums and extremes over pointwise nodes
/// (`sum(abs(x)^p)^(1/p)`, `amax(abs(x))`, ...): the input expression is read inside the
/// reduction, on the host or the device, with float sums accumulated in double. The spectral
/// and nuclear matrix norms take the singular values (linalg::svdvals, a LAPACK call).

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/reduce_dims.hpp"
#include "tessera/linalg/decompositions.hpp"

namespace tessera {

namespace detail {

/// `ord` of vector_norm: any number but NaN (ValueError).
void check_vector_norm_ord(double ord);

/// The dims of matrix_norm (`dim`: exactly two, distinct, in range of `ndim` >= 2), made
/// non-negative; ShapeError, ValueError or IndexError otherwise.
std::pair<std::int64_t, std::int64_t> matrix_norm_dims(const Dims& dim, std::int64_t ndim);

/// matrix_norm's numeric `ord`: one of 1, -1, 2, -2, inf, -inf (ValueError otherwise).
void check_matrix_norm_ord(double ord);

/// matrix_norm's string `ord`: "fro" or "nuc" (ValueError otherwise); true for "nuc".
bool matrix_norm_is_nuclear(std::string_view ord);

/// trace's input: 2-D (ShapeError otherwise).
void check_trace_input(std::int64_t ndim);

/// The permutation of `ndim` dims that puts d0 and d1 last (in that order).
std::vector<std::int64_t> dims_moved_last(std::int64_t ndim, std::int64_t d0, std::int64_t d1);

}  // namespace detail

namespace linalg {
inline namespace TESSERA_EVAL_NS {

/// @name Norms (torch.linalg): float and double inputs; results are tensors (0-d when every
/// dimension is reduced)
/// @{

namespace detail {
/// vector_norm of a real (float or double) expression.
template <Expression E>
Tensor<typename std::remove_cvref_t<E>::value_type> real_vector_norm(const E& e, double ord,
                                                                     const Dims& dim,
                                                                     bool keepdim) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.vector_norm");
  tessera::detail::check_vector_norm_ord(ord);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (ord == kInf) return tessera::amax(tessera::abs(e), dim, keepdim);
  if (ord == -kInf) return tessera::amin(tessera::abs(e), dim, keepdim);
  if (ord == 0.0) {
    return tessera::sum(tessera::cast<T>(tessera::ne(e, T(0))), dim, keepdim);
  }
  if (ord == 1.0) return tessera::sum(tessera::abs(e), dim, keepdim);
  if (ord == 2.0) {
    return tessera::detail::tensor_of(tessera::sqrt(tessera::sum(e * e, dim, keepdim)));
  }
  const T p = static_cast<T>(ord);
  const Tensor<T> s = tessera::sum(tessera::pow(tessera::abs(e), p), dim, keepdim);
  return tessera::detail::tensor_of(tessera::pow(s, static_cast<T>(1.0 / ord)));
}
}  // namespace detail

/// The vector `ord`-norm of `e` over `dim` (every dimension when `dim` is empty, the default):
/// `sum(|x|^ord)^(1/ord)` for any ord but 0 and ±inf (negative ord as PyTorch: a zero gives 0),
/// the count of nonzeros for 0, `max |x|` for inf, `min |x|` for -inf. `dim`: one dimension or
/// a braced list, as for reductions; `keepdim` keeps them as extent 1. ValueError for a NaN ord;
/// IndexError for ±inf over an empty dimension (no identity). Runs on the reduction engine. A
/// complex input gives the norm of |z| in the part type; for ord 2 its squares are summed in
/// double, so no norm of complex64 values overflows inside the float range (torch's float32
/// norm of [3e30+4e30j, 1e30j] is inf).
///
///     auto n = ts::linalg::vector_norm(v);  ts::linalg::vector_norm(a, 1.0, 1, false);
template <Expression E>
Tensor<part_t<typename std::remove_cvref_t<E>::value_type>> vector_norm(const E& e,
                                                                        double ord = 2.0,
                                                                        const Dims& dim = Dims{},
                                                                        bool keepdim = false) {
  using T = typename std::remove_cvref_t<E>::value_type;
  if constexpr (Complex<T>) {
    const tessera::detail::OpScope scope("linalg.vector_norm");
    tessera::detail::check_vector_norm_ord(ord);
    if (ord == 2.0) {
      const Tensor<double> s =
          tessera::sum(tessera::square(tessera::cast<double>(tessera::abs(e))), dim, keepdim);
      return Tensor<part_t<T>>(tessera::cast<part_t<T>>(tessera::sqrt(s)));
    }
    return vector_norm(tessera::abs(e), ord, dim, keepdim);
  } else {
    return detail::real_vector_norm(e, ord, dim, keepdim);
  }
}

/// The matrix norm of `ord` over the dims `dim` (the last two by default): 1 (largest absolute
/// column sum), -1 (smallest), inf (largest absolute row sum), -inf (smallest), 2 (largest
/// singular value), -2 (smallest singular value). ValueError for another ord; ShapeError for an
/// input of fewer than 2 dims.
///
///     ts::linalg::matrix_norm(A, 2.0);  ts::linalg::matrix_norm(A, 1.0, {0, 1}, true);
template <Expression E>
Tensor<typename std::remove_cvref_t<E>::value_type> matrix_norm(const E& e, double ord,
                                                                const Dims& dim = Dims{-2, -1},
                                                                bool keepdim = false) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.matrix_norm");
  const auto [d0, d1] = tessera::detail::matrix_norm_dims(
      dim, static_cast<std::int64_t>(tessera::detail::expr_shape(e).size()));
  tessera::detail::check_matrix_norm_ord(ord);
  const Tensor<T> a = tessera::detail::tensor_of(e);
  // The matrices in the last two dims: column sums reduce dim -2, row sums dim -1.
  const Tensor<T> m = a.permute(tessera::detail::dims_moved_last(a.dim(), d0, d1));
  const bool largest = ord > 0;
  Tensor<T> r;
  if (std::abs(ord) == 2.0) {
    const Tensor<T> s = svdvals(m);
    r = largest ? tessera::amax(s, -1) : tessera::amin(s, -1);
  } else {
    const Tensor<T> sums = tessera::sum(tessera::abs(m), std::abs(ord) == 1.0 ? -2 : -1);
    r = largest ? tessera::amax(sums, -1) : tessera::amin(sums, -1);
  }
  if (keepdim) r = r.unsqueeze(std::min(d0, d1)).unsqueeze(std::max(d0, d1));
  return r;
}

/// The Frobenius norm (`ord` "fro", the default: the square root of the sum of squares, on the
/// reduction engine over the expression) or the nuclear norm ("nuc": the sum of the singular
/// values) over the dims `dim` (the last two by default). ValueError for another ord.
///
///     ts::linalg::matrix_norm(A);  ts::linalg::matrix_norm(A, "nuc");
template <Expression E>
Tensor<typename std::remove_cvref_t<E>::value_type> matrix_norm(const E& e,
                                                                std::string_view ord = "fro",
                                                                const Dims& dim = Dims{-2, -1},
                                                                bool keepdim = false) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.matrix_norm");
  const auto [d0, d1] = tessera::detail::matrix_norm_dims(
      dim, static_cast<std::int64_t>(tessera::detail::expr_shape(e).size()));
  if (!tessera::detail::matrix_norm_is_nuclear(ord)) {
    return vector_norm(e, 2.0, Dims{d0, d1}, keepdim);
  }
  const Tensor<T> a = tessera::detail::tensor_of(e);
  Tensor<T> r =
      tessera::sum(svdvals(a.permute(tessera::detail::dims_moved_last(a.dim(), d0, d1))), -1);
  if (keepdim) r = r.unsqueeze(std::min(d0, d1)).unsqueeze(std::max(d0, d1));
  return r;
}

/// The 2-norm of `e` flattened (the Frobenius norm of a matrix), as a 0-d tensor:
/// torch.linalg.norm(a) without ord and dim.
template <Expression E>
auto norm(const E& e) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.norm");
  return vector_norm(e, 2.0);
}
/// @}

}  // namespace TESSERA_EVAL_NS
}  // namespace linalg

inline namespace TESSERA_EVAL_NS {

/// The sum of the diagonal of a 2-D `e`, as a 0-d tensor: T for floats, int64 for integers and
/// bool (as ts::sum). ShapeError for another rank.
///
///     auto t = ts::trace(A).item();
template <Expression E>
auto trace(const E& e) {
  const detail::OpScope scope("trace");
  detail::check_trace_input(static_cast<std::int64_t>(detail::expr_shape(e).size()));
  return tessera::sum(detail::tensor_of(e).diagonal(), Dims{0});
}

}  // namespace TESSERA_EVAL_NS

}  // namespace tessera
