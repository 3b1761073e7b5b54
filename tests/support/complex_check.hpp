// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file complex_check.hpp
/// Shared by the complex tests: the golden file (tests/data/complex_golden.json, written by
/// tools/golden/gen_complex.py), dtype dispatch by name, and SPEC's normwise comparison rule.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "support/typed.hpp"

namespace tessera_test::complex_check {

namespace ts = tessera;
using c64 = ts::complex64;
using c128 = ts::complex128;

/// The golden file of the complex tests.
inline const nlohmann::json& data() { return golden("complex_golden.json"); }

/// Calls f(std::type_identity<C>{}) for the complex dtype named `name`.
template <class F>
void with_complex(const std::string& name, F&& f) {
  if (name == "complex64") f(std::type_identity<c64>{});
  if (name == "complex128") f(std::type_identity<c128>{});
}

template <class T>
std::vector<T> values(const nlohmann::json& list) {
  std::vector<T> out;
  for (const auto& v : list) out.push_back(decode<T>(v));
  return out;
}

template <class T>
ts::Tensor<T> tensor_of(const nlohmann::json& list, ts::Device device) {
  return ts::Tensor<T>::from_vector(values<T>(list), device);
}

/// One part of a result against the reference's: NaN for NaN, the same infinity, else within
/// `bound` (zeros of either sign match a zero: SPEC leaves the sign of a zero part free where
/// torch and C99 differ, and `+ -` do not promise it).
template <class F>
bool part_matches(F got, F want, double bound) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::isfinite(got) && std::abs(static_cast<double>(got) - want) <= bound;
}

/// SPEC's rule: |got - want| <= tol * u * |want| normwise for a finite reference (u = 2^-24 or
/// 2^-53), exact classes of non-finite parts, and for tol 0 the same value.
template <class F>
::testing::AssertionResult complex_matches(std::complex<F> got, std::complex<F> want, int tol) {
  const double u = std::is_same_v<F, float> ? 0x1p-24 : 0x1p-53;
  const bool finite = std::isfinite(want.real()) && std::isfinite(want.imag());
  const double scale = finite ? std::hypot(static_cast<double>(want.real()), want.imag()) : 0.0;
  const double bound_re = tol * u * (finite ? scale : std::abs(static_cast<double>(want.real())));
  const double bound_im = tol * u * (finite ? scale : std::abs(static_cast<double>(want.imag())));
  if (part_matches(got.real(), want.real(), bound_re) &&
      part_matches(got.imag(), want.imag(), bound_im)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << got << ", expected " << want << " (within " << tol << " u normwise)";
}

template <class F>
::testing::AssertionResult real_matches(F got, F want, int tol) {
  return complex_matches(std::complex<F>(got), std::complex<F>(want), tol);
}

}  // namespace tessera_test::complex_check
