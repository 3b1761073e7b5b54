// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file dtype.hpp
/// The element types tessera supports, named once, and their promotion rules.

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "tessera/core/element_traits.hpp"

/// Expands X(type) once per supported element type. Every per-dtype instantiation in the project
/// is driven by this one list.
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

/// Expands X(type) for the two index types operations accept or produce.
#define TESSERA_FOR_EACH_INDEX_DTYPE(X) X(int32_t) X(int64_t)

namespace tessera {

/// Run-time tag of an element type.
enum class DType : std::uint8_t { Bool, UInt8, Int8, Int16, Int32, Int64, Float32, Float64 };

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
#undef TESSERA_DTYPE_OF

template <class T, class = void>
struct is_dtype : std::false_type {};
template <class T>
struct is_dtype<T, std::void_t<decltype(dtype_of<T>::value)>> : std::true_type {};
}  // namespace detail

/// True for the eight element types tessera stores.
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
  constexpr std::string_view names[] = {"bool",  "uint8", "int8",    "int16",
                                        "int32", "int64", "float32", "float64"};
  return names[static_cast<int>(d)];
}

namespace detail {
// PyTorch's category order: bool < integral < floating.
template <class T>
inline constexpr int category = Boolean<T>    ? 0
                                : Floating<T> ? 2
                                              : 1;

template <class A, class B>
struct promote_impl {
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

// The dtype a C++ scalar of type S stands for (`2` -> int32, `2.0` -> double, `2u` -> int64).
template <class S>
using scalar_dtype_t = std::conditional_t<
    std::is_same_v<S, bool>, bool,
    std::conditional_t<
        Floating<S>, std::conditional_t<(sizeof(S) <= sizeof(float)), float, double>,
        std::conditional_t<(std::is_signed_v<S> && sizeof(S) <= 4), std::int32_t, std::int64_t>>>;
}  // namespace detail

/// The common type of two element types under PyTorch's promotion rules
/// (`promote_t<int32_t, float>` is float, `promote_t<uint8_t, int8_t>` is int16_t).
template <Element A, Element B>
using promote_t = typename detail::promote_impl<A, B>::type;

/// The type of `tensor<T> op scalar<S>`: scalars are "weak" as in PyTorch and NumPy 2 — they
/// only change the type when they are of a higher category, and then give PyTorch's default
/// type of that category (`Tensor<float> * 2.0` stays float, `Tensor<int32_t> * 2.5` becomes
/// float, `Tensor<bool> + 1` int64).
template <Element T, class S>
using scalar_promote_t =
    std::conditional_t<(detail::category<detail::scalar_dtype_t<S>> > detail::category<T>),
                       std::conditional_t<Floating<detail::scalar_dtype_t<S>>, float, std::int64_t>,
                       T>;

/// The type `sum` accumulates and returns: int64 for bool and integers (as PyTorch), T otherwise
/// (element_traits' accumulate_type).
template <Element T>
using sum_t = accumulate_t<T>;

}  // namespace tessera
