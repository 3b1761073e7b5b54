// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file sets.hpp
/// Sets and histograms (PyTorch semantics): `ts::unique(i)`,
/// `auto [vals, inverse, counts] = ts::unique(i, {.return_inverse = true, .return_counts = true})`,
/// `ts::unique(m, {.dim = 0})`, `ts::unique_consecutive(i)`, `ts::bincount(i, w, 10)`,
/// `ts::histc(x, 10, 0.0, 1.0)`, `auto [hist, edges] = ts::histogram(x, 10)`,
/// `ts::one_hot(labels, 10)`.
///
/// Each input expression is evaluated once; a tensor is read in place, whatever its strides.
/// The functions are precompiled per dtype in the library (src/ops/sets.cpp) and are
/// compositions of the existing engines, so they run on every device with the same answers:
/// unique sorts with the sort engine (stable; NaN last) and finds runs with a scan; bincount,
/// histc and histogram add with the scatter engine's segment sums (index order: float sums are
/// the same bits run after run and on every device); histogram bins with searchsorted.
/// Results whose size depends on the data (unique, unique_consecutive, bincount, one_hot with
/// num_classes = -1, histc with min == max) wait for the device to learn it; histogram waits
/// for its data range (without a range), its outer edges, and given edges' order check.

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

// [snippet:unique-options]
/// Options of unique and unique_consecutive, members in this order (PyTorch's arguments).
struct UniqueOptions {
  /// Sorted ascending (NaN last). unique always sorts: false gives the same (sorted) answer,
  /// which PyTorch's unspecified order allows; unique_consecutive never sorts.
  bool sorted = true;
  /// Also return `inverse`: for each input element (or slice) the position of its value in
  /// `values`, shaped as the input (as the input's extent along dim, with `dim`).
  bool return_inverse = false;
  /// Also return `counts`: how many input elements (or slices) each value stands for.
  bool return_counts = false;
  /// Distinct slices along this dimension (lexicographic order) instead of distinct elements.
  std::optional<std::int64_t> dim = std::nullopt;
};
// [end-snippet]

/// What unique and unique_consecutive return with options: `auto [v, inverse, counts] = ...`.
/// inverse and counts are empty (shape (0)) unless asked for.
template <class T>
struct UniqueResult {
  Tensor<T> values;              ///< the distinct elements (1-D), or slices (with dim)
  Tensor<std::int64_t> inverse;  ///< where each input element's value is in `values`
  Tensor<std::int64_t> counts;   ///< how often each value occurs (values' length)
};

/// Options of histogram, members in this order (torch.histogram's keyword arguments).
template <class T>
struct HistogramOptions {
  /// [lower, upper] of the bins (bin count form only); default: the data's min and max.
  std::optional<std::pair<double, double>> range = std::nullopt;
  /// A weight per element of x (x's shape and device): bins sum weights instead of counting.
  std::optional<Tensor<T>> weight = std::nullopt;
  /// Divide each bin by the total and by its width, so the histogram integrates to 1.
  bool density = false;
};

/// What histogram returns: `auto [hist, bin_edges] = ts::histogram(x, 10);`.
template <class T>
struct HistogramResult {
  Tensor<T> hist;       ///< the bins' counts (or weight sums, or densities)
  Tensor<T> bin_edges;  ///< bins + 1 increasing edges
};

namespace detail {

/// The result dtype of histc over T: T for floats, float32 for integers.
template <class T>
using histc_t = std::conditional_t<Floating<T>, T, float>;

/// unique (consecutive = false) or unique_consecutive of `x` (any layout and device).
/// Precompiled for every dtype (src/ops/sets.cpp).
template <class T>
UniqueResult<T> unique_tensor(const Tensor<T>& x, const UniqueOptions& options, bool consecutive);
/// bincount of int64 `x` (the caller casts smaller integers): counts, or the sums of `weights`
/// (when not null). Precompiled for every numeric weight dtype.
template <class W>
Tensor<W> bincount_tensor(const Tensor<std::int64_t>& x, const Tensor<W>* weights,
                          std::int64_t minlength);
/// histc of `x`; precompiled for every numeric dtype.
template <class T>
Tensor<histc_t<T>> histc_tensor(const Tensor<T>& x, std::int64_t bins, double min, double max);
/// histogram of `x` over `bins` equal bins, or over the given `edges` (when not null);
/// precompiled for float and double.
template <class T>
HistogramResult<T> histogram_tensor(const Tensor<T>& x, std::int64_t bins, const Tensor<T>* edges,
                                    const HistogramOptions<T>& options);
/// one_hot of int64 labels.
Tensor<std::int64_t> one_hot_tensor(const Tensor<std::int64_t>& labels, std::int64_t num_classes);

/// The values of integer expression `e` as an int64 tensor (a Tensor<int64_t> as is).
template <class E>
Tensor<std::int64_t> int64_of(const E& e, const char* op) {
  using T = typename std::remove_cvref_t<E>::value_type;
  static_assert(Integer<T>,
                "tessera: this function takes integer tensors (as PyTorch); cast first, e.g. "
                "x.cast<int64_t>()");
  (void)op;
  if constexpr (std::is_same_v<T, std::int64_t>) {
    return tensor_of(e);
  } else {
    return tensor_of(e).template cast<std::int64_t>();
  }
}

}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// @name Sets and histograms (PyTorch): exact, the same answers on every device
/// @{

/// The distinct elements of `e`, sorted ascending, 1-D (NaN last, each NaN distinct, as
/// PyTorch; -0.0 and +0.0 are one value, the first in input order kept). Waits for the device.
template <Expression E>
Tensor<typename std::remove_cvref_t<E>::value_type> unique(const E& e) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "unique");
  const detail::OpScope scope("unique");
  return detail::unique_tensor(detail::tensor_of(e), UniqueOptions{}, false).values;
}

/// unique with options: `auto [vals, inverse, counts] = ts::unique(i, {.return_inverse = true,
/// .return_counts = true});`; with `.dim = d` the distinct slices along d, in lexicographic
/// order (`inverse` and `counts` then have one entry per slice). IndexError when dim is out of
/// range; ValueError for distinct slices of zero elements along a non-empty dim.
template <Expression E>
UniqueResult<typename std::remove_cvref_t<E>::value_type> unique(const E& e,
                                                                 const UniqueOptions& options) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "unique");
  const detail::OpScope scope("unique");
  return detail::unique_tensor(detail::tensor_of(e), options, false);
}

/// The first element of each run of equal consecutive elements of `e` (flattened), 1-D: no
/// sorting (NaN never equals NaN, so each NaN is a run of its own, as PyTorch).
template <Expression E>
Tensor<typename std::remove_cvref_t<E>::value_type> unique_consecutive(const E& e) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "unique_consecutive");
  const detail::OpScope scope("unique_consecutive");
  return detail::unique_tensor(detail::tensor_of(e), UniqueOptions{}, true).values;
}

/// unique_consecutive with options: inverse (each element's run), counts (each run's length),
/// and `dim` (runs of equal slices along dim). `sorted` is ignored.
template <Expression E>
UniqueResult<typename std::remove_cvref_t<E>::value_type> unique_consecutive(
    const E& e, const UniqueOptions& options) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "unique_consecutive");
  const detail::OpScope scope("unique_consecutive");
  return detail::unique_tensor(detail::tensor_of(e), options, true);
}

/// How often each value 0, 1, ..., of the 1-D non-negative integer `e` occurs: int64, length
/// max(max(e) + 1, minlength). ShapeError unless 1-D; ValueError for a negative entry or
/// minlength < 0. Waits for the device (the length depends on the data).
template <Expression E>
Tensor<std::int64_t> bincount(const E& e, std::int64_t minlength = 0) {
  const detail::OpScope scope("bincount");
  return detail::bincount_tensor<std::int64_t>(detail::int64_of(e, "bincount"), nullptr, minlength);
}

/// The `weights` (1-D, e's length and device; any numeric dtype) summed per value of `e`: the
/// result has the weights' dtype (PyTorch: float32 for float32 weights, float64 otherwise).
/// Sums are in index order: the same bits run after run and on every device.
template <Expression E, Expression WE>
Tensor<typename std::remove_cvref_t<WE>::value_type> bincount(const E& e, const WE& weights,
                                                              std::int64_t minlength = 0) {
  using W = typename std::remove_cvref_t<WE>::value_type;
  static_assert(!std::is_same_v<W, bool>,
                "tessera::bincount: bool weights are not summed; cast first, e.g. "
                "w.cast<int64_t>()");
  const detail::OpScope scope("bincount");
  const Tensor<W> w = detail::tensor_of(weights);
  return detail::bincount_tensor<W>(detail::int64_of(e, "bincount"), &w, minlength);
}

/// The histogram of `e` (any shape, any numeric dtype) in `bins` equal bins over [min, max]:
/// elements outside (and NaN) are ignored, the top edge belongs to the last bin. min == max
/// means the data's range (widened by 1 each way if that is one value too). The result is e's
/// dtype for floats and float32 for integers (PyTorch's CPU refuses integers; tessera bins their
/// values in float64). ValueError for bins <= 0, min > max, or a range that is not finite.
template <Expression E>
auto histc(const E& e, std::int64_t bins = 100, double min = 0.0, double max = 0.0) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "histc");
  using T = typename std::remove_cvref_t<E>::value_type;
  static_assert(!std::is_same_v<T, bool>, "tessera::histc: bool is not binned; cast first");
  const detail::OpScope scope("histc");
  return detail::histc_tensor(detail::tensor_of(e), bins, min, max);
}

/// torch.histogram of float `e` (any shape) in `bins` equal bins: edges linspace(lower, upper,
/// bins + 1) over options.range or the data's min and max (no data: [0, 1]; a single value v:
/// [v - 0.5, v + 0.5]); elements outside and NaN ignored, the top edge in the last bin; hist has
/// e's dtype, counts or weight sums, or densities (hist / total / width). ValueError for bins <= 0,
/// a range with lower > upper or not finite; ShapeError for a weight not of e's shape.
template <Expression E>
HistogramResult<typename std::remove_cvref_t<E>::value_type> histogram(
    const E& e, std::int64_t bins,
    const HistogramOptions<typename std::remove_cvref_t<E>::value_type>& options) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "histogram");
  using T = typename std::remove_cvref_t<E>::value_type;
  static_assert(Floating<T>,
                "tessera::histogram: float or double input (as torch.histogram); cast first");
  const detail::OpScope scope("histogram");
  return detail::histogram_tensor<T>(detail::tensor_of(e), bins, nullptr, options);
}
/// histogram with the default options: `auto [hist, edges] = ts::histogram(x, 10);`.
template <Expression E>
HistogramResult<typename std::remove_cvref_t<E>::value_type> histogram(const E& e,
                                                                       std::int64_t bins) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "histogram");
  return tessera::histogram(e, bins,
                            HistogramOptions<typename std::remove_cvref_t<E>::value_type>{});
}

/// torch.histogram over given bin edges (1-D, increasing, e's dtype and device): bin i is
/// [edges[i], edges[i + 1]), the last one closed. options.range must be empty (ValueError).
template <Expression E>
HistogramResult<typename std::remove_cvref_t<E>::value_type> histogram(
    const E& e, const Tensor<typename std::remove_cvref_t<E>::value_type>& edges,
    const HistogramOptions<typename std::remove_cvref_t<E>::value_type>& options) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "histogram");
  using T = typename std::remove_cvref_t<E>::value_type;
  static_assert(Floating<T>,
                "tessera::histogram: float or double input (as torch.histogram); cast first");
  const detail::OpScope scope("histogram");
  return detail::histogram_tensor<T>(detail::tensor_of(e), 0, &edges, options);
}
/// histogram over given edges with the default options.
template <Expression E>
HistogramResult<typename std::remove_cvref_t<E>::value_type> histogram(
    const E& e, const Tensor<typename std::remove_cvref_t<E>::value_type>& edges) {
  TESSERA_REQUIRE_ORDERED(typename std::remove_cvref_t<E>::value_type, "histogram");
  return tessera::histogram(e, edges,
                            HistogramOptions<typename std::remove_cvref_t<E>::value_type>{});
}

/// F.one_hot: int64 labels in [0, num_classes) as rows of zeros with a 1 at the label, int64 of
/// shape labels.shape + (num_classes); num_classes = -1 means max(labels) + 1 (then the labels
/// must not be empty). ValueError for a label outside the range or num_classes < -1.
template <Expression E>
Tensor<std::int64_t> one_hot(const E& labels, std::int64_t num_classes = -1) {
  static_assert(std::is_same_v<typename std::remove_cvref_t<E>::value_type, std::int64_t>,
                "tessera::one_hot: labels are int64 (as F.one_hot); cast first");
  const detail::OpScope scope("one_hot");
  return detail::one_hot_tensor(detail::tensor_of(labels), num_classes);
}
/// @}

}  // namespace TESSERA_EVAL_NS

// ---- the methods (ops/sets_methods.hpp, where they are documented) ---------------------------
#if !defined(TESSERA_DOXYGEN)
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::unique() const {
  return tessera::unique(self());
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::unique(const UniqueOptions& options) const {
  return tessera::unique(self(), options);
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::unique_consecutive() const {
  return tessera::unique_consecutive(self());
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::unique_consecutive(const UniqueOptions& options) const {
  return tessera::unique_consecutive(self(), options);
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::bincount(std::int64_t minlength) const {
  return tessera::bincount(self(), minlength);
}
template <class D>
template <class W>
TESSERA_EVAL_TAG auto SetsMethods<D>::bincount(const Tensor<W>& weights,
                                               std::int64_t minlength) const {
  return tessera::bincount(self(), weights, minlength);
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::histc(std::int64_t bins, double min, double max) const {
  return tessera::histc(self(), bins, min, max);
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::histogram(std::int64_t bins) const {
  return tessera::histogram(self(), bins);
}
template <class D>
TESSERA_EVAL_TAG auto SetsMethods<D>::one_hot(std::int64_t num_classes) const {
  return tessera::one_hot(self(), num_classes);
}
#endif

}  // namespace tessera

TESSERA_EVAL_TAGS_END
