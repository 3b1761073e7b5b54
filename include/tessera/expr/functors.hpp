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

/// True when `Op` returns bool whatever it computes in (tests and comparisons): such nodes run
/// through the precompiled `*_test` kernels, the others through the same-type ones.
template <class Op>
inline constexpr bool is_test_op = std::is_same_v<typename Op::kind_tag, kind::Test>;

/// True when functor Op computes and returns T itself (the same-type precompiled kernels).
template <class Op, class T>
inline constexpr bool maps_same_type =
    !is_test_op<Op> && kind_types<typename Op::kind_tag, T>::accepts &&
    std::is_same_v<typename kind_types<typename Op::kind_tag, T>::compute, T>;

/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_UNARY_CASE(Op, fn, Kind, doc, ...)                      \
  case UnaryOpId::Op:                                                   \
    if constexpr (maps_same_type<ops::Op, T>) return ops::Op::apply(a); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_UNARY_TEST_CASE(Op, fn, Kind, doc, ...)          \
  case UnaryOpId::Op:                                            \
    if constexpr (is_test_op<ops::Op>) return ops::Op::apply(a); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_BINARY_CASE(Op, fn, Kind, doc, ...)                        \
  case BinaryOpId::Op:                                                     \
    if constexpr (maps_same_type<ops::Op, T>) return ops::Op::apply(a, b); \
    break;
/// One case of the dispatch switch (expands the table; undefined after use).
#define TESSERA_BINARY_TEST_CASE(Op, fn, Kind, doc, ...)            \
  case BinaryOpId::Op:                                              \
    if constexpr (is_test_op<ops::Op>) return ops::Op::apply(a, b); \
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
