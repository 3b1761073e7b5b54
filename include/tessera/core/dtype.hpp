// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file dtype.hpp
/// The element types tessera supports, named once, and their promotion rules.

#include <complex>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "tessera/core/element_traits.hpp"

/// Expands X(type) once per real element type (bool, the integers, the floating types). Every
/// per-dtype instantiation of an operation with no complex form is driven by this one list;
/// those with a complex form add TESSERA_FOR_EACH_COMPLEX_DTYPE (below), so that complex adds no
/// instantiation where an op has no meaning for it.
#define TESSERA_FOR_EACH_DTYPE(X) \
  X(bool) X(uint8_t) X(int8_t) X(int16_t) X(int32_t) X(int64_t) X(float) X(double)

/// Expands X(a, type) once per element type, passing `a` along; nest it inside
/// TESSERA_FOR_EACH_DTYPE to visit every pair of types. (A macro cannot expand itself, hence
/// this second spelling of the same list, kept right here.)
#define TESSERA_FOR_EACH_DTYPE_WITH(X, a) \
  X(a, bool)                              \
  X(a, uint8_t) X(a, int8_t) X(a, int16_t) X(a, int32_t) X(a, int64_t) X(a, float) X(a, double)

/// Expands X(type) for the element types that are numbers (every dtype but bool).
#define TESSERA_FOR_EACH_NUMERIC_DTYPE(X) \
  X(uint8_t) X(int8_t) X(int16_t) X(int32_t) X(int64_t) X(float) X(double)

/// Expands X(a, type) for the number dtypes, passing `a` along (TESSERA_FOR_EACH_DTYPE_WITH's
/// numbers).
#define TESSERA_FOR_EACH_NUMERIC_DTYPE_WITH(X, a) \
  X(a, uint8_t) X(a, int8_t) X(a, int16_t) X(a, int32_t) X(a, int64_t) X(a, float) X(a, double)

/// Expands X(type) once per complex element type (complex64, complex128).
#define TESSERA_FOR_EACH_COMPLEX_DTYPE(X) X(std::complex<float>) X(std::complex<double>)

/// Expands X(a, type) per complex element type, passing `a` along.
#define TESSERA_FOR_EACH_COMPLEX_DTYPE_WITH(X, a) \
  X(a, std::complex<float>) X(a, std::complex<double>)

/// Expands X(type) once per element type of every kind: the real list, then the complex one.
#define TESSERA_FOR_EACH_ELEMENT_DTYPE(X) \
  TESSERA_FOR_EACH_DTYPE(X) TESSERA_FOR_EACH_COMPLEX_DTYPE(X)

/// Expands X(type) for the two index types operations accept or produce.
#define TESSERA_FOR_EACH_INDEX_DTYPE(X) X(int32_t) X(int64_t)

namespace tessera {

/// complex64: two float32 parts, interleaved (torch.complex64, NumPy's '<c8').
using complex64 = std::complex<float>;
/// complex128: two float64 parts, interleaved (torch.complex128, NumPy's '<c16').
using complex128 = std::complex<double>;

/// Run-time tag of an element type.
enum class DType : std::uint8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float32,
  Float64,
  Complex64,
  Complex128
};

namespace detail {
template <class T>
struct dtype_of;
/// Specialises dtype_of for one element type: its DType tag and PyTorch's name for it.
#define TESSERA_DTYPE_OF(T, TAG, NAME)             \
  template <>                                      \
  struct dtype_of<T> {                             \
    static constexpr DType value = DType::TAG;     \
    static constexpr std::string_view name = NAME; \
  };
TESSERA_DTYPE_OF(bool, Bool, "bool")
TESSERA_DTYPE_OF(std::uint8_t, UInt8, "uint8")
TESSERA_DTYPE_OF(std::int8_t, Int8, "int8")
TESSERA_DTYPE_OF(std::int16_t, Int16, "int16")
TESSERA_DTYPE_OF(std::int32_t, Int32, "int32")
TESSERA_DTYPE_OF(std::int64_t, Int64, "int64")
TESSERA_DTYPE_OF(float, Float32, "float32")
TESSERA_DTYPE_OF(double, Float64, "float64")
TESSERA_DTYPE_OF(std::complex<float>, Complex64, "complex64")
TESSERA_DTYPE_OF(std::complex<double>, Complex128, "complex128")
#undef TESSERA_DTYPE_OF

template <class T, class = void>
struct is_dtype : std::false_type {};
template <class T>
struct is_dtype<T, std::void_t<decltype(dtype_of<T>::value)>> : std::true_type {};
}  // namespace detail

/// True for the ten element types tessera stores (eight real, two complex).
template <class T>
inline constexpr bool is_dtype_v = detail::is_dtype<T>::value;

/// An element type tessera can store in a Tensor.
template <class T>
concept Element = is_dtype_v<T>;

/// The run-time tag of element type T, e.g. `dtype_v<float> == DType::Float32`.
template <Element T>
inline constexpr DType dtype_v = detail::dtype_of<T>::value;

/// The NumPy/PyTorch name of an element type ("float32", "int64", "bool", ...).
constexpr std::string_view dtype_name(DType d) {
  constexpr std::string_view names[] = {"bool",  "uint8",   "int8",    "int16",     "int32",
                                        "int64", "float32", "float64", "complex64", "complex128"};
  return names[static_cast<int>(d)];
}

namespace detail {
// PyTorch's category order: bool < integral < floating < complex.
template <class T>
inline constexpr int category = Boolean<T>    ? 0
                                : Floating<T> ? 2
                                : Complex<T>  ? 3
                                              : 1;

/// The part type a real type R brings to a complex result: R for a floating type, float for
/// bool and the integers (torch: int64 with complex64 is complex64).
template <class R>
using complex_part_of = std::conditional_t<Floating<R>, R, float>;

template <class A, class B>
struct promote_real {
  static constexpr bool a_wins = [] {
    if constexpr (category<A> != category<B>) {
      return category<A> > category<B>;
    } else {
      return sizeof(A) >= sizeof(B);
    }
  }();
  using larger = std::conditional_t<a_wins, A, B>;
  // uint8 is the only unsigned type: mixed with int8 it needs int16 (PyTorch's rule).
  static constexpr bool mixed_sign_bytes = category<A> == 1 && category<B> == 1 &&
                                           std::is_signed_v<A> != std::is_signed_v<B> &&
                                           sizeof(larger) == 1;
  using type = std::conditional_t<mixed_sign_bytes, std::int16_t, larger>;
};

/// Promotion with a complex operand: complex of the wider part type (float64 with complex64 is
/// complex128, as torch).
template <class A, class B>
struct promote_impl {
  using type = typename promote_real<A, B>::type;
};
template <class A, class B>
requires(Complex<A> || Complex<B>) struct promote_impl<A, B> {
  using type = std::complex<
      typename promote_real<complex_part_of<part_t<A>>, complex_part_of<part_t<B>>>::type>;
};

// The dtype a C++ scalar of type S stands for (`2` -> int32, `2.0` -> double, `2u` -> int64,
// a std::complex itself).
template <class S>
struct scalar_dtype {
  using type = std::conditional_t<
      std::is_same_v<S, bool>, bool,
      std::conditional_t<
          Floating<S>, std::conditional_t<(sizeof(S) <= sizeof(float)), float, double>,
          std::conditional_t<(std::is_signed_v<S> && sizeof(S) <= 4), std::int32_t, std::int64_t>>>;
};
template <Complex S>
struct scalar_dtype<S> {
  using type = S;
};
template <class S>
using scalar_dtype_t = typename scalar_dtype<S>::type;

/// The type of a tensor of T with a scalar of a higher category C: PyTorch's default type of
/// that category (float, int64), and for a complex scalar complex64, or complex128 beside a
/// float64 tensor.
template <class T, class C>
using weak_scalar_result_t = std::conditional_t<
    Complex<C>,
    std::conditional_t<std::is_same_v<T, double>, std::complex<double>, std::complex<float>>,
    std::conditional_t<Floating<C>, float, std::int64_t>>;
}  // namespace detail

/// The common type of two element types under PyTorch's promotion rules
/// (`promote_t<int32_t, float>` is float, `promote_t<uint8_t, int8_t>` is int16_t).
template <Element A, Element B>
using promote_t = typename detail::promote_impl<A, B>::type;

/// The type of `tensor<T> op scalar<S>`: scalars are "weak" as in PyTorch and NumPy 2 — they
/// only change the type when they are of a higher category, and then give PyTorch's default
/// type of that category (`Tensor<float> * 2.0` stays float, `Tensor<int32_t> * 2.5` becomes
/// float, `Tensor<bool> + 1` int64; a complex scalar makes a real tensor complex64, complex128
/// for a float64 tensor, and leaves a complex tensor's type).
template <Element T, class S>
using scalar_promote_t =
    std::conditional_t<(detail::category<detail::scalar_dtype_t<S>> > detail::category<T>),
                       detail::weak_scalar_result_t<T, detail::scalar_dtype_t<S>>, T>;

/// The type `sum` accumulates and returns: int64 for bool and integers (as PyTorch), T otherwise
/// (element_traits' accumulate_type).
template <Element T>
using sum_t = accumulate_t<T>;

}  // namespace tessera
