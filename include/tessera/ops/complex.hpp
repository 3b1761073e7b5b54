// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file complex.hpp
/// Complex tensors from their parts and their parts as views: `ts::complex(re, im)`,
/// `ts::polar(r, theta)`, `ts::real(z)`, `ts::imag(z)` (views; writes go through), with
/// `view_as_real` / `view_as_complex` (core/tensor_class.hpp) under them. The pointwise
/// functions of complex values (abs, angle, conj, sgn, exp, ...) are rows of the pointwise table.

#include <complex>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/operators.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

// The functions evaluate expressions: in the evaluation flavour's inline namespace, as every
// other template that does (core/macros.hpp).
namespace detail {
inline namespace TESSERA_EVAL_NS {
/// The shape and device two part operands give their complex result (broadcast; one device).
template <class R, class I>
std::pair<Shape, Device> parts_layout(const char* op, const R& re, const I& im) {
  const OpScope scope(op);
  const Shape shape = broadcast_shapes(op, expr_shape(re), expr_shape(im));
  const Device device = merge_devices(expr_device(re), expr_device(im)).value_or(Device::cpu());
  return {shape, device};
}

/// A new complex tensor of `shape` on `device` whose real parts are `re` and imaginary parts
/// `im` (expressions broadcast to the shape), each written through a part view.
template <class F, class R, class I>
Tensor<std::complex<F>> from_parts(const Shape& shape, Device device, const R& re, const I& im) {
  auto out = Tensor<std::complex<F>>::empty(shape, device);
  const Tensor<F> parts = view_as_real(out);
  evaluate_into(parts.select(-1, 0).view(), shape, device, re);
  evaluate_into(parts.select(-1, 1).view(), shape, device, im);
  return out;
}
}  // namespace TESSERA_EVAL_NS
}  // namespace detail

inline namespace TESSERA_EVAL_NS {

/// The complex tensor `re + im i` (torch.complex): `re` and `im` both float or both double
/// (tensors or expressions, broadcast together) → complex64 or complex128. Spelled in full
/// (`tessera::complex`) beside `using namespace std`, whose std::complex it would meet.
template <Expression R, Expression I>
Tensor<std::complex<detail::value_of<R>>> complex(const R& re, const I& im) {
  using F = detail::value_of<R>;
  static_assert(Floating<F> && std::is_same_v<F, detail::value_of<I>>,
                "tessera::complex: re and im must both be float or both double (torch.complex); "
                "cast first, e.g. ts::cast<float>(x)");
  const auto [shape, device] = detail::parts_layout("complex", re, im);
  return detail::from_parts<F>(shape, device, re, im);
}

/// The complex tensor `r (cos theta + i sin theta)` (torch.polar): `r` and `theta` both float
/// or both double, broadcast together.
template <Expression R, Expression A>
Tensor<std::complex<detail::value_of<R>>> polar(const R& r, const A& theta) {
  using F = detail::value_of<R>;
  static_assert(Floating<F> && std::is_same_v<F, detail::value_of<A>>,
                "tessera::polar: abs and angle must both be float or both double (torch.polar); "
                "cast first, e.g. ts::cast<float>(x)");
  const auto [shape, device] = detail::parts_layout("polar", r, theta);
  return detail::from_parts<F>(shape, device, r * tessera::cos(theta), r * tessera::sin(theta));
}

/// The real parts of `z` as a view of the part type (writes go through to z); a real tensor
/// itself. An expression is evaluated first.
template <Expression E>
auto real(const E& z) {
  return detail::tensor_of(z).real();
}

/// The imaginary parts of complex `z` as a view of the part type (writes go through to z). An
/// expression is evaluated first.
template <Expression E>
auto imag(const E& z) {
  static_assert(Complex<detail::value_of<E>>,
                "tessera::imag: a real tensor has no imaginary part (torch raises); the tensor is "
                "its own real part");
  return detail::tensor_of(z).imag();
}

}  // namespace TESSERA_EVAL_NS
}  // namespace tessera

TESSERA_EVAL_TAGS_END
