// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file xtensor.hpp
/// Interop with xtensor (https://github.com/xtensor-stack/xtensor): copy an xtensor expression
/// into a Tensor, copy a Tensor into an `xt::xarray`, or look at a CPU Tensor through a
/// zero-copy xtensor view. Not part of the umbrella header, so tessera never requires
/// xtensor; include it explicitly and link the `xtensor` CMake target.

#if defined(__CUDACC__)
// xtensor's headers have failed to compile under nvcc; keep this header out of .cu units and
// exchange data with CUDA code through tessera::Tensor instead.
#error "tessera/interop/xtensor.hpp is for the host compiler only; do not include it in .cu files"
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xexpression.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xutils.hpp>

#include "tessera/tensor.hpp"

namespace tessera {

namespace detail::xtensor_interop {

/// True when `strides` (xtensor's, in elements) describe a row-major contiguous layout of
/// `shape`. Strides of size-1 dimensions are ignored: xtensor stores 0 there, others store the
/// row-major stride, and either way they are never stepped over.
template <class S, class St>
bool is_row_major(const S& shape, const St& strides) {
  std::int64_t expected = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    const auto extent = static_cast<std::int64_t>(shape[d]);
    if (extent != 1 && static_cast<std::int64_t>(strides[d]) != expected) return false;
    expected = tessera::detail::wrapping_mul(expected, extent);  // past a zero extent: unused
  }
  return true;
}

/// Copies the elements of `e` into `dst` in row-major order. Reads a row-major strided
/// container (xarray, xtensor, adaptors, strided views) straight from its memory, and lets
/// xtensor evaluate anything else (functions, broadcasts, other layouts) into a temporary.
template <class V, class E>
void copy_row_major(const E& e, V* dst) {
  if constexpr (xt::has_data_interface<E>::value && xt::has_strides<E>::value) {
    if (is_row_major(e.shape(), e.strides())) {
      std::copy_n(e.data() + e.data_offset(), e.size(), dst);
      return;
    }
  }
  const xt::xarray<V, xt::layout_type::row_major> evaluated = e;
  std::copy_n(evaluated.data(), evaluated.size(), dst);
}

}  // namespace detail::xtensor_interop

/// Evaluates an xtensor expression into a new Tensor of the same shape and element type (a
/// copy; later changes to the xtensor operands do not show in the result). The element type
/// must be one of tessera's dtypes. The copy is made on the host, then moved to `device`.
///
///     xt::xarray<double> x = {{1, 2}, {3, 4}};
///     auto t = tessera::from_xtensor(x * 2.0);                       // Tensor<double> (2, 2)
///     auto g = tessera::from_xtensor(x, tessera::Device::cuda());    // on the GPU
template <class E>
auto from_xtensor(const xt::xexpression<E>& e, Device device = Device::cpu()) {
  using V = std::remove_cv_t<typename E::value_type>;
  static_assert(is_dtype_v<V>,
                "tessera::from_xtensor: the expression's value_type must be bool, uint8_t, "
                "int8_t, int16_t, int32_t, int64_t, float or double");
  const E& expr = e.derived_cast();
  const Shape shape(expr.shape().begin(), expr.shape().end());
  auto host = Tensor<V>::empty(shape, Device::cpu());
  if (host.numel() > 0) detail::xtensor_interop::copy_row_major<V>(expr, host.data());
  return device.is_cpu() ? host : host.to(device);
}

/// Copies a Tensor (any layout, any device) into a row-major `xt::xarray<T>`; CUDA tensors are
/// copied to the host first. A 0-d tensor gives a 0-d xarray.
///
///     auto t = tessera::tensor<float>({{1, 2, 3}, {4, 5, 6}});
///     xt::xarray<float> x = tessera::to_xtensor(t.transpose(0, 1));  // shape {3, 2}
template <class T>
xt::xarray<T> to_xtensor(const Tensor<T>& t) {
  // cpu() shares memory when already on the host; contiguous() copies only strided tensors.
  const Tensor<T> host = t.cpu().contiguous();
  using shape_type = typename xt::xarray<T>::shape_type;
  auto out = xt::xarray<T>::from_shape(shape_type(host.shape().begin(), host.shape().end()));
  std::copy_n(host.data(), host.numel(), out.data());
  return out;
}

/// A zero-copy xtensor view of a CPU tensor with the tensor's shape and strides: reads and
/// writes go straight to the tensor's memory, strided tensors included (`t.transpose(0, 1)`,
/// `t.slice(...)`). Tensor<bool> is viewed as `bool` elements. Assigning an expression of the
/// same (or a broadcastable) shape writes the elements in place.
/// The view does not own the memory: the tensor, or another Tensor sharing its storage, must
/// outlive it. DeviceError for a CUDA tensor (use `to_xtensor`, which copies).
///
///     auto t = tessera::Tensor<float>::zeros({2, 3});
///     auto v = tessera::as_xtensor(t);
///     v(1, 2) = 5.0f;                          // t.at({1, 2}) == 5
///     float s = xt::sum(v)();                  // xtensor algorithms on tessera memory
///
/// It is an `xt::xstrided_view` over a no-ownership `xt::adapt` of the memory the tensor spans,
/// not a strided `xt::xarray_adaptor`: assigning to an adaptor replaces its strides with the
/// right-hand side's and copies the buffer linearly, which would scramble a transposed tensor
/// and overwrite elements between a slice's rows.
template <class T>
auto as_xtensor(const Tensor<T>& t) {
  if (!t.device().is_cpu()) {
    detail::raise<DeviceError>("as_xtensor", "the tensor is on ", t.device(),
                               "; a zero-copy xtensor view needs host memory (use to_xtensor, "
                               "which copies, or move it with .cpu() first)");
  }
  const std::size_t ndim = t.shape().size();
  // std::vector rather than xt::svector: xtensor 0.24 takes svector<size_t, 4> for a rank-4
  // shape when it builds the view's temporaries, which breaks `view = expression`.
  std::vector<std::size_t> shape(ndim);
  std::vector<std::ptrdiff_t> strides(ndim);
  // Elements the view may touch, counted from data(): the largest offset plus one (tessera
  // strides are never negative).
  std::size_t span = t.numel() == 0 ? 0 : 1;
  for (std::size_t d = 0; d < ndim; ++d) {
    shape[d] = static_cast<std::size_t>(t.shape()[d]);
    // xtensor broadcasts by stepping size-1 dimensions with stride 0.
    strides[d] = t.shape()[d] == 1 ? 0 : static_cast<std::ptrdiff_t>(t.strides()[d]);
    if (t.numel() > 0) span += static_cast<std::size_t>((t.shape()[d] - 1) * strides[d]);
  }
  // A row-major layout lets xtensor assign and reduce contiguous tensors linearly (and with
  // SIMD when built with xsimd); other tensors are walked through their strides.
  const auto layout = t.is_contiguous() ? xt::layout_type::row_major : xt::layout_type::dynamic;
  auto memory = xt::adapt(t.data(), span, xt::no_ownership(), std::array<std::size_t, 1>{span});
  return xt::strided_view(std::move(memory), std::move(shape), std::move(strides), std::size_t{0},
                          layout);
}

}  // namespace tessera
