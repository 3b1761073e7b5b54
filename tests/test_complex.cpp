// SPDX-License-Identifier: BSD-3-Clause
// Complex numbers (SPEC.md part 4): the pointwise rows' complex forms against the exact values
// (mpmath) and PyTorch 2.15's special values, promotion and printing
// (tests/data/complex_golden.json, written by tools/golden/gen_complex.py), on every device
// present (cpu, and cuda:0: the node-by-node kernels of this host-compiled unit). Tensors,
// views, casts and reductions: test_complex_tensors.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "support/complex_check.hpp"

namespace ts = tessera;
using c64 = ts::complex64;
using c128 = ts::complex128;
using tessera_test::decode;
using namespace tessera_test::complex_check;

namespace {

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
