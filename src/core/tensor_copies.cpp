// SPDX-License-Identifier: BSD-3-Clause
// Tensor<T>'s copies in a new layout (flip, repeat, roll, tril, triu, diag) and the factories
// linspace, logspace and eye. Each is one or a few strided copies on the tensor's device
// through the expression evaluator: the source is a view of the input (reversed strides for
// flip, stride-0 dims for repeat, shifted blocks for roll), so no op here has a kernel of its
// own and every device runs the same code.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "tessera/core/device_runtime.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/ops/shapes.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace {

using detail::list_str;
using detail::wrap_dim;

/// Copies `source` into `destination` (same shape), block by block of a roll: along each of
/// dims[level..] the last `shift` elements go first.
template <class T>
void copy_rolled(const Tensor<T>& source, const Tensor<T>& destination,
                 const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& shifts,
                 std::size_t level) {
  if (level == dims.size()) {
    detail::evaluate_into(destination.view(), destination.shape(), destination.device(), source);
    return;
  }
  const std::int64_t d = dims[level];
  const std::int64_t n = source.shape()[static_cast<std::size_t>(d)];
  const std::int64_t s = shifts[level];
  if (s == 0) {
    copy_rolled(source, destination, dims, shifts, level + 1);
    return;
  }
  copy_rolled(source.narrow(d, n - s, s), destination.narrow(d, 0, s), dims, shifts, level + 1);
  copy_rolled(source.narrow(d, 0, n - s), destination.narrow(d, s, n - s), dims, shifts, level + 1);
}

/// tril (lower) or triu: x where (j - i <= k) or (j - i >= k), zeros elsewhere.
template <class T>
Tensor<T> triangle(const char* op, const Tensor<T>& x, std::int64_t k, bool lower) {
  if (x.dim() < 2) {
    detail::raise<ShapeError>(op, "input tensor must have at least 2 dimensions, got shape ",
                              x.shape());
  }
  const std::int64_t rows = x.shape()[x.shape().size() - 2];
  const std::int64_t cols = x.shape().back();
  auto out = Tensor<T>::empty(x.shape(), x.device());
  if (out.numel() == 0) return out;
  const auto i = Tensor<std::int64_t>::arange(rows, x.device()).unsqueeze(1);
  const auto j = Tensor<std::int64_t>::arange(cols, x.device());
  // k beyond the matrix would overflow j - i - k: clamp it to where nothing changes.
  const std::int64_t kk = std::clamp<std::int64_t>(k, -rows, cols);
  // The (rows, cols) mask first, the same kernel for every dtype and both triangles
  // (s (j - i) <= s k), then one select per dtype over it.
  const std::int64_t s = lower ? 1 : -1;
  const Tensor<bool> keep = tessera::eval((j - i) * s <= kk * s);
  const detail::ScalarNode<T> zero(T(0));
  detail::evaluate_into(out.view(), out.shape(), out.device(), where(keep, x, zero));
  return out;
}

/// The exponents or values of linspace: element i of `steps`, as PyTorch's CPU kernel (the
/// first half from start, the second from end), in S (double for integer types).
template <class S>
S linspace_at(S start, S end, S step, std::int64_t steps, std::int64_t i) {
  const std::int64_t halfway = steps / 2;
  return i < halfway ? start + step * static_cast<S>(i)
                     : end - step * static_cast<S>(steps - i - 1);
}

/// A double as element type T without undefined behaviour: integer types take the value
/// truncated to int64 (saturated there; NaN gives 0) and then wrap, as PyTorch's integer
/// logspace does on x86 (10^3 as uint8 is 232); bool is v != 0.
template <class T>
T element_of(double v) {
  if constexpr (Floating<T>) {
    return static_cast<T>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0.0;
  } else {
    constexpr double kLimit = 9223372036854775808.0;  // 2^63
    std::int64_t i = 0;
    if (v >= kLimit) {
      i = std::numeric_limits<std::int64_t>::max();
    } else if (v <= -kLimit) {
      i = std::numeric_limits<std::int64_t>::min();
    } else if (v == v) {
      i = static_cast<std::int64_t>(v);
    }
    return static_cast<T>(i);
  }
}

void check_steps(const char* op, std::int64_t steps) {
  if (steps < 0) {
    detail::raise<ValueError>(op, "number of steps must be non-negative, got ", steps);
  }
}

}  // namespace

template <class T>
Tensor<T> Tensor<T>::flip(const std::vector<std::int64_t>& dims) const {
  const detail::OpScope scope("flip");
  Shape strides = strides_;
  std::int64_t offset = offset_;
  std::vector<bool> seen(shape_.size() + 1, false);
  for (const auto dim : dims) {
    const auto d = static_cast<std::size_t>(wrap_dim("flip", dim, this->dim()));
    if (seen[d]) {
      detail::raise<ValueError>("flip", "dim ", d, " appears multiple times in the list of dims ",
                                list_str(dims));
    }
    seen[d] = true;
    if (d >= shape_.size() || numel() == 0) continue;
    // The reversed view starts at the last element of the dim and walks back; it never leaves
    // this function (public views keep non-negative strides).
    offset += (shape_[d] - 1) * strides_[d];
    strides[d] = -strides_[d];
  }
  const Tensor reversed(storage_, shape_, strides, offset);
  auto out = empty(shape_, device());
  detail::evaluate_into(out.view(), shape_, device(), reversed);
  return out;
}

template <class T>
Tensor<T> Tensor<T>::repeat(const std::vector<std::int64_t>& repeats) const {
  const detail::OpScope scope("repeat");
  const std::size_t m = repeats.size();
  if (m < shape_.size()) {
    detail::raise<ShapeError>("repeat",
                              "number of dimensions of repeat dims can not be smaller "
                              "than number of dimensions of tensor: repeats ",
                              list_str(repeats), " for a tensor of shape ", shape_);
  }
  for (const auto r : repeats) {
    if (r < 0) {
      detail::raise<ShapeError>("repeat", "repeats must be non-negative, got ", list_str(repeats));
    }
  }
  // x padded with leading 1s to m dims.
  const std::size_t lead = m - shape_.size();
  std::vector<std::int64_t> pad_shape(lead, 1);
  std::vector<std::int64_t> pad_strides(lead, 0);
  pad_shape.insert(pad_shape.end(), shape_.begin(), shape_.end());
  pad_strides.insert(pad_strides.end(), strides_.begin(), strides_.end());
  std::vector<std::int64_t> result(m);
  for (std::size_t i = 0; i < m; ++i) result[i] = repeats[i] * pad_shape[i];
  // Overflow shows as a product that does not divide back.
  for (std::size_t i = 0; i < m; ++i) {
    if (pad_shape[i] != 0 && result[i] / pad_shape[i] != repeats[i]) {
      detail::raise<ValueError>("repeat", "repeats ", list_str(repeats), " of shape ", shape_,
                                " give too many elements");
    }
  }
  auto out = empty(Shape(result), device());
  if (out.numel() == 0) return out;
  // One pass: the source viewed as (r0, p0, r1, p1, ...) with stride 0 on each r, the output as
  // the same shape, contiguous. Trivial entries (extent 1) are left out; with more than
  // kMaxDims left, one dim is repeated at a time instead.
  std::vector<std::int64_t> src_shape;
  std::vector<std::int64_t> src_strides;
  for (std::size_t i = 0; i < m; ++i) {
    if (repeats[i] != 1) {
      src_shape.push_back(repeats[i]);
      src_strides.push_back(0);
    }
    if (pad_shape[i] != 1) {
      src_shape.push_back(pad_shape[i]);
      src_strides.push_back(pad_strides[i]);
    }
  }
  if (src_shape.size() <= static_cast<std::size_t>(kMaxDims)) {
    const Shape shape(src_shape);
    const Tensor source(storage_, shape, Shape(src_strides), offset_);
    const Tensor target = out.view(shape);
    detail::evaluate_into(target.view(), shape, device(), source);
    return out;
  }
  Tensor current = reshape(Shape(pad_shape));
  for (std::size_t i = 0; i < m; ++i) {
    if (repeats[i] == 1) continue;
    std::vector<std::int64_t> reps(m, 1);
    reps[i] = repeats[i];
    current = current.repeat(reps);
  }
  return current;
}

template <class T>
Tensor<T> Tensor<T>::roll(const std::vector<std::int64_t>& shifts,
                          const std::vector<std::int64_t>& dims) const {
  const detail::OpScope scope("roll");
  if (dims.empty()) {
    if (shifts.size() != 1) {
      detail::raise<ShapeError>("roll", "shifts and dimensions must align. shifts: ", shifts.size(),
                                ", dims: ", dims.size());
    }
    return reshape(Shape{-1}).roll(shifts, {0}).view(shape_);
  }
  if (shifts.size() != dims.size()) {
    detail::raise<ShapeError>("roll", "shifts and dimensions must align. shifts: ", shifts.size(),
                              ", dims: ", dims.size());
  }
  if (dim() == 0) {
    detail::raise<IndexError>("roll", "Dimension specified as ", dims[0],
                              " but tensor has no dimensions");
  }
  // Shifts of one dim add up (mod its extent); each dim is then cut once.
  std::vector<std::int64_t> total(shape_.size(), 0);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const auto d = static_cast<std::size_t>(wrap_dim("roll", dims[i], dim()));
    if (d >= shape_.size() || shape_[d] == 0) continue;
    const std::int64_t n = shape_[d];
    const std::int64_t s = ((shifts[i] % n) + n) % n;
    total[d] = (total[d] + s) % n;
  }
  std::vector<std::int64_t> cut_dims;
  std::vector<std::int64_t> cut_shifts;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    if (total[d] == 0) continue;
    cut_dims.push_back(static_cast<std::int64_t>(d));
    cut_shifts.push_back(total[d]);
  }
  auto out = empty(shape_, device());
  if (out.numel() == 0) return out;
  copy_rolled(*this, out, cut_dims, cut_shifts, 0);
  return out;
}

template <class T>
Tensor<T> Tensor<T>::tril(std::int64_t k) const {
  const detail::OpScope scope("tril");
  return triangle("tril", *this, k, true);
}

template <class T>
Tensor<T> Tensor<T>::triu(std::int64_t k) const {
  const detail::OpScope scope("triu");
  return triangle("triu", *this, k, false);
}

// arange lives here, beside linspace, and not in tensor.cpp: clang 14 instantiates a
// constrained member in an explicit instantiation of the class (`template class Tensor<T>`)
// even where the constraint fails, and complex numbers have no arange.
template <class T>
Tensor<T> Tensor<T>::arange(T start, T stop, T step, Device device) requires Ordered<T> {
  const detail::OpScope scope("arange");
  std::int64_t n = 0;
  if constexpr (Floating<T>) {
    if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step)) {
      detail::raise<ValueError>("arange", "start, stop and step must be finite, got ", start, ", ",
                                stop, ", ", step);
    }
  }
  if (step == T(0)) detail::raise<ValueError>("arange", "step must be nonzero");
  if constexpr (Floating<T>) {
    const double count = std::ceil((static_cast<double>(stop) - static_cast<double>(start)) /
                                   static_cast<double>(step));
    // Half of int64's range: the element count, not a value, so integer division is meant.
    constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max() / 2;
    if (count > static_cast<double>(kMaxCount)) {
      detail::raise<ValueError>("arange", "range [", start, ", ", stop, ") with step ", step,
                                " has too many elements");
    }
    n = count > 0 ? static_cast<std::int64_t>(count) : 0;
  } else if constexpr (std::is_same_v<T, bool>) {
    n = (stop && !start) ? 1 : 0;
  } else {
    // |stop - start| in unsigned arithmetic cannot overflow for any pair of int64 values.
    const bool up = step > T(0);
    if (up ? stop > start : stop < start) {
      const auto diff = up ? static_cast<std::uint64_t>(stop) - static_cast<std::uint64_t>(start)
                           : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(stop);
      const auto magnitude =
          up ? static_cast<std::uint64_t>(step)
             : std::uint64_t{0} - static_cast<std::uint64_t>(static_cast<std::int64_t>(step));
      n = static_cast<std::int64_t>(diff / magnitude + (diff % magnitude != 0));
    }
  }
  auto out = empty(Shape{n}, device);
  if (n == 0) return out;
  if (device.is_cpu()) {
    using K = detail::ArangeKernel<T>;
    detail::HostExecutor::run(
        out.view(),
        K{static_cast<typename K::acc_type>(start), static_cast<typename K::acc_type>(step)}, true);
  } else {
    detail::cuda_nodes::arange<T>(device.index(), start, step, out.view());
  }
  return out;
}

template <class T>
Tensor<T> Tensor<T>::arange(T stop, Device device) requires Ordered<T> {
  return arange(T(0), stop, T(1), device);
}

template <class T>
Tensor<T> Tensor<T>::linspace(T start, T end, std::int64_t steps,
                              Device device) requires Ordered<T> {
  const detail::OpScope scope("linspace");
  check_steps("linspace", steps);
  using S = std::conditional_t<Floating<T>, T, double>;
  std::vector<T> values(static_cast<std::size_t>(steps));
  if (steps == 1) values[0] = start;
  if (steps > 1) {
    const S step = (static_cast<S>(end) - static_cast<S>(start)) / static_cast<S>(steps - 1);
    for (std::int64_t i = 0; i < steps; ++i) {
      values[static_cast<std::size_t>(i)] = element_of<T>(static_cast<double>(
          linspace_at<S>(static_cast<S>(start), static_cast<S>(end), step, steps, i)));
    }
  }
  return from_vector(values, Shape{steps}, device);
}

template <class T>
Tensor<T> Tensor<T>::logspace(T start, T end, std::int64_t steps, double base,
                              Device device) requires Ordered<T> {
  const detail::OpScope scope("logspace");
  check_steps("logspace", steps);
  std::vector<T> values(static_cast<std::size_t>(steps));
  if (steps == 1) values[0] = element_of<T>(std::pow(base, static_cast<double>(start)));
  if (steps > 1) {
    const double step =
        (static_cast<double>(end) - static_cast<double>(start)) / static_cast<double>(steps - 1);
    for (std::int64_t i = 0; i < steps; ++i) {
      const double e =
          linspace_at<double>(static_cast<double>(start), static_cast<double>(end), step, steps, i);
      values[static_cast<std::size_t>(i)] = element_of<T>(std::pow(base, e));
    }
  }
  return from_vector(values, Shape{steps}, device);
}

template <class T>
Tensor<T> Tensor<T>::logspace(T start, T end, std::int64_t steps,
                              Device device) requires Ordered<T> {
  return logspace(start, end, steps, 10.0, device);
}

template <class T>
Tensor<T> Tensor<T>::eye(std::int64_t n, std::int64_t m, Device device) {
  const detail::OpScope scope("eye");
  if (n < 0 || m < 0) {
    detail::raise<ShapeError>("eye", "n and m must be non-negative, got n = ", n, ", m = ", m);
  }
  auto out = zeros(Shape{n, m}, device);
  const Tensor diagonal = out.diagonal();
  detail::evaluate_into(diagonal.view(), diagonal.shape(), device, detail::ScalarNode<T>(T(1)));
  return out;
}

template <class T>
Tensor<T> Tensor<T>::eye(std::int64_t n, Device device) {
  return eye(n, n, device);
}

namespace detail {

template <class T>
Tensor<T> diag_tensor(const Tensor<T>& x, std::int64_t k) {
  const OpScope scope("diag");
  if (x.dim() == 2) return x.diagonal(k).clone();
  if (x.dim() != 1) {
    raise<ShapeError>("diag", "supports 1D or 2D tensors, got a ", x.dim(), "D tensor of shape ",
                      x.shape());
  }
  const std::int64_t n = x.numel();
  const std::int64_t magnitude = k < 0 ? -k : k;
  if (k == std::numeric_limits<std::int64_t>::min() ||
      magnitude > std::numeric_limits<std::int32_t>::max()) {
    raise<ShapeError>("diag", "diagonal ", k, " gives a matrix too large to allocate");
  }
  const std::int64_t size = n + magnitude;
  auto out = Tensor<T>::zeros(Shape{size, size}, x.device());
  const auto band = out.diagonal(k);
  evaluate_into(band.view(), band.shape(), x.device(), x);
  return out;
}

template <class T>
std::vector<Tensor<T>> meshgrid_tensors(const std::vector<Tensor<T>>& tensors, Indexing indexing) {
  const OpScope scope("meshgrid");
  if (tensors.empty()) raise<ValueError>("meshgrid", "expects a non-empty list of tensors");
  std::vector<std::int64_t> extents;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].dim() > 1) {
      raise<ShapeError>("meshgrid", "expects all tensors to be 0D or 1D, but tensors[", i,
                        "] has shape ", tensors[i].shape());
    }
    if (tensors[i].device() != tensors[0].device()) {
      raise<DeviceError>("meshgrid", "expects all tensors to have the same device, but tensors[", i,
                         "] is on ", tensors[i].device(), " and tensors[0] on ",
                         tensors[0].device());
    }
    extents.push_back(tensors[i].numel());
  }
  // XY: the first two dims swapped (as numpy's default).
  const bool swap = indexing == Indexing::XY && tensors.size() >= 2;
  std::vector<std::int64_t> grid = extents;
  if (swap) std::swap(grid[0], grid[1]);
  const Shape grid_shape(grid);
  check_shape("meshgrid", grid_shape, sizeof(T));
  std::vector<Tensor<T>> out;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    std::size_t at = i;
    if (swap && i < 2) at = 1 - i;
    std::vector<std::int64_t> shape(tensors.size(), 1);
    shape[at] = extents[i];
    out.push_back(tensors[i].reshape(Shape{-1}).view(Shape(shape)).expand(grid_shape));
  }
  return out;
}

}  // namespace detail

template <class T>
Tensor<T> Tensor<T>::conj() const {
  if constexpr (Complex<T>) {
    const detail::OpScope scope("conj");
    return tessera::conj(*this);
  } else {
    return *this;
  }
}

namespace detail {

template <class T>
void copy_elements(const TensorView<T>& out, const Shape& shape, Device device,
                   const Tensor<T>& source) {
  with_executor(device, [&](const auto& executor) { evaluate_with(executor, out, shape, source); });
}

}  // namespace detail

#define TESSERA_INSTANTIATE_COPIES(T)                                                        \
  template void detail::copy_elements<T>(const TensorView<T>&, const Shape&, Device,         \
                                         const Tensor<T>&);                                  \
  template Tensor<T> Tensor<T>::conj() const;                                                \
  template Tensor<T> Tensor<T>::flip(const std::vector<std::int64_t>&) const;                \
  template Tensor<T> Tensor<T>::repeat(const std::vector<std::int64_t>&) const;              \
  template Tensor<T> Tensor<T>::roll(const std::vector<std::int64_t>&,                       \
                                     const std::vector<std::int64_t>&) const;                \
  template Tensor<T> Tensor<T>::tril(std::int64_t) const;                                    \
  template Tensor<T> Tensor<T>::triu(std::int64_t) const;                                    \
  template Tensor<T> Tensor<T>::eye(std::int64_t, Device);                                   \
  template Tensor<T> Tensor<T>::eye(std::int64_t, std::int64_t, Device);                     \
  template Tensor<T> detail::diag_tensor<T>(const Tensor<T>&, std::int64_t);                 \
  template std::vector<Tensor<T>> detail::meshgrid_tensors<T>(const std::vector<Tensor<T>>&, \
                                                              Indexing);
TESSERA_FOR_EACH_ELEMENT_DTYPE(TESSERA_INSTANTIATE_COPIES)
#undef TESSERA_INSTANTIATE_COPIES
// Evenly spaced values: ordered types only.
#define TESSERA_INSTANTIATE_SPACES(T)                                         \
  template Tensor<T> Tensor<T>::arange(T, T, T, Device);                      \
  template Tensor<T> Tensor<T>::arange(T, Device);                            \
  template Tensor<T> Tensor<T>::linspace(T, T, std::int64_t, Device);         \
  template Tensor<T> Tensor<T>::logspace(T, T, std::int64_t, double, Device); \
  template Tensor<T> Tensor<T>::logspace(T, T, std::int64_t, Device);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_SPACES)
#undef TESSERA_INSTANTIATE_SPACES

}  // namespace tessera
