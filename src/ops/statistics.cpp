// SPDX-License-Identifier: BSD-3-Clause
// Statistics and activations (order statistics, softmax, diff, cov): argument checks, then
// compositions of the existing engines (sort, reductions and scans, take_along_dim, pointwise
// expressions), once per dtype. Nothing here reads device memory: every step is a tensor operation
// on x's device.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/error.hpp"
#include "tessera/linalg/product.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

/// dim made non-negative by wrap_dim (a 0-d tensor counts as rank 1, as in PyTorch).
int stat_dim(const char* op, std::int64_t dim, std::int64_t ndim) {
  return static_cast<int>(wrap_dim(op, dim, ndim));
}

/// x with dimension d last (a 0-d tensor: one row of one element); rows then run along -1.
template <class T>
Tensor<T> rows_last(const Tensor<T>& x, int d) {
  if (x.dim() == 0) return x.reshape({1});
  return d == x.dim() - 1 ? x : x.movedim(d, -1);
}

/// A result of shape (..., 1) over rows_last(x, d) put back in x's layout: the reduced
/// dimension kept as extent 1 (keepdim) or removed; a 0-d x gives a 0-d result.
template <class T>
Tensor<T> unrows(const Tensor<T>& r, std::int64_t x_dim, int d, bool keepdim) {
  if (x_dim == 0) return r.reshape({});
  if (!keepdim) return r.squeeze(-1).contiguous();
  return r.movedim(-1, d).contiguous();
}

/// IndexError for an empty row (median, mode): PyTorch's wording.
void require_nonempty_row(const char* op, std::int64_t n, int d) {
  if (n == 0) {
    raise<IndexError>(op, "Expected reduction dim ", d, " to have non-zero size.");
  }
}

/// The values and positions of sorted rows (sv, si) at the per-row positions `pos` (..., 1).
template <class T>
ValuesIndices<T> pick(const ValuesIndices<T>& sorted, const Tensor<std::int64_t>& pos,
                      std::int64_t x_dim, int d, bool keepdim) {
  return {unrows(tessera::take_along_dim(sorted.values, pos, -1), x_dim, d, keepdim),
          unrows(tessera::take_along_dim(sorted.indices, pos, -1), x_dim, d, keepdim)};
}

/// The quantiles of sorted rows `sorted` (..., n) at q: a (..., 1) tensor. torch.quantile's
/// arithmetic: the rank q * (count - 1) in T, then the interpolation.
template <class T>
Tensor<T> quantile_rows(const Tensor<T>& sorted, double q, const QuantileArgs& args) {
  const std::int64_t n = sorted.size(-1);
  const T qt = static_cast<T>(q);
  Tensor<T> rank;
  // The largest position a row may pick: the rank is rounded in T (float32 holds n - 1 only
  // up to 2^24), so it can exceed the last valid position; clamp the positions there.
  Tensor<std::int64_t> top = Tensor<std::int64_t>::full({}, n - 1, sorted.device());
  if (args.ignore_nan) {
    // Rank among the non-NaN values (NaN sorts last); a row of NaN only: rank 0, a NaN. The
    // NaN count is median's reduction (one kernel for both).
    const Tensor<std::int64_t> valid(n - tessera::sum(tessera::isnan(sorted), Dims(-1), true));
    const Tensor<T> r(qt * tessera::cast<T>(valid - std::int64_t{1}));
    rank = Tensor<T>(tessera::where(r < T(0), T(0), r));
    top = Tensor<std::int64_t>(tessera::maximum(valid - std::int64_t{1}, std::int64_t{0}));
  } else {
    // A row with a NaN takes its last element (a NaN): the quantile is NaN. NaN sorts last, so
    // the last element tells (no reduction).
    const Tensor<bool> has_nan = tessera::eval(tessera::isnan(sorted.narrow(-1, n - 1, 1)));
    const T last = static_cast<T>(n - 1);
    rank =
        Tensor<T>(tessera::where(has_nan, Tensor<T>::full({}, last, sorted.device()), qt * last));
  }
  switch (args.how) {
    case Interpolation::Lower:
      rank = Tensor<T>(tessera::floor(rank));
      break;
    case Interpolation::Higher:
      rank = Tensor<T>(tessera::ceil(rank));
      break;
    case Interpolation::Nearest:
      rank = Tensor<T>(tessera::round(rank));
      break;
    default:
      break;
  }
  const Tensor<std::int64_t> below(tessera::minimum(tessera::cast<std::int64_t>(rank), top));
  Tensor<T> value_below = tessera::take_along_dim(sorted, below, -1);
  if (args.how != Interpolation::Linear && args.how != Interpolation::Midpoint) {
    return value_below;
  }
  const Tensor<std::int64_t> above(
      tessera::minimum(tessera::cast<std::int64_t>(tessera::ceil(rank)), top));
  const Tensor<T> value_above = tessera::take_along_dim(sorted, above, -1);
  // The weight as a tensor in both cases: one lerp kernel.
  const Tensor<T> weight = args.how == Interpolation::Midpoint
                               ? Tensor<T>::full({}, T(0.5), sorted.device())
                               : Tensor<T>(rank - tessera::cast<T>(below));
  return Tensor<T>(tessera::lerp(value_below, value_above, weight));
}

/// torch.lerp's formula in T (as the lerp expression): exact at w = 0 and w = 1.
template <class T>
T lerp_value(T a, T b, T w) {
  return std::abs(w) < T(0.5) ? a + w * (b - a) : b - (b - a) * (T(1) - w);
}

/// The q-quantile of the host values `v` by selection (std::nth_element, O(n); reorders v),
/// the same arithmetic as quantile_rows. `v` holds no NaN; NaN when it is empty.
template <class T>
T select_quantile(std::vector<T>& v, double q, Interpolation how) {
  if (v.empty()) return std::numeric_limits<T>::quiet_NaN();
  const auto last = static_cast<std::int64_t>(v.size()) - 1;
  T rank = static_cast<T>(q) * static_cast<T>(last);
  if (how == Interpolation::Lower) rank = std::floor(rank);
  if (how == Interpolation::Higher) rank = std::ceil(rank);
  if (how == Interpolation::Nearest) rank = std::nearbyint(rank);
  const std::int64_t lo = std::min(static_cast<std::int64_t>(rank), last);
  std::nth_element(v.begin(), v.begin() + lo, v.end());
  const T below = v[static_cast<std::size_t>(lo)];
  if (how != Interpolation::Linear && how != Interpolation::Midpoint) return below;
  const std::int64_t hi = std::min(static_cast<std::int64_t>(std::ceil(rank)), last);
  // Everything after position lo is >= below: the next order statistic is their minimum.
  const T above = hi == lo ? below : *std::min_element(v.begin() + lo + 1, v.end());
  const T w = how == Interpolation::Midpoint ? T(0.5) : rank - static_cast<T>(lo);
  return lerp_value(below, above, w);
}

/// Quantiles of every element of a CPU tensor by selection instead of a sort.
template <class T>
std::vector<T> host_select_quantiles(const Tensor<T>& x, const std::vector<double>& qs,
                                     const QuantileArgs& args) {
  std::vector<T> v = x.contiguous().to_vector();
  const auto nan = std::partition(v.begin(), v.end(), [](T e) { return !std::isnan(e); });
  const bool has_nan = nan != v.end();
  v.erase(nan, v.end());
  std::vector<T> out;
  out.reserve(qs.size());
  for (const double q : qs) {
    out.push_back(has_nan && !args.ignore_nan ? std::numeric_limits<T>::quiet_NaN()
                                              : select_quantile(v, q, args.how));
  }
  return out;
}

}  // namespace

template <class T>
Tensor<T> quantile_tensor(const Tensor<T>& x, const Tensor<T>* q_tensor, double q,
                          const QuantileArgs& args) {
  const char* op = args.op;
  // ---- checks, all before any work
  std::vector<double> qs;
  if (q_tensor != nullptr) {
    if (q_tensor->dim() > 1) {
      raise<ValueError>(op, "q must be a scalar or 1D tensor (got a tensor of ", q_tensor->dim(),
                        " dimensions)");
    }
    for (const T v : q_tensor->cpu().to_vector()) qs.push_back(static_cast<double>(v));
  } else {
    qs.push_back(q);
  }
  for (const double v : qs) {
    if (!(v >= 0.0 && v <= 1.0)) {
      raise<ValueError>(op, "q must be in the range [0, 1] but got ", v);
    }
  }
  const int how = static_cast<int>(args.how);
  if (how < 0 || how > static_cast<int>(Interpolation::Nearest)) {
    raise<ValueError>(op,
                      "interpolation must be one of Linear, Lower, Higher, Midpoint or "
                      "Nearest, but got ",
                      how);
  }
  int d = 0;
  if (args.dim) d = stat_dim(op, *args.dim, x.dim());
  if (x.numel() == 0) raise<ValueError>(op, "input tensor must be non-empty");

  // ---- every element of a CPU tensor: selection, O(n) per q
  const bool one_q = q_tensor == nullptr || q_tensor->dim() == 0;
  if (!args.dim && x.device().is_cpu()) {
    const std::vector<T> values = host_select_quantiles(x, qs, args);
    Shape shape;
    if (args.keepdim)
      shape = Shape(std::vector<std::int64_t>(static_cast<std::size_t>(x.dim()), 1));
    if (one_q) return Tensor<T>::from_vector(values, shape);
    std::vector<std::int64_t> dims = shape.vec();
    dims.insert(dims.begin(), static_cast<std::int64_t>(values.size()));
    return Tensor<T>::from_vector(values, Shape(dims));
  }
  // ---- the sorted rows (NaN last), then one gather (or two) per q
  const Tensor<T> rows = args.dim ? rows_last(x, d) : x.reshape({-1});
  const Tensor<T> sorted = sort_tensor(op, rows, -1, false, true).values;
  auto finish = [&](const Tensor<T>& r) {
    if (args.dim) return unrows(r, x.dim(), d, args.keepdim);
    if (!args.keepdim) return r.reshape({});
    return r.reshape(Shape(std::vector<std::int64_t>(static_cast<std::size_t>(x.dim()), 1)));
  };
  if (one_q) return finish(quantile_rows(sorted, qs[0], args));
  std::vector<Tensor<T>> parts;
  parts.reserve(qs.size());
  for (const double v : qs) parts.push_back(finish(quantile_rows(sorted, v, args)).unsqueeze(0));
  if (parts.empty()) {
    std::vector<std::int64_t> shape = finish(quantile_rows(sorted, 0.0, args)).shape().vec();
    shape.insert(shape.begin(), 0);
    return Tensor<T>::empty(Shape(shape), x.device());
  }
  return tessera::cat(parts, 0);
}

template <class T>
ValuesIndices<T> median_tensor(const char* op, const Tensor<T>& x, std::optional<std::int64_t> dim,
                               bool keepdim, bool ignore_nan) {
  int d = 0;
  if (dim) {
    d = stat_dim(op, *dim, x.dim());
    require_nonempty_row(op, x.dim() == 0 ? 1 : x.size(d), d);
  } else if (x.numel() == 0) {
    if constexpr (Floating<T>) {
      // PyTorch: the median of no elements is NaN.
      return {Tensor<T>::full({}, std::numeric_limits<T>::quiet_NaN(), x.device()),
              Tensor<std::int64_t>::zeros({}, x.device())};
    } else {
      raise<IndexError>(op, "the median of an empty integer tensor has no value");
    }
  }
  if (!dim && x.device().is_cpu()) {
    // Every element of a CPU tensor: selection (std::nth_element), O(n); the value only.
    std::vector<T> v = x.contiguous().to_vector();
    T value{};
    bool nan_result = false;
    if constexpr (Floating<T>) {
      const auto nan = std::partition(v.begin(), v.end(), [](T e) { return !std::isnan(e); });
      nan_result = (nan != v.end() && !ignore_nan) || nan == v.begin();
      v.erase(nan, v.end());
      if (nan_result) value = std::numeric_limits<T>::quiet_NaN();
    }
    if (!nan_result) {
      const auto mid = v.begin() + static_cast<std::ptrdiff_t>((v.size() - 1) / 2);
      std::nth_element(v.begin(), mid, v.end());
      value = *mid;
    }
    return {Tensor<T>::full({}, value, x.device()), Tensor<std::int64_t>::zeros({}, x.device())};
  }
  const Tensor<T> rows = dim ? rows_last(x, d) : x.reshape({-1});
  const std::int64_t n = rows.size(-1);
  const std::int64_t x_dim = dim ? x.dim() : 0;
  const ValuesIndices<T> sorted = sort_tensor(op, rows, -1, false, true);
  if constexpr (Floating<T>) {
    // NaN sorts last, in input order (stable): position n - nans holds the first NaN.
    const Tensor<std::int64_t> nans = tessera::sum(tessera::isnan(rows), Dims(-1), true);
    const Tensor<std::int64_t> pos =
        ignore_nan
            ? Tensor<std::int64_t>(tessera::where(
                  nans < n, tessera::floor_divide(n - nans - std::int64_t{1}, std::int64_t{2}),
                  std::int64_t{0}))
            : Tensor<std::int64_t>(
                  tessera::where(nans > std::int64_t{0}, n - nans, std::int64_t{(n - 1) / 2}));
    return pick(sorted, pos, x_dim, d, keepdim);
  } else {
    (void)ignore_nan;
    const std::int64_t mid = (n - 1) / 2;
    return {unrows(sorted.values.narrow(-1, mid, 1), x_dim, d, keepdim),
            unrows(sorted.indices.narrow(-1, mid, 1), x_dim, d, keepdim)};
  }
}

template <class T>
ValuesIndices<T> kthvalue_tensor(const Tensor<T>& x, std::int64_t k, std::int64_t dim,
                                 bool keepdim) {
  const int d = stat_dim("kthvalue", dim, x.dim());
  const std::int64_t n = x.dim() == 0 ? 1 : x.size(d);
  if (k < 1 || k > n) {
    raise<IndexError>("kthvalue", "selected number k out of range (k = ", k, ", size along dim ", d,
                      " = ", n, ")");
  }
  const ValuesIndices<T> sorted = sort_tensor("kthvalue", rows_last(x, d), -1, false, true);
  return {unrows(sorted.values.narrow(-1, k - 1, 1), x.dim(), d, keepdim),
          unrows(sorted.indices.narrow(-1, k - 1, 1), x.dim(), d, keepdim)};
}

template <class T>
ValuesIndices<T> mode_tensor(const Tensor<T>& x, std::int64_t dim, bool keepdim) {
  const int d = stat_dim("mode", dim, x.dim());
  const std::int64_t n = x.dim() == 0 ? 1 : x.size(d);
  require_nonempty_row("mode", n, d);
  const ValuesIndices<T> sorted = sort_tensor("mode", rows_last(x, d), -1, false, true);
  const Tensor<T>& sv = sorted.values;
  // Runs of equal sorted values: a run starts where a value differs from the one before (NaNs
  // form one run). The run length so far, j - start, is largest first at the end of the first
  // longest run: the smallest most frequent value, whose last sorted element (stable) is its
  // last occurrence.
  Tensor<bool> starts = Tensor<bool>::ones(sv.shape(), sv.device());
  if (n > 1) {
    const Tensor<T> a = sv.narrow(-1, 1, n - 1);
    const Tensor<T> b = sv.narrow(-1, 0, n - 1);
    Tensor<bool> tail = starts.narrow(-1, 1, n - 1);
    if constexpr (Floating<T>) {
      tail = tessera::logical_and(
          a != b, tessera::logical_not(tessera::logical_and(tessera::isnan(a), tessera::isnan(b))));
    } else {
      tail = a != b;
    }
  }
  const Tensor<std::int64_t> j = Tensor<std::int64_t>::arange(n, sv.device());
  const Tensor<std::int64_t> run_start =
      tessera::cummax(tessera::where(starts, j, std::int64_t{0}), -1).values;
  const Tensor<std::int64_t> pos = tessera::argmax(j - run_start, -1, true);
  return pick(sorted, pos, x.dim(), d, keepdim);
}

template <class T>
Tensor<T> softmax_tensor(const Tensor<T>& x, std::int64_t dim, bool log) {
  const char* op = log ? "log_softmax" : "softmax";
  const int d = stat_dim(op, dim, x.dim());
  if (x.numel() == 0) return Tensor<T>::empty(x.shape(), x.device());
  const Tensor<T> x1 = x.dim() == 0 ? x.reshape({1}) : x;
  // One max over dim (keepdim, so it broadcasts back), then the output buffer is the only
  // tensor the size of the input: it takes x - max, then exp of itself in place (a pointwise
  // pass over one contiguous operand, which the host evaluates in SIMD), the reduction engine
  // sums it, and a last pass scales it, or, for log_softmax, writes (x - max) - log(sum).
  const Tensor<T> m = tessera::amax(x1, Dims(d), true);
  Tensor<T> out(x1 - m);
  out = tessera::exp(out);
  const Tensor<T> s = tessera::sum(out, Dims(d), true);
  if (log) {
    const Tensor<T> log_s(tessera::log(s));
    out = (x1 - m) - log_s;
  } else {
    out = out / s;
  }
  return x.dim() == 0 ? out.reshape({}) : out;
}

template <class T>
Tensor<T> diff_tensor(const Tensor<T>& x, std::int64_t n, std::int64_t dim) {
  if (x.dim() == 0) {
    raise<ShapeError>("diff", "expects input to be at least one-dimensional (got a 0-d tensor)");
  }
  const int d = stat_dim("diff", dim, x.dim());
  if (n < 0) raise<ValueError>("diff", "order must be non-negative but got n = ", n);
  Tensor<T> out = x.clone();
  for (std::int64_t pass = 0; pass < n && out.size(d) > 0; ++pass) {
    const std::int64_t len = out.size(d);
    const Tensor<T> hi = out.narrow(d, 1, len - 1);
    const Tensor<T> lo = out.narrow(d, 0, len - 1);
    if constexpr (std::is_same_v<T, bool>) {
      out = Tensor<T>(hi != lo);  // torch.diff of bool: logical xor
    } else {
      out = Tensor<T>(tessera::cast<T>(hi - lo));
    }
  }
  return out;
}

template <class T>
Tensor<cov_t<T>> cov_tensor(const Tensor<T>& x, double correction, bool corr) {
  using R = cov_t<T>;
  const char* op = corr ? "corrcoef" : "cov";
  if (x.dim() > 2) {
    raise<ShapeError>(op, "expected input to have two or fewer dimensions but got an input with ",
                      x.dim(), " dimensions");
  }
  Tensor<R> xr;
  if constexpr (std::is_same_v<R, T>) {
    xr = x;
  } else {
    xr = x.template cast<R>();
  }
  const Tensor<R> obs = x.dim() < 2 ? xr.reshape({1, -1}) : xr;
  const std::int64_t n = obs.size(1);
  const Tensor<R> centered(obs - tessera::mean(obs, Dims(1), true));
  const R factor = static_cast<R>(std::max(0.0, static_cast<double>(n) - correction));
  // c = centered . centered^T / factor, on the product engine (as torch.cov's mm).
  Tensor<R> c = batched_matmul(op, centered, centered.mT());
  c = c / factor;
  // One variable (a 1-D input or one row) gives a 0-d result, as torch's squeeze; its
  // correlation is c / c: 1, or NaN when the variance is 0, infinite or NaN.
  if (obs.size(0) == 1) {
    c = c.reshape({});
    return corr ? Tensor<R>(c / c) : c;
  }
  if (corr) {
    const Tensor<R> sd(tessera::sqrt(c.diagonal()));
    const Tensor<R> rows(c / sd.unsqueeze(1));
    c = Tensor<R>(tessera::clamp(rows / sd.unsqueeze(0), R(-1), R(1)));
  }
  return c;
}

#define TESSERA_INSTANTIATE_ORDER_STATS(T)                                                   \
  template ValuesIndices<T> median_tensor<T>(const char*, const Tensor<T>&,                  \
                                             std::optional<std::int64_t>, bool, bool);       \
  template ValuesIndices<T> kthvalue_tensor<T>(const Tensor<T>&, std::int64_t, std::int64_t, \
                                               bool);                                        \
  template ValuesIndices<T> mode_tensor<T>(const Tensor<T>&, std::int64_t, bool);            \
  template Tensor<T> diff_tensor<T>(const Tensor<T>&, std::int64_t, std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_ORDER_STATS)
#undef TESSERA_INSTANTIATE_ORDER_STATS

#define TESSERA_INSTANTIATE_COV(T) \
  template Tensor<cov_t<T>> cov_tensor<T>(const Tensor<T>&, double, bool);
TESSERA_FOR_EACH_NUMERIC_DTYPE(TESSERA_INSTANTIATE_COV)
#undef TESSERA_INSTANTIATE_COV

#define TESSERA_INSTANTIATE_FLOAT_STATS(T)                                          \
  template Tensor<T> quantile_tensor<T>(const Tensor<T>&, const Tensor<T>*, double, \
                                        const QuantileArgs&);                       \
  template Tensor<T> softmax_tensor<T>(const Tensor<T>&, std::int64_t, bool);
TESSERA_INSTANTIATE_FLOAT_STATS(float)
TESSERA_INSTANTIATE_FLOAT_STATS(double)
#undef TESSERA_INSTANTIATE_FLOAT_STATS

}  // namespace tessera::detail
