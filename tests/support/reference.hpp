// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file reference.hpp
/// Plain reference loops and comparisons for tessera tests: results are checked against
/// loops over `to_vector()` values, never against the code under test.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "support/typed.hpp"

namespace tessera_test {

/// Row-major multi-indices of the elements != 0 of the row-major `values` of `shape` (nonzero's
/// definition, written as a plain loop).
template <class T, class Shape = std::vector<std::int64_t>>
std::vector<std::int64_t> reference_nonzero(const std::vector<T>& values, const Shape& shape) {
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> index(shape.size(), 0);
  for (const T& v : values) {
    if (v != T(0)) rows.insert(rows.end(), index.begin(), index.end());
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < static_cast<std::int64_t>(shape[d])) break;
      index[d] = 0;
    }
  }
  return rows;
}

/// NaN for floats; never for other dtypes (so one comparison serves every dtype).
template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

/// A value as gtest should print it (int8/uint8 as numbers, not characters).
template <class T>
auto printable(T v) {
  if constexpr (sizeof(T) == 1 && !std::is_same_v<T, bool>) {
    return static_cast<int>(v);
  } else {
    return v;
  }
}

/// Equality for test data: NaN equals NaN; floats within `rel_tol` (relative, absolute below 1).
template <class T>
bool same_value(T actual, T expected, double rel_tol = 0.0) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(expected)) return std::isnan(actual);
    if (actual == expected) return true;
    if (std::isnan(actual) || std::isinf(actual) || std::isinf(expected)) return false;
    const double diff = std::fabs(static_cast<double>(actual) - static_cast<double>(expected));
    return diff <= rel_tol * std::max(1.0, std::fabs(static_cast<double>(expected)));
  } else {
    (void)rel_tol;
    return actual == expected;
  }
}

/// The same value, bit for bit where it matters: NaN equals NaN, and -0.0 differs from +0.0
/// (for ops that move values and never compute them: sorts, gathers).
template <class T>
bool identical_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
  } else {
    return a == b;
  }
}

/// Elementwise comparison that names the first mismatching position.
template <class T>
::testing::AssertionResult values_match(const std::vector<T>& actual,
                                        const std::vector<T>& expected, double rel_tol = 0.0) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << "got " << actual.size() << " values, expected " << expected.size();
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!same_value<T>(actual[i], expected[i], rel_tol)) {
      return ::testing::AssertionFailure() << "element " << i << ": got " << printable<T>(actual[i])
                                           << ", expected " << printable<T>(expected[i]);
    }
  }
  return ::testing::AssertionSuccess();
}

/// Checks a tensor's shape and its row-major values.
template <class T>
::testing::AssertionResult tensor_matches(const ts::Tensor<T>& t, const ts::Shape& shape,
                                          const std::vector<T>& expected, double rel_tol = 0.0) {
  if (t.shape() != shape) {
    return ::testing::AssertionFailure() << "shape " << t.shape() << ", expected " << shape;
  }
  return values_match<T>(t.to_vector(), expected, rel_tol);
}

/// Runs `f` and checks that it throws E (not another exception) whose message contains each of
/// `needles`: `EXPECT_TRUE(throws_with<ts::ShapeError>([&] { ts::eval(a + b); }, {"(2, 3)"}));`
template <class E, class F>
::testing::AssertionResult throws_with(F&& f, std::initializer_list<std::string> needles = {}) {
  try {
    f();
  } catch (const E& e) {
    const std::string message = e.what();
    for (const auto& needle : needles) {
      if (message.find(needle) == std::string::npos) {
        return ::testing::AssertionFailure()
               << "message \"" << message << "\" does not contain \"" << needle << "\"";
      }
    }
    return ::testing::AssertionSuccess() << message;
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

/// Relative tolerance for results the GPU may round differently (fused multiply-add, libm).
template <class T>
double fp_tolerance() {
  if constexpr (std::is_floating_point_v<T>) {
    return 8.0 * static_cast<double>(std::numeric_limits<T>::epsilon());
  } else {
    return 0.0;
  }
}

/// The NumPy broadcast of two shapes (reference implementation); the shapes must be compatible.
inline ts::Shape ref_broadcast(const ts::Shape& a, const ts::Shape& b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<std::int64_t> out(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const std::int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[n - 1 - i] = da == 1 ? db : da;
  }
  return ts::Shape(out);
}

/// Row-major position in a tensor of shape `in` that output element k of shape `out` reads.
inline std::int64_t broadcast_source(const ts::Shape& in, const ts::Shape& out, std::int64_t k) {
  std::int64_t pos = 0;
  std::int64_t stride = 1;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t od = out.size() - 1 - i;
    const std::int64_t idx = k % out[od];
    k /= out[od];
    if (i < in.size()) {
      const std::size_t id = in.size() - 1 - i;
      if (in[id] != 1) pos += idx * stride;
      stride *= in[id];
    }
  }
  return pos;
}

/// out[k] = f(a[...], b[...]) over the broadcast of a's and b's shapes.
template <class R, class A, class B, class F>
std::vector<R> ref_binary(const std::vector<A>& a, const ts::Shape& as, const std::vector<B>& b,
                          const ts::Shape& bs, F f) {
  const ts::Shape out = ref_broadcast(as, bs);
  std::vector<R> result;
  for (std::int64_t k = 0; k < out.numel(); ++k) {
    result.push_back(static_cast<R>(f(a[static_cast<std::size_t>(broadcast_source(as, out, k))],
                                      b[static_cast<std::size_t>(broadcast_source(bs, out, k))])));
  }
  return result;
}

/// out[k] = f(a[k]).
template <class R, class A, class F>
std::vector<R> ref_unary(const std::vector<A>& a, F f) {
  std::vector<R> result;
  for (std::size_t k = 0; k < a.size(); ++k) result.push_back(static_cast<R>(f(a[k])));
  return result;
}

/// tessera's documented arithmetic in a common type C, spelled out independently.
namespace ref {
template <class C>
C add(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return a || b;  // PyTorch: bool + bool is logical or
  } else {
    return static_cast<C>(a + b);  // integers wrap
  }
}
template <class C>
C sub(C a, C b) {
  return static_cast<C>(a - b);
}
template <class C>
C mul(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return a && b;
  } else {
    return static_cast<C>(a * b);
  }
}
/// Floats: IEEE. Integers: truncation toward zero, x / 0 == 0, MIN / -1 wraps to MIN.
template <class C>
C div(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    return a / b;
  } else {
    if (b == C(0)) return C(0);
    if constexpr (std::is_signed_v<C>) {
      if (a == std::numeric_limits<C>::min() && b == C(-1)) return a;
    }
    return static_cast<C>(static_cast<std::int64_t>(a) / static_cast<std::int64_t>(b));
  }
}
template <class C>
C minimum(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return std::min(a, b);
}
template <class C>
C maximum(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return std::max(a, b);
}
}  // namespace ref

}  // namespace tessera_test
