// SPDX-License-Identifier: BSD-3-Clause
// Complex numbers (SPEC.md part 4): the pointwise rows' complex forms against the exact values
// (mpmath) and PyTorch 2.15's special values, promotion, printing, views, casts and factories
// (tests/data/complex_golden.json, written by tools/golden/gen_complex.py), on every device
// present (cpu, and cuda:0: the node-by-node kernels of this host-compiled unit).

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::decode;
using tessera_test::golden;
using c64 = ts::complex64;
using c128 = ts::complex128;

namespace {

const nlohmann::json& data() { return golden("complex_golden.json"); }

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

/// The lazy expression of unary function `fn` over z, evaluated to its own type.
template <class C>
void check_unary(const std::string& fn, const ts::Tensor<C>& z, const nlohmann::json& c,
                 const std::vector<C>& in) {
  using F = typename C::value_type;
  const int tol = c["tol"].get<int>();
  auto expect_all = [&](const auto& got, const auto& want) {
    ASSERT_EQ(got.size(), want.size()) << fn;
    for (std::size_t i = 0; i < got.size(); ++i) {
      if constexpr (std::is_same_v<typename std::decay_t<decltype(got)>::value_type, F>) {
        EXPECT_TRUE(real_matches(got[i], want[i], tol))
            << fn << " " << c["dtype"] << " of " << in[i];
      } else {
        EXPECT_TRUE(complex_matches(got[i], want[i], tol))
            << fn << " " << c["dtype"] << " of " << in[i];
      }
    }
  };
  if (fn == "abs" || fn == "angle") {
    const ts::Tensor<F> got = fn == "abs" ? ts::Tensor<F>(ts::abs(z)) : ts::Tensor<F>(ts::angle(z));
    expect_all(got.to_vector(), values<F>(c["out"]));
    return;
  }
  ts::Tensor<C> got;
#define TESSERA_COMPLEX_CASE(name) \
  if (fn == #name) got = ts::name(z);
  TESSERA_COMPLEX_CASE(neg)
  TESSERA_COMPLEX_CASE(conj)
  TESSERA_COMPLEX_CASE(sgn)
  TESSERA_COMPLEX_CASE(square)
  TESSERA_COMPLEX_CASE(reciprocal)
  TESSERA_COMPLEX_CASE(sqrt)
  TESSERA_COMPLEX_CASE(rsqrt)
  TESSERA_COMPLEX_CASE(exp)
  TESSERA_COMPLEX_CASE(exp2)
  TESSERA_COMPLEX_CASE(expm1)
  TESSERA_COMPLEX_CASE(log)
  TESSERA_COMPLEX_CASE(log2)
  TESSERA_COMPLEX_CASE(log10)
  TESSERA_COMPLEX_CASE(log1p)
  TESSERA_COMPLEX_CASE(sin)
  TESSERA_COMPLEX_CASE(cos)
  TESSERA_COMPLEX_CASE(tan)
  TESSERA_COMPLEX_CASE(asin)
  TESSERA_COMPLEX_CASE(acos)
  TESSERA_COMPLEX_CASE(atan)
  TESSERA_COMPLEX_CASE(sinh)
  TESSERA_COMPLEX_CASE(cosh)
  TESSERA_COMPLEX_CASE(tanh)
  TESSERA_COMPLEX_CASE(asinh)
  TESSERA_COMPLEX_CASE(acosh)
  TESSERA_COMPLEX_CASE(atanh)
  TESSERA_COMPLEX_CASE(sigmoid)
#undef TESSERA_COMPLEX_CASE
  ASSERT_EQ(got.numel(), z.numel()) << fn << " is not a complex function here";
  expect_all(got.to_vector(), values<C>(c["out"]));
}

}  // namespace

class ComplexGolden : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ComplexGolden);

TEST_P(ComplexGolden, UnaryRowsAreWithinSpecOfTheExactValueAndKeepTorchsSpecialValues) {
  int checked = 0;
  for (const auto& c : data()["unary"]) {
    const auto fn = c["fn"].get<std::string>();
    with_complex(c["dtype"].get<std::string>(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      const auto in = values<C>(c["in"]);
      const auto z = ts::Tensor<C>::from_vector(in, device());
      if (fn == "isnan" || fn == "isinf" || fn == "isfinite" || fn == "logical_not") {
        const ts::Tensor<bool> got = fn == "isnan"      ? ts::Tensor<bool>(ts::isnan(z))
                                     : fn == "isinf"    ? ts::Tensor<bool>(ts::isinf(z))
                                     : fn == "isfinite" ? ts::Tensor<bool>(ts::isfinite(z))
                                                        : ts::Tensor<bool>(!z);
        EXPECT_EQ(got.to_vector(), values<bool>(c["out"])) << fn;
      } else {
        check_unary<C>(fn, z, c, in);
      }
      ++checked;
    });
  }
  EXPECT_EQ(checked, (29 * 2 + 4) * 2);
}

TEST_P(ComplexGolden, BinaryRowsAreWithinSpecAndDivideAsC10) {
  int checked = 0;
  for (const auto& c : data()["binary"]) {
    const auto fn = c["fn"].get<std::string>();
    with_complex(c["dtype"].get<std::string>(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      const auto a = tensor_of<C>(c["a"], device());
      const auto b = tensor_of<C>(c["b"], device());
      const auto av = values<C>(c["a"]);
      const auto bv = values<C>(c["b"]);
      if (c["out"].empty() || c["out"][0].is_boolean()) {
        const ts::Tensor<bool> got = fn == "eq"            ? ts::Tensor<bool>(a == b)
                                     : fn == "ne"          ? ts::Tensor<bool>(a != b)
                                     : fn == "logical_and" ? ts::Tensor<bool>(ts::logical_and(a, b))
                                     : fn == "logical_or"  ? ts::Tensor<bool>(ts::logical_or(a, b))
                                                          : ts::Tensor<bool>(ts::logical_xor(a, b));
        EXPECT_EQ(got.to_vector(), values<bool>(c["out"])) << fn;
      } else {
        const ts::Tensor<C> got = fn == "add"   ? ts::Tensor<C>(a + b)
                                  : fn == "sub" ? ts::Tensor<C>(a - b)
                                  : fn == "mul" ? ts::Tensor<C>(a * b)
                                  : fn == "div" ? ts::Tensor<C>(a / b)
                                                : ts::Tensor<C>(ts::pow(a, b));
        const auto g = got.to_vector();
        const auto want = values<C>(c["out"]);
        ASSERT_EQ(g.size(), want.size());
        for (std::size_t i = 0; i < g.size(); ++i) {
          EXPECT_TRUE(complex_matches(g[i], want[i], c["tol"].get<int>()))
              << fn << "(" << av[i] << ", " << bv[i] << ") " << c["dtype"];
        }
      }
      ++checked;
    });
  }
  EXPECT_EQ(checked, (5 + 3 + 5) * 2);
}

// A real exponent that torch computes exactly (z^0 = 1 even for NaN, z^2 = z * z, z^-1 = 1 / z,
// ...), given as a scalar as in torch.pow(z, e).
TEST_P(ComplexGolden, PowOfAScalarExponentTakesTorchsExactCases) {
  for (const auto& c : data()["scalar_pow"]) {
    with_complex(c["dtype"].get<std::string>(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      const auto in = values<C>(c["in"]);
      const auto e = c["exponent"].get<double>();
      const ts::Tensor<C> got = ts::pow(ts::Tensor<C>::from_vector(in, device()), e);
      const auto g = got.to_vector();
      const auto want = values<C>(c["out"]);
      for (std::size_t i = 0; i < g.size(); ++i) {
        EXPECT_TRUE(complex_matches(g[i], want[i], 32)) << "pow(" << in[i] << ", " << e << ")";
      }
    });
  }
}

namespace {
using AllTypes = std::tuple<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                            std::int64_t, float, double, c64, c128>;
template <class F>
void for_each_type(F&& f) {
  std::apply([&](auto... t) { (f(std::type_identity<decltype(t)>{}), ...); }, AllTypes{});
}
}  // namespace

TEST(ComplexPromotion, EveryPairWithAComplexOperandPromotesAsTorch) {
  int checked = 0;
  for (const auto& c : data()["promotion"]) {
    for_each_type([&](auto ta) {
      for_each_type([&](auto tb) {
        using A = typename decltype(ta)::type;
        using B = typename decltype(tb)::type;
        if (ts::dtype_name(ts::dtype_v<A>) != c["a"].get<std::string>() ||
            ts::dtype_name(ts::dtype_v<B>) != c["b"].get<std::string>()) {
          return;
        }
        EXPECT_EQ(ts::dtype_name(ts::dtype_v<ts::promote_t<A, B>>), c["out"].get<std::string>())
            << c["a"] << " with " << c["b"];
        // The expression's type is the promoted one.
        using R = typename decltype(ts::Tensor<A>() + ts::Tensor<B>())::value_type;
        EXPECT_TRUE((std::is_same_v<R, ts::promote_t<A, B>>));
        ++checked;
      });
    });
  }
  EXPECT_EQ(checked, 10 * 10 - 8 * 8);
}

TEST(ComplexPromotion, ScalarsAreWeak) {
  int checked = 0;
  for (const auto& c : data()["scalar_promotion"]) {
    for_each_type([&](auto tag) {
      using T = typename decltype(tag)::type;
      if (ts::dtype_name(ts::dtype_v<T>) != c["tensor"].get<std::string>()) return;
      const auto scalar = c["scalar"].get<std::string>();
      std::string got;
      if (scalar == "complex") {
        got = ts::dtype_name(ts::dtype_v<ts::scalar_promote_t<T, c128>>);
        // The type of the scalar's own precision does not matter (weak): complex64 alike.
        EXPECT_EQ(got, ts::dtype_name(ts::dtype_v<ts::scalar_promote_t<T, c64>>));
      } else if (scalar == "double") {
        got = ts::dtype_name(ts::dtype_v<ts::scalar_promote_t<T, double>>);
      } else {
        got = ts::dtype_name(ts::dtype_v<ts::scalar_promote_t<T, int>>);
      }
      EXPECT_EQ(got, c["out"].get<std::string>()) << c["tensor"] << " with a " << scalar;
      ++checked;
    });
  }
  EXPECT_EQ(checked, 30);
  // The expression with a complex scalar has that type, and computes in it.
  const ts::Tensor<c64> z = ts::Tensor<float>::ones({2}) * c128(1, 2);
  EXPECT_EQ(z.to_vector(), (std::vector<c64>{c64(1, 2), c64(1, 2)}));
}

TEST(ComplexFormat, PrintsAsTorchsStr) {
  for (const auto& c : data()["format"]) {
    with_complex(c["dtype"].get<std::string>(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      const auto shape = tessera_test::shape_of(c);
      const auto t = ts::Tensor<C>::from_vector(values<C>(c["data"]), shape);
      EXPECT_EQ(ts::to_string(t), c["str"].get<std::string>());
    });
  }
}

class ComplexTensors : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ComplexTensors);

TEST_P(ComplexTensors, RealAndImagAreViewsThatWriteThrough) {
  auto z = ts::tensor<c64>({{c64(1, 2), c64(3, -1), c64(5, 5)}, {c64(0, 1), c64(-2, 0), c64(7, 8)}},
                           device());
  const ts::Tensor<float> re = z.real();
  const ts::Tensor<float> im = ts::imag(z);
  // torch: (2, 3) complex -> strides (6, 2), the imaginary parts one element further.
  EXPECT_EQ(re.strides(), (ts::Shape{6, 2}));
  EXPECT_EQ(im.strides(), (ts::Shape{6, 2}));
  EXPECT_EQ(re.storage_offset(), 0);
  EXPECT_EQ(im.storage_offset(), 1);
  EXPECT_EQ(re.to_vector(), (std::vector<float>{1, 3, 5, 0, -2, 7}));
  EXPECT_EQ(im.to_vector(), (std::vector<float>{2, -1, 5, 1, 0, 8}));
  auto writable = ts::real(z);
  writable = writable * 10.0f;  // same shape: written into z's real parts
  EXPECT_EQ(z.cpu().at({1, 2}), c64(70, 8));
  // A view of a view: the transpose's parts.
  EXPECT_EQ(z.transpose(0, 1).imag().to_vector(), (std::vector<float>{2, 1, -1, 0, 5, 8}));
  // A real tensor is its own real part.
  const auto x = ts::Tensor<float>::ones({2}, device());
  EXPECT_EQ(x.real().data(), x.data());
}

TEST_P(ComplexTensors, ViewAsRealAndViewAsComplexShareStorageAndCheckTheLayout) {
  auto r = ts::Tensor<float>::arange(0.0f, 12.0f).reshape({3, 2, 2}).to(device());
  const auto z = ts::view_as_complex(r);
  EXPECT_EQ(z.shape(), (ts::Shape{3, 2}));
  EXPECT_EQ(z.strides(), (ts::Shape{2, 1}));
  EXPECT_EQ(z.cpu().at({2, 1}), c64(10, 11));
  const auto back = ts::view_as_real(z);
  EXPECT_EQ(back.shape(), (ts::Shape{3, 2, 2}));
  EXPECT_EQ(back.strides(), (ts::Shape{4, 2, 1}));
  EXPECT_EQ(back.data(), r.data());
  EXPECT_EQ(ts::view_as_real(z.transpose(0, 1)).strides(), (ts::Shape{2, 4, 1}));
  // torch's checks, with what the user passed.
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const ts::ShapeError& e) {
      return std::string(e.what());
    }
    return std::string("no ShapeError");
  };
  EXPECT_NE(message([&] {
              ts::view_as_complex(ts::Tensor<float>::ones({3, 3}, device()));
            }).find("last dimension of size 2 (got shape (3, 3))"),
            std::string::npos);
  EXPECT_NE(
      message([&] { ts::view_as_complex(r.transpose(1, 2)); }).find("last dimension with stride 1"),
      std::string::npos);
  EXPECT_NE(message([&] {
              ts::view_as_complex(r.narrow(0, 1, 2).reshape({4, 2}).narrow(0, 0, 3));
            }).find("no ShapeError"),
            std::string::npos);  // offset 4: even, a valid view
  EXPECT_NE(message([&] {
              ts::view_as_complex(r.reshape({12}).narrow(0, 1, 10).reshape({5, 2}));
            }).find("storage_offset divisible by 2 (got 1)"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ts::view_as_complex(ts::Tensor<float>::ones({3, 3}, device()).narrow(1, 0, 2));
            }).find("stride divisible by 2 for all but last dimension (got strides (3, 1))"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ts::view_as_complex(ts::Tensor<double>::ones({}, device()));
            }).find("one or more dimensions"),
            std::string::npos);
}

TEST_P(ComplexTensors, CastsFromRealsAndBetweenComplexTypesAsTorch) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto x = ts::tensor<float>({1.5f, -0.0f, nan}, device());
  const auto z = x.to<c64>();  // imaginary part +0
  const auto zv = z.to_vector();
  EXPECT_EQ(zv[0], c64(1.5f, 0));
  EXPECT_TRUE(std::signbit(zv[1].real()) && !std::signbit(zv[1].imag()));
  EXPECT_TRUE(std::isnan(zv[2].real()) && zv[2].imag() == 0);
  EXPECT_EQ(ts::tensor<std::int64_t>({3, -4}, device()).cast<c128>().to_vector(),
            (std::vector<c128>{c128(3, 0), c128(-4, 0)}));
  EXPECT_EQ(ts::tensor<bool>({true, false}, device()).to<c64>().to_vector(),
            (std::vector<c64>{c64(1, 0), c64(0, 0)}));
  // complex128 -> complex64 rounds each part: 1e300 - 1e-300i -> inf - 0i.
  const auto narrow = ts::tensor<c128>({c128(1e300, -1e-300), c128(0.1, 0.2)}, device()).to<c64>();
  const auto nv = narrow.to_vector();
  EXPECT_EQ(nv[0].real(), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(nv[0].imag() == 0 && std::signbit(nv[0].imag()));
  EXPECT_EQ(nv[1], c64(0.1f, 0.2f));
  // An expression converts the same way (explicitly, as every other type change).
  const ts::Tensor<c128> wide(ts::tensor<c64>({c64(0.1f, -0.2f)}, device()) * 2.0f);
  EXPECT_EQ(wide.to_vector()[0], c128(0.2f, -0.4f));
}

TEST_P(ComplexTensors, FactoriesCopiesAndTransfers) {
  EXPECT_EQ(ts::Tensor<c64>::zeros({2}, device()).to_vector(), (std::vector<c64>(2)));
  EXPECT_EQ(ts::Tensor<c64>::ones({2}, device()).to_vector(), (std::vector<c64>(2, c64(1, 0))));
  EXPECT_EQ(ts::Tensor<c128>::full({1}, c128(2, -3), device()).to_vector()[0], c128(2, -3));
  EXPECT_EQ(ts::Tensor<c64>::eye(2, device()).to_vector(),
            (std::vector<c64>{c64(1, 0), c64(0, 0), c64(0, 0), c64(1, 0)}));
  EXPECT_EQ(ts::tensor<c64>(c64(1, 2), device()).item(), c64(1, 2));
  const auto z = ts::tensor<c64>({{c64(1, 2), c64(3, 4)}, {c64(5, 6), c64(7, 8)}}, device());
  EXPECT_EQ(z.t().contiguous().to_vector(),
            (std::vector<c64>{c64(1, 2), c64(5, 6), c64(3, 4), c64(7, 8)}));
  EXPECT_EQ(z.clone().cpu().at({1, 0}), c64(5, 6));
  EXPECT_EQ(z.flip({1}).cpu().at({0, 0}), c64(3, 4));
  EXPECT_EQ(z.conj().to_vector()[3], c64(7, -8));
  EXPECT_EQ(z.to(ts::Device::cpu()).to(device()).to_vector(), z.to_vector());
}

TEST_P(ComplexTensors, FusedExpressionsMixRealAndComplexOperandsOverStridedViews) {
  const auto z = ts::tensor<c64>({{c64(1, 2), c64(3, -1)}, {c64(0, 1), c64(-2, 0)}}, device());
  const auto x = ts::tensor<float>({{0.5f, -1.0f}, {2.0f, 4.0f}}, device());
  // z.T * x + 1, broadcast row of doubles: complex128 (float64 with complex64).
  const auto row = ts::tensor<double>({10.0, 20.0}, device());
  const ts::Tensor<c128> got = z.transpose(0, 1) * x + row + 1.0f;
  const auto zt = z.transpose(0, 1).contiguous().to_vector();
  const auto xv = x.to_vector();
  const auto g = got.to_vector();
  for (int i = 0; i < 4; ++i) {
    const c128 want = c128(zt[i]) * c128(xv[i]) + (i % 2 == 0 ? 10.0 : 20.0) + 1.0;
    EXPECT_TRUE(complex_matches(g[i], want, 4)) << i;
  }
  // z * z + 1 and exp(z) fused with a where over a complex comparison.
  const ts::Tensor<c64> w = ts::where(z == c64(0, 1), ts::exp(z), z * z + 1.0f);
  EXPECT_EQ(w.cpu().at({0, 0}), c64(-2, 4));
  EXPECT_TRUE(complex_matches(w.cpu().at({1, 0}), std::exp(c64(0, 1)), 32));
  // abs of a complex expression is real: fused into a real expression.
  const ts::Tensor<float> m = ts::abs(z * c64(0, 1)) + x;
  EXPECT_FLOAT_EQ(m.cpu().at({0, 0}), std::sqrt(5.0f) + 0.5f);
}

TEST_P(ComplexTensors, ComplexAndPolarBuildFromBroadcastParts) {
  const auto re = ts::tensor<float>({{1.0f}, {2.0f}}, device());
  const auto im = ts::tensor<float>({0.0f, -1.0f, 3.0f}, device());
  const auto z = ts::complex(re, im);
  EXPECT_EQ(z.shape(), (ts::Shape{2, 3}));
  EXPECT_EQ(z.to_vector(),
            (std::vector<c64>{c64(1, 0), c64(1, -1), c64(1, 3), c64(2, 0), c64(2, -1), c64(2, 3)}));
  const auto p = ts::polar(ts::tensor<double>({2.0}, device()),
                           ts::tensor<double>({0.0, 3.14159265358979323846 / 2}, device()));
  static_assert(std::is_same_v<decltype(p), const ts::Tensor<c128>>);
  const auto pv = p.to_vector();
  EXPECT_EQ(pv[0], c128(2, 0));
  EXPECT_NEAR(pv[1].real(), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(pv[1].imag(), 2.0);
  // Expressions as parts.
  EXPECT_EQ(ts::complex(re * 2.0f, re).to_vector(), (std::vector<c64>{c64(2, 1), c64(4, 2)}));
  EXPECT_THROW(
      ts::complex(ts::Tensor<float>::ones({2}, device()), ts::Tensor<float>::ones({3}, device())),
      ts::ShapeError);
}

TEST(ComplexTensorsOnTwoDevices, PartsOnDifferentDevicesRaiseDeviceError) {
  if (!ts::cuda_available()) GTEST_SKIP() << "needs a device";
  EXPECT_THROW(
      ts::complex(ts::Tensor<float>::ones({2}), ts::Tensor<float>::ones({2}, ts::Device::cuda())),
      ts::DeviceError);
}

// docs/complex.md's first example, as it is printed there (tools/check_snippets.py).
TEST(ComplexDocs, TheFirstExampleComputesWhatItsCommentsSay) {
  // [snippet:complex-first-steps]
  using c64 = ts::complex64;
  ts::Tensor<c64> z = ts::tensor<c64>({{c64(1, 2), c64(3, -1)}, {c64(0, 1), c64(-2, 0)}});
  ts::Tensor<c64> w = z * z + 1.0f;                    // one fused pass
  ts::Tensor<float> r = ts::abs(z), a = ts::angle(z);  // the part type
  ts::Tensor<float> re = z.real(), im = ts::imag(z);   // views: writes go through to z
  auto pairs = ts::view_as_real(z);                    // a (2, 2, 2) float view
  auto z2 = ts::complex(re, im);                       // torch.complex: a new tensor
  auto u = ts::polar(ts::Tensor<double>::ones({3}), ts::Tensor<double>::zeros({3}));  // complex128
  std::ostringstream printed;
  printed << z;  // tensor([[ 1.+2.j,  3.-1.j],
                 //         [ 0.+1.j, -2.+0.j]])
  // [end-snippet]
  EXPECT_EQ(w.to_vector(), (std::vector<c64>{c64(-2, 4), c64(9, -6), c64(0, 0), c64(5, 0)}));
  EXPECT_FLOAT_EQ(r.cpu().at({0, 0}), std::sqrt(5.0f));
  EXPECT_FLOAT_EQ(a.cpu().at({1, 1}), 3.14159265f);
  EXPECT_EQ(pairs.shape(), (ts::Shape{2, 2, 2}));
  EXPECT_EQ(z2.to_vector(), z.to_vector());
  EXPECT_NE(z2.data(), z.data());
  EXPECT_EQ(u.to_vector(), (std::vector<ts::complex128>(3, ts::complex128(1, 0))));
  EXPECT_EQ(printed.str(), "tensor([[ 1.+2.j,  3.-1.j],\n        [ 0.+1.j, -2.+0.j]])");
  im = ts::Tensor<float>::zeros({2, 2}) + 0.0f;  // written into z
  EXPECT_EQ(z.cpu().at({0, 0}), c64(1, 0));
}

namespace {
/// A reduction's result against the exact answer: within `tol` u of it normwise, with a slack
/// of n u times the sum of the magnitudes of the inputs for sums (cancellation).
template <class C>
::testing::AssertionResult reduced_matches(C got, C want, double slack) {
  using F = typename C::value_type;
  const double u = std::is_same_v<F, float> ? 0x1p-24 : 0x1p-53;
  const double err = std::hypot(static_cast<double>(got.real()) - want.real(),
                                static_cast<double>(got.imag()) - want.imag());
  const double bound = 16 * u * std::hypot(static_cast<double>(want.real()), want.imag()) + slack;
  if (err <= bound) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got " << got << ", expected " << want << " (error " << err << " > " << bound << ")";
}
}  // namespace

TEST_P(ComplexGolden, ReductionsAndScansKeepTheDtypeAndTheSameBitsOnEveryDevice) {
  int checked = 0;
  for (const auto& c : data()["reductions"]) {
    const auto fn = c["fn"].get<std::string>();
    if (fn == "empty") {
      const auto e = ts::Tensor<c64>::zeros({0}, device());
      EXPECT_EQ(ts::sum(e), decode<c64>(c["sum"]));
      EXPECT_EQ(ts::prod(e), decode<c64>(c["prod"]));
      const c64 m = ts::mean(e);
      EXPECT_TRUE(std::isnan(m.real()) && std::isnan(m.imag()));
      continue;
    }
    with_complex(c["dtype"].get<std::string>(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      using F = typename C::value_type;
      const auto in = values<C>(c["in"]);
      const ts::Shape shape(c["shape"].begin(), c["shape"].end());
      const auto x = ts::Tensor<C>::from_vector(in, shape, device());
      const auto host = x.cpu();
      double magnitude = 0;
      for (const C& z : in) magnitude += std::abs(std::complex<double>(z));
      const double slack = static_cast<double>(in.size()) *
                           (std::is_same_v<F, float> ? 0x1p-24 : 0x1p-53) * magnitude;
      const auto want = values<C>(c["out"]);
      if (c["dim"].is_null()) {
        C got{};
        if (fn == "sum") got = ts::sum(x);
        if (fn == "mean") got = ts::mean(x);
        if (fn == "prod") got = ts::prod(x);
        static_assert(std::is_same_v<decltype(ts::sum(x)), C>);
        EXPECT_TRUE(reduced_matches(got, want[0], slack)) << fn << " " << c["dtype"];
      } else {
        const auto dim = c["dim"].get<std::int64_t>();
        auto run = [&](const ts::Tensor<C>& t) -> ts::Tensor<C> {
          if (fn == "sum") return ts::sum(t, {dim});
          if (fn == "mean") return ts::mean(t, {dim});
          if (fn == "prod") return ts::prod(t, dim);
          if (fn == "cumsum") return ts::cumsum(t, dim);
          return ts::cumprod(t, dim);
        };
        const auto got = run(x);
        EXPECT_EQ(got.shape(), ts::Shape(c["out_shape"].begin(), c["out_shape"].end()));
        const auto g = got.to_vector();
        ASSERT_EQ(g.size(), want.size());
        for (std::size_t i = 0; i < g.size(); ++i) {
          EXPECT_TRUE(reduced_matches(g[i], want[i], slack))
              << fn << " dim " << dim << " " << c["dtype"] << " element " << i;
        }
        // The engine's lane order: the device gives the host's bits.
        EXPECT_EQ(g, run(host).to_vector()) << fn << " dim " << dim;
      }
      ++checked;
    });
  }
  EXPECT_EQ(checked, 64);
}

TEST_P(ComplexTensors, VectorNormIsTheRealNormOfTheMagnitudesWithoutOverflow) {
  const auto z = ts::tensor<c64>({c64(3e30f, 4e30f), c64(0, 1e30f)}, device());
  const ts::Tensor<float> n = ts::linalg::vector_norm(z);
  EXPECT_FLOAT_EQ(n.item(), static_cast<float>(std::sqrt(25e60 + 1e60)));  // torch: inf
  const auto w = ts::tensor<c128>({{c128(3, 4), c128(0, -2)}, {c128(-1, 0), c128(0, 0)}}, device());
  EXPECT_DOUBLE_EQ(ts::linalg::vector_norm(w, 1.0).item(), 8.0);
  EXPECT_DOUBLE_EQ(ts::linalg::vector_norm(w, std::numeric_limits<double>::infinity()).item(), 5.0);
  EXPECT_EQ(ts::linalg::vector_norm(w, 2.0, 1).to_vector(),
            (std::vector<double>{std::sqrt(29.0), 1.0}));
  EXPECT_DOUBLE_EQ(ts::linalg::vector_norm(w, 0.0).item(), 3.0);
}
