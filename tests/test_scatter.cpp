// SPDX-License-Identifier: BSD-3-Clause
// tensor_scatter_nd_sub and its siblings against TensorFlow's own answers and NumPy's ufunc.at
// (tests/data/scatter_golden.json, written by tools/golden/gen_scatter.py) and against a plain
// sequential loop over random shapes, dtypes, index types, layouts and devices (the reference
// loop is tests/support/scatter_reference.hpp; argument errors are in test_scatter_errors.cpp,
// the host's parallel schedules in test_scatter_schedules.cpp), and the reuse of an rvalue's
// memory (docs/ops/scatter.md; the DLPack cases are in test_dlpack.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/golden.hpp"
#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/scatter_reference.hpp"
#include "support/typed.hpp"
#include "tessera/tessera.hpp"

namespace {

namespace ts = tessera;
using nlohmann::json;
using tessera_test::decode;
using tessera_test::values_match;
using ts::Tensor;

const json& golden() { return tessera_test::golden("scatter_golden.json"); }

using tessera_test::decode_all;
using tessera_test::shape_of;

template <class T>
Tensor<T> tensor_of(const json& packed, ts::Device device) {
  return tessera_test::golden_tensor<T>(packed, device);
}

using namespace tessera_test::scatter;

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
    const std::string message =
        std::string(op_name(op)) + ": " + error["message"].get<std::string>();
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

INSTANTIATE_TEST_SUITE_P(Devices, ScatterGolden, ::testing::ValuesIn(tessera_test::all_devices()),
                         [](const auto& info) { return info.param.is_cpu() ? "cpu" : "cuda0"; });

// ---- property tests against the reference loop -------------------------------------------------

template <class C>
class ScatterTyped : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ScatterTyped, tessera_test::AllCases, tessera_test::CaseName);

/// A random problem: shape (rank 1-4), K, index rows (in range unless `bad_every` > 0, then
/// every bad_every-th row is negative or past the end), batch shape of rank 1-2.
struct Problem {
  ts::Shape shape;
  std::int64_t k = 1;
  ts::Shape indices_shape;
  std::vector<std::int64_t> indices;
  ts::Shape updates_shape;
};

Problem random_problem(std::mt19937_64& rng, int bad_every = 0) {
  Problem p;
  const int rank = std::uniform_int_distribution<int>(1, 4)(rng);
  std::vector<std::int64_t> dims;
  for (int d = 0; d < rank; ++d) dims.push_back(std::uniform_int_distribution<int>(1, 5)(rng));
  p.shape = ts::Shape(dims);
  p.k = std::uniform_int_distribution<std::int64_t>(1, rank)(rng);
  std::vector<std::int64_t> batch{std::uniform_int_distribution<std::int64_t>(0, 9)(rng)};
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 1) {
    batch.push_back(std::uniform_int_distribution<std::int64_t>(1, 3)(rng));
  }
  const std::int64_t rows = ts::Shape(batch).numel();
  for (std::int64_t i = 0; i < rows; ++i) {
    const bool bad = bad_every > 0 && i % bad_every == bad_every - 1;
    const auto bad_dim = std::uniform_int_distribution<std::int64_t>(0, p.k - 1)(rng);
    for (std::int64_t d = 0; d < p.k; ++d) {
      const std::int64_t extent = dims[static_cast<std::size_t>(d)];
      std::int64_t v = std::uniform_int_distribution<std::int64_t>(0, extent - 1)(rng);
      if (bad && d == bad_dim)
        v = std::uniform_int_distribution<int>(0, 1)(rng) ? -1 - v : extent + v;
      p.indices.push_back(v);
    }
  }
  auto ishape = batch;
  ishape.push_back(p.k);
  p.indices_shape = ts::Shape(ishape);
  auto ushape = batch;
  ushape.insert(ushape.end(), dims.begin() + p.k, dims.end());
  p.updates_shape = ts::Shape(ushape);
  return p;
}

template <class Index>
Tensor<Index> indices_tensor(const Problem& p, ts::Device device) {
  return Tensor<Index>::from_vector(std::vector<Index>(p.indices.begin(), p.indices.end()),
                                    p.indices_shape, device);
}

template <class T, class Index>
void check_random(std::mt19937_64& rng, ts::Device device, bool ignore) {
  const Problem p = random_problem(rng, ignore ? 3 : 0);
  const auto values = tessera_test::random_values<T>(p.shape.numel(), rng);
  const auto updates = tessera_test::random_values<T>(p.updates_shape.numel(), rng);
  const auto indices = indices_tensor<Index>(p, device);
  const ts::ScatterOptions options{.out_of_bounds =
                                       ignore ? ts::OutOfBounds::Ignore : ts::OutOfBounds::Error};
  const auto t_spec = tessera_test::random_layout(p.shape.size(), rng);
  const auto u_spec = tessera_test::random_layout(p.updates_shape.size(), rng);
  const T sentinel = tessera_test::sentinel_value<T>();
  for (Op op : kOps) {
    if (std::is_same_v<T, bool> && op != Op::Update) continue;
    SCOPED_TRACE(std::string(op_name(op)) + " shape " + p.shape.str() + " indices " +
                 p.indices_shape.str() + " layout " + t_spec.name);
    const auto expected = reference_scatter(op, values, p.shape, p.indices, p.k, updates);
    auto t = tessera_test::make_strided(values, p.shape, t_spec, device, sentinel);
    const auto u = tessera_test::make_strided(updates, p.updates_shape, u_spec, device, sentinel);
    const auto base_before = t.base.to_vector();
    // Out of place: a new tensor, the (strided) input untouched.
    EXPECT_TRUE(values_match(call(op, t.view, indices, u.view, options).to_vector(), expected));
    EXPECT_TRUE(values_match(t.base.to_vector(), base_before));
    // In place through the view's strides: only the view's elements change.
    call_(op, t.view, indices, u.view, options);
    EXPECT_TRUE(values_match(t.view.to_vector(), expected));
    auto base_after = t.base.to_vector();
    for (std::size_t j = 0; j < t.positions.size(); ++j) {
      base_after[static_cast<std::size_t>(t.positions[j])] =
          base_before[static_cast<std::size_t>(t.positions[j])];
    }
    EXPECT_TRUE(values_match(base_after, base_before)) << "wrote outside the view";
  }
}

TYPED_TEST(ScatterTyped, MatchesReferenceLoopOnRandomLayouts) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 12; ++trial) {
    check_random<T, std::int32_t>(rng, this->device(), false);
    check_random<T, std::int64_t>(rng, this->device(), false);
  }
}

TYPED_TEST(ScatterTyped, IgnorePolicySkipsOutOfBoundsRows) {
  using T = typename TypeParam::value_type;
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 8; ++trial) {
    check_random<T, std::int32_t>(rng, this->device(), true);
    check_random<T, std::int64_t>(rng, this->device(), true);
  }
}

// The Error policy names the lowest bad row whatever the thread count and schedule (a small
// tensor: every thread scans all rows; a large one: rows filed into buckets), writes nothing.
TYPED_TEST(ScatterTyped, OutOfBoundsRaisesFirstBadRowAndWritesNothing) {
  using T = typename TypeParam::value_type;
  const auto device = this->device();
  const std::int64_t n = 300000;  // several blocks of the bounds check and of the filing
  for (const std::int64_t size : {std::int64_t{5}, std::int64_t{70001}}) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) idx[static_cast<std::size_t>(i)] = i * 7 % size;
    idx[200001] = size;
    idx[250000] = -3;
    const auto indices = Tensor<std::int64_t>::from_vector(idx, {n / 2, 2, 1}, device);
    const auto updates = Tensor<T>::ones({n / 2, 2}, device);
    auto t = Tensor<T>::zeros({size}, device);
    const auto before = t.to_vector();
    for (Op op : kOps) {
      if (std::is_same_v<T, bool> && op != Op::Update) continue;
      const std::string message = std::string(op_name(op)) + ": indices[100000,1] = [" +
                                  std::to_string(size) + "] does not index into shape [" +
                                  std::to_string(size) + "]";
      try {
        (void)call(op, t, indices, updates);
        ADD_FAILURE() << "no IndexError";
      } catch (const ts::IndexError& e) {
        EXPECT_EQ(e.what(), message);
      }
      try {
        call_(op, t, indices, updates);
        ADD_FAILURE() << "no IndexError";
      } catch (const ts::IndexError& e) {
        EXPECT_EQ(e.what(), message);
      }
      EXPECT_TRUE(same_bits(t.to_vector(), before));
    }
  }
}

// The floating-point dtypes on every device (the parallel schedules' bit-for-bit tests are in
// test_scatter_schedules.cpp).
template <class C>
class ScatterFloat : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ScatterFloat, tessera_test::FloatCases, tessera_test::CaseName);

// Updates given as an expression are read in place and equal the evaluated expression.
TYPED_TEST(ScatterFloat, ExpressionUpdatesEqualEvaluatedOnes) {
  using T = typename TypeParam::value_type;
  const auto device = this->device();
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    const Problem p = random_problem(rng);
    const auto values = tessera_test::random_values<T>(p.shape.numel(), rng);
    const auto updates = tessera_test::random_values<T>(p.updates_shape.numel(), rng);
    const auto t = Tensor<T>::from_vector(values, p.shape, device);
    const auto u = Tensor<T>::from_vector(updates, p.updates_shape, device);
    const auto i = indices_tensor<std::int32_t>(p, device);
    const Tensor<T> scaled = u * T(0.5);
    EXPECT_TRUE(same_bits(t.tensor_scatter_nd_sub(i, u * T(0.5)).to_vector(),
                          t.tensor_scatter_nd_sub(i, scaled).to_vector()));
    EXPECT_TRUE(same_bits(ts::tensor_scatter_nd_max(t, i, u - T(1)).to_vector(),
                          ts::tensor_scatter_nd_max(t, i, Tensor<T>(u - T(1))).to_vector()));
    auto in_place = t.clone();
    in_place.scatter_nd_add_(i, u * T(0.5), {.deterministic = true});
    EXPECT_TRUE(same_bits(in_place.to_vector(), t.tensor_scatter_nd_add(i, scaled).to_vector()));
  }
}

// In place, updates that read the tensor itself see its values from before the scatter.
TEST(ScatterAliasing, UpdatesReadingTheTensorSeeItsOldValues) {
  for (const auto device : tessera_test::all_devices()) {
    if (!tessera_test::unavailable_reason(device).empty()) continue;
    auto t = ts::tensor<std::int32_t>({1, 2, 3, 4, 5, 6, 7, 8}, device);
    const auto i = ts::tensor<std::int64_t>({{4}, {5}, {6}, {7}, {0}}, device);
    const auto expected = reference_scatter(Op::Add, t.to_vector(), t.shape(), i.to_vector(), 1,
                                            std::vector<std::int32_t>{1, 2, 3, 4, 5});
    t.scatter_nd_add_(i, t.slice(0, 0, 5));
    EXPECT_EQ(t.to_vector(), expected);
    auto t2 = ts::tensor<std::int32_t>({1, 2, 3, 4, 5, 6, 7, 8}, device);
    t2.scatter_nd_add_(i, t2.slice(0, 0, 5) * 1);
    EXPECT_EQ(t2.to_vector(), expected);
  }
}

// ---- storage reuse: an rvalue's memory becomes the result (docs/ops/scatter.md) -------------

/// How the family is spelled on an rvalue.
enum class Form { Method, MethodWithOptions, Free };

/// The family on an rvalue by run-time op and spelling; Form::Method ignores `o`.
template <class T, class Index, class U>
Tensor<T> call_moved(Op op, Form form, Tensor<T>&& t, const Tensor<Index>& i, const U& u,
                     const ts::ScatterOptions& o) {
  const bool method = form == Form::Method;
  const bool free = form == Form::Free;
  switch (op) {
    case Op::Sub:
      return method ? std::move(t).tensor_scatter_nd_sub(i, u)
             : free ? ts::tensor_scatter_nd_sub(std::move(t), i, u, o)
                    : std::move(t).tensor_scatter_nd_sub(i, u, o);
    case Op::Add:
      return method ? std::move(t).tensor_scatter_nd_add(i, u)
             : free ? ts::tensor_scatter_nd_add(std::move(t), i, u, o)
                    : std::move(t).tensor_scatter_nd_add(i, u, o);
    case Op::Update:
      return method ? std::move(t).tensor_scatter_nd_update(i, u)
             : free ? ts::tensor_scatter_nd_update(std::move(t), i, u, o)
                    : std::move(t).tensor_scatter_nd_update(i, u, o);
    case Op::Min:
      return method ? std::move(t).tensor_scatter_nd_min(i, u)
             : free ? ts::tensor_scatter_nd_min(std::move(t), i, u, o)
                    : std::move(t).tensor_scatter_nd_min(i, u, o);
    case Op::Max:
      break;
  }
  return method ? std::move(t).tensor_scatter_nd_max(i, u)
         : free ? ts::tensor_scatter_nd_max(std::move(t), i, u, o)
                : std::move(t).tensor_scatter_nd_max(i, u, o);
}

constexpr Form kForms[] = {Form::Method, Form::MethodWithOptions, Form::Free};

class ScatterReuse : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(ScatterReuse);

// The only handle of a tensor tessera allocated, moved into the scatter: the result is that
// memory (same data_ptr), with the copying form's values; the moved-from handle is left empty.
template <class T>
void check_reuses(ts::Device device) {
  std::mt19937_64 rng(19);
  const ts::ScatterOptions o{.deterministic = true};
  for (int trial = 0; trial < 8; ++trial) {
    const Problem p = random_problem(rng);
    const auto values = tessera_test::random_values<T>(p.shape.numel(), rng);
    const auto u = Tensor<T>::from_vector(
        tessera_test::random_values<T>(p.updates_shape.numel(), rng), p.updates_shape, device);
    const auto i = indices_tensor<std::int64_t>(p, device);
    for (Op op : kOps) {
      for (Form form : kForms) {
        SCOPED_TRACE(std::string(op_name(op)) + " form " + std::to_string(static_cast<int>(form)) +
                     " shape " + p.shape.str() + " indices " + p.indices_shape.str());
        auto t = Tensor<T>::from_vector(values, p.shape, device);
        const auto expected = call(op, t, i, u, o).to_vector();
        ASSERT_EQ(t.storage().use_count(), 1);
        const T* before = t.data_ptr();
        const auto h = call_moved(op, form, std::move(t), i, u, o);
        EXPECT_EQ(h.data_ptr(), before) << "copied";
        EXPECT_EQ(t.numel(), 0);  // NOLINT(bugprone-use-after-move): released on success
        // Values are multiples of 1/4: sums are exact in any order, atomics included.
        EXPECT_TRUE(same_bits(h.to_vector(), expected));
      }
    }
  }
}

TEST_P(ScatterReuse, OnlyHandleMovedInIsWrittenInPlace) {
  check_reuses<float>(device());
  check_reuses<std::int32_t>(device());
}

// Updates that are the moved tensor itself are read as they were before the call.
TEST_P(ScatterReuse, UpdatesReadingTheRvalueSeeItsOldValues) {
  auto t = ts::tensor<std::int32_t>({1, 2, 3, 4, 5, 6}, device());
  const auto i = ts::tensor<std::int64_t>({{5}, {4}, {3}, {2}, {1}, {0}}, device());
  const auto expected = t.tensor_scatter_nd_add(i, t).to_vector();
  const auto* before = t.data_ptr();
  const auto h = std::move(t).tensor_scatter_nd_add(i, t);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(h.data_ptr(), before);
  EXPECT_EQ(h.to_vector(), expected);
  EXPECT_EQ(expected, (std::vector<std::int32_t>{7, 7, 7, 7, 7, 7}));
}

// Memory that something else can see is never written: another handle, a view, an expression,
// memory tessera did not allocate (from_blob, borrowed or adopted), a strided, offset or partial
// view as the only handle. Each copies (a new data_ptr); the rvalue and every other holder keep
// their values.
TEST_P(ScatterReuse, SharedStridedOrExternalMemoryIsCopied) {
  const auto dev = device();
  using I32 = std::int32_t;
  const auto seq = [&](const ts::Shape& shape) {
    return Tensor<I32>::from_vector(tessera_test::iota_values<I32>(shape.numel()), shape, dev);
  };
  const auto i = ts::tensor<std::int64_t>({{1}, {0}, {1}}, dev);
  // Updates that change what they touch, for every op (min included).
  const auto updates_for = [&](Op op) {
    return Tensor<I32>::full({3, 2}, op == Op::Min ? -100 : 100, dev);
  };
  // `t` (moved in), `other` (another holder of its memory, or an empty tensor), and the owners
  // of t's storage (1: only the rule on layout or provenance keeps it from being reused).
  struct Setup {
    std::string name;
    Tensor<I32> t;
    Tensor<I32> other;
    long owners = 1;
  };
  const auto setups = [&] {
    std::vector<Setup> out;
    auto shared = seq({6, 2});
    auto handle = shared;
    out.push_back({"another handle", std::move(shared), std::move(handle), 2});
    auto viewed = seq({6, 2});
    auto view = viewed.slice(0, 1, 3);
    out.push_back({"a view", std::move(viewed), std::move(view), 2});
    out.push_back({"transposed", seq({2, 6}).transpose(0, 1), {}});
    out.push_back({"offset", seq({7, 2}).slice(0, 1), {}});
    out.push_back({"part of its storage", seq({8, 2}).slice(0, 0, 6), {}});
    auto owner = seq({6, 2});
    auto borrowed = Tensor<I32>::from_blob(owner.data(), {6, 2}, dev);
    out.push_back({"from_blob, borrowed", std::move(borrowed), std::move(owner)});
    if (dev.is_cpu()) {
      auto* raw = new I32[12];
      const auto v = tessera_test::iota_values<I32>(12);
      std::copy(v.begin(), v.end(), raw);
      out.push_back({"from_blob, adopted",
                     Tensor<I32>::from_blob(raw, {6, 2}, dev, [](I32* q) { delete[] q; }),
                     {}});
    }
    return out;
  };
  for (Op op : kOps) {
    for (auto& s : setups()) {
      SCOPED_TRACE(std::string(op_name(op)) + ": " + s.name);
      const auto u = updates_for(op);
      ASSERT_EQ(s.t.storage().use_count(), s.owners);
      const auto before_t = s.t.to_vector();
      const auto before_other = s.other.to_vector();
      const auto expected = call(op, s.t, i, u).to_vector();
      const auto* p = s.t.data_ptr();
      const auto h = call_moved(op, Form::Method, std::move(s.t), i, u, {});
      EXPECT_NE(h.data_ptr(), p) << "wrote into memory it may not reuse";
      EXPECT_EQ(h.to_vector(), expected);
      // Not moved from: the copying path leaves the rvalue as it was.
      EXPECT_EQ(s.t.to_vector(), before_t);  // NOLINT(bugprone-use-after-move)
      EXPECT_EQ(s.other.to_vector(), before_other);
    }
  }
  // An expression holding the tensor.
  auto t = seq({6, 2});
  const auto e = t * 1;
  const auto* p = t.data_ptr();
  const auto h = std::move(t).tensor_scatter_nd_update(i, updates_for(Op::Update));
  EXPECT_NE(h.data_ptr(), p);
  EXPECT_EQ(Tensor<I32>(e).to_vector(), tessera_test::iota_values<I32>(12));
}

// An rvalue call that throws writes nothing and leaves the rvalue as it was (not moved from):
// a bad index at the end (checked before any write, also by the parallel schedules), and
// updates of the wrong shape.
TEST_P(ScatterReuse, ErrorLeavesTheRvalueUnwritten) {
  const auto dev = device();
  const std::int64_t size = 70001;
  const std::int64_t n = 300000;  // several blocks of the bounds check and of the filing
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) idx[static_cast<std::size_t>(r)] = r * 7 % size;
  idx.back() = size;
  const auto bad = Tensor<std::int64_t>::from_vector(idx, {n, 1}, dev);
  const auto u = Tensor<float>::ones({n}, dev);
  std::vector<float> values(static_cast<std::size_t>(size));
  for (std::int64_t j = 0; j < size; ++j) values[static_cast<std::size_t>(j)] = float(j % 13);
  for (Op op : kOps) {
    for (Form form : kForms) {
      SCOPED_TRACE(std::string(op_name(op)) + " form " + std::to_string(static_cast<int>(form)));
      auto t = Tensor<float>::from_vector(values, {size}, dev);
      const auto* p = t.data_ptr();
      ASSERT_EQ(t.storage().use_count(), 1);  // the reusing path: nothing else holds it
      EXPECT_THROW((void)call_moved(op, form, std::move(t), bad, u, {.deterministic = true}),
                   ts::IndexError);
      EXPECT_EQ(t.data_ptr(), p);  // NOLINT(bugprone-use-after-move): not moved from
      EXPECT_TRUE(same_bits(t.to_vector(), values));
      EXPECT_THROW(
          (void)call_moved(op, form, std::move(t), bad, Tensor<float>::ones({n - 1}, dev), {}),
          ts::ShapeError);
      EXPECT_TRUE(same_bits(t.to_vector(), values));  // NOLINT(bugprone-use-after-move)
    }
  }
}

// A temporary (`Tensor::zeros(...).tensor_scatter_nd_add(...)`, an evaluated expression) costs
// one tensor of memory, the copying form two (tessera's allocation counter, beyond what existed
// before).
TEST_P(ScatterReuse, TemporaryIsScatteredWithoutASecondTensor) {
  const auto dev = device();
  const std::int64_t size = std::int64_t{1} << 20;
  const auto bytes = static_cast<std::size_t>(size) * sizeof(float);
  std::vector<std::int64_t> idx(1000);
  for (std::size_t r = 0; r < idx.size(); ++r) idx[r] = static_cast<std::int64_t>(r * 997) % size;
  const auto i = Tensor<std::int64_t>::from_vector(idx, {1000, 1}, dev);
  const auto u = Tensor<float>::ones({1000}, dev);
  const auto peak_of = [&](auto&& make) {
    ts::reset_peak_memory_stats(dev);
    const std::size_t before = ts::memory_stats(dev).current_bytes;
    const auto h = make();
    EXPECT_EQ(h.numel(), size);
    return ts::memory_stats(dev).peak_bytes - before;
  };
  const std::size_t reused =
      peak_of([&] { return Tensor<float>::zeros({size}, dev).tensor_scatter_nd_add(i, u); });
  const std::size_t copied = peak_of([&] {
    const auto z = Tensor<float>::zeros({size}, dev);
    return z.tensor_scatter_nd_add(i, u);
  });
  // An expression evaluated into a tensor is scattered into where it was evaluated.
  const auto ones = Tensor<float>::ones({size}, dev);
  const std::size_t evaluated =
      peak_of([&] { return Tensor<float>(ones * 2.0f).tensor_scatter_nd_add(i, u); });
  EXPECT_GE(reused, bytes);
  EXPECT_LT(reused, bytes + bytes / 2) << "the temporary was copied";
  EXPECT_GE(copied, 2 * bytes);
  EXPECT_LT(evaluated, bytes + bytes / 2) << "the evaluated expression was copied";
}

}  // namespace
