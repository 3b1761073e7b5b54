// SPDX-License-Identifier: BSD-3-Clause
// Reductions over dimensions and scans against PyTorch 2.15's answers
// (tests/data/reduce_golden.json, written by tools/golden/gen_reductions.py): result dtype,
// shape, values and indices, and the errors PyTorch raises, on every device present.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "support/pointwise_check.hpp"

namespace ts = tessera;
using tessera_test::decode_all;
using tessera_test::golden;
using tessera_test::shape_of;

namespace {

using GoldenDTypes = std::tuple<bool, std::uint8_t, std::int32_t, std::int64_t, float, double>;

template <class F>
void with_golden_dtype(const std::string& name, F&& f) {
  std::apply(
      [&](auto... tags) {
        (
            [&](auto tag) {
              using T = decltype(tag);
              if (ts::dtype_name(ts::dtype_v<T>) == name) f(std::type_identity<T>{});
            }(tags),
            ...);
      },
      GoldenDTypes{});
}

/// Values of `got` against the golden `want`: exact for integers, bools and selections;
/// floating sums, means, products, var/std and logsumexp within a relative 1e-5 (float32) or
/// 1e-12 (float64) — PyTorch sums floats in float, tessera in double — NaN and inf exactly.
template <class R>
void expect_values(const ts::Tensor<R>& got, const nlohmann::json& want, bool exact,
                   const std::string& what) {
  ASSERT_EQ(std::string(ts::dtype_name(ts::dtype_v<R>)), want["dtype"].get<std::string>()) << what;
  ASSERT_EQ(got.shape(), shape_of(want)) << what;
  const auto g = got.cpu().to_vector();
  const auto w = decode_all<R>(want);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if constexpr (std::is_floating_point_v<R>) {
      if (std::isnan(w[i]) || std::isinf(w[i]) || exact) {
        const bool same = std::isnan(w[i]) ? std::isnan(g[i]) : g[i] == w[i];
        EXPECT_TRUE(same) << what << ": element " << i << " is " << g[i] << ", expected " << w[i];
      } else {
        const double tol = (sizeof(R) == 4 ? 1e-5 : 1e-12) * std::max(1.0, std::fabs(double(w[i])));
        EXPECT_NEAR(g[i], w[i], tol) << what << ": element " << i;
      }
    } else {
      EXPECT_EQ(g[i], w[i]) << what << ": element " << i;
    }
  }
}

std::vector<std::int64_t> dims_of(const nlohmann::json& c) {
  if (c["dims"].is_null()) return {};
  if (c["dims"].is_array()) return c["dims"].get<std::vector<std::int64_t>>();
  return {c["dims"].get<std::int64_t>()};
}

/// Runs the case's operation on x and checks it (or the error PyTorch raised).
template <class T>
void run_case(const nlohmann::json& c, const ts::Tensor<T>& x) {
  const auto op = c["op"].get<std::string>();
  const std::string what = op + " of " + c["input"]["dtype"].get<std::string>() + " " +
                           c["input"]["shape"].dump() + " dims " + c["dims"].dump();
  const bool keepdim = c["keepdim"].get<bool>();
  const ts::Dims dims(dims_of(c));
  const std::int64_t dim = c["dims"].is_number() ? c["dims"].get<std::int64_t>() : 0;
  constexpr bool floating = std::is_floating_point_v<T>;
  auto check = [&](auto&& call) {
    if (c.contains("error")) {
      const auto error = c["error"].get<std::string>();
      if (error == "NotImplementedError") return;  // PyTorch refuses argmax of bool; tessera not
      if (error == "IndexError") {
        EXPECT_THROW(call(), ts::IndexError) << what;
      } else {
        EXPECT_THROW(call(), ts::ValueError) << what;  // PyTorch: RuntimeError (repeated dim)
      }
      return;
    }
    call();
  };
  if (op == "sum") {
    check([&] { expect_values(ts::sum(x, dims, keepdim), c["values"], !floating, what); });
  } else if (op == "prod") {
    check([&] { expect_values(ts::prod(x, dim, keepdim), c["values"], !floating, what); });
  } else if (op == "amax") {
    check([&] { expect_values(ts::amax(x, dims, keepdim), c["values"], true, what); });
  } else if (op == "amin") {
    check([&] { expect_values(ts::amin(x, dims, keepdim), c["values"], true, what); });
  } else if (op == "any" || op == "all") {
    check([&] {
      const auto got = op == "any" ? ts::any(x, dims, keepdim) : ts::all(x, dims, keepdim);
      if constexpr (std::is_same_v<T, std::uint8_t>) {
        // PyTorch answers uint8 for uint8 input; tessera bool for every input (documented).
        expect_values(ts::eval(ts::cast<std::uint8_t>(got)), c["values"], true, what);
      } else {
        expect_values(got, c["values"], true, what);
      }
    });
  } else if (op == "count_nonzero") {
    check([&] { expect_values(ts::count_nonzero(x, dims), c["values"], true, what); });
  } else if (op == "argmax" || op == "argmin") {
    const bool flat = c["dims"].is_null();
    check([&] {
      const auto got = op == "argmax" ? (flat ? ts::argmax(x) : ts::argmax(x, dim, keepdim))
                                      : (flat ? ts::argmin(x) : ts::argmin(x, dim, keepdim));
      expect_values(got, c["indices"], true, what);
    });
  } else if (op == "max" || op == "min") {
    check([&] {
      const auto got = op == "max" ? ts::max(x, dim, keepdim) : ts::min(x, dim, keepdim);
      expect_values(got.values, c["values"], true, what);
      expect_values(got.indices, c["indices"], true, what);
    });
  } else if (op == "cumsum") {
    check([&] { expect_values(ts::cumsum(x, dim), c["values"], !floating, what); });
  } else if (op == "cumprod") {
    check([&] { expect_values(ts::cumprod(x, dim), c["values"], !floating, what); });
  } else if (op == "cummax" || op == "cummin") {
    check([&] {
      const auto got = op == "cummax" ? ts::cummax(x, dim) : ts::cummin(x, dim);
      expect_values(got.values, c["values"], true, what);
      expect_values(got.indices, c["indices"], true, what);
    });
  } else if constexpr (floating) {
    const double correction = c["correction"].get<double>();
    if (op == "mean") {
      check([&] { expect_values(ts::mean(x, dims, keepdim), c["values"], false, what); });
    } else if (op == "nanmean") {
      check([&] { expect_values(ts::nanmean(x, dims, keepdim), c["values"], false, what); });
    } else if (op == "nansum") {
      check([&] { expect_values(ts::nansum(x, dims, keepdim), c["values"], false, what); });
    } else if (op == "logsumexp") {
      check([&] { expect_values(ts::logsumexp(x, dims, keepdim), c["values"], false, what); });
    } else if (op == "var") {
      check(
          [&] { expect_values(ts::var(x, dims, correction, keepdim), c["values"], false, what); });
    } else if (op == "std") {
      check(
          [&] { expect_values(ts::std(x, dims, correction, keepdim), c["values"], false, what); });
    } else {
      ADD_FAILURE() << "unknown operation " << op;
    }
  } else {
    ADD_FAILURE() << what << ": a floating-only operation on an integer input";
  }
}

}  // namespace

class ReduceGolden : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ReduceGolden);

TEST_P(ReduceGolden, EveryCaseMatchesPyTorch) {
  int ran = 0;
  for (const auto& c : golden("reduce_golden.json")["cases"]) {
    with_golden_dtype(c["input"]["dtype"].get<std::string>(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto values = decode_all<T>(c["input"]);
      const auto x = ts::Tensor<T>::from_vector(values, shape_of(c["input"]), device());
      run_case(c, x);
      ++ran;
    });
  }
  EXPECT_GT(ran, 2700);
}
