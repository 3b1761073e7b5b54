// SPDX-License-Identifier: BSD-3-Clause
// The random functions: argument checks (before anything is drawn), the reservation of the
// call's blocks on its Generator, and the fill on the host pool or the device; the
// distributions that need more than one stream map (bernoulli, randperm, multinomial) are
// compositions of a stream with existing ops (where, argsort, cumsum + searchsorted, topk).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backend/random_fill.hpp"
#include "random/uniform_key_order.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/expr/host_parallel.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace detail::random_fill {

namespace {
/// Names the host work of one distribution for host_adaptive_for (its cost per block).
template <class Dist>
struct RandomWork {};
}  // namespace

/// Blocks [begin, end) of `dist` into out[0, n), in one loop the compiler vectorises, a block
/// per vector lane (Random123's Philox, then the distribution's map); one clone per vector
/// extension, none contracting a multiply-add (TESSERA_VECTOR_CLONES), so every clone writes
/// the bits of the scalar write_block, which takes a last block that only partly fits and
/// which the device runs.
template <class Dist>
TESSERA_VECTOR_CLONES void host_blocks(const random_streams::Stream& stream, const Dist& dist,
                                       std::int64_t begin, std::int64_t end,
                                       typename Dist::value_type* out, std::int64_t n) {
  using T = typename Dist::value_type;
  constexpr int kPer = Dist::kPerBlock;
  const std::int64_t whole = std::min(end, n / kPer);  // blocks whose elements all fit
  for (std::int64_t b = begin; b < whole; ++b) {
    std::uint32_t w[4];
    random_streams::philox_block(stream, static_cast<std::uint64_t>(b), w);
    T values[kPer];
    dist.block(w, values);
    for (int j = 0; j < kPer; ++j) out[b * kPer + j] = values[j];
  }
  for (std::int64_t b = std::max(begin, whole); b < end; ++b) {
    random_streams::write_block(stream, dist, static_cast<std::uint64_t>(b), out, n);
  }
}

template <class Dist>
void host(const random_streams::Stream& stream, const Dist& dist, typename Dist::value_type* out,
          std::int64_t n) {
  const std::int64_t blocks = random_streams::blocks_for<Dist>(n);
  // Parts of 16 blocks at least: 64 floats, one cache line of output per part edge.
  host_adaptive_for<RandomWork<Dist>>(
      blocks, HostSplit{1024, 512, 16},
      [&](std::int64_t begin, std::int64_t end) { host_blocks(stream, dist, begin, end, out, n); });
}

#define TESSERA_INSTANTIATE_RANDOM_HOST(D)                                                       \
  template void host<unparen_t<void D>>(const random_streams::Stream&, const unparen_t<void D>&, \
                                        typename unparen_t<void D>::value_type*, std::int64_t);
TESSERA_FOR_EACH_RANDOM_DIST(TESSERA_INSTANTIATE_RANDOM_HOST)
#undef TESSERA_INSTANTIATE_RANDOM_HOST

}  // namespace detail::random_fill

namespace detail {

namespace {

/// Draws the elements of `dist` into `out` (row-major numbering whatever its strides): the
/// call's blocks are reserved first, then written straight into a contiguous `out`, or into
/// a contiguous temporary copied through out's strides.
template <class Dist>
void draw_into(const Tensor<typename Dist::value_type>& out, const Dist& dist,
               const Generator& generator) {
  using T = typename Dist::value_type;
  const std::int64_t n = out.numel();
  const auto reservation =
      generator.reserve(static_cast<std::uint64_t>(random_streams::blocks_for<Dist>(n)));
  if (n == 0) return;
  const random_streams::Stream stream{static_cast<std::uint32_t>(reservation.seed),
                                      static_cast<std::uint32_t>(reservation.seed >> 32),
                                      reservation.block};
  const Tensor<T> target = out.is_contiguous() ? out : Tensor<T>::empty(out.shape(), out.device());
  if (target.device().is_cpu()) {
    random_fill::host(stream, dist, target.data(), n);
  } else {
    random_fill::device(target.device().index(), stream, dist, target.data(), n);
  }
  if (target.data() != out.data()) evaluate_into(out.view(), out.shape(), out.device(), target);
}

void check_range(const char* op, double lo, double hi) {
  if (!(lo <= hi)) {
    raise<ValueError>(op, "expects to return a [from, to) range, but found from=", lo,
                      " > to=", hi);
  }
}

void check_std(const char* op, double std) {
  if (!(std >= 0.0)) raise<ValueError>(op, "expects std >= 0.0, but found std ", std);
}

void check_probability(const char* op, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    raise<ValueError>(op, "expects 0 <= p <= 1, but got p = ", p);
  }
}

template <class T>
Tensor<T> empty_for(const char* op, const Shape& shape, Device device) {
  check_shape(op, shape, sizeof(T));
  return Tensor<T>::empty(shape, device);
}

/// The largest integer T holds exactly and its smallest (floats: the integers below 2^mantissa).
template <class T>
std::pair<std::int64_t, std::int64_t> integer_bounds() {
  if constexpr (Floating<T>) {
    const auto m = std::int64_t{1} << std::numeric_limits<T>::digits;
    return {-m, m};
  } else {
    return {static_cast<std::int64_t>(std::numeric_limits<T>::lowest()),
            static_cast<std::int64_t>(std::numeric_limits<T>::max())};
  }
}

}  // namespace

template <class T>
Tensor<T> uniform_tensor(const Shape& shape, double lo, double hi, const Generator& generator,
                         Device device) {
  const OpScope scope("rand");
  check_range(op_or("rand"), lo, hi);
  auto out = empty_for<T>(op_or("rand"), shape, device);
  const T from = static_cast<T>(lo);
  draw_into(out, random_streams::Uniform<T>{from, static_cast<T>(static_cast<T>(hi) - from)},
            generator);
  return out;
}

template <class T>
Tensor<T> normal_tensor(const Shape& shape, double mean, double std, const Generator& generator,
                        Device device) {
  const OpScope scope("randn");
  check_std(op_or("randn"), std);
  auto out = empty_for<T>(op_or("randn"), shape, device);
  draw_into(out, random_streams::Normal<T>{static_cast<T>(mean), static_cast<T>(std)}, generator);
  return out;
}

template <class T>
Tensor<T> randint_tensor(std::int64_t low, std::int64_t high, const Shape& shape,
                         const Generator& generator, Device device) {
  const OpScope scope("randint");
  if (high <= low) {
    raise<ValueError>("randint", "expects 'from' to be less than 'to', but got from=", low,
                      " >= to=", high);
  }
  const auto [lowest, highest] = integer_bounds<T>();
  if (low < lowest || high - 1 > highest) {
    raise<ValueError>("randint", "the range [", low, ", ", high, ") does not fit the dtype ",
                      dtype_name(dtype_v<T>), " ([", lowest, ", ", highest, "])");
  }
  auto out = empty_for<T>("randint", shape, device);
  const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  if constexpr (random_fill::randint_has_wide<T>) {
    if (range > (std::uint64_t{1} << 32)) {
      draw_into(out, random_streams::Randint<T, true>{low, range}, generator);
      return out;
    }
  }
  draw_into(out, random_streams::Randint<T, false>{low, range}, generator);
  return out;
}

Tensor<std::int64_t> randperm_tensor(std::int64_t n, const Generator& generator, Device device) {
  const OpScope scope("randperm");
  if (n < 0) raise<ValueError>("randperm", "n must be non-negative, got ", n);
  auto keys = empty_for<std::int64_t>("randperm", Shape{n}, device);
  draw_into(keys, random_streams::PermutationKeys{}, generator);
  if (!device.is_cpu() || n < kUniformOrderMin) {
    return keys.argsort(0);  // stable: equal keys (p ~ n^2 / 2^65) keep their order
  }
  auto order = Tensor<std::int64_t>::empty(Shape{n}, device);
  stable_order_of_uniform_keys(keys.data(), n, order.data());
  return order;
}

template <class T>
Tensor<T> bernoulli_tensor(const Tensor<T>& probs, const Generator& generator) {
  const OpScope scope("bernoulli");
  if (probs.numel() > 0 && tessera::any((probs < T(0)) | (probs > T(1)) | tessera::isnan(probs))) {
    raise<ValueError>("bernoulli", "expects 0 <= p <= 1 for every element of probs (shape ",
                      probs.shape(), ")");
  }
  const auto u = uniform_tensor<T>(probs.shape(), 0.0, 1.0, generator, probs.device());
  return tessera::eval(tessera::where(u < probs, ScalarNode<T>(T(1)), ScalarNode<T>(T(0))));
}

template <class T>
Tensor<std::int64_t> multinomial_tensor(const Tensor<T>& weights, std::int64_t num_samples,
                                        bool replacement, const Generator& generator) {
  const OpScope scope("multinomial");
  const char* op = "multinomial";
  if (weights.dim() != 1 && weights.dim() != 2) {
    raise<ShapeError>(op, "prob_dist must be 1 or 2 dim, got shape ", weights.shape());
  }
  const std::int64_t categories = weights.size(-1);
  if (categories == 0) raise<ValueError>(op, "cannot sample from an empty distribution");
  if (num_samples <= 0) {
    raise<ValueError>(op, "cannot sample n_sample <= 0 samples (got ", num_samples, ")");
  }
  if (!replacement && num_samples > categories) {
    raise<ValueError>(op,
                      "cannot sample n_sample > prob_dist.size(-1) samples without "
                      "replacement (",
                      num_samples, " > ", categories, ")");
  }
  const Tensor<T> w = weights.dim() == 1 ? weights.unsqueeze(0) : weights;
  const std::int64_t rows = w.size(0);
  if (rows > 0) {
    if (tessera::any((w < T(0)) | !tessera::isfinite(w))) {
      raise<ValueError>(op, "probability tensor contains either `inf`, `nan` or element < 0");
    }
    if (tessera::min(tessera::sum(w, 1)) <= T(0)) {
      raise<ValueError>(op, "invalid multinomial distribution (sum of probabilities <= 0)");
    }
    if (!replacement) {
      const std::int64_t fewest = tessera::min(tessera::count_nonzero(w, 1));
      if (fewest < num_samples) {
        raise<ValueError>(op, "cannot draw ", num_samples,
                          " samples without replacement from a "
                          "row with ",
                          fewest, " positive weights");
      }
    }
  }
  Tensor<std::int64_t> picks;
  if (replacement) {
    // Sample j of row r: uniform r * n + j, scaled to the row's total, looked up in its CDF.
    const auto u = uniform_tensor<T>(Shape{rows, num_samples}, 0.0, 1.0, generator, w.device());
    const Tensor<T> cdf = tessera::cumsum(w, 1);
    const Tensor<T> targets = u * cdf.narrow(1, categories - 1, 1);
    const Tensor<std::int64_t> at = cdf.searchsorted(targets, {.right = true});
    picks =
        tessera::eval(tessera::minimum(at, categories - 1));  // a target rounded up to the total
  } else {
    // The exponential race: category i of row r draws -log(u_{rK+i}) / w_i; the n smallest win.
    const auto u = uniform_tensor<T>(Shape{rows, categories}, 0.0, 1.0, generator, w.device());
    const Tensor<T> keys = -tessera::log(u) / w;
    picks = keys.topk(num_samples, 1, /*largest*/ false, /*sorted*/ true).indices;
  }
  return weights.dim() == 1 ? picks.squeeze(0) : picks;
}

}  // namespace detail

template <class T>
const Tensor<T>& Tensor<T>::uniform_(double lo, double hi,
                                     const Generator& generator) const requires Ordered<T> {
  const detail::OpScope scope("uniform_");
  if constexpr (!Floating<T>) {
    detail::raise<ValueError>("uniform_", "expects a float or double tensor, got ",
                              dtype_name(dtype_v<T>));
  } else {
    detail::check_range("uniform_", lo, hi);
    detail::require_writable("uniform_", shape_, strides_);
    const T from = static_cast<T>(lo);
    detail::draw_into(
        *this, detail::random_streams::Uniform<T>{from, static_cast<T>(static_cast<T>(hi) - from)},
        generator);
  }
  return *this;
}

template <class T>
const Tensor<T>& Tensor<T>::uniform_(double lo, double hi) const requires Ordered<T> {
  return uniform_(lo, hi, default_generator());
}

template <class T>
const Tensor<T>& Tensor<T>::normal_(double mean, double std,
                                    const Generator& generator) const requires Ordered<T> {
  const detail::OpScope scope("normal_");
  if constexpr (!Floating<T>) {
    detail::raise<ValueError>("normal_", "expects a float or double tensor, got ",
                              dtype_name(dtype_v<T>));
  } else {
    detail::check_std("normal_", std);
    detail::require_writable("normal_", shape_, strides_);
    detail::draw_into(*this,
                      detail::random_streams::Normal<T>{static_cast<T>(mean), static_cast<T>(std)},
                      generator);
  }
  return *this;
}

template <class T>
const Tensor<T>& Tensor<T>::normal_(double mean, double std) const requires Ordered<T> {
  return normal_(mean, std, default_generator());
}

template <class T>
const Tensor<T>& Tensor<T>::bernoulli_(double p,
                                       const Generator& generator) const requires Ordered<T> {
  const detail::OpScope scope("bernoulli_");
  detail::check_probability("bernoulli_", p);
  detail::require_writable("bernoulli_", shape_, strides_);
  // The uniforms of T for float tensors, of double otherwise.
  using U = std::conditional_t<Floating<T>, T, double>;
  const auto u = detail::uniform_tensor<U>(shape_, 0.0, 1.0, generator, device());
  detail::evaluate_into(
      view(), shape_, device(),
      where(u < static_cast<U>(p), detail::ScalarNode<T>(T(1)), detail::ScalarNode<T>(T(0))));
  return *this;
}

template <class T>
const Tensor<T>& Tensor<T>::bernoulli_(double p) const requires Ordered<T> {
  return bernoulli_(p, default_generator());
}

#define TESSERA_INSTANTIATE_RANDOM_METHODS(T)                                            \
  template const Tensor<T>& Tensor<T>::uniform_(double, double) const;                   \
  template const Tensor<T>& Tensor<T>::uniform_(double, double, const Generator&) const; \
  template const Tensor<T>& Tensor<T>::normal_(double, double) const;                    \
  template const Tensor<T>& Tensor<T>::normal_(double, double, const Generator&) const;  \
  template const Tensor<T>& Tensor<T>::bernoulli_(double) const;                         \
  template const Tensor<T>& Tensor<T>::bernoulli_(double, const Generator&) const;
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_RANDOM_METHODS)
#undef TESSERA_INSTANTIATE_RANDOM_METHODS

#define TESSERA_INSTANTIATE_RANDINT(T)                                                   \
  template Tensor<T> detail::randint_tensor<T>(std::int64_t, std::int64_t, const Shape&, \
                                               const Generator&, Device);
TESSERA_FOR_EACH_NUMERIC_DTYPE(TESSERA_INSTANTIATE_RANDINT)
#undef TESSERA_INSTANTIATE_RANDINT

#define TESSERA_INSTANTIATE_RANDOM_FLOATS(T)                                                   \
  template Tensor<T> detail::uniform_tensor<T>(const Shape&, double, double, const Generator&, \
                                               Device);                                        \
  template Tensor<T> detail::normal_tensor<T>(const Shape&, double, double, const Generator&,  \
                                              Device);                                         \
  template Tensor<T> detail::bernoulli_tensor<T>(const Tensor<T>&, const Generator&);          \
  template Tensor<std::int64_t> detail::multinomial_tensor<T>(const Tensor<T>&, std::int64_t,  \
                                                              bool, const Generator&);
TESSERA_INSTANTIATE_RANDOM_FLOATS(float)
TESSERA_INSTANTIATE_RANDOM_FLOATS(double)
#undef TESSERA_INSTANTIATE_RANDOM_FLOATS

}  // namespace tessera
