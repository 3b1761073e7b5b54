// SPDX-License-Identifier: BSD-3-Clause
// The host's vectorised transcendental rows (expr/host_vector_math.hpp): on every set of vector
// loops this CPU runs (AVX-512, AVX2) and on scalar cmath, every vectorised row of the
// pointwise table is within 4 ulp of a long double reference over its whole domain, with its
// special values (NaN, ±inf, ±0, subnormals, overflow and underflow) exactly as cmath's; float
// pow likewise over a grid of bases and exponents; tails, chunk edges, operands that are
// expressions, constants and an output that is its own operand; the float kernels of the
// units' own (sin, exp, log, tanh, sigmoid) also over a stride through every float bit pattern.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/pointwise_check.hpp"
#include "tessera/expr/host_vector_math.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;
namespace detail = tessera::detail;

namespace {

/// Every set of vector loops this CPU runs, then null (scalar cmath).
std::vector<const detail::HostVectorMath*> choices() {
  std::vector<const detail::HostVectorMath*> all;
  for (const detail::HostVectorMath* const* c = detail::host_vector_math_choices(); *c != nullptr;
       ++c) {
    all.push_back(*c);
  }
  all.push_back(nullptr);
  return all;
}

std::string name_of(const detail::HostVectorMath* math) {
  return math != nullptr ? math->isa : "scalar cmath";
}

/// Selects `math` for the scope of the object.
class Selected {
 public:
  explicit Selected(const detail::HostVectorMath* math)
      : previous_(detail::select_host_vector_math(math)) {}
  ~Selected() { detail::select_host_vector_math(previous_); }
  Selected(const Selected&) = delete;
  Selected& operator=(const Selected&) = delete;

 private:
  const detail::HostVectorMath* previous_;
};

/// Operands over T's whole range: uniform in [-10, 10], ± powers of two from below the
/// smallest subnormal to the largest exponent, and the special values.
template <class T>
std::vector<T> domain(std::size_t count) {
  std::mt19937_64 rng(sizeof(T) * 1000 + count);
  std::uniform_real_distribution<double> near(-10.0, 10.0);
  const double lowest = sizeof(T) == 4 ? -152.0 : -1076.0;
  const double highest = sizeof(T) == 4 ? 128.0 : 1024.0;
  std::uniform_real_distribution<double> exponent(lowest, highest);
  std::vector<T> v;
  for (std::size_t i = 0; i < count / 2; ++i) v.push_back(static_cast<T>(near(rng)));
  for (std::size_t i = 0; i < count / 2; ++i) {
    const T x = static_cast<T>(std::exp2(exponent(rng)));
    v.push_back(i % 2 == 0 ? x : -x);
  }
  using L = std::numeric_limits<T>;
  for (T s : {T(0),        -T(0),     L::infinity(),   -L::infinity(),   L::quiet_NaN(),
              T(1),        T(-1),     T(0.5),          L::max(),         L::lowest(),
              L::min(),    -L::min(), L::denorm_min(), -L::denorm_min(), T(88.7),
              T(-87.3),    T(-103.9), T(709.8),        T(-745.1),        T(1e-30),
              T(1.0000001)}) {
    v.push_back(s);
  }
  return v;
}

/// got against the correctly rounded `want` (a long double rounded to T): NaN for NaN, the
/// same infinity or signed zero, else within 4 ulp.
template <class T>
bool close(T got, long double want_long) {
  const auto want = static_cast<T>(want_long);
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || want == T(0)) {
    return got == want && std::signbit(got) == std::signbit(want);
  }
  return tessera_test::ulp_distance(got, want) <= 4;
}

/// Row Op at x in long double, the reference. sigmoid keeps PyTorch's answer where that is not
/// the exact one: 1 / (1 + e^-x) computed in T is 0 once e^-x overflows T (x < -88.73 in
/// float), where the exact value is subnormal.
template <class Op, class T>
long double reference(T x) {
  if constexpr (std::is_same_v<Op, detail::ops::Sigmoid>) {
    if (std::isinf(std::exp(-x)) && x < T(0)) return 0.0L;
  }
  return Op::apply(static_cast<long double>(x));
}

/// Row Op (free function `f`) over the operands `in` through the executor, on every choice.
template <class Op, class T, class F>
void check_row_over(const char* name, const std::vector<T>& in, F f) {
  const auto x = ts::Tensor<T>::from_vector(in, {static_cast<std::int64_t>(in.size())});
  for (const auto* math : choices()) {
    const Selected selected(math);
    const std::vector<T> got = ts::eval(f(x)).to_vector();
    int bad = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const long double want = reference<Op>(in[i]);
      if (!close(got[i], want) && bad++ < 3) {
        ADD_FAILURE() << name << "(" << +in[i] << ") on " << name_of(math) << ": " << +got[i]
                      << ", want " << static_cast<T>(want);
      }
    }
    EXPECT_EQ(bad, 0) << name << " on " << name_of(math);
  }
}

/// Row Op over T's domain, when the row is vectorised.
template <class Op, class T, class F>
void check_row(const char* name, F f) {
  const auto* best = detail::host_vector_math_choices()[0];
  if (best == nullptr || best->template unary<T>(Op::id) == nullptr) return;  // a scalar row
  check_row_over<Op>(name, domain<T>(20000), f);
}

// sin, exp, log, tanh and sigmoid in float are the vector units' own kernels (their polynomials
// fitted by tools/fit_vector_math.py): a stride through every float bit pattern, both signs,
// zeros, subnormals, infinities and NaNs included, on every choice.
template <class Op, class F>
void check_float_stride(const char* name, F f) {
  constexpr std::uint64_t kStride = 16411;  // prime: every exponent, scattered mantissas
  std::vector<float> in;
  for (std::uint64_t b = 0; b <= 0xffffffffULL; b += kStride) {
    in.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  }
  check_row_over<Op>(name, in, f);
}

}  // namespace

#if defined(TESSERA_TEST_EXPECT_VECTOR_MATH)
TEST(HostVectorMath, RunsWhereTheCpuHasAvx2) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") == 0 || __builtin_cpu_supports("fma") == 0) {
    GTEST_SKIP() << "this CPU has no AVX2 with FMA";
  }
  const detail::HostVectorMath* math = detail::host_vector_math();
  ASSERT_NE(math, nullptr);
  // The rows of the speed targets take the vector loops, in both precisions.
  for (auto id : {detail::UnaryOpId::Sin, detail::UnaryOpId::Exp, detail::UnaryOpId::Tanh,
                  detail::UnaryOpId::Log, detail::UnaryOpId::Sigmoid}) {
    EXPECT_NE(math->unary<float>(id), nullptr) << static_cast<int>(id);
    EXPECT_NE(math->unary<double>(id), nullptr) << static_cast<int>(id);
  }
  EXPECT_NE(math->pow_float, nullptr);
  // Rows xsimd does not compute within 4 ulp everywhere stay scalar.
  EXPECT_EQ(math->unary<float>(detail::UnaryOpId::Lgamma), nullptr);
  EXPECT_EQ(math->unary<double>(detail::UnaryOpId::Erf), nullptr);
  // Rows that are not floating (exact, integer or tests) have no vector loop.
  EXPECT_EQ(math->unary<float>(detail::UnaryOpId::Floor), nullptr);
  EXPECT_EQ(math->unary<float>(detail::UnaryOpId::Isnan), nullptr);
}
#endif

TEST(HostVectorMath, TheExecutorRoutesFloatingRowsOverFloatOrDouble) {
  const auto f = ts::Tensor<float>::zeros({4});
  const auto i = ts::Tensor<std::int32_t>::zeros({4});
  const ts::Shape shape{4};
  using Sin = decltype(detail::expr_bind(ts::sin(f), shape));
  using SinOfInt = decltype(detail::expr_bind(ts::sin(i), shape));
  using Pow = decltype(detail::expr_bind(ts::pow(f, 2.5f), shape));
  using Floor = decltype(detail::expr_bind(ts::floor(f), shape));
  static_assert(detail::HostVectorRoot<float, Sin>::value);
  static_assert(detail::HostVectorRoot<float, SinOfInt>::value);  // computes in float
  static_assert(detail::HostVectorRoot<float, Pow>::value);
  static_assert(!detail::HostVectorRoot<double, Sin>::value);  // another output type
  static_assert(!detail::HostVectorRoot<float, Floor>::value);
  SUCCEED();
}

TEST(HostVectorMath, EveryVectorisedRowIsWithinFourUlpWithCmathsSpecialValues) {
#define TESSERA_CHECK_ROW(Op, name, Kind, doc, ...)                                       \
  if constexpr (std::is_same_v<detail::kind::Kind, detail::kind::Floating>) {             \
    check_row<detail::ops::Op, float>(#name, [](const auto& t) { return ts::name(t); });  \
    check_row<detail::ops::Op, double>(#name, [](const auto& t) { return ts::name(t); }); \
  }
  TESSERA_UNARY_FUNCTIONS(TESSERA_CHECK_ROW)
#undef TESSERA_CHECK_ROW
}

TEST(HostVectorMath, OwnFloatKernelsAreWithinFourUlpOverAStrideThroughEveryFloat) {
  check_float_stride<detail::ops::Sin>("sin", [](const auto& t) { return ts::sin(t); });
  check_float_stride<detail::ops::Exp>("exp", [](const auto& t) { return ts::exp(t); });
  check_float_stride<detail::ops::Log>("log", [](const auto& t) { return ts::log(t); });
  check_float_stride<detail::ops::Tanh>("tanh", [](const auto& t) { return ts::tanh(t); });
  check_float_stride<detail::ops::Sigmoid>("sigmoid", [](const auto& t) { return ts::sigmoid(t); });
}

// Odd lanes scattered through long inputs: a block with one is checked again batch by batch
// and lane by lane, and only the odd lanes may change. Every 997th lane special (zeros of both
// signs, infinities, NaN, a subnormal, a negative for log), and an input of ReLU outputs (half
// exact zeros, which sin and tanh return as they are).
template <class Op, class F>
void check_scattered_specials(const char* name, F f) {
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            1e-40f,
                            -2.5f};
  std::mt19937 rng(3);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<float> sparse(100'003);
  std::vector<float> relu(sparse.size());
  for (std::size_t i = 0; i < sparse.size(); ++i) {
    const float v = normal(rng);
    sparse[i] = i % 997 == 0 ? specials[(i / 997) % std::size(specials)] : std::fabs(v) + 0.01f;
    relu[i] = v > 0.0f ? v : 0.0f;
  }
  check_row_over<Op>(name, sparse, f);
  check_row_over<Op>(name, relu, f);
}

TEST(HostVectorMath, ScatteredOddLanesTakeCmathAndLeaveTheirNeighboursAlone) {
  check_scattered_specials<detail::ops::Sin>("sin", [](const auto& t) { return ts::sin(t); });
  check_scattered_specials<detail::ops::Exp>("exp", [](const auto& t) { return ts::exp(t); });
  check_scattered_specials<detail::ops::Log>("log", [](const auto& t) { return ts::log(t); });
  check_scattered_specials<detail::ops::Tanh>("tanh", [](const auto& t) { return ts::tanh(t); });
  check_scattered_specials<detail::ops::Sigmoid>("sigmoid",
                                                 [](const auto& t) { return ts::sigmoid(t); });
}

TEST(HostVectorMath, FloatPowIsWithinFourUlpWithCmathsSpecialValues) {
  // Bases and exponents: the special values and random ones, every pair.
  std::vector<float> bases = domain<float>(200);
  std::vector<float> exponents = {0.0f,
                                  -0.0f,
                                  1.0f,
                                  -1.0f,
                                  2.0f,
                                  -2.0f,
                                  0.5f,
                                  -0.5f,
                                  2.5f,
                                  3.0f,
                                  -3.0f,
                                  1e-8f,
                                  31.5f,
                                  128.f,
                                  -150.f,
                                  1e30f,
                                  -1e30f,
                                  std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN()};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> y(-40.0f, 40.0f);
  for (int k = 0; k < 60; ++k) exponents.push_back(y(rng));
  std::vector<float> a;
  std::vector<float> b;
  for (float x : bases) {
    for (float e : exponents) {
      a.push_back(x);
      b.push_back(e);
    }
  }
  // Near 1 in a narrow band of exponents, where the float path computes them.
  std::uniform_real_distribution<float> base(0.5f, 1.5f);
  for (int k = 0; k < 20000; ++k) {
    a.push_back(base(rng));
    b.push_back(k % 2 == 0 ? 2.5f : y(rng) / 10.0f);
  }
  const auto n = static_cast<std::int64_t>(a.size());
  const auto ta = ts::Tensor<float>::from_vector(a, {n});
  const auto tb = ts::Tensor<float>::from_vector(b, {n});
  for (const auto* math : choices()) {
    const Selected selected(math);
    const std::vector<float> got = ts::eval(ts::pow(ta, tb)).to_vector();
    const std::vector<float> via_buffers = ts::eval(ts::pow(ta * 1.0f, tb + 0.0f)).to_vector();
    const std::vector<float> scalar_exponent = ts::eval(ts::pow(ta, 2.5f)).to_vector();
    const std::vector<float> scalar_base = ts::eval(ts::pow(2.0f, tb)).to_vector();
    int bad = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const long double want =
          std::pow(static_cast<long double>(a[i]), static_cast<long double>(b[i]));
      const bool ok = close(got[i], want) && close(via_buffers[i], want) &&
                      close(scalar_exponent[i], std::pow(static_cast<long double>(a[i]), 2.5L)) &&
                      close(scalar_base[i], std::pow(2.0L, static_cast<long double>(b[i])));
      if (!ok && bad++ < 3) {
        ADD_FAILURE() << "pow(" << a[i] << ", " << b[i] << ") on " << name_of(math) << ": "
                      << got[i] << " / " << via_buffers[i] << ", want " << static_cast<float>(want)
                      << "; pow(a, 2.5) " << scalar_exponent[i] << ", pow(2, b) " << scalar_base[i];
      }
    }
    EXPECT_EQ(bad, 0) << name_of(math);
  }
}

TEST(HostVectorMath, TailsChunksAndExpressionOperandsMatchTheReference) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (std::int64_t n : {1, 7, 15, 16, 17, 255, 256, 257, 1023, 1024, 1025, 4099}) {
    std::vector<float> v(static_cast<std::size_t>(n));
    std::vector<std::int32_t> iv(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i] = u(rng);
      iv[i] = static_cast<std::int32_t>(v[i] * 3.0f);
    }
    v[v.size() / 2] = std::numeric_limits<float>::quiet_NaN();  // a lane the scalar path takes
    const auto x = ts::Tensor<float>::from_vector(v, {n});
    const auto ints = ts::Tensor<std::int32_t>::from_vector(iv, {n});
    for (const auto* math : choices()) {
      const Selected selected(math);
      const auto gauss = ts::eval(ts::exp(-x * x)).to_vector();
      const auto sig = ts::eval(ts::sigmoid(x + 1.0f)).to_vector();
      const auto of_ints = ts::eval(ts::sin(ints)).to_vector();
      for (std::size_t i = 0; i < v.size(); ++i) {
        const float sq = -v[i] * v[i];
        EXPECT_TRUE(close(gauss[i], std::exp(static_cast<long double>(sq))))
            << n << " " << i << " " << name_of(math);
        EXPECT_TRUE(close(sig[i], 1.0L / (1.0L + std::exp(-static_cast<long double>(v[i] + 1.0f)))))
            << n << " " << i << " " << name_of(math);
        EXPECT_TRUE(
            close(of_ints[i], std::sin(static_cast<long double>(static_cast<float>(iv[i])))))
            << n << " " << i << " " << name_of(math);
      }
    }
  }
}

TEST(HostVectorMath, AnOutputThatIsItsOwnOperandGetsTheSameBits) {
  std::vector<float> v = domain<float>(3000);
  for (const detail::HostVectorMath* const* c = detail::host_vector_math_choices(); *c != nullptr;
       ++c) {
    const auto loop = (*c)->unary<float>(detail::UnaryOpId::Log1p);
    ASSERT_NE(loop, nullptr);
    std::vector<float> apart(v.size());
    loop(v.data(), apart.data(), static_cast<std::int64_t>(v.size()),
         &detail::scalar_unary<detail::ops::Log1p, float>);
    std::vector<float> in_place = v;
    loop(in_place.data(), in_place.data(), static_cast<std::int64_t>(v.size()),
         &detail::scalar_unary<detail::ops::Log1p, float>);
    EXPECT_TRUE(tessera_test::values_match(in_place, apart, 0, (*c)->isa));
  }
}

// Issue 51 item 7: float pow's vector kernel (host_vector_pow.inl) over bases from subnormal to
// the largest float, near 1 with large exponents, and negative, against the correctly rounded
// result; each loop of every set the CPU runs, called directly with each pair of steps (both
// operands vectors, a constant exponent, a constant base). The special values (NaN, ±inf, ±0,
// and exact results such as pow(x, 0) = 1, pow(-2, 3) = -8 or pow(4, 0.5) = 2) must be exact,
// every other result within 4 ulp (docs/expressions.md) and, as the kernel's analysis gives (powf's
// 0.82 ulp), within 1.
TEST(PowFloatVector, WideRangeIsWithin4UlpWithExactSpecialValues) {
  if (detail::host_vector_math_choices()[0] == nullptr) GTEST_SKIP() << "no vector loops here";
  using L = std::numeric_limits<float>;
  std::mt19937 rng(51);
  std::vector<float> bases = {0.0f,           -0.0f,
                              L::infinity(),  -L::infinity(),
                              L::quiet_NaN(), 1.0f,
                              -1.0f,          2.0f,
                              0.5f,           4.0f,
                              -2.0f,          -0.5f,
                              -3.0f,          L::min(),
                              -L::min(),      L::denorm_min(),
                              1e-40f,         0x1p-126f * 1.5f,
                              L::max(),       -L::max(),
                              1e30f,          0x1.fffffep-1f,
                              0x1.000002p0f,  1e-7f};
  std::uniform_real_distribution<double> binade(-149.0, 128.0);
  for (int k = 0; k < 1500; ++k) {
    const float x = static_cast<float>(std::exp2(binade(rng)));
    bases.push_back(k % 5 == 0 ? -x : x);
  }
  std::uniform_real_distribution<float> wide(0.0f, 4.0f);
  for (int k = 0; k < 500; ++k) bases.push_back(wide(rng));
  for (int k = -300; k <= 300; k += 7) bases.push_back(1.0f + static_cast<float>(k) * 0x1p-23f);
  std::vector<float> exponents = {
      2.5f,  -2.5f,       0.5f,    -0.5f,    1.0f,          -1.0f,          2.0f,
      3.0f,  -3.0f,       4.0f,    7.0f,     -7.0f,         10.0f,          0.0f,
      -0.0f, 1e-8f,       -1e-30f, 31.5f,    -150.0f,       1e5f,           -1e5f,
      1e10f, 16777215.0f, -1e30f,  L::max(), L::infinity(), -L::infinity(), L::quiet_NaN()};
  std::uniform_real_distribution<float> y(-40.0f, 40.0f);
  for (int k = 0; k < 12; ++k) exponents.push_back(y(rng));
  // Near 1 a large exponent still gives a normal result, and log2 x must be accurate relative
  // to itself: 1 + k 2^-23 to the power of up to +-2^30.
  std::vector<float> a;
  std::vector<float> b;
  std::uniform_real_distribution<double> huge(0.0, 30.0);
  for (int k = 0; k < 4000; ++k) {
    a.push_back(1.0f + static_cast<float>(k % 601 - 300) * 0x1p-23f);
    const auto e = static_cast<float>(std::exp2(huge(rng)));
    b.push_back(k % 2 == 0 ? e : -e);
  }
  for (float x : bases) {
    for (float e : exponents) {
      a.push_back(x);
      b.push_back(e);
    }
  }
  const auto n = static_cast<std::int64_t>(a.size());
  std::int64_t worst = 0;
  int bad = 0;
  const auto check = [&](const char* isa, const char* steps, float x, float e, float got) {
    const long double want_long =
        std::pow(static_cast<long double>(x), static_cast<long double>(e));
    const auto want = static_cast<float>(want_long);
    const bool exact = std::isnan(want) || static_cast<long double>(want) == want_long;
    const bool ok = std::isnan(want) ? std::isnan(got)
                    : exact          ? got == want && std::signbit(got) == std::signbit(want)
                                     : close(got, want_long);
    if (!std::isnan(want) && !exact) worst = std::max(worst, tessera_test::ulp_distance(got, want));
    if (!ok && bad++ < 5) {
      ADD_FAILURE() << "pow(" << x << ", " << e << ") on " << isa << " (" << steps << "): " << got
                    << ", want " << want;
    }
  };
  const auto scalar = &detail::scalar_binary<detail::ops::Pow, float>;
  std::vector<float> out(a.size());
  int sets = 0;
  for (const detail::HostVectorMath* const* c = detail::host_vector_math_choices(); *c != nullptr;
       ++c, ++sets) {
    const auto loop = (*c)->pow_float;
    loop(a.data(), 1, b.data(), 1, out.data(), n, scalar);
    for (std::size_t i = 0; i < a.size(); ++i) check((*c)->isa, "a[i], b[i]", a[i], b[i], out[i]);
    const auto nb = static_cast<std::int64_t>(bases.size());
    std::vector<float> row(std::max(bases.size(), exponents.size()));
    for (float e : exponents) {  // a constant exponent
      loop(bases.data(), 1, &e, 0, row.data(), nb, scalar);
      for (std::size_t i = 0; i < bases.size(); ++i)
        check((*c)->isa, "a[i], b", bases[i], e, row[i]);
    }
    for (float x : bases) {  // a constant base
      loop(&x, 0, exponents.data(), 1, row.data(), static_cast<std::int64_t>(exponents.size()),
           scalar);
      for (std::size_t i = 0; i < exponents.size(); ++i) {
        check((*c)->isa, "a, b[i]", x, exponents[i], row[i]);
      }
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_LE(worst, 1) << "over " << a.size() << " pairs and each constant operand, " << sets
                      << " instruction sets";
  RecordProperty("max_ulp", static_cast<int>(worst));
}
