// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file statistics.hpp
/// Statistics (PyTorch semantics) on tensors and expressions: order statistics
/// (`float q = ts::quantile(x, 0.5);`, `auto [med, at] = ts::median(x, 1);`,
/// `auto [kv, ki] = ts::kthvalue(x, 2, 1);`, `auto [mo, mi] = ts::mode(x, 1);`), differences
/// (`ts::diff(x)`) and covariance (`ts::cov(obs)`, `ts::corrcoef(obs)`). Softmax:
/// tessera/ops/activations.hpp.
///
/// No new kernels: each operation evaluates its input once (a tensor is used as is) and calls a
/// function precompiled in the library per dtype (src/ops/statistics.cpp) that composes the
/// existing engines: the sort engine (quantile, median, kthvalue, mode), the reduction and
/// scan engines (NaN counts, mode's run lengths, cov's sums), gathers
/// (take_along_dim) and pointwise expressions. So every operation runs on every device.

#include <cstdint>
#include <optional>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/reduce_dims.hpp"
#include "tessera/ops/statistics_methods.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

namespace detail {

/// The options of a quantile call that are not the data (op names the caller in errors).
struct QuantileArgs {
  const char* op = "quantile";                ///< "quantile" or "nanquantile"
  std::optional<std::int64_t> dim;            ///< none: over every element (flattened)
  bool keepdim = false;                       ///< keep the reduced dimension(s) as extent 1
  Interpolation how = Interpolation::Linear;  ///< between the two sorted neighbours
  bool ignore_nan = false;                    ///< nanquantile: rank among the non-NaN values
};

/// Quantiles of x (float or double) at q (`q_tensor` when not null: 0-d or 1-D, values in
/// [0, 1]; otherwise the scalar `q`). A 1-D q puts its dimension first. Checks everything
/// (ValueError, IndexError) before any work. Precompiled for float and double.
template <class T>
Tensor<T> quantile_tensor(const Tensor<T>& x, const Tensor<T>* q_tensor, double q,
                          const QuantileArgs& args);

/// Lower medians of x along `dim` (none: over every element, a 0-d result) and their int64
/// positions; NaN propagates (position of the first NaN) unless `ignore_nan`. Precompiled per
/// dtype.
template <class T>
ValuesIndices<T> median_tensor(const char* op, const Tensor<T>& x, std::optional<std::int64_t> dim,
                               bool keepdim, bool ignore_nan);

/// The k-th smallest of x along `dim` (k in [1, size], IndexError otherwise) and its position.
template <class T>
ValuesIndices<T> kthvalue_tensor(const Tensor<T>& x, std::int64_t k, std::int64_t dim,
                                 bool keepdim);

/// The most frequent value of x along `dim` (the smallest of ties) and its last position.
template <class T>
ValuesIndices<T> mode_tensor(const Tensor<T>& x, std::int64_t dim, bool keepdim);

/// The n-th forward difference of x along `dim` (bool: logical xor). Precompiled per dtype.
template <class T>
Tensor<T> diff_tensor(const Tensor<T>& x, std::int64_t n, std::int64_t dim);

/// cov's and corrcoef's result type: the input's floating type, float for integers (PyTorch).
template <class T>
using cov_t = std::conditional_t<Floating<T>, T, float>;

/// The covariance (or, when `corr`, the correlation) matrix of x's rows. Precompiled for the
/// number dtypes.
template <class T>
Tensor<cov_t<T>> cov_tensor(const Tensor<T>& x, double correction, bool corr);

/// A floating value type, or a compile-time error naming the fix.
template <class T>
constexpr void require_floating_order_stat() {
  static_assert(Floating<T>,
                "tessera: quantile and nanquantile need a floating input "
                "(as PyTorch); cast first, e.g. ts::quantile(x.cast<float>(), 0.5)");
}

/// A number value type (cov and corrcoef refuse bool, as PyTorch).
template <class T>
constexpr void require_number_order_stat() {
  static_assert(!std::is_same_v<T, bool>,
                "tessera: cov and corrcoef take numbers, not bool (as PyTorch); cast first");
}

}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Order statistics (PyTorch): NaN propagates unless the name starts with nan
/// @{

/// The q-quantile (q in [0, 1]) of every element of `e` (float or double), a host value:
/// `float q50 = ts::quantile(x, 0.5);`. NaN when `e` holds a NaN. ValueError for q outside
/// [0, 1] or an empty input.
template <Expression E>
detail::value_type_t<E> quantile(const E& e, double q, Interpolation how = Interpolation::Linear) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "quantile");
  using T = detail::value_type_t<E>;
  detail::require_floating_order_stat<T>();
  const detail::OpScope scope("quantile");
  return detail::quantile_tensor<T>(detail::tensor_of(e), nullptr, q, {"quantile", {}, false, how})
      .item();
}

/// The q-quantile of `e` along `dim` (keepdim: the dimension kept as extent 1):
/// `ts::quantile(x, 0.9, 1)`. NaN for a row that holds a NaN.
template <Expression E>
Tensor<detail::value_type_t<E>> quantile(const E& e, double q, std::int64_t dim,
                                         bool keepdim = false,
                                         Interpolation how = Interpolation::Linear) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "quantile");
  using T = detail::value_type_t<E>;
  detail::require_floating_order_stat<T>();
  const detail::OpScope scope("quantile");
  return detail::quantile_tensor<T>(detail::tensor_of(e), nullptr, q,
                                    {"quantile", dim, keepdim, how});
}

/// The quantiles at each q of a 0-d or 1-D tensor `q` (same dtype as e, values in [0, 1]):
/// a 1-D q puts its dimension first, as torch.quantile:
/// `ts::quantile(x, qs, 1, false, ts::Interpolation::Nearest)`. No dim: over every element.
template <Expression E>
Tensor<detail::value_type_t<E>> quantile(const E& e, const Tensor<detail::value_type_t<E>>& q,
                                         std::optional<std::int64_t> dim = std::nullopt,
                                         bool keepdim = false,
                                         Interpolation how = Interpolation::Linear) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "quantile");
  using T = detail::value_type_t<E>;
  detail::require_floating_order_stat<T>();
  const detail::OpScope scope("quantile");
  return detail::quantile_tensor<T>(detail::tensor_of(e), &q, 0.0, {"quantile", dim, keepdim, how});
}

/// ts::quantile over the non-NaN elements only (NaN when there are none), a host value.
template <Expression E>
detail::value_type_t<E> nanquantile(const E& e, double q,
                                    Interpolation how = Interpolation::Linear) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "nanquantile");
  using T = detail::value_type_t<E>;
  detail::require_floating_order_stat<T>();
  const detail::OpScope scope("nanquantile");
  return detail::quantile_tensor<T>(detail::tensor_of(e), nullptr, q,
                                    {"nanquantile", {}, false, how, true})
      .item();
}

/// ts::quantile along `dim` over the non-NaN elements of each row.
template <Expression E>
Tensor<detail::value_type_t<E>> nanquantile(const E& e, double q, std::int64_t dim,
                                            bool keepdim = false,
                                            Interpolation how = Interpolation::Linear) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "nanquantile");
  using T = detail::value_type_t<E>;
  detail::require_floating_order_stat<T>();
  const detail::OpScope scope("nanquantile");
  return detail::quantile_tensor<T>(detail::tensor_of(e), nullptr, q,
                                    {"nanquantile", dim, keepdim, how, true});
}

/// ts::quantile at a tensor of q over the non-NaN elements of each row.
template <Expression E>
Tensor<detail::value_type_t<E>> nanquantile(const E& e, const Tensor<detail::value_type_t<E>>& q,
                                            std::optional<std::int64_t> dim = std::nullopt,
                                            bool keepdim = false,
                                            Interpolation how = Interpolation::Linear) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "nanquantile");
  using T = detail::value_type_t<E>;
  detail::require_floating_order_stat<T>();
  const detail::OpScope scope("nanquantile");
  return detail::quantile_tensor<T>(detail::tensor_of(e), &q, 0.0,
                                    {"nanquantile", dim, keepdim, how, true});
}

/// The lower median (the lower of the two middle values, as PyTorch) of every element, a host
/// value: `float md = ts::median(x);`. NaN when `e` holds a NaN, or when it is empty (floats;
/// an empty integer tensor is an IndexError).
template <Expression E>
detail::value_type_t<E> median(const E& e) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "median");
  const detail::OpScope scope("median");
  return detail::median_tensor("median", detail::tensor_of(e), std::nullopt, false, false)
      .values.item();
}

/// The lower medians along `dim` and their int64 positions: `auto [med, at] = ts::median(x, 1);`.
/// A row with a NaN gives NaN and the position of its first NaN. IndexError for an empty row.
template <Expression E>
ValuesIndices<detail::value_type_t<E>> median(const E& e, std::int64_t dim, bool keepdim = false) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "median");
  const detail::OpScope scope("median");
  return detail::median_tensor("median", detail::tensor_of(e), dim, keepdim, false);
}

/// The lower median of the non-NaN elements, a host value (NaN when there are none).
template <Expression E>
detail::value_type_t<E> nanmedian(const E& e) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "nanmedian");
  const detail::OpScope scope("nanmedian");
  return detail::median_tensor("nanmedian", detail::tensor_of(e), std::nullopt, false, true)
      .values.item();
}

/// The lower medians of the non-NaN elements along `dim` and their positions (a row of NaN
/// only: NaN at position 0's NaN, as PyTorch).
template <Expression E>
ValuesIndices<detail::value_type_t<E>> nanmedian(const E& e, std::int64_t dim,
                                                 bool keepdim = false) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "nanmedian");
  const detail::OpScope scope("nanmedian");
  return detail::median_tensor("nanmedian", detail::tensor_of(e), dim, keepdim, true);
}

/// The k-th smallest element along `dim` (k from 1; NaN the largest) and its int64 position:
/// `auto [kv, ki] = ts::kthvalue(x, 2, 1);`. Among equal values the position is the one a
/// stable sort puts k-th. IndexError when k is outside [1, size] or dim is out of range.
template <Expression E>
ValuesIndices<detail::value_type_t<E>> kthvalue(const E& e, std::int64_t k, std::int64_t dim = -1,
                                                bool keepdim = false) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "kthvalue");
  const detail::OpScope scope("kthvalue");
  return detail::kthvalue_tensor(detail::tensor_of(e), k, dim, keepdim);
}

/// The most frequent value along `dim` (the smallest of equally frequent ones; NaNs count as
/// one value) and the position of its last occurrence, as PyTorch's CPU:
/// `auto [mo, mi] = ts::mode(x, 1);`. IndexError for an empty row.
template <Expression E>
ValuesIndices<detail::value_type_t<E>> mode(const E& e, std::int64_t dim = -1,
                                            bool keepdim = false) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "mode");
  const detail::OpScope scope("mode");
  return detail::mode_tensor(detail::tensor_of(e), dim, keepdim);
}
/// @}

/// @name Differences and covariance (PyTorch)
/// @{

/// The n-th forward difference along `dim` (torch.diff): out[i] = x[i + 1] - x[i], n times
/// (bool: logical xor); each pass is one shorter, never below 0. ValueError for n < 0,
/// ShapeError for a 0-d input: `ts::diff(x); ts::diff(x, 2, 0);`.
template <Expression E>
Tensor<detail::value_type_t<E>> diff(const E& e, std::int64_t n = 1, std::int64_t dim = -1) {
  const detail::OpScope scope("diff");
  return detail::diff_tensor(detail::tensor_of(e), n, dim);
}

/// The covariance matrix of the rows of a 1-D or 2-D `obs` (rows are variables, columns
/// observations; a 1-D input is one variable, a 0-d result), divided by
/// max(0, observations - correction) as torch.cov: `ts::cov(obs)`. Float result for integers.
template <Expression E>
Tensor<detail::cov_t<detail::value_type_t<E>>> cov(const E& e, double correction = 1.0) {
  detail::require_number_order_stat<detail::value_type_t<E>>();
  const detail::OpScope scope("cov");
  return detail::cov_tensor(detail::tensor_of(e), correction, false);
}

/// The Pearson correlation matrix of the rows of `obs` (torch.corrcoef), clipped to [-1, 1]:
/// `ts::corrcoef(obs)`.
template <Expression E>
Tensor<detail::cov_t<detail::value_type_t<E>>> corrcoef(const E& e) {
  detail::require_number_order_stat<detail::value_type_t<E>>();
  const detail::OpScope scope("corrcoef");
  return detail::cov_tensor(detail::tensor_of(e), 1.0, true);
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (ops/statistics_methods.hpp, where they are documented) ---------------------
#if !defined(TESSERA_DOXYGEN)
/// Defines StatisticsMethods<D>::NAME(PARAMS) as tessera::NAME(self(), ARGS).
#define TESSERA_STATISTICS_METHOD(NAME, PARAMS, ARGS)             \
  template <class D>                                              \
  TESSERA_EVAL_TAG auto StatisticsMethods<D>::NAME PARAMS const { \
    return tessera::NAME ARGS;                                    \
  }
TESSERA_STATISTICS_METHOD(quantile, (double q, Interpolation how), (self(), q, how))
TESSERA_STATISTICS_METHOD(quantile, (double q, std::int64_t dim, bool keepdim, Interpolation how),
                          (self(), q, dim, keepdim, how))
TESSERA_STATISTICS_METHOD(nanquantile, (double q, Interpolation how), (self(), q, how))
TESSERA_STATISTICS_METHOD(nanquantile,
                          (double q, std::int64_t dim, bool keepdim, Interpolation how),
                          (self(), q, dim, keepdim, how))
TESSERA_STATISTICS_METHOD(median, (), (self()))
TESSERA_STATISTICS_METHOD(median, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_STATISTICS_METHOD(nanmedian, (), (self()))
TESSERA_STATISTICS_METHOD(nanmedian, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_STATISTICS_METHOD(kthvalue, (std::int64_t k, std::int64_t dim, bool keepdim),
                          (self(), k, dim, keepdim))
TESSERA_STATISTICS_METHOD(mode, (std::int64_t dim, bool keepdim), (self(), dim, keepdim))
TESSERA_STATISTICS_METHOD(diff, (std::int64_t n, std::int64_t dim), (self(), n, dim))
TESSERA_STATISTICS_METHOD(cov, (double correction), (self(), correction))
TESSERA_STATISTICS_METHOD(corrcoef, (), (self()))
#undef TESSERA_STATISTICS_METHOD
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
