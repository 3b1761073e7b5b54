// SPDX-License-Identifier: BSD-3-Clause
// Indexing and gathering: PyTorch 2.15's answers (tests/data/indexing_golden.json, written by
// tools/golden/gen_indexing.py) and TensorFlow 2.21's for gather_nd
// (tests/data/gather_nd_golden.json, tools/golden/gen_gather_nd.py) on every device; reference
// loops over random shapes, strided views, int32 and int64 indices; the gather kernel's
// parallel parts at several thread counts (the first bad entry is the one reported); errors;
// the contract's spellings.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/host_threads.hpp"
#include "support/layouts.hpp"
#include "support/pointwise_check.hpp"
#include "support/reference.hpp"

namespace ts = tessera;
using tessera_test::decode_all;
using tessera_test::golden;
using tessera_test::golden_tensor;
using tessera_test::shape_of;
using tessera_test::throws_with;

namespace {

template <class T>
void expect_tensor(const ts::Tensor<T>& got, const ts::Shape& shape, const std::vector<T>& want,
                   const std::string& what) {
  ASSERT_EQ(got.shape(), shape) << what;
  const auto v = got.cpu().to_vector();
  ASSERT_EQ(v.size(), want.size()) << what;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!tessera_test::identical_value(v[i], want[i])) {
      ADD_FAILURE() << what << ": element " << i << " is " << +v[i] << ", expected " << +want[i];
      return;
    }
  }
}

/// Calls f(type_identity<I>) for a packed index tensor's dtype.
template <class F>
void with_index_type(const nlohmann::json& packed, F&& f) {
  if (packed["dtype"] == "int32") {
    f(std::type_identity<std::int32_t>{});
  } else {
    f(std::type_identity<std::int64_t>{});
  }
}

/// One PyTorch case: the op on tessera, its output or its error against PyTorch's.
template <class T>
void run_torch_case(const nlohmann::json& c, ts::Device device) {
  const std::string op = c["op"];
  const auto& tensors = c["tensors"];
  const std::string what = op + " " + c.dump().substr(0, 200);
  const auto x = golden_tensor<T>(tensors[0], device);
  std::function<ts::Tensor<T>()> run;
  if (op == "index") {
    with_index_type(tensors[1], [&](auto tag) {
      using I = typename decltype(tag)::type;
      std::vector<ts::Tensor<I>> ids;
      for (std::size_t k = 1; k < tensors.size(); ++k)
        ids.push_back(golden_tensor<I>(tensors[k], device));
      run = [x, ids] { return x.index(ids); };
    });
  } else if (op == "index_nonzero") {
    const auto nz = golden_tensor<bool>(tensors[1], device);
    run = [x, nz] { return x.index(nz.nonzero(ts::as_tuple)); };
  } else if (op == "index_mask") {
    const auto m = golden_tensor<bool>(tensors[1], device);
    run = [x, m] { return x.index(m); };
  } else if (op == "masked_select") {
    const auto m = golden_tensor<bool>(tensors[1], device);
    run = [x, m] { return x.masked_select(m); };
  } else if (op == "index_put") {
    const auto values = golden_tensor<T>(tensors[1], device);
    std::vector<ts::Tensor<std::int64_t>> ids;
    for (std::size_t k = 2; k < tensors.size(); ++k) {
      ids.push_back(golden_tensor<std::int64_t>(tensors[k], device));
    }
    const bool accumulate = c["accumulate"];
    run = [x, values, ids, accumulate] {
      const auto y = x.clone();
      y.index_put_(ids, values, accumulate);
      return y;
    };
  } else if (op == "masked_fill") {
    const auto m = golden_tensor<bool>(tensors[1], device);
    const T value = tessera_test::decode<T>(c["value"]);
    run = [x, m, value] {
      const auto y = x.clone();
      y.masked_fill_(m, value);
      return y;
    };
  } else if (op == "cat" || op == "stack") {
    std::vector<ts::Tensor<T>> parts;
    for (const auto& t : tensors) parts.push_back(golden_tensor<T>(t, device));
    const std::int64_t dim = c["dim"];
    run = [parts, dim, op] { return op == "cat" ? ts::cat(parts, dim) : ts::stack(parts, dim); };
  } else {
    with_index_type(tensors[1], [&](auto tag) {
      using I = typename decltype(tag)::type;
      const auto i = golden_tensor<I>(tensors[1], device);
      const std::int64_t dim = c.contains("dim") ? c["dim"].get<std::int64_t>() : 0;
      if (op == "index_select") run = [x, i, dim] { return x.index_select(dim, i); };
      if (op == "gather") run = [x, i, dim] { return x.gather(dim, i); };
      if (op == "take") run = [x, i] { return x.take(i); };
      if (op == "take_along_dim") {
        if (c.contains("dim")) {
          run = [x, i, dim] { return x.take_along_dim(i, dim); };
        } else {
          run = [x, i] { return x.take_along_dim(i); };
        }
      }
    });
  }
  ASSERT_TRUE(run) << what;
  if (c.contains("error")) {
    const std::string message = c["message"];
    // PyTorch's words where tessera keeps them: out-of-range entries and dims.
    const bool words = message.find("out of bounds for dimension") != std::string::npos ||
                       message.find("out of range: tried") != std::string::npos ||
                       message.find("Dimension out of range") != std::string::npos;
    EXPECT_TRUE(throws_with<ts::Error>(run, words ? std::initializer_list<std::string>{message}
                                                  : std::initializer_list<std::string>{}))
        << what;
    return;
  }
  expect_tensor(run(), shape_of(c["out"]), decode_all<T>(c["out"]), what);
}

/// One TensorFlow gather_nd case (or the scatter round trip).
template <class T>
void run_tf_case(const nlohmann::json& c, ts::Device device) {
  const auto& tensors = c["tensors"];
  const std::string what = c.dump().substr(0, 200);
  const auto params = golden_tensor<T>(tensors[0], device);
  if (c["op"] == "round_trip") {
    const auto i = golden_tensor<std::int64_t>(tensors[1], device);
    const auto u = golden_tensor<T>(tensors[2], device);
    const auto back = ts::gather_nd(params.tensor_scatter_nd_update(i, u), i);
    expect_tensor(back, shape_of(c["out"]), decode_all<T>(c["out"]), what);
    expect_tensor(back, u.shape(), u.cpu().to_vector(), what + " == u");
    return;
  }
  with_index_type(tensors[1], [&](auto tag) {
    using I = typename decltype(tag)::type;
    const auto i = golden_tensor<I>(tensors[1], device);
    const std::int64_t b = c["batch_dims"];
    const auto run = [&] { return ts::gather_nd(params, i, {.batch_dims = b}); };
    if (c.contains("error")) {
      std::string message = c["message"];
      // TF's core words: after the function-node prefix, before ", node name".
      if (const auto at = message.find("}} "); at != std::string::npos) {
        message = message.substr(at + 3);
      }
      if (const auto at = message.find(", node"); at != std::string::npos) message.resize(at);
      const bool words = message.find("does not index into") != std::string::npos;
      EXPECT_TRUE(throws_with<ts::Error>(run, words ? std::initializer_list<std::string>{message}
                                                    : std::initializer_list<std::string>{}))
          << what;
      if (words) {  // Ignore: zeros for that row instead
        const auto z =
            ts::gather_nd(params, i, {.batch_dims = b, .out_of_bounds = ts::OutOfBounds::Ignore});
        const auto v = z.cpu().to_vector();
        EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](T e) { return e == T{}; })) << what;
      }
      return;
    }
    expect_tensor(run(), shape_of(c["out"]), decode_all<T>(c["out"]), what);
  });
}

// ---- reference loops ------------------------------------------------------------------------

/// Row-major coordinates of flat position p in `shape`.
std::vector<std::int64_t> coords_of(std::int64_t p, const ts::Shape& shape) {
  std::vector<std::int64_t> c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = p % shape[d];
    p /= shape[d];
  }
  return c;
}
std::int64_t flat_of(const std::vector<std::int64_t>& c, const ts::Shape& shape) {
  std::int64_t p = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) p = p * shape[d] + c[d];
  return p;
}

/// index_select, gather and take_along_dim (as gather, no broadcast) by their definitions.
template <class T, class I>
std::vector<T> reference_gather(const std::vector<T>& x, const ts::Shape& xs,
                                const std::vector<I>& idx, const ts::Shape& is, int dim,
                                bool select) {
  ts::Shape out = select ? xs : is;
  if (select) out[static_cast<std::size_t>(dim)] = static_cast<std::int64_t>(idx.size());
  std::vector<T> r(static_cast<std::size_t>(out.numel()));
  for (std::int64_t p = 0; p < out.numel(); ++p) {
    auto c = coords_of(p, out);
    const auto e = select ? idx[static_cast<std::size_t>(c[static_cast<std::size_t>(dim)])]
                          : idx[static_cast<std::size_t>(p)];
    c[static_cast<std::size_t>(dim)] = static_cast<std::int64_t>(e);
    r[static_cast<std::size_t>(p)] = x[static_cast<std::size_t>(flat_of(c, xs))];
  }
  return r;
}

template <class T, class I>
void random_gathers_on(ts::Device device, std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const ts::Shape xs = tessera_test::random_shape(rng, 4, 1, 5);
    if (xs.size() == 0) continue;
    const auto values = tessera_test::random_values<T>(xs.numel(), rng);
    const int dim = static_cast<int>(rng() % xs.size());
    const std::int64_t n = xs[static_cast<std::size_t>(dim)];
    const auto layout = tessera_test::random_layout(xs.size(), rng);
    const auto x =
        tessera_test::make_strided(values, xs, layout, device, tessera_test::sentinel_value<T>());
    const std::string what = "shape " + xs.str() + " dim " + std::to_string(dim) + " layout " +
                             x.name + " trial " + std::to_string(trial);
    // index_select: a 1-D index with repeats.
    std::vector<I> sel(static_cast<std::size_t>(rng() % 7));
    for (auto& e : sel)
      e = static_cast<I>(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
    const auto sel_t =
        ts::Tensor<I>::from_vector(sel, {static_cast<std::int64_t>(sel.size())}, device);
    ts::Shape ss = xs;
    ss[static_cast<std::size_t>(dim)] = static_cast<std::int64_t>(sel.size());
    expect_tensor(x.view.index_select(dim, sel_t), ss,
                  reference_gather<T, I>(values, xs, sel, {}, dim, true), "index_select " + what);
    // gather: index of x's shape (some extents smaller), a strided view of it too.
    ts::Shape is = xs;
    for (std::size_t d = 0; d < is.size(); ++d) {
      if (static_cast<int>(d) != dim)
        is[d] = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(is[d]));
    }
    std::vector<I> gi(static_cast<std::size_t>(is.numel()));
    for (auto& e : gi)
      e = static_cast<I>(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
    const auto gl = tessera_test::random_layout(is.size(), rng);
    const auto gi_t = tessera_test::make_strided(gi, is, gl, device, I{-99});
    // gather's reference reads x at the index's coordinates, with dim replaced.
    std::vector<T> want(gi.size());
    for (std::int64_t p = 0; p < is.numel(); ++p) {
      auto c = coords_of(p, is);
      c[static_cast<std::size_t>(dim)] = static_cast<std::int64_t>(gi[static_cast<std::size_t>(p)]);
      want[static_cast<std::size_t>(p)] = values[static_cast<std::size_t>(flat_of(c, xs))];
    }
    expect_tensor(x.view.gather(dim, gi_t.view), is, want,
                  "gather " + what + " index " + gi_t.name);
    // take: flat positions, negative ones too.
    std::vector<I> flat(5);
    for (auto& e : flat) {
      e = static_cast<I>(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(xs.numel())) -
                         (rng() % 2 ? xs.numel() : 0));
    }
    std::vector<T> taken;
    for (I e : flat) taken.push_back(values[static_cast<std::size_t>(e < 0 ? e + xs.numel() : e)]);
    expect_tensor(x.view.take(ts::Tensor<I>::from_vector(flat, {5}, device)), {5}, taken,
                  "take " + what);
  }
}

}  // namespace

class Indexing : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(Indexing);

TEST_P(Indexing, EveryGoldenCaseMatchesPyTorch) {
  int ran = 0;
  for (const auto& c : golden("indexing_golden.json")["cases"]) {
    tessera_test::with_dtype(c["tensors"][0]["dtype"].get<std::string>(), [&](auto tag) {
      run_torch_case<typename decltype(tag)::type>(c, device());
      ++ran;
    });
  }
  EXPECT_GT(ran, 500);
}

TEST_P(Indexing, EveryGatherNdGoldenCaseMatchesTensorFlow) {
  int ran = 0;
  for (const auto& c : golden("gather_nd_golden.json")["cases"]) {
    tessera_test::with_dtype(c["tensors"][0]["dtype"].get<std::string>(), [&](auto tag) {
      run_tf_case<typename decltype(tag)::type>(c, device());
      ++ran;
    });
  }
  EXPECT_GT(ran, 200);
}

TEST_P(Indexing, RandomShapesViewsAndIndexTypesMatchReference) {
  const int trials = device().is_cpu() ? 20 : 8;
  random_gathers_on<float, std::int64_t>(device(), 1, trials);
  random_gathers_on<std::int16_t, std::int32_t>(device(), 2, trials);
  if (device().is_cpu()) {
    random_gathers_on<double, std::int32_t>(device(), 3, trials);
    random_gathers_on<bool, std::int64_t>(device(), 4, trials);
  }
}

// The nonzero page's use case and the masks: x[x.nonzero(as_tuple)], x[mask] over leading
// dims of strided views (the folded and the per-dim paths), masked_select broadcasting.
TEST_P(Indexing, MasksAndNonzeroTuplesMatchReference) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    const ts::Shape xs = {1 + static_cast<std::int64_t>(rng() % 5),
                          1 + static_cast<std::int64_t>(rng() % 6),
                          1 + static_cast<std::int64_t>(rng() % 3)};
    const auto values = tessera_test::random_values<float>(xs.numel(), rng);
    for (const auto& x : tessera_test::all_layouts(values, xs, device())) {
      const std::string what = "shape " + xs.str() + " " + x.name;
      std::vector<float> nonzero_values;
      for (float v : values) {
        if (v != 0.0f) nonzero_values.push_back(v);
      }
      expect_tensor(x.view.index(ts::eval(x.view != 0.0f).nonzero(ts::as_tuple)),
                    {static_cast<std::int64_t>(nonzero_values.size())}, nonzero_values,
                    "x[x.nonzero(as_tuple)] " + what);
      // x[mask] with a mask over the first two dims: rows of the last dim.
      std::vector<bool> m(static_cast<std::size_t>(xs[0] * xs[1]));
      std::vector<float> rows;
      for (std::size_t p = 0; p < m.size(); ++p) {
        m[p] = rng() % 2 == 0;
        if (!m[p]) continue;
        for (std::int64_t k = 0; k < xs[2]; ++k) {
          rows.push_back(values[p * static_cast<std::size_t>(xs[2]) + static_cast<std::size_t>(k)]);
        }
      }
      const auto mask = ts::Tensor<bool>::from_vector(m, {xs[0], xs[1]}, device());
      const auto count = static_cast<std::int64_t>(rows.size()) / xs[2];
      expect_tensor(x.view.index(mask), {count, xs[2]}, rows, "x[mask] " + what);
      // masked_select with a mask broadcast over the first dim.
      std::vector<bool> mb(static_cast<std::size_t>(xs[1] * xs[2]));
      for (auto&& b : mb) b = rng() % 3 == 0;
      std::vector<float> selected;
      for (std::int64_t i = 0; i < xs.numel(); ++i) {
        if (mb[static_cast<std::size_t>(i % (xs[1] * xs[2]))])
          selected.push_back(values[static_cast<std::size_t>(i)]);
      }
      expect_tensor(
          x.view.masked_select(ts::Tensor<bool>::from_vector(mb, {xs[1], xs[2]}, device())),
          {static_cast<std::int64_t>(selected.size())}, selected, "masked_select " + what);
    }
  }
}

// Index tensors broadcast together; negative entries wrap once; trailing dims follow.
TEST_P(Indexing, AdvancedIndexBroadcastsAndWraps) {
  const auto x = ts::Tensor<std::int64_t>::arange(0, 24, 1, device()).reshape({4, 3, 2});
  const auto rows = ts::Tensor<std::int64_t>::from_vector({0, -1, 2}, {3, 1}, device());
  const auto cols =
      ts::Tensor<std::int32_t>::from_vector({2, -3}, {2}, device()).cast<std::int64_t>();
  const auto r = x.index({rows, cols});
  std::vector<std::int64_t> want;
  for (std::int64_t i : {0, 3, 2}) {
    for (std::int64_t j : {2, 0}) {
      for (std::int64_t k = 0; k < 2; ++k) want.push_back(i * 6 + j * 2 + k);
    }
  }
  expect_tensor(r, {3, 2, 2}, want, "x[rows, cols]");
  // A transposed x and a stepped index view.
  const auto xt = x.transpose(0, 2);  // (2, 3, 4)
  const auto step =
      ts::Tensor<std::int64_t>::from_vector({1, 9, 0, 9, 1}, {5}, device()).slice(0, 0, 5, 2);
  expect_tensor(xt.index(std::vector<ts::Tensor<std::int64_t>>{step}), {3, 3, 4},
                xt.contiguous()
                    .index(std::vector<ts::Tensor<std::int64_t>>{step.contiguous()})
                    .cpu()
                    .to_vector(),
                "transposed x, stepped index");
}

// The gather kernel's parallel parts: large outputs at 1-4 host threads give the reference's
// answer, and the bad entry reported is the first one whatever the threads.
TEST_P(Indexing, LargeGathersAndTheFirstBadEntry) {
  const std::int64_t rows = 200000, width = 3;
  std::mt19937_64 rng(11);
  const auto values = tessera_test::random_values<float>(rows * width, rng);
  const auto x = ts::Tensor<float>::from_vector(values, {rows, width}, device());
  std::vector<std::int64_t> pick(static_cast<std::size_t>(rows));
  for (auto& e : pick) e = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(rows));
  const auto idx = ts::Tensor<std::int64_t>::from_vector(pick, {rows}, device());
  std::vector<float> want;
  for (std::int64_t e : pick) {
    for (std::int64_t k = 0; k < width; ++k)
      want.push_back(values[static_cast<std::size_t>(e * width + k)]);
  }
  auto bad = pick;
  bad[150001] = 700000;  // out of range for index_select and for take (600000 elements)
  bad[170000] = -700000;
  const auto bad_idx = ts::Tensor<std::int64_t>::from_vector(bad, {rows}, device());
  tessera_test::with_host_threads({1, 2, 4}, [&] {
    expect_tensor(x.index_select(0, idx), {rows, width}, want, "index_select rows");
    expect_tensor(x.index(idx), {rows, width}, want, "x[idx]");
    EXPECT_TRUE(throws_with<ts::IndexError>(
        [&] { x.index_select(0, bad_idx); },
        {"index_select", "index 700000", "dimension 0", "size 200000"}));
    EXPECT_TRUE(throws_with<ts::IndexError>([&] { x.take(bad_idx); },
                                            {"take", "index 700000", "600000 elements"}));
  });
}

TEST_P(Indexing, GatherNdSlicesBatchesAndIgnore) {
  const auto p = ts::Tensor<float>::arange(0, 24, 1, device()).reshape({2, 3, 4});
  const auto rows = ts::Tensor<std::int32_t>::from_vector({1, 2, 0, 0, 1, 9}, {3, 2}, device());
  // Slices (K = 2 < 3): one row of 4 per index row; the bad row is zeros with Ignore.
  const auto g = ts::gather_nd(p, rows, {.out_of_bounds = ts::OutOfBounds::Ignore});
  expect_tensor(g, {3, 4}, {20, 21, 22, 23, 0, 1, 2, 3, 0, 0, 0, 0}, "slices, Ignore");
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] { p.gather_nd(rows); },
      {"gather_nd", "indices[2] = [1, 9]", "does not index into param shape [2,3,4]"}));
  // batch_dims 1: each batch row picks from its own params slice.
  const auto b = ts::Tensor<std::int64_t>::from_vector({2, 3, 0, 1}, {2, 2}, device());
  expect_tensor(p.gather_nd(b, {.batch_dims = 1}), {2}, {11, 13}, "batch_dims 1");
}

TEST_P(Indexing, CatAndStack) {
  const auto a = ts::Tensor<double>::from_vector({1, 2, 3, 4, 5, 6}, {2, 3}, device());
  const auto b = ts::Tensor<double>::from_vector({7, 8, 9}, {1, 3}, device());
  expect_tensor(ts::cat({a, b}, 0), {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, "cat dim 0");
  expect_tensor(ts::cat({a.transpose(0, 1), b.transpose(0, 1)}, 1), {3, 3},
                {1, 4, 7, 2, 5, 8, 3, 6, 9}, "cat of transposed views, dim 1");
  expect_tensor(ts::stack({a, a}, 1), {2, 2, 3}, {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6},
                "stack dim 1");
  expect_tensor(ts::stack({b.select(0, 0), b.select(0, 0)}, -1), {3, 2}, {7, 7, 8, 8, 9, 9},
                "stack dim -1");
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::cat({a, b}, 1);
      },
      {"cat", "tensor 1", "[1, 3]", "tensor 0", "[2, 3]"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::stack({a, b});
      },
      {"stack", "tensor 1", "[1, 3]", "[2, 3]"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::cat(std::vector<ts::Tensor<double>>{}); },
                                          {"cat", "non-empty"}));
  if (ts::cuda_available()) {
    const auto other = device().is_cpu() ? b.to(ts::Device::cuda(0)) : b.cpu();
    EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::cat({a, other}); }, {"cat", "tensor 1"}));
  }
}

TEST_P(Indexing, ErrorsNameOpArgumentAndValues) {
  const auto x = ts::Tensor<float>::ones({3, 4}, device());
  const auto i = ts::Tensor<std::int64_t>::from_vector({0, 4}, {2}, device());
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] { x.index(i); }, {"index", "index 4 is out of bounds for dimension 0 with size 3"}));
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] {
        x.gather(1, ts::eval(i.reshape({1, 2}) + std::int64_t{1}));
      },
      {"gather", "index 5", "dimension 1", "size 4"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { x.gather(0, i); },
                                          {"gather", "same number of dimensions"}));
  EXPECT_TRUE(throws_with<ts::IndexError>([&] { x.index_select(2, i); },
                                          {"index_select", "Dimension out of range", "got 2"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>([&] { x.index(ts::Tensor<bool>::ones({4}, device())); },
                                          {"index", "mask [4]", "indexed tensor [3, 4]"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        x.index({i, ts::Tensor<std::int64_t>::zeros({3}, device())});
      },
      {"index", "could not be broadcast", "[2], [3]"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        x.gather_nd(ts::Tensor<std::int64_t>::zeros({2, 3}, device()));
      },
      {"gather_nd", "saw: 3 vs. 2"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { x.gather_nd(i, {.batch_dims = 1}); },
                                          {"gather_nd", "batch_dims = 1"}));
  if (ts::cuda_available()) {
    const auto other = device().is_cpu() ? i.to(ts::Device::cuda(0)) : i.cpu();
    EXPECT_TRUE(throws_with<ts::DeviceError>([&] { x.index_select(0, other); },
                                             {"index_select", "index is on"}));
  }
}

// index_put_: duplicates without accumulate, the last write wins (in index order, on every
// device); with accumulate every one adds; values viewing x read x as it was; a bad entry
// leaves x unchanged; strided x.
TEST_P(Indexing, IndexPutAndMaskedFillInPlace) {
  const auto x = ts::Tensor<float>::zeros({3, 4}, device());
  const auto rows = ts::Tensor<std::int64_t>::from_vector({1, 1, 2, 1}, device());
  x.index_put_({rows}, ts::Tensor<float>::from_vector({1, 2, 3, 4}, {4, 1}, device()));
  expect_tensor(x, {3, 4}, {0, 0, 0, 0, 4, 4, 4, 4, 3, 3, 3, 3}, "last write wins");
  x.index_put_({rows}, 0.5f, /*accumulate=*/true);
  expect_tensor(x, {3, 4}, {0, 0, 0, 0, 5.5f, 5.5f, 5.5f, 5.5f, 3.5f, 3.5f, 3.5f, 3.5f},
                "accumulate adds every duplicate");
  // values = rows 0 and 1 of x, written into rows 1 and 2: read before anything is written
  // (row 2 gets row 1 as it was, not row 0 copied into it).
  const auto down = ts::Tensor<std::int32_t>::from_vector({1, 2}, device());
  x.index_put_({down}, x.slice(0, 0, 2));
  expect_tensor(x, {3, 4}, {0, 0, 0, 0, 0, 0, 0, 0, 5.5f, 5.5f, 5.5f, 5.5f}, "values viewing x");
  const auto before = x.cpu().to_vector();
  EXPECT_TRUE(throws_with<ts::IndexError>(
      [&] {
        x.index_put_({ts::Tensor<std::int64_t>::from_vector({0, 3}, device())}, 1.0f);
      },
      {"index_put_", "index 3 is out of bounds for dimension 0 with size 3"}));
  EXPECT_EQ(x.cpu().to_vector(), before) << "nothing written on error";
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] { x.index_put_({rows}, ts::Tensor<float>::ones({3}, device())); },
      {"index_put_", "value tensor of shape [3]", "[4, 4]"}));
  // A transposed x: written through its strides.
  const auto base = ts::Tensor<std::int64_t>::zeros({2, 3}, device());
  const auto t = base.transpose(0, 1);  // (3, 2)
  t.index_put_({ts::Tensor<std::int64_t>::from_vector({2}, device()),
                ts::Tensor<std::int64_t>::from_vector({-1}, device())},
               std::int64_t{9});
  expect_tensor(base, {2, 3}, {0, 0, 0, 0, 0, 9}, "transposed x");
  // masked_fill_: the mask broadcasts; a mask that would grow x is refused.
  base.masked_fill_(ts::Tensor<bool>::from_vector({true, false, true}, device()), 7);
  expect_tensor(base, {2, 3}, {7, 0, 7, 7, 0, 7}, "masked_fill_ broadcast");
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        base.masked_fill_(ts::Tensor<bool>::ones({2, 2, 3}, device()), 1);
      },
      {"masked_fill_", "[2, 2, 3]", "[2, 3]"}));
}

// The spellings of the API contract's indexing block; expressions as inputs.
TEST_P(Indexing, ContractSpellings) {
  const auto x = ts::Tensor<float>::from_vector({0, 1, 0, 2, 3, 0}, {2, 3}, device());
  auto nzv = x.index(x.nonzero(ts::as_tuple));
  const auto rows = ts::Tensor<std::int64_t>::from_vector({1, 0}, device());
  const auto cols = ts::Tensor<std::int64_t>::from_vector({2, 1}, device());
  auto p = x.index({rows, cols});
  const auto mask = ts::Tensor<bool>::from_vector({true, false}, device());
  auto mk = x.index(mask);
  auto ms = x.masked_select(ts::Tensor<bool>::from_vector({true, false, true}, device()));
  const auto idx = ts::Tensor<std::int64_t>::from_vector({1, 1}, device());
  auto r = x.index_select(/*dim*/ 0, idx);
  const auto idx2d = ts::Tensor<std::int64_t>::from_vector({2, 0, 1, 1}, {2, 2}, device());
  auto g = x.gather(/*dim*/ 1, idx2d);
  auto f = x.take(ts::Tensor<std::int64_t>::from_vector({-1, 3}, device()));
  auto srt = x.take_along_dim(x.argsort(1), /*dim*/ 1);
  const auto params = x;
  const auto indices = ts::Tensor<std::int64_t>::from_vector({1, 2, 0, 1}, {2, 2}, device());
  auto gn = params.gather_nd(indices);
  auto gb = ts::gather_nd(params, ts::Tensor<std::int64_t>::from_vector({2, 0}, {2, 1}, device()),
                          {.batch_dims = 1, .out_of_bounds = ts::OutOfBounds::Ignore});
  const auto y = x.clone();
  const auto values = ts::Tensor<float>::from_vector({5, 6}, device());
  y.index_put_({rows, cols}, values);
  y.index_put_({rows, cols}, values, /*accumulate=*/true);
  y.masked_fill_(ts::Tensor<bool>::from_vector({false, true, false}, device()), 0.0f);
  expect_tensor(y, {2, 3}, {0, 0, 0, 2, 0, 10}, "index_put_ twice, masked_fill_");
  auto c = ts::cat({x, x, x}, /*dim*/ 0);
  auto st = ts::stack({x, x}, /*dim*/ 1);
  expect_tensor(nzv, {3}, {1, 2, 3}, "nonzero values");
  expect_tensor(p, {2}, {0, 1}, "x[rows, cols]");
  expect_tensor(mk, {1, 3}, {0, 1, 0}, "x[mask]");
  expect_tensor(ms, {4}, {0, 0, 2, 0}, "masked_select");
  expect_tensor(r, {2, 3}, {2, 3, 0, 2, 3, 0}, "index_select");
  expect_tensor(g, {2, 2}, {0, 0, 3, 3}, "gather");
  expect_tensor(f, {2}, {0, 2}, "take");
  expect_tensor(srt, {2, 3}, {0, 0, 1, 0, 2, 3}, "take_along_dim(argsort)");
  expect_tensor(gn, {2}, {0, 1}, "gather_nd");
  expect_tensor(gb, {2}, {0, 2}, "gather_nd batch_dims 1");
  EXPECT_EQ(c.shape(), ts::Shape({6, 3}));
  EXPECT_EQ(st.shape(), ts::Shape({2, 2, 3}));
  // Expressions are evaluated once, then gathered.
  expect_tensor((x * 2.0f + 1.0f).index_select(1, idx), {2, 2}, {3, 3, 7, 7}, "expression");
  expect_tensor(ts::take_along_dim(x, ts::Tensor<std::int64_t>::from_vector({5, -6}, device())),
                {2}, {0, 0}, "flat take_along_dim");
  // Masks may be bool expressions, evaluated once: x[x > 1], masked_select(x > 1).
  expect_tensor(x.index(x > 1.0f), {2}, {2, 3}, "x[x > 1]");
  expect_tensor(ts::index(x * 2.0f, x > 1.0f), {2}, {4, 6}, "(x * 2)[x > 1]");
  expect_tensor(x.masked_select(x.select(0, 0) < 0.5f), {4}, {0, 0, 2, 0}, "masked_select(expr)");
}
