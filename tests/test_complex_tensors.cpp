// SPDX-License-Identifier: BSD-3-Clause
// Complex tensors (SPEC.md part 4): views that write through, casts, factories, fused
// expressions mixing real and complex operands, ts::complex / ts::polar, reductions and scans
// against the exact answers (tests/data/complex_golden.json) and vector_norm, on every device
// present (cpu, and cuda:0: the node-by-node kernels of this host-compiled unit).

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

TEST_P(ComplexTensors, ReductionsAndScansKeepTheDtypeAndTheSameBitsOnEveryDevice) {
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
