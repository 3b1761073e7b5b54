// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file functors.hpp
/// The elementwise operations as host/device functors with run-time ids, every one made from a
/// row of the pointwise table (pointwise_table.hpp). The ids let the precompiled device kernels
/// of host-compiled callers evaluate any node through one switch per dtype.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/expr/pointwise_table.hpp"

namespace tessera::detail {

/// The unary functions' run-time ids, one per row of TESSERA_UNARY_FUNCTIONS.
enum class UnaryOpId : std::uint8_t {
/// One enumerator per table row (expands the tables; undefined after use).
#define TESSERA_POINTWISE_ID(Op, name, Kind, doc, ...) Op,
  TESSERA_UNARY_FUNCTIONS(TESSERA_POINTWISE_ID)
};
/// The binary functions' run-time ids, one per row of TESSERA_BINARY_FUNCTIONS.
enum class BinaryOpId : std::uint8_t { TESSERA_BINARY_FUNCTIONS(TESSERA_POINTWISE_ID) };
#undef TESSERA_POINTWISE_ID

namespace ops {
// The table's vectorisable rows call these unqualified: a float or double finds them here, an
// xsimd batch (host_vector_math_isa.inl) finds xsimd's by argument-dependent lookup.
using std::acos;
using std::acosh;
using std::asin;
using std::atan;
using std::atanh;
using std::cos;
using std::cosh;
using std::exp;
using std::exp2;
using std::expm1;
using std::log;
using std::log10;
using std::log1p;
using std::log2;
using std::sin;
using std::sinh;
using std::sqrt;
using std::tan;
using std::tanh;
using std::trunc;

// The complex forms of the same rows: non-templates, so that they win over std's templates for
// std::complex (whose functions are host only) and reach device code through cx.
/// One row function for complex64 and complex128 (expands below; undefined after use).
#define TESSERA_COMPLEX_ROW_FUNCTION(name)                                                  \
  TESSERA_HD inline std::complex<float> name(std::complex<float> z) { return cx::name(z); } \
  TESSERA_HD inline std::complex<double> name(std::complex<double> z) { return cx::name(z); }
TESSERA_COMPLEX_ROW_FUNCTION(sqrt)
TESSERA_COMPLEX_ROW_FUNCTION(exp)
TESSERA_COMPLEX_ROW_FUNCTION(exp2)
TESSERA_COMPLEX_ROW_FUNCTION(expm1)
TESSERA_COMPLEX_ROW_FUNCTION(log)
TESSERA_COMPLEX_ROW_FUNCTION(log2)
TESSERA_COMPLEX_ROW_FUNCTION(log10)
TESSERA_COMPLEX_ROW_FUNCTION(log1p)
TESSERA_COMPLEX_ROW_FUNCTION(sin)
TESSERA_COMPLEX_ROW_FUNCTION(cos)
TESSERA_COMPLEX_ROW_FUNCTION(tan)
TESSERA_COMPLEX_ROW_FUNCTION(asin)
TESSERA_COMPLEX_ROW_FUNCTION(acos)
TESSERA_COMPLEX_ROW_FUNCTION(atan)
TESSERA_COMPLEX_ROW_FUNCTION(sinh)
TESSERA_COMPLEX_ROW_FUNCTION(cosh)
TESSERA_COMPLEX_ROW_FUNCTION(tanh)
TESSERA_COMPLEX_ROW_FUNCTION(acosh)
TESSERA_COMPLEX_ROW_FUNCTION(atanh)
#undef TESSERA_COMPLEX_ROW_FUNCTION

// One functor per row: `apply` computes the row's body in the compute type T of its kind and
// returns the kind's result type (bool for tests and comparisons).
/// The functor of one unary table row (expands the table; undefined after use).
#define TESSERA_UNARY_FUNCTOR(Op, fn, Kind, doc, ...)                       \
  struct Op {                                                               \
    using kind_tag = ::tessera::detail::kind::Kind;                         \
    static constexpr UnaryOpId id = UnaryOpId::Op;                          \
    static constexpr const char* name = #fn;                                \
    template <class T>                                                      \
    TESSERA_HD static typename kind_types<kind_tag, T>::result apply(T a) { \
      return __VA_ARGS__;                                                   \
    }                                                                       \
  };
/// The functor of one binary table row (expands the table; undefined after use).
#define TESSERA_BINARY_FUNCTOR(Op, fn, Kind, doc, ...)                           \
  struct Op {                                                                    \
    using kind_tag = ::tessera::detail::kind::Kind;                              \
    static constexpr BinaryOpId id = BinaryOpId::Op;                             \
    static constexpr const char* name = #fn;                                     \
    template <class T>                                                           \
    TESSERA_HD static typename kind_types<kind_tag, T>::result apply(T a, T b) { \
      return __VA_ARGS__;                                                        \
    }                                                                            \
  };
TESSERA_UNARY_FUNCTIONS(TESSERA_UNARY_FUNCTOR)
TESSERA_BINARY_FUNCTIONS(TESSERA_BINARY_FUNCTOR)
#undef TESSERA_UNARY_FUNCTOR
#undef TESSERA_BINARY_FUNCTOR
}  // namespace ops

/// True for the rows with a complex form (TESSERA_COMPLEX_ROWS).
template <class Op>
inline constexpr bool has_complex_form = false;
/// Marks one row as having a complex form (expands the list; undefined after use).
#define TESSERA_COMPLEX_FORM(Op) \
  template <>                    \
  inline constexpr bool has_complex_form<ops::Op> = true;
TESSERA_COMPLEX_ROWS(TESSERA_COMPLEX_FORM)
#undef TESSERA_COMPLEX_FORM

/// True when row Op takes operands whose common type is T: its kind accepts T, and a complex T
/// only where the row has a complex form.
template <class Op, class T>
inline constexpr bool accepts_operand = kind_types<typename Op::kind_tag, T>::accepts &&
                                        (!Complex<T> || has_complex_form<Op>);

/// True when `Op` returns bool whatever it computes in (tests and comparisons): such nodes run
/// through the precompiled `*_test` kernels, the others through the same-type ones.
template <class Op>
inline constexpr bool is_test_op = std::is_same_v<typename Op::kind_tag, kind::Test>;

/// True when functor Op computes and returns T itself (the same-type precompiled kernels).
template <class Op, class T>
inline constexpr bool maps_same_type =
    !is_test_op<Op> && accepts_operand<Op, T> &&
    std::is_same_v<typename kind_types<typename Op::kind_tag, T>::compute, T> &&
    std::is_same_v<typename kind_types<typename Op::kind_tag, T>::result, T>;

/// True when functor Op computes in complex T and returns its part type (abs, angle: the
/// precompiled `*_part` kernels).
template <class Op, class T>
inline constexpr bool maps_to_part =
    Complex<T> && !is_test_op<Op> && accepts_operand<Op, T> &&
    std::is_same_v<typename kind_types<typename Op::kind_tag, T>::result, part_t<T>>;

/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_UNARY_CASE(Op, fn, Kind, doc, ...)                      \
  case UnaryOpId::Op:                                                   \
    if constexpr (maps_same_type<ops::Op, T>) return ops::Op::apply(a); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_UNARY_TEST_CASE(Op, fn, Kind, doc, ...)                                         \
  case UnaryOpId::Op:                                                                           \
    if constexpr (is_test_op<ops::Op> && accepts_operand<ops::Op, T>) return ops::Op::apply(a); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_UNARY_PART_CASE(Op, fn, Kind, doc, ...)               \
  case UnaryOpId::Op:                                                 \
    if constexpr (maps_to_part<ops::Op, T>) return ops::Op::apply(a); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_BINARY_CASE(Op, fn, Kind, doc, ...)                        \
  case BinaryOpId::Op:                                                     \
    if constexpr (maps_same_type<ops::Op, T>) return ops::Op::apply(a, b); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_BINARY_TEST_CASE(Op, fn, Kind, doc, ...)                                           \
  case BinaryOpId::Op:                                                                             \
    if constexpr (is_test_op<ops::Op> && accepts_operand<ops::Op, T>) return ops::Op::apply(a, b); \
    break;

/// Run-time dispatch for the precompiled node kernels: one uniform branch per element.
template <class T>
TESSERA_HD T apply_unary(UnaryOpId id, T a) {
  switch (id) {
    TESSERA_UNARY_FUNCTIONS(TESSERA_UNARY_CASE)
#undef TESSERA_UNARY_CASE
  }
  return a;
}
template <class T>
TESSERA_HD bool apply_unary_test(UnaryOpId id, T a) {
  switch (id) {
    TESSERA_UNARY_FUNCTIONS(TESSERA_UNARY_TEST_CASE)
#undef TESSERA_UNARY_TEST_CASE
  }
  return false;
}
/// The rows that take complex T to its part type (abs, angle).
template <class T>
TESSERA_HD part_t<T> apply_unary_part(UnaryOpId id, T a) {
  switch (id) {
    TESSERA_UNARY_FUNCTIONS(TESSERA_UNARY_PART_CASE)
#undef TESSERA_UNARY_PART_CASE
  }
  return part_t<T>{};
}
template <class T>
TESSERA_HD T apply_binary(BinaryOpId id, T a, T b) {
  switch (id) {
    TESSERA_BINARY_FUNCTIONS(TESSERA_BINARY_CASE)
#undef TESSERA_BINARY_CASE
  }
  return a;
}
template <class T>
TESSERA_HD bool apply_binary_test(BinaryOpId id, T a, T b) {
  switch (id) {
    TESSERA_BINARY_FUNCTIONS(TESSERA_BINARY_TEST_CASE)
#undef TESSERA_BINARY_TEST_CASE
  }
  return false;
}

}  // namespace tessera::detail
