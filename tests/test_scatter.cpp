// tensor_scatter_nd_sub and its siblings against TensorFlow's own answers and NumPy's ufunc.at
// (tests/data/scatter_golden.json, written by tools/golden/gen_scatter.py) and against a plain
// sequential loop over random shapes, dtypes, index types, layouts and devices; every error
// rule with the inputs left intact.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using nlohmann::json;
using ts::Tensor;
using tessera_test::decode;
using tessera_test::values_match;

const json& golden() { return tessera_test::golden("scatter_golden.json"); }

template <class T>
std::vector<T> decode_all(const json& packed) {
  std::vector<T> out;
  for (const auto& v : packed["data"]) out.push_back(decode<T>(v));
  return out;
}

ts::Shape shape_of(const json& packed) {
  return ts::Shape(packed["shape"].begin(), packed["shape"].end());
}

template <class T>
Tensor<T> tensor_of(const json& packed, ts::Device device) {
  return Tensor<T>::from_vector(decode_all<T>(packed), shape_of(packed), device);
}

// ---- the reference: TensorFlow's CPU loop, written out --------------------------------------

enum class Op { Sub, Add, Update, Min, Max };
constexpr Op kOps[] = {Op::Sub, Op::Add, Op::Update, Op::Min, Op::Max};

Op op_named(const std::string& name) {
  if (name == "sub") return Op::Sub;
  if (name == "add") return Op::Add;
  if (name == "update") return Op::Update;
  if (name == "min") return Op::Min;
  return Op::Max;
}
const char* op_name(Op op) {
  constexpr const char* names[] = {"tensor_scatter_nd_sub", "tensor_scatter_nd_add",
                                   "tensor_scatter_nd_update", "tensor_scatter_nd_min",
                                   "tensor_scatter_nd_max"};
  return names[static_cast<int>(op)];
}

template <class T>
T reference_combine(Op op, T x, T u) {
  if constexpr (std::is_same_v<T, bool>) {
    return u;  // only update exists for bool
  } else if constexpr (std::is_integral_v<T>) {
    // Test values are small: int64 arithmetic, then the modular conversion back to T.
    const auto a = static_cast<std::int64_t>(x);
    const auto b = static_cast<std::int64_t>(u);
    switch (op) {
      case Op::Sub: return static_cast<T>(a - b);
      case Op::Add: return static_cast<T>(a + b);
      case Op::Update: return u;
      case Op::Min: return b < a ? u : x;
      case Op::Max: return a < b ? u : x;
    }
    return x;
  } else {
    switch (op) {
      case Op::Sub: return x - u;
      case Op::Add: return x + u;
      case Op::Update: return u;
      case Op::Min: return u < x ? u : x;
      case Op::Max: return x < u ? u : x;
    }
    return x;
  }
}

/// Rows outside the tensor are skipped (the Ignore policy; with Error none reach here).
template <class T>
std::vector<T> reference_scatter(Op op, std::vector<T> tensor, const ts::Shape& shape,
                                 const std::vector<std::int64_t>& indices, std::int64_t k,
                                 const std::vector<T>& updates) {
  std::int64_t slice = 1;
  for (auto d = static_cast<std::size_t>(k); d < shape.size(); ++d) slice *= shape[d];
  const auto rows = static_cast<std::int64_t>(indices.size()) / k;
  for (std::int64_t i = 0; i < rows; ++i) {
    std::int64_t at = 0;
    bool inside = true;
    for (std::int64_t d = 0; d < k; ++d) {
      const std::int64_t v = indices[static_cast<std::size_t>(i * k + d)];
      inside = inside && v >= 0 && v < shape[static_cast<std::size_t>(d)];
      at = at * shape[static_cast<std::size_t>(d)] + v;
    }
    if (!inside) continue;
    for (std::int64_t j = 0; j < slice; ++j) {
      auto& x = tensor[static_cast<std::size_t>(at * slice + j)];
      x = reference_combine(op, x, updates[static_cast<std::size_t>(i * slice + j)]);
    }
  }
  return tensor;
}

// ---- calling the family by run-time op --------------------------------------------------------

template <class T, class Index, class U>
Tensor<T> call(Op op, const Tensor<T>& t, const Tensor<Index>& i, const U& u,
               const ts::ScatterOptions& options = {}) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)op;
    return ts::tensor_scatter_nd_update(t, i, u, options);
  } else {
    switch (op) {
      case Op::Sub: return t.tensor_scatter_nd_sub(i, u, options);
      case Op::Add: return t.tensor_scatter_nd_add(i, u, options);
      case Op::Update: return t.tensor_scatter_nd_update(i, u, options);
      case Op::Min: return t.tensor_scatter_nd_min(i, u, options);
      case Op::Max: break;
    }
    return t.tensor_scatter_nd_max(i, u, options);
  }
}

template <class T, class Index, class U>
void call_(Op op, Tensor<T>& t, const Tensor<Index>& i, const U& u,
           const ts::ScatterOptions& options = {}) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)op;
    ts::scatter_nd_update_(t, i, u, options);
  } else {
    switch (op) {
      case Op::Sub: t.scatter_nd_sub_(i, u, options); return;
      case Op::Add: t.scatter_nd_add_(i, u, options); return;
      case Op::Update: t.scatter_nd_update_(i, u, options); return;
      case Op::Min: t.scatter_nd_min_(i, u, options); return;
      case Op::Max: t.scatter_nd_max_(i, u, options); return;
    }
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a == b;
  } else {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
  }
}

// ---- golden cases ------------------------------------------------------------------------------

template <class T, class Index>
void run_golden_case(const json& c, ts::Device device) {
  SCOPED_TRACE(c["name"].get<std::string>() + " on " + device.str());
  const Op op = op_named(c["op"]);
  const auto t = tensor_of<T>(c["tensor"], device);
  const auto i = tensor_of<Index>(c["indices"], device);
  const auto u = tensor_of<T>(c["updates"], device);
  const auto before = t.to_vector();
  ts::ScatterOptions options;
  if (c["policy"] == "IGNORE") options.out_of_bounds = ts::OutOfBounds::Ignore;
  if (c.contains("error")) {
    const auto& error = c["error"];
    const std::string message = std::string(op_name(op)) + ": " + error["message"].get<std::string>();
    auto copy = t.clone();
    if (error["kind"] == "index") {
      try {
        (void)call(op, t, i, u, options);
        ADD_FAILURE() << "no IndexError";
      } catch (const ts::IndexError& e) {
        EXPECT_EQ(e.what(), message);
      }
      EXPECT_THROW(call_(op, copy, i, u, options), ts::IndexError);
    } else {
      EXPECT_THROW((void)call(op, t, i, u, options), ts::ShapeError);
      EXPECT_THROW(call_(op, copy, i, u, options), ts::ShapeError);
    }
    EXPECT_TRUE(same_bits(t.to_vector(), before));
    EXPECT_TRUE(same_bits(copy.to_vector(), before));
    return;
  }
  const auto expected = decode_all<T>(c["expected"]);
  for (bool deterministic : {false, true}) {
    options.deterministic = deterministic;
    const auto r = call(op, t, i, u, options);
    EXPECT_EQ(r.shape(), shape_of(c["expected"]));
    // The host is TensorFlow's loop bit for bit; CUDA atomics may differ in the last float bits.
    const bool exact = device.is_cpu() || deterministic || !std::is_floating_point_v<T>;
    EXPECT_TRUE(values_match(r.to_vector(), expected, exact ? 0.0 : 1e-5));
    if (exact) {
      EXPECT_TRUE(same_bits(r.to_vector(), expected));
    }
    EXPECT_TRUE(same_bits(t.to_vector(), before)) << "input modified";
    auto in_place = t.clone();
    call_(op, in_place, i, u, options);
    EXPECT_TRUE(values_match(in_place.to_vector(), expected, exact ? 0.0 : 1e-5));
  }
}

template <class Index>
void run_golden_index(const json& c, ts::Device device) {
  const std::string dtype = c["tensor"]["dtype"];
  if (dtype == "uint8") return run_golden_case<std::uint8_t, Index>(c, device);
  if (dtype == "int8") return run_golden_case<std::int8_t, Index>(c, device);
  if (dtype == "int16") return run_golden_case<std::int16_t, Index>(c, device);
  if (dtype == "int32") return run_golden_case<std::int32_t, Index>(c, device);
  if (dtype == "int64") return run_golden_case<std::int64_t, Index>(c, device);
  if (dtype == "float32") return run_golden_case<float, Index>(c, device);
  if (dtype == "float64") return run_golden_case<double, Index>(c, device);
  FAIL() << "unknown dtype " << dtype;
}

class ScatterGolden : public ::testing::TestWithParam<ts::Device> {
 protected:
  void SetUp() override {
    const auto reason = tessera_test::unavailable_reason(GetParam());
    if (!reason.empty()) GTEST_SKIP() << reason;
  }
};

TEST_P(ScatterGolden, MatchesTensorFlowAndNumpy) {
  const auto& cases = golden()["cases"];
  ASSERT_GT(cases.size(), 250u);
  for (const auto& c : cases) {
    if (c["indices"]["dtype"] == "int32") {
      run_golden_index<std::int32_t>(c, GetParam());
    } else {
      run_golden_index<std::int64_t>(c, GetParam());
    }
  }
}

// 100000 updates into one float32 element: TensorFlow's sum in index order, bit for bit, and
// the same bits five runs in a row (and with the deterministic option on CUDA).
TEST_P(ScatterGolden, HundredThousandDuplicatesSumInIndexOrder) {
  const auto& d = golden()["duplicates"];
  const std::int64_t n = d["count"];
  std::vector<float> u(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    u[static_cast<std::size_t>(i)] = static_cast<float>((i * 7919) % 1000) / 1024.0f;
  }
  const ts::Device device = GetParam();
  const auto updates = Tensor<float>::from_vector(u, device);
  const auto indices = Tensor<std::int64_t>::full({n, 1}, d["index"].get<std::int64_t>(), device);
  const auto t = Tensor<float>::zeros({d["size"].get<std::int64_t>()}, device);
  const ts::ScatterOptions options{.deterministic = true};
  const auto sub = decode_all<float>(d["sub"]);
  const auto add = decode_all<float>(d["add"]);
  for (int run = 0; run < 5; ++run) {
    EXPECT_TRUE(same_bits(t.tensor_scatter_nd_sub(indices, updates, options).to_vector(), sub));
    EXPECT_TRUE(same_bits(t.tensor_scatter_nd_add(indices, updates, options).to_vector(), add));
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, ScatterGolden,
                         ::testing::ValuesIn(tessera_test::all_devices()),
                         [](const auto& info) { return info.param.is_cpu() ? "cpu" : "cuda0"; });

}  // namespace
