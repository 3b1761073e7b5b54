// SPDX-License-Identifier: BSD-3-Clause
// Matrix products (API part 3, linear algebra): every op against PyTorch's answers
// (tools/golden/gen_matmul.py) on every device present, with transposed operands; the product
// engine against a reference loop over random shapes, layouts (transposed, sliced, reversed,
// broadcast) and dtypes; promotion, expressions as operands, the methods; the error rules.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/golden.hpp"
#include "support/pointwise_check.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::decode_all;
using tessera_test::golden;
using tessera_test::golden_tensor;
using tessera_test::shape_of;
using tessera_test::with_dtype;

namespace {

template <class T>
ts::Tensor<T> golden_operand(const nlohmann::json& packed, ts::Device device) {
  auto x = golden_tensor<T>(packed, device);
  return packed["transpose"].get<bool>() ? x.mT() : x;
}

template <class T>
ts::Tensor<T> run_golden(const nlohmann::json& c, const std::vector<ts::Tensor<T>>& xs) {
  const std::string op = c["op"];
  const auto& args = c["args"];
  if (op == "matmul") return ts::matmul(xs[0], xs[1]);
  if (op == "mm") return ts::mm(xs[0], xs[1]);
  if (op == "bmm") return ts::bmm(xs[0], xs[1]);
  if (op == "mv") return ts::mv(xs[0], xs[1]);
  if (op == "dot") return ts::dot(xs[0], xs[1]);
  if (op == "outer") return ts::outer(xs[0], xs[1]);
  if (op == "tensordot") {
    if (args["dims"].is_number())
      return ts::tensordot(xs[0], xs[1], args["dims"].get<std::int64_t>());
    return ts::tensordot(xs[0], xs[1],
                         {args["dims"][0].get<std::vector<std::int64_t>>(),
                          args["dims"][1].get<std::vector<std::int64_t>>()});
  }
  if (op == "einsum") return ts::einsum(args["equation"].get<std::string>(), xs);
  if constexpr (std::is_floating_point_v<T>) {
    if (op == "cdist") return ts::cdist(xs[0], xs[1], tessera_test::decode<double>(args["p"]));
  }
  ADD_FAILURE() << "unknown op " << op;
  return {};
}

class MatmulGolden : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(MatmulGolden);

// Inputs are multiples of 1/8 (floats) or small integers: every product is exact, so the
// comparison is exact whatever order the BLAS sums in; cdist's roots and powers within `tol`.
TEST_P(MatmulGolden, EveryCaseMatchesPyTorch) {
  const auto& cases = golden("matmul_golden.json")["cases"];
  ASSERT_GT(cases.size(), 50u);
  for (const auto& c : cases) {
    with_dtype(c["dtype"].get<std::string>(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      SCOPED_TRACE(c["op"].get<std::string>() + " " + c["args"].dump() + " " +
                   c["dtype"].get<std::string>());
      std::vector<ts::Tensor<T>> xs;
      for (const auto& in : c["inputs"]) xs.push_back(golden_operand<T>(in, device()));
      const ts::Tensor<T> got = run_golden<T>(c, xs);
      EXPECT_EQ(got.device(), device());
      EXPECT_EQ(got.shape(), shape_of(c["out"]));
      const double tol = c["tol"];
      if (tol == 0.0) {
        EXPECT_EQ(got.to_vector(), decode_all<T>(c["out"]));
        return;
      }
      const auto g = got.cpu().to_vector();
      const auto w = decode_all<T>(c["out"]);
      ASSERT_EQ(g.size(), w.size());
      for (std::size_t i = 0; i < g.size(); ++i) {
        EXPECT_NEAR(static_cast<double>(g[i]), static_cast<double>(w[i]),
                    tol * (1.0 + std::abs(static_cast<double>(w[i]))));
      }
    });
  }
}

/// The reference product of a (..., m, k) and b (..., k, n) with the same batch, read element
/// by element (at()), accumulated in T's wrapping arithmetic or in double for floats.
template <class T>
std::vector<double> reference(const ts::Tensor<T>& a3, const ts::Tensor<T>& b3) {
  const auto a = a3.cpu(), b = b3.cpu();
  const std::int64_t batch = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  std::vector<double> out;
  for (std::int64_t i = 0; i < batch; ++i) {
    for (std::int64_t r = 0; r < m; ++r) {
      for (std::int64_t c = 0; c < n; ++c) {
        double s = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          s += static_cast<double>(a.at({i, r, p})) * static_cast<double>(b.at({i, p, c}));
        }
        out.push_back(s);
      }
    }
  }
  return out;
}

/// A random (batch, rows, cols) operand in one of four layouts: contiguous, transposed,
/// every other column of a wider tensor, or reversed along its rows.
template <class T>
ts::Tensor<T> random_operand(std::mt19937& rng, std::int64_t batch, std::int64_t rows,
                             std::int64_t cols, int layout, ts::Device device) {
  std::uniform_int_distribution<int> value(-9, 9);
  const auto fill = [&](const ts::Shape& shape) {
    std::vector<T> v(static_cast<std::size_t>(shape.numel()));
    for (auto& x : v) x = static_cast<T>(value(rng));
    return ts::Tensor<T>::from_vector(v, shape).to(device);
  };
  switch (layout) {
    case 1:
      return fill({batch, cols, rows}).mT();
    case 2:
      return fill({batch, rows, 2 * cols}).slice(2, 0, 2 * cols, 2);
    case 3:
      return fill({batch, rows, cols}).flip({1});
    default:
      return fill({batch, rows, cols});
  }
}

template <class C>
class MatmulProperty : public tessera_test::Typed<C> {};
using PropertyTypes =
    tessera_test::gtest_types_t<tessera_test::cartesian_t<std::tuple<float, double, std::int32_t>>>;
TYPED_TEST_SUITE(MatmulProperty, PropertyTypes);

// Random extents (including ones that cross the engine's threading threshold), batches and
// layouts: the engine's answer equals the reference loop (exactly: small integer inputs).
TYPED_TEST(MatmulProperty, MatchesTheReferenceLoopOnEveryLayout) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::int64_t> extent(1, 40), batches(1, 3);
  for (int trial = 0; trial < 24; ++trial) {
    const std::int64_t batch = batches(rng), m = extent(rng), k = extent(rng), n = extent(rng);
    const auto a = random_operand<T>(rng, batch, m, k, trial % 4, this->device());
    const auto b = random_operand<T>(rng, batch, k, n, (trial / 4) % 4, this->device());
    SCOPED_TRACE(::testing::Message()
                 << "trial " << trial << ": " << a.shape() << " x " << b.shape());
    const auto got = ts::matmul(a, b).cpu().to_vector();
    const auto want = reference(a, b);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(static_cast<double>(got[i]), want[i]);
  }
  // One product large enough for a multithreaded GEMM, and many small ones spread over threads.
  const auto big_a = random_operand<T>(rng, 1, 150, 140, 0, this->device());
  const auto big_b = random_operand<T>(rng, 1, 140, 130, 1, this->device());
  EXPECT_EQ(ts::matmul(big_a, big_b).cpu().template cast<double>().to_vector(),
            reference(big_a, big_b));
  const auto many_a = random_operand<T>(rng, 64, 5, 6, 2, this->device());
  const auto many_b = random_operand<T>(rng, 64, 6, 7, 0, this->device());
  EXPECT_EQ(ts::bmm(many_a, many_b).cpu().template cast<double>().to_vector(),
            reference(many_a, many_b));
}

// A broadcast batch (a stride-0 view from expand) reads the one matrix for every item.
TYPED_TEST(MatmulProperty, BroadcastBatchesReadOneMatrix) {
  using T = typename TypeParam::value_type;
  std::mt19937 rng(11);
  const auto a = random_operand<T>(rng, 1, 4, 5, 0, this->device()).expand({3, 4, 5});
  const auto b = random_operand<T>(rng, 3, 5, 2, 1, this->device());
  EXPECT_EQ(ts::matmul(a, b).cpu().template cast<double>().to_vector(), reference(a, b));
  EXPECT_EQ(ts::matmul(a.select(0, 0), b).shape(), ts::Shape({3, 4, 2}));
}

class MatmulRules : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(MatmulRules);

TEST_P(MatmulRules, MixedDtypesPromoteAsPlusDoes) {
  const auto a = ts::tensor<std::int32_t>({{1, 2}, {3, 4}}).to(device());
  const auto b = ts::tensor<float>({{0.5f, 0}, {0, 0.25f}}).to(device());
  const ts::Tensor<float> c = ts::matmul(a, b);
  EXPECT_EQ(c.to_vector(), (std::vector<float>{0.5f, 0.5f, 1.5f, 1.0f}));
  const ts::Tensor<std::int16_t> d = ts::matmul(ts::tensor<std::uint8_t>({200}).to(device()),
                                                ts::tensor<std::int8_t>({-2}).to(device()));
  EXPECT_EQ(d.item(), -400);
}

TEST_P(MatmulRules, ExpressionsAreOperandsAndMethodsAreTheFunctions) {
  const auto a = ts::tensor<double>({{1, 2, 3}, {4, 5, 6}}).to(device());
  const auto v = ts::tensor<double>({1, 0, -1}).to(device());
  EXPECT_EQ(ts::matmul(a * 2.0, v).to_vector(), (std::vector<double>{-4, -4}));
  EXPECT_EQ(a.matmul(v).to_vector(), (std::vector<double>{-2, -2}));
  EXPECT_EQ((a * 1.0).mv(v).to_vector(), (std::vector<double>{-2, -2}));
  EXPECT_EQ(a.mm(a.t()).to_vector(), (std::vector<double>{14, 32, 32, 77}));
  EXPECT_EQ(v.dot(v + 1.0).item(), 2.0);
  EXPECT_EQ(v.outer(v).shape(), ts::Shape({3, 3}));
  EXPECT_EQ(a.unsqueeze(0).bmm(a.t().unsqueeze(0)).shape(), ts::Shape({1, 2, 2}));
  EXPECT_EQ(ts::einsum("ij->", {a}).item(), 21.0);
  EXPECT_EQ(ts::tensordot(a, a, 2).item(), 91.0);
}

TEST_P(MatmulRules, IntegerProductsWrapInTAndBoolIsTheLogicalProduct) {
  const auto m = ts::Tensor<std::int8_t>::full({2, 2}, 100).to(device());
  EXPECT_EQ(ts::matmul(m, m).to_vector(), (std::vector<std::int8_t>(4, 32)));
  const auto big = ts::Tensor<std::int64_t>::full({1, 2}, std::int64_t{1} << 62).to(device());
  const auto two = ts::Tensor<std::int64_t>::full({2, 1}, 2).to(device());
  EXPECT_EQ(ts::matmul(big, two).item(), 0);  // 2 * 2^63 wraps to 0
  const auto p = ts::tensor<bool>({{true, false}, {false, false}}).to(device());
  const auto q = ts::tensor<bool>({{false, true}, {true, true}}).to(device());
  EXPECT_EQ(ts::matmul(p, q).to_vector(), (std::vector<bool>{false, true, false, false}));
}

TEST_P(MatmulRules, EinsumSumsOfOneOperandWrapInTAndBoolIsTheLogicalOr) {
  // Letters of one operand only are summed in T, as PyTorch keeps int8: 3 x 100 = 300 wraps to
  // 44; bool sums are any().
  const auto m = ts::Tensor<std::int8_t>::full({2, 3}, 100).to(device());
  EXPECT_EQ(ts::einsum("ij->i", {m}).to_vector(), (std::vector<std::int8_t>(2, 44)));
  EXPECT_EQ(ts::einsum("ij->", {m}).item(), static_cast<std::int8_t>(600 - 512));
  const auto b = ts::tensor<bool>({{false, false, true}, {false, false, false}}).to(device());
  EXPECT_EQ(ts::einsum("ij->i", {b}).to_vector(), (std::vector<bool>{true, false}));
  EXPECT_EQ(ts::einsum("ij->j", {b}).to_vector(), (std::vector<bool>{false, false, true}));
  // A summed letter of extent 0 gives zeros; a kept one of extent 0, nothing.
  EXPECT_EQ(ts::einsum("ij->i", {ts::Tensor<std::int32_t>::empty({3, 0}, device())}).to_vector(),
            (std::vector<std::int32_t>(3, 0)));
  EXPECT_EQ(ts::einsum("ij->j", {ts::Tensor<float>::empty({3, 0}, device())}).shape(),
            ts::Shape({0}));
  // Summed letters between kept ones, on a transposed operand: the reference loop.
  const auto x = ts::Tensor<std::int64_t>::arange(24, device()).reshape({2, 3, 4});
  const auto got = ts::einsum("ijk->ki", {x.transpose(0, 2)}).cpu().to_vector();
  for (std::int64_t k = 0; k < 2; ++k) {
    for (std::int64_t i = 0; i < 4; ++i) {
      std::int64_t want = 0;
      for (std::int64_t j = 0; j < 3; ++j) want += (k * 3 + j) * 4 + i;
      EXPECT_EQ(got[static_cast<std::size_t>(k * 4 + i)], want);
    }
  }
}

TEST_P(MatmulRules, EmptyInnerDimensionGivesZeros) {
  const auto a = ts::Tensor<float>::empty({3, 0}, device());
  const auto b = ts::Tensor<float>::empty({0, 2}, device());
  EXPECT_EQ(ts::matmul(a, b).to_vector(), std::vector<float>(6, 0.0f));
  EXPECT_EQ(ts::matmul(b.t(), a.t()).to_vector(), std::vector<float>(6, 0.0f));
  EXPECT_EQ(ts::dot(ts::Tensor<std::int32_t>::empty({0}, device()),
                    ts::Tensor<std::int32_t>::empty({0}, device()))
                .item(),
            0);
}

template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "no exception";
}

TEST_P(MatmulRules, ShapeErrorsNameTheShapes) {
  const auto a = ts::Tensor<float>::zeros({2, 3}, device());
  const auto s = ts::Tensor<float>::zeros({}, device());
  EXPECT_NE(message_of<ts::ShapeError>([&] {
              (void)ts::matmul(a, a);
            }).find("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
            std::string::npos);
  EXPECT_NE(message_of<ts::ShapeError>([&] {
              (void)ts::matmul(s, a);
            }).find("both arguments to matmul need to be at least 1D, but they are 0D and 2D"),
            std::string::npos);
  EXPECT_NE(message_of<ts::ShapeError>([&] {
              (void)ts::mm(a, a.t().unsqueeze(0));
            }).find("mat2 must be a matrix"),
            std::string::npos);
  EXPECT_NE(message_of<ts::ShapeError>([&] {
              (void)ts::bmm(a.unsqueeze(0), ts::Tensor<float>::zeros({2, 3, 2}, device()));
            }).find("Expected size for first two dimensions of batch2 tensor to be: [1, 3]"),
            std::string::npos);
  EXPECT_THROW((void)ts::mv(a, ts::Tensor<float>::zeros({2}, device())), ts::ShapeError);
  EXPECT_NE(message_of<ts::ShapeError>([&] {
              (void)ts::dot(ts::Tensor<float>::zeros({3}, device()),
                            ts::Tensor<float>::zeros({4}, device()));
            }).find("expected tensor [3] and src [4]"),
            std::string::npos);
  EXPECT_THROW((void)ts::outer(a, a), ts::ShapeError);
  EXPECT_THROW((void)ts::matmul(ts::Tensor<float>::zeros({2, 2, 3}, device()),
                                ts::Tensor<float>::zeros({3, 3, 2}, device())),
               ts::ShapeError);  // batches 2 and 3 do not broadcast
  EXPECT_NE(message_of<ts::ShapeError>([&] { (void)ts::tensordot(a, a, {{1}, {1}}); }).size(), 0u);
  EXPECT_THROW((void)ts::tensordot(a, a.t(), {{1}, {1}}), ts::ShapeError);
  EXPECT_THROW((void)ts::tensordot(a, a, -1), ts::ValueError);
  EXPECT_THROW((void)ts::tensordot(a, a, {{2}, {0}}), ts::IndexError);
  EXPECT_NE(message_of<ts::ShapeError>([&] {
              (void)ts::cdist(a, a.t());
            }).find("X1 and X2 must have the same number of columns. X1: 3 X2: 2"),
            std::string::npos);
  EXPECT_THROW((void)ts::cdist(a.select(0, 0), a), ts::ShapeError);
  EXPECT_THROW((void)ts::cdist(a, a, -1.0), ts::ValueError);
}

TEST_P(MatmulRules, EinsumErrorsNameTheEquationAndTheLetter) {
  const auto a = ts::Tensor<float>::zeros({2, 3}, device());
  const auto b = ts::Tensor<float>::zeros({4, 5}, device());
  const auto msg = message_of<ts::ValueError>([&] { (void)ts::einsum("ij,jk->ik", {a, b}); });
  EXPECT_NE(msg.find("ij,jk->ik"), std::string::npos) << msg;
  EXPECT_NE(msg.find("subscript j"), std::string::npos) << msg;
  EXPECT_THROW((void)ts::einsum("ij,jk->ik", {a}), ts::ValueError);  // operand count
  EXPECT_THROW((void)ts::einsum("ijk->i", {a}), ts::ValueError);     // rank
  EXPECT_THROW((void)ts::einsum("ij->ix", {a}), ts::ValueError);     // unknown output
  EXPECT_THROW((void)ts::einsum("ij->ii", {a}), ts::ValueError);     // repeated output
  EXPECT_THROW((void)ts::einsum("i1->i", {a}), ts::ValueError);      // bad character
  EXPECT_THROW((void)ts::einsum("ii->i", {a}), ts::ValueError);      // diagonal extents
  EXPECT_THROW((void)ts::einsum("i..j.->i", {a}), ts::ValueError);   // broken ellipsis
  EXPECT_THROW((void)ts::einsum("", std::vector<ts::Tensor<float>>{}), ts::ValueError);
}

TEST(MatmulDevices, OperandsOnTwoDevicesAreADeviceError) {
  TESSERA_SKIP_IF_UNAVAILABLE(ts::Device::cuda(0));
  const auto a = ts::Tensor<float>::zeros({2, 2});
  EXPECT_THROW((void)ts::matmul(a, a.to(ts::Device::cuda(0))), ts::DeviceError);
  EXPECT_THROW((void)ts::einsum("ij,jk", {a, a.to(ts::Device::cuda(0))}), ts::DeviceError);
}

}  // namespace
