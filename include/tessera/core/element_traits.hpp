// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file element_traits.hpp
/// What each element type is, said once: its kind (bool, integer, floating, complex), the
/// type reductions accumulate in, the type `abs` returns and whether `<` orders its values.
/// The library asks these traits and never `std::is_floating_point`, `std::is_integral` or
/// `std::is_arithmetic`, so adding an element type is one entry in the type list (dtype.hpp)
/// and, for a new kind of number, one specialisation of element_traits here
/// (docs/architecture.md, "How to add an element type").

#include <complex>
#include <cstdint>
#include <type_traits>

namespace tessera {

namespace detail {
/// What a built-in C++ type is: the only place the standard type traits are asked.
template <class T>
struct builtin_element {
  static constexpr bool is_bool = std::is_same_v<T, bool>;
  static constexpr bool is_integer = std::is_integral_v<T> && !is_bool;
  static constexpr bool is_floating = std::is_floating_point_v<T>;
};
}  // namespace detail

/// The traits of element type T (any C++ type; cv-qualifiers are the caller's to remove). The
/// primary template covers bool and the built-in numbers; a new kind of element (complex)
/// specialises it. Plain booleans rather than an enum of kinds: a comparison of enumerators
/// would look up the library's operator templates and make the concepts below recursive.
template <class T>
struct element_traits {
  /// T is bool.
  static constexpr bool is_bool = detail::builtin_element<T>::is_bool;
  /// T is an integer type other than bool.
  static constexpr bool is_integer = detail::builtin_element<T>::is_integer;
  /// T is a floating-point type.
  static constexpr bool is_floating = detail::builtin_element<T>::is_floating;
  /// T is a complex type.
  static constexpr bool is_complex = false;
  /// Whether `<` orders the values (sort, max, clamp, searchsorted, quantile need it).
  static constexpr bool ordered = is_bool || is_integer || is_floating;
  /// The type `sum` and `prod` accumulate in and return: int64 for bool and integers (as
  /// PyTorch), T for floating types.
  using accumulate_type = std::conditional_t<is_floating, T, std::int64_t>;
  /// The type `abs` returns: T for real numbers.
  using abs_type = T;
};

/// The complex numbers: std::complex<float> (complex64) and std::complex<double> (complex128),
/// stored interleaved. Unordered (no `<`, sort, max); sums accumulate in T itself; `abs`, `real`
/// and `imag` return the part type F.
template <class F>
requires detail::builtin_element<F>::is_floating struct element_traits<std::complex<F>> {
  /// Not bool.
  static constexpr bool is_bool = false;
  /// Not an integer.
  static constexpr bool is_integer = false;
  /// Not a (real) floating-point type.
  static constexpr bool is_floating = false;
  /// A complex type.
  static constexpr bool is_complex = true;
  /// Unordered: no `<`, sort, max, clamp, searchsorted or quantile.
  static constexpr bool ordered = false;
  /// Sums and products are of the complex type itself.
  using accumulate_type = std::complex<F>;
  /// `abs`, `real` and `imag` give the part type F.
  using abs_type = F;
};

/// T is bool.
template <class T>
concept Boolean = element_traits<std::remove_cv_t<T>>::is_bool;
/// T is an integer type other than bool.
template <class T>
concept Integer = element_traits<std::remove_cv_t<T>>::is_integer;
/// T is bool or an integer type (as std::is_integral).
template <class T>
concept Integral = Boolean<T> || Integer<T>;
/// T is a floating-point type.
template <class T>
concept Floating = element_traits<std::remove_cv_t<T>>::is_floating;
/// T is a complex type: std::complex<float> or std::complex<double>.
template <class T>
concept Complex = element_traits<std::remove_cv_t<T>>::is_complex;
/// T is a real number or bool (as std::is_arithmetic).
template <class T>
concept Arithmetic = Integral<T> || Floating<T>;
/// T is a number or bool of any kind, complex included: what a scalar operand may be.
template <class T>
concept Number = Arithmetic<T> || Complex<T>;
/// `<` orders T's values.
template <class T>
concept Ordered = element_traits<std::remove_cv_t<T>>::ordered;

/// Refuses an unordered (complex) value type T in ordering operation `op` (a string literal) at
/// compile time: PyTorch raises at run time; tessera names the op and what orders instead.
#define TESSERA_REQUIRE_ORDERED(T, op)                                               \
  static_assert(::tessera::Ordered<T>,                                               \
                "tessera::" op                                                       \
                ": complex numbers are not ordered (PyTorch raises here); order by " \
                "ts::abs(z), ts::real(z) or ts::angle(z)")

/// The type reductions of T accumulate in and return (element_traits::accumulate_type).
template <class T>
using accumulate_t = typename element_traits<std::remove_cv_t<T>>::accumulate_type;
/// The type `abs` of T returns (element_traits::abs_type): the part type of a complex T.
template <class T>
using abs_t = typename element_traits<std::remove_cv_t<T>>::abs_type;
/// The part type of T: F for std::complex<F>, T itself for a real T (abs_t under the name the
/// complex views use: `z.real()` is a Tensor<part_t<T>>).
template <class T>
using part_t = abs_t<T>;

}  // namespace tessera
