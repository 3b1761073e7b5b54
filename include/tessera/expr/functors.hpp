#pragma once
/// @file functors.hpp
/// The elementwise operations, each written once as a host/device functor with a run-time id
/// (the id lets precompiled CUDA kernels evaluate nodes of host-compiled expressions).

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tessera/core/macros.hpp"

namespace tessera::detail {

enum class UnaryOpId : std::uint8_t { Neg, Abs, Sqrt, Exp, Log, Not };
enum class BinaryOpId : std::uint8_t { Add, Sub, Mul, Div, Minimum, Maximum, And, Or, Xor };
enum class CompareOpId : std::uint8_t { Lt, Le, Gt, Ge, Eq, Ne };

template <class T>
TESSERA_HD constexpr bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else {
    return false;
  }
}

// Integer arithmetic wraps (two's complement), as PyTorch's does. Signed overflow is undefined in
// C++, so integers compute in the unsigned type of their promoted type (int16 in unsigned int, not
// unsigned short, which would promote back to int and overflow) and convert back, which is
// modular since C++20.
template <class T>
using wrap_t = std::make_unsigned_t<decltype(+T())>;
template <class T, class F>
TESSERA_HD constexpr T wrapping(T a, T b, F f) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return static_cast<T>(f(static_cast<wrap_t<T>>(a), static_cast<wrap_t<T>>(b)));
  } else {
    return static_cast<T>(f(a, b));
  }
}

namespace ops {
// Arithmetic on bool and small integers happens in int (C++ promotion); the cast returns to T.
struct Neg {
  static constexpr UnaryOpId id = UnaryOpId::Neg;
  static constexpr const char* name = "neg";
  template <class T>
  TESSERA_HD static T apply(T a) {
    if constexpr (std::is_integral_v<T>) {
      // Wraps, as PyTorch: -uint8(1) == 255, -INT_MIN == INT_MIN.
      return wrapping(T(0), a, [](auto x, auto y) { return x - y; });
    } else {
      return -a;
    }
  }
};
struct Abs {
  static constexpr UnaryOpId id = UnaryOpId::Abs;
  static constexpr const char* name = "abs";
  template <class T>
  TESSERA_HD static T apply(T a) {
    if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
      return a;
    } else if constexpr (std::is_floating_point_v<T>) {
      return std::fabs(a);
    } else {
      return a < 0 ? Neg::apply(a) : a;  // abs(MIN) wraps to MIN, as PyTorch
    }
  }
};
struct Sqrt {
  static constexpr UnaryOpId id = UnaryOpId::Sqrt;
  static constexpr const char* name = "sqrt";
  template <class T>
  TESSERA_HD static T apply(T a) {
    return std::sqrt(a);
  }
};
struct Exp {
  static constexpr UnaryOpId id = UnaryOpId::Exp;
  static constexpr const char* name = "exp";
  template <class T>
  TESSERA_HD static T apply(T a) {
    return std::exp(a);
  }
};
struct Log {
  static constexpr UnaryOpId id = UnaryOpId::Log;
  static constexpr const char* name = "log";
  template <class T>
  TESSERA_HD static T apply(T a) {
    return std::log(a);
  }
};
struct Not {
  static constexpr UnaryOpId id = UnaryOpId::Not;
  static constexpr const char* name = "logical_not";
  template <class T>
  TESSERA_HD static T apply(T a) {
    return !a;
  }
};

struct Add {
  static constexpr BinaryOpId id = BinaryOpId::Add;
  static constexpr const char* name = "add";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;  // PyTorch: bool + bool is logical or
    } else {
      return wrapping(a, b, [](auto x, auto y) { return x + y; });
    }
  }
};
struct Sub {
  static constexpr BinaryOpId id = BinaryOpId::Sub;
  static constexpr const char* name = "sub";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    return wrapping(a, b, [](auto x, auto y) { return x - y; });
  }
};
struct Mul {
  static constexpr BinaryOpId id = BinaryOpId::Mul;
  static constexpr const char* name = "mul";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return wrapping(a, b, [](auto x, auto y) { return x * y; });
    }
  }
};
struct Div {
  static constexpr BinaryOpId id = BinaryOpId::Div;
  static constexpr const char* name = "div";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return a / b;
    } else {
      // Integer division truncates (C++). Dividing by zero gives 0 instead of trapping, and
      // INT_MIN / -1 wraps, so no input can crash a kernel.
      if (b == T(0)) return T(0);
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return Neg::apply(a);
      }
      return static_cast<T>(a / b);
    }
  }
};
// minimum/maximum propagate NaN, as torch.minimum/torch.maximum.
struct Minimum {
  static constexpr BinaryOpId id = BinaryOpId::Minimum;
  static constexpr const char* name = "minimum";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return b < a ? b : a;
  }
};
struct Maximum {
  static constexpr BinaryOpId id = BinaryOpId::Maximum;
  static constexpr const char* name = "maximum";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return a < b ? b : a;
  }
};
struct And {
  static constexpr BinaryOpId id = BinaryOpId::And;
  static constexpr const char* name = "logical_and";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    return a && b;
  }
};
struct Or {
  static constexpr BinaryOpId id = BinaryOpId::Or;
  static constexpr const char* name = "logical_or";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    return a || b;
  }
};
struct Xor {
  static constexpr BinaryOpId id = BinaryOpId::Xor;
  static constexpr const char* name = "logical_xor";
  template <class T>
  TESSERA_HD static T apply(T a, T b) {
    return static_cast<bool>(a) != static_cast<bool>(b);
  }
};

/// Defines the comparison functor NAME (`a OP b`, named STR in messages).
#define TESSERA_COMPARE_OP(NAME, OP, STR)                \
  struct NAME {                                          \
    static constexpr CompareOpId id = CompareOpId::NAME; \
    static constexpr const char* name = STR;             \
    template <class T>                                   \
    TESSERA_HD static bool apply(T a, T b) {             \
      return a OP b;                                     \
    }                                                    \
  };
TESSERA_COMPARE_OP(Lt, <, "lt")
TESSERA_COMPARE_OP(Le, <=, "le")
TESSERA_COMPARE_OP(Gt, >, "gt")
TESSERA_COMPARE_OP(Ge, >=, "ge")
TESSERA_COMPARE_OP(Eq, ==, "eq")
TESSERA_COMPARE_OP(Ne, !=, "ne")
#undef TESSERA_COMPARE_OP
}  // namespace ops

/// Run-time dispatch over the ops (used by precompiled node kernels; one uniform branch).
template <class T>
TESSERA_HD T apply_unary(UnaryOpId id, T a) {
  switch (id) {
    case UnaryOpId::Neg:
      return ops::Neg::apply(a);
    case UnaryOpId::Abs:
      return ops::Abs::apply(a);
    case UnaryOpId::Not:
      return ops::Not::apply(a);
    default:
      break;
  }
  if constexpr (std::is_floating_point_v<T>) {
    switch (id) {
      case UnaryOpId::Sqrt:
        return ops::Sqrt::apply(a);
      case UnaryOpId::Exp:
        return ops::Exp::apply(a);
      case UnaryOpId::Log:
        return ops::Log::apply(a);
      default:
        break;
    }
  }
  return a;
}

template <class T>
TESSERA_HD T apply_binary(BinaryOpId id, T a, T b) {
  switch (id) {
    case BinaryOpId::Add:
      return ops::Add::apply(a, b);
    case BinaryOpId::Sub:
      return ops::Sub::apply(a, b);
    case BinaryOpId::Mul:
      return ops::Mul::apply(a, b);
    case BinaryOpId::Div:
      return ops::Div::apply(a, b);
    case BinaryOpId::Minimum:
      return ops::Minimum::apply(a, b);
    case BinaryOpId::Maximum:
      return ops::Maximum::apply(a, b);
    case BinaryOpId::And:
      return ops::And::apply(a, b);
    case BinaryOpId::Or:
      return ops::Or::apply(a, b);
    case BinaryOpId::Xor:
      return ops::Xor::apply(a, b);
  }
  return a;
}

template <class T>
TESSERA_HD bool apply_compare(CompareOpId id, T a, T b) {
  switch (id) {
    case CompareOpId::Lt:
      return a < b;
    case CompareOpId::Le:
      return a <= b;
    case CompareOpId::Gt:
      return a > b;
    case CompareOpId::Ge:
      return a >= b;
    case CompareOpId::Eq:
      return a == b;
    case CompareOpId::Ne:
      return a != b;
  }
  return false;
}

}  // namespace tessera::detail
