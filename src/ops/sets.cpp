// SPDX-License-Identifier: BSD-3-Clause
// unique, unique_consecutive, bincount, histc, histogram and one_hot: argument checks first,
// then compositions of the existing engines (sort, scan, masked_select, index_select,
// index_put, segment sums, searchsorted), so every device runs them with no kernel of their own.

#include "tessera/ops/sets.hpp"
#include "tessera/core/element_traits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/ops/ordering.hpp"
#include "tessera/ops/segment.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

using I64 = Tensor<std::int64_t>;

/// The runs of a sequence of n elements whose element i + 1 starts a new run where
/// `differs[i]` (n - 1 flags): each element's run (int64, n), each run's first position and
/// length. Waits for the device to learn the number of runs.
struct Runs {
  I64 group;
  I64 starts;
  I64 counts;
};

Runs runs_of(const Tensor<bool>& differs, std::int64_t n, Device device) {
  Runs runs;
  if (n == 0) {
    runs.group = runs.starts = runs.counts = I64::empty({0}, device);
    return runs;
  }
  const Tensor<bool> flags = tessera::cat({Tensor<bool>::ones({1}, device), differs}, 0);
  runs.group = tessera::eval(tessera::cumsum(flags, 0) - std::int64_t{1});
  runs.starts = tessera::masked_select(I64::arange(n, device), flags);
  const std::int64_t k = runs.starts.numel();
  const I64 ends = tessera::cat({runs.starts.slice(0, 1, k), I64::full({1}, n, device)}, 0);
  runs.counts = tessera::eval(ends - runs.starts);
  return runs;
}

/// inverse[order[i]] = group[i]: the group of each element in input order (order a permutation).
I64 scatter_by(const I64& order, const I64& group) {
  I64 inverse = I64::empty(order.shape(), order.device());
  index_put_tensor(inverse, std::vector<I64>{order}, group, false);
  return inverse;
}

/// dim made non-negative by wrap_dim; a 0-d tensor has no dimension to take (IndexError).
std::int64_t set_dim(const char* op, std::int64_t dim, std::int64_t rank) {
  if (rank == 0) raise<IndexError>(op, "dim = ", dim, " given for a 0-d tensor (no dimensions)");
  return wrap_dim(op, dim, rank);
}

template <class T>
UniqueResult<T> unique_elements(const Tensor<T>& x, const UniqueOptions& options, bool consecutive,
                                const char* op) {
  const Device device = x.device();
  const std::int64_t n = x.numel();
  const Tensor<T> flat = x.reshape({n});
  Tensor<T> seq = flat;
  I64 order;
  if (!consecutive && n > 0) {
    auto sorted = sort_tensor(op, flat, 0, false, true);
    seq = sorted.values;
    order = sorted.indices;
  }
  const Tensor<bool> differs = n > 1 ? tessera::eval(seq.slice(0, 1, n) != seq.slice(0, 0, n - 1))
                                     : Tensor<bool>::empty({0}, device);
  Runs runs = runs_of(differs, n, device);
  UniqueResult<T> out;
  out.values = n > 0 ? seq.index_select(0, runs.starts) : Tensor<T>::empty({0}, device);
  out.inverse = I64::empty({0}, device);
  out.counts = I64::empty({0}, device);
  if (options.return_inverse) {
    const I64 inverse = consecutive || n == 0 ? runs.group : scatter_by(order, runs.group);
    out.inverse = inverse.reshape(x.shape());
  }
  if (options.return_counts) out.counts = runs.counts;
  return out;
}

template <class T>
UniqueResult<T> unique_slices(const Tensor<T>& x, std::int64_t dim, const UniqueOptions& options,
                              bool consecutive, const char* op) {
  const Device device = x.device();
  const std::int64_t d = set_dim(op, dim, x.dim());
  const std::int64_t n = x.size(d);
  UniqueResult<T> out;
  out.inverse = I64::empty({0}, device);
  out.counts = I64::empty({0}, device);
  if (n == 0) {
    out.values = x.contiguous();
    return out;
  }
  if (x.numel() == 0) {
    raise<ValueError>(op, "the slices along dim ", d, " of a tensor of shape ", x.shape(),
                      " have no elements, so they have no distinct values");
  }
  const std::int64_t m = x.numel() / n;
  const Tensor<T> rows = x.movedim(d, 0).reshape({n, m});
  I64 order = I64::arange(n, device);
  if (!consecutive) {
    // Lexicographic order: stable sorts by each column, the last column first.
    for (std::int64_t c = m - 1; c >= 0; --c) {
      const Tensor<T> key = rows.select(1, c).index_select(0, order);
      order = order.index_select(0, sort_tensor(op, key, 0, false, false).indices);
    }
  }
  const Tensor<T> sorted = consecutive ? rows : rows.index_select(0, order);
  // The comparison is evaluated first: it is the same kernel as unique's over elements, and the
  // any() over bool rows is one kernel for every dtype, where a reduction fused with the
  // comparison would compile the reduction engine once more per dtype.
  const Tensor<bool> differs =
      n > 1 ? tessera::any(tessera::eval(sorted.slice(0, 1, n) != sorted.slice(0, 0, n - 1)), 1)
            : Tensor<bool>::empty({0}, device);
  Runs runs = runs_of(differs, n, device);
  out.values = x.index_select(d, order.index_select(0, runs.starts));
  if (options.return_inverse)
    out.inverse = consecutive ? runs.group : scatter_by(order, runs.group);
  if (options.return_counts) out.counts = runs.counts;
  return out;
}

/// Sums `data` (contiguous, one per id) per id in [0, length); negative ids are dropped.
template <class W>
Tensor<W> sum_by_id(const Tensor<W>& data, const I64& ids, std::int64_t length) {
  return segment_scatter::reduce<SegmentId::Sum, W>("bincount", data.contiguous(), ids.contiguous(),
                                                    length);
}

/// How many ids fall on each value in [0, length) (negative ids dropped), int64. Counted in
/// int32 where no count can exceed it: half the memory traffic of int64 ones.
I64 count_ids(const I64& ids, std::int64_t length) {
  const std::int64_t n = ids.numel();
  if (n <= std::numeric_limits<std::int32_t>::max()) {
    using I32 = Tensor<std::int32_t>;
    return sum_by_id(I32::ones({n}, ids.device()), ids, length).template cast<std::int64_t>();
  }
  return sum_by_id(I64::ones({n}, ids.device()), ids, length);
}

void check_finite_range(const char* op, double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    raise<ValueError>(op, "range of [", lo, ", ", hi, "] is not finite");
  }
}

}  // namespace

template <class T>
UniqueResult<T> unique_tensor(const Tensor<T>& x, const UniqueOptions& options, bool consecutive) {
  const char* op = consecutive ? "unique_consecutive" : "unique";
  if (options.dim) return unique_slices(x, *options.dim, options, consecutive, op);
  return unique_elements(x, options, consecutive, op);
}

template <class W>
Tensor<W> bincount_tensor(const Tensor<std::int64_t>& x, const Tensor<W>* weights,
                          std::int64_t minlength) {
  const char* op = "bincount";
  if (x.dim() != 1) {
    raise<ShapeError>(op, "input must be 1-d, got shape ", x.shape());
  }
  if (minlength < 0) raise<ValueError>(op, "minlength should be >= 0, got ", minlength);
  if (weights != nullptr) {
    if (weights->device() != x.device()) {
      raise<DeviceError>(op, "weights are on ", weights->device().str(), ", input on ",
                         x.device().str());
    }
    if (weights->shape() != x.shape()) {
      raise<ShapeError>(op,
                        "weights should be 1-d and have the same length as input, got "
                        "weights of shape ",
                        weights->shape(), " and input of shape ", x.shape());
    }
  }
  const auto negative = [&] {
    const std::int64_t lowest = tessera::min(x);
    if (lowest < 0) raise<ValueError>(op, "input must be non-negative, got an entry ", lowest);
  };
  const std::int64_t n = x.numel();
  const std::int64_t highest = n > 0 ? tessera::max(x) : -1;
  if (highest == std::numeric_limits<std::int64_t>::max()) {
    raise<ValueError>(op, "an entry ", highest, " asks for more bins than int64 can count");
  }
  const std::int64_t length = std::max(minlength, highest + 1);
  if constexpr (std::is_same_v<W, std::int64_t>) {
    if (weights == nullptr) {
      // Counting drops negative entries; counts that miss some of the n entries reveal them,
      // which saves the pass of a min before the work (the counts are then discarded).
      I64 counts = count_ids(x, length);
      if (n > 0 && tessera::sum(counts) != n) negative();
      return counts;
    }
  }
  if (weights == nullptr) {
    raise<ValueError>(op, "internal: counts are int64");  // unreachable: the header asks int64
  }
  if (n > 0) negative();
  return sum_by_id(*weights, x, length);
}

template <class T>
Tensor<histc_t<T>> histc_tensor(const Tensor<T>& x, std::int64_t bins, double min, double max) {
  using R = histc_t<T>;
  const char* op = "histc";
  if (bins <= 0) raise<ValueError>(op, "bins must be > 0, got ", bins);
  double lo = min;
  double hi = max;
  if (lo == hi && x.numel() > 0) {
    lo = static_cast<double>(tessera::min(x));
    hi = static_cast<double>(tessera::max(x));
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  check_finite_range(op, lo, hi);
  if (!(lo < hi)) {
    raise<ValueError>(op, "max must be larger than min, got min = ", min, ", max = ", max);
  }
  const Device device = x.device();
  const std::int64_t n = x.numel();
  const Tensor<T> flat = x.reshape({n});
  I64 ids;
  // PyTorch's linear interpolation, in T for floats (its arithmetic, so its bins), in double
  // for integers: pos = (x - lo) * bins / (hi - lo), the top edge in the last bin.
  using C = std::conditional_t<Floating<T>, T, double>;
  const C l = static_cast<C>(lo);
  const C r = static_cast<C>(hi);
  const C width = r - l;
  const C scale = static_cast<C>(bins);
  if constexpr (Floating<T>) {
    const auto valid = (flat >= l) & (flat <= r);
    const Tensor<C> pos = tessera::eval(tessera::where(valid, (flat - l) * scale / width, C(0)));
    ids = tessera::eval(tessera::where(
        valid, tessera::minimum(tessera::cast<std::int64_t>(pos), bins - 1), std::int64_t{-1}));
  } else {
    const Tensor<C> v = flat.template cast<C>();
    const auto valid = (v >= l) & (v <= r);
    const Tensor<C> pos = tessera::eval(tessera::where(valid, (v - l) * scale / width, C(0)));
    ids = tessera::eval(tessera::where(
        valid, tessera::minimum(tessera::cast<std::int64_t>(pos), bins - 1), std::int64_t{-1}));
  }
  (void)device;
  return count_ids(ids, bins).template cast<R>();
}

template <class T>
HistogramResult<T> histogram_tensor(const Tensor<T>& x, std::int64_t bins, const Tensor<T>* edges,
                                    const HistogramOptions<T>& options) {
  const char* op = "histogram";
  const Device device = x.device();
  if (edges != nullptr) {
    if (edges->dim() != 1) {
      raise<ShapeError>(op, "bins (the edges) must be a 1-d tensor, got shape ", edges->shape());
    }
    if (edges->numel() < 2) {
      raise<ValueError>(op, "bins must be > 0: ", edges->numel(), " edge(s) given, a bin needs 2");
    }
    if (edges->device() != device) {
      raise<DeviceError>(op, "bin edges are on ", edges->device().str(), ", input on ",
                         device.str());
    }
    // NumPy's rule: a decreasing pair of edges has no meaning as bins (equal edges are an
    // empty bin). One reduction on the edges' device, no copy of them.
    const std::int64_t ne = edges->numel();
    if (tessera::any(edges->slice(0, 1, ne) < edges->slice(0, 0, ne - 1))) {
      const std::vector<T> e = edges->to_vector();
      std::size_t i = 0;
      while (!(e[i + 1] < e[i])) ++i;
      raise<ValueError>(op, "bins must increase monotonically, but edge ", i, " is ", e[i],
                        " and edge ", i + 1, " is ", e[i + 1]);
    }
    if (options.range) {
      raise<ValueError>(op, "range is only for a bin count, not with bin edges given");
    }
  } else if (bins <= 0) {
    raise<ValueError>(op, "bins must be > 0, got ", bins);
  }
  if (options.weight) {
    if (options.weight->device() != device) {
      raise<DeviceError>(op, "weight is on ", options.weight->device().str(), ", input on ",
                         device.str());
    }
    if (options.weight->shape() != x.shape()) {
      raise<ShapeError>(op, "weight should have the same shape as input, got weight of shape ",
                        options.weight->shape(), " and input of shape ", x.shape());
    }
  }
  if (options.range) {
    check_finite_range(op, options.range->first, options.range->second);
    if (options.range->first > options.range->second) {
      raise<ValueError>(op, "max must be larger than min, got range (", options.range->first, ", ",
                        options.range->second, ")");
    }
  }
  HistogramResult<T> out;
  if (edges != nullptr) {
    out.bin_edges = *edges;
  } else {
    double lo = 0.0;  // no range and no data: [0, 1] (PyTorch)
    double hi = 1.0;
    if (options.range) {
      lo = options.range->first;
      hi = options.range->second;
    } else if (x.numel() > 0) {
      lo = static_cast<double>(tessera::min(x));
      hi = static_cast<double>(tessera::max(x));
      check_finite_range(op, lo, hi);
    }
    if (lo == hi) {
      lo -= 0.5;
      hi += 0.5;
    }
    out.bin_edges = Tensor<T>::linspace(static_cast<T>(lo), static_cast<T>(hi), bins + 1, device);
  }
  const std::int64_t nbins = out.bin_edges.numel() - 1;
  const std::int64_t n = x.numel();
  const Tensor<T> flat = x.reshape({n});
  if (nbins == 0) {
    out.hist = Tensor<T>::zeros({0}, device);
    return out;
  }
  const Tensor<T> e = out.bin_edges.contiguous();
  const T first = e.slice(0, 0, 1).item();
  const T last = e.slice(0, nbins, nbins + 1).item();
  // Bin i holds [e[i], e[i + 1]): the number of edges <= x, less one; x == last in the last bin.
  const I64 right = tessera::searchsorted(e, flat, {.right = true});
  const I64 ids = tessera::eval(tessera::where((flat >= first) & (flat <= last),
                                               tessera::minimum(right - std::int64_t{1}, nbins - 1),
                                               std::int64_t{-1}));
  Tensor<T> hist = options.weight ? sum_by_id(options.weight->reshape({n}), ids, nbins)
                                  : count_ids(ids, nbins).template cast<T>();
  if (options.density) {
    const T total = static_cast<T>(tessera::sum(hist));
    hist = tessera::eval(hist / total / (e.slice(0, 1, nbins + 1) - e.slice(0, 0, nbins)));
  }
  out.hist = hist;
  return out;
}

Tensor<std::int64_t> one_hot_tensor(const Tensor<std::int64_t>& labels, std::int64_t num_classes) {
  const char* op = "one_hot";
  if (num_classes < -1) {
    raise<ValueError>(op, "num_classes should be -1 or non-negative, got ", num_classes);
  }
  const Device device = labels.device();
  if (labels.numel() == 0) {
    if (num_classes == -1) {
      raise<ValueError>(op, "Can not infer total number of classes from empty tensor (shape ",
                        labels.shape(), ")");
    }
  } else {
    const std::int64_t lowest = tessera::min(labels);
    if (lowest < 0) raise<ValueError>(op, "Class values must be non-negative, got ", lowest);
    const std::int64_t highest = tessera::max(labels);
    if (num_classes == -1) {
      num_classes = highest + 1;
    } else if (highest >= num_classes) {
      raise<ValueError>(op, "Class values must be smaller than num_classes = ", num_classes,
                        ", got ", highest);
    }
  }
  std::vector<std::int64_t> dims = labels.shape().vec();
  dims.push_back(num_classes);
  const Shape shape(dims);
  if (labels.numel() == 0) return I64::zeros(shape, device);
  return tessera::eval(
      tessera::cast<std::int64_t>(labels.unsqueeze(-1) == I64::arange(num_classes, device)));
}

#define TESSERA_INSTANTIATE_UNIQUE(T) \
  template UniqueResult<T> unique_tensor<T>(const Tensor<T>&, const UniqueOptions&, bool);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_UNIQUE)
#undef TESSERA_INSTANTIATE_UNIQUE

#define TESSERA_INSTANTIATE_BINNING(T)                                                 \
  template Tensor<T> bincount_tensor<T>(const Tensor<std::int64_t>&, const Tensor<T>*, \
                                        std::int64_t);                                 \
  template Tensor<histc_t<T>> histc_tensor<T>(const Tensor<T>&, std::int64_t, double, double);
TESSERA_FOR_EACH_NUMERIC_DTYPE(TESSERA_INSTANTIATE_BINNING)
#undef TESSERA_INSTANTIATE_BINNING

#define TESSERA_INSTANTIATE_HISTOGRAM(T)                                          \
  template HistogramResult<T> histogram_tensor<T>(const Tensor<T>&, std::int64_t, \
                                                  const Tensor<T>*, const HistogramOptions<T>&);
TESSERA_INSTANTIATE_HISTOGRAM(float)
TESSERA_INSTANTIATE_HISTOGRAM(double)
#undef TESSERA_INSTANTIATE_HISTOGRAM

}  // namespace tessera::detail
