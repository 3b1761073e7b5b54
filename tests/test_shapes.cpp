// SPDX-License-Identifier: BSD-3-Clause
// Shapes and views (API part 3): every op against PyTorch's answers (tools/golden/
// gen_shapes.py) on every device present, view identity through the storage, writes through
// views, the read-only rule of expanded tensors, expressions as inputs, and the factories (the
// other op families on the new layouts: test_shapes_layouts.cpp).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/golden.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
using tessera_test::decode;
using tessera_test::decode_all;
using tessera_test::golden;
using tessera_test::shape_of;

namespace {

std::vector<std::int64_t> ints(const nlohmann::json& j) {
  return j.get<std::vector<std::int64_t>>();
}
ts::Shape shape_arg(const nlohmann::json& j) {
  const auto v = ints(j);
  return ts::Shape(v.begin(), v.end());
}

/// The golden input: arange(numel) in `shape`, transposed for layout "T".
ts::Tensor<float> arange_input(const nlohmann::json& c, ts::Device device) {
  const ts::Shape shape = shape_arg(c["shape"]);
  auto x = ts::Tensor<float>::arange(0.0f, static_cast<float>(shape.numel())).reshape(shape);
  x = x.to(device);
  return c["layout"] == "T" ? x.transpose(0, 1) : x;
}

/// Runs golden case `c` on x; one tensor, or several (unbind, split, chunk).
std::vector<ts::Tensor<float>> run_case(const nlohmann::json& c, const ts::Tensor<float>& x) {
  const std::string op = c["op"];
  const auto& a = c["args"];
  using V = std::vector<ts::Tensor<float>>;
  if (op == "permute") return {x.permute(ints(a["dims"]))};
  if (op == "movedim") return {x.movedim(a["source"].get<std::int64_t>(), a["destination"])};
  if (op == "movedim_list") return {x.movedim(ints(a["source"]), ints(a["destination"]))};
  if (op == "unsqueeze") return {x.unsqueeze(a["dim"])};
  if (op == "squeeze") return {x.squeeze()};
  if (op == "squeeze_dim") return {x.squeeze(a["dim"].get<std::int64_t>())};
  if (op == "squeeze_dims") return {x.squeeze(ints(a["dims"]))};
  if (op == "flatten") return {x.flatten(a["start"], a["end"])};
  if (op == "unflatten") return {x.unflatten(a["dim"], shape_arg(a["sizes"]))};
  if (op == "view") return {x.view(shape_arg(a["shape"]))};
  if (op == "reshape") return {x.reshape(shape_arg(a["shape"]))};
  if (op == "expand") return {x.expand(shape_arg(a["shape"]))};
  if (op == "narrow") return {x.narrow(a["dim"], a["start"], a["length"])};
  if (op == "t") return {x.t()};
  if (op == "mT") return {x.mT()};
  if (op == "diagonal") return {x.diagonal(a["offset"], a["dim1"], a["dim2"])};
  if (op == "unbind") return x.unbind(a["dim"]);
  if (op == "split") return ts::split(x, a["size"].get<std::int64_t>(), a["dim"]);
  if (op == "split_sizes") return ts::split(x, ints(a["sizes"]), a["dim"]);
  if (op == "chunk") return x.chunk(a["chunks"], a["dim"]);
  if (op == "unfold") return {x.unfold(a["dim"], a["size"], a["step"])};
  if (op == "flip") return {x.flip(ints(a["dims"]))};
  if (op == "roll") return {ts::roll(x, ints(a["shifts"]), ints(a["dims"]))};
  if (op == "roll_flat") return {ts::roll(x, a["shift"].get<std::int64_t>())};
  if (op == "repeat") return {x.repeat(ints(a["repeats"]))};
  if (op == "tile") return {ts::tile(x, ints(a["reps"]))};
  if (op == "tril") return {ts::tril(x, a["k"])};
  if (op == "triu") return {ts::triu(x, a["k"])};
  if (op == "diag") return {ts::diag(x, a["k"])};
  ADD_FAILURE() << "unknown golden op " << op;
  return V{};
}

void expect_packed(const ts::Tensor<float>& got, const nlohmann::json& want,
                   const std::string& what) {
  EXPECT_EQ(got.shape(), shape_of(want)) << what;
  if (got.shape() == shape_of(want)) {
    EXPECT_EQ(got.to_vector(), decode_all<float>(want)) << what;
  }
}

bool shares_storage(const ts::Tensor<float>& x, const ts::Tensor<float>& y) {
  return x.storage().data() == y.storage().data();
}

}  // namespace

TEST(ShapesGolden, EveryCaseMatchesPyTorchOnEveryDevice) {
  const auto& cases = golden("shapes_golden.json")["cases"];
  ASSERT_GT(cases.size(), 150u);
  for (const auto device : tessera_test::available_devices()) {
    for (const auto& c : cases) {
      const std::string what = c.dump() + " on " + (device.is_cpu() ? "cpu" : "cuda:0");
      const auto x = arange_input(c, device);
      const auto before = x.to_vector();
      if (c.contains("error")) {
        EXPECT_THROW(run_case(c, x), ts::Error) << what;
        continue;
      }
      std::vector<ts::Tensor<float>> got;
      ASSERT_NO_THROW(got = run_case(c, x)) << what;
      EXPECT_EQ(x.to_vector(), before) << what;  // the input is never changed
      const auto& outs =
          c.contains("outputs") ? c["outputs"] : nlohmann::json::array({c["output"]});
      ASSERT_EQ(got.size(), outs.size()) << what;
      for (std::size_t i = 0; i < got.size(); ++i) {
        expect_packed(got[i], outs[i], what);
        EXPECT_EQ(got[i].device(), device) << what;
        // A view where PyTorch has one (and a copy where it copies), seen through the storage.
        if (x.numel() > 0 && got[i].numel() > 0) {
          EXPECT_EQ(shares_storage(x, got[i]), c["view"].get<bool>()) << what << " output " << i;
        }
      }
    }
  }
}

TEST(ShapesGolden, MeshgridMatchesPyTorch) {
  for (const auto device : tessera_test::available_devices()) {
    for (const auto& c : golden("shapes_golden.json")["meshgrid"]) {
      std::vector<ts::Tensor<float>> inputs;
      const auto sizes = ints(c["sizes"]);
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        inputs.push_back(
            ts::Tensor<float>::arange(0.0f, static_cast<float>(sizes[i]), 1.0f, device) +
            10.0f * static_cast<float>(i));
      }
      const auto grids =
          ts::meshgrid(inputs, c["indexing"] == "xy" ? ts::Indexing::XY : ts::Indexing::IJ);
      ASSERT_EQ(grids.size(), c["outputs"].size());
      for (std::size_t i = 0; i < grids.size(); ++i) {
        expect_packed(grids[i], c["outputs"][i], c.dump());
        if (grids[i].numel() > 0) {
          EXPECT_TRUE(shares_storage(grids[i], inputs[i]));
        }
      }
    }
  }
}

namespace {
template <class T>
void check_factory(const nlohmann::json& c, ts::Device device) {
  const std::string op = c["op"];
  ts::Tensor<T> got;
  if (op == "linspace") {
    got = ts::Tensor<T>::linspace(decode<T>(c["start"]), decode<T>(c["end"]), c["steps"], device);
  } else if (op == "logspace") {
    got = ts::Tensor<T>::logspace(decode<T>(c["start"]), decode<T>(c["end"]), c["steps"],
                                  c["base"].get<double>(), device);
  } else {
    got = ts::Tensor<T>::eye(c["n"], c["m"], device);
  }
  EXPECT_EQ(got.device(), device);
  ASSERT_EQ(got.shape(), shape_of(c["output"])) << c.dump();
  const auto want = decode_all<T>(c["output"]);
  const auto have = got.to_vector();
  for (std::size_t i = 0; i < want.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      // PyTorch's vector kernel fuses the multiply-add and its scalar one does not;
      // either rounding is accepted (a few ulp of the larger end point).
      const T scale = std::max<T>(std::abs(want[i]), T(1));
      EXPECT_NEAR(have[i], want[i], scale * 4 * std::numeric_limits<T>::epsilon())
          << c.dump() << " at " << i;
    } else {
      EXPECT_EQ(have[i], want[i]) << c.dump() << " at " << i;
    }
  }
  if (op == "linspace" && want.size() > 1 && std::is_floating_point_v<T>) {
    EXPECT_EQ(have.front(), want.front()) << "the ends come back exactly: " << c.dump();
    EXPECT_EQ(have.back(), want.back()) << "the ends come back exactly: " << c.dump();
  }
}
}  // namespace

TEST(ShapesGolden, LinspaceLogspaceAndEyeMatchPyTorchPerDtype) {
  for (const auto device : tessera_test::available_devices()) {
    for (const auto& c : golden("shapes_golden.json")["factories"]) {
      const std::string dtype = c["dtype"];
      if (dtype == "uint8") check_factory<std::uint8_t>(c, device);
      if (dtype == "int8") check_factory<std::int8_t>(c, device);
      if (dtype == "int16") check_factory<std::int16_t>(c, device);
      if (dtype == "int32") check_factory<std::int32_t>(c, device);
      if (dtype == "int64") check_factory<std::int64_t>(c, device);
      if (dtype == "float32") check_factory<float>(c, device);
      if (dtype == "float64") check_factory<double>(c, device);
    }
  }
}

TEST(Shapes, FactoryErrorsAndDeviceForms) {
  EXPECT_THROW(ts::Tensor<float>::linspace(0.0f, 1.0f, -1), ts::ValueError);
  EXPECT_THROW(ts::Tensor<double>::logspace(0.0, 1.0, -2), ts::ValueError);
  EXPECT_THROW(ts::Tensor<float>::eye(-1), ts::ShapeError);
  EXPECT_THROW(ts::Tensor<float>::eye(2, -3), ts::ShapeError);
  EXPECT_EQ(ts::Tensor<double>::logspace(0.0, 3.0, 4).to_vector(),
            (std::vector<double>{1, 10, 100, 1000}));
  EXPECT_EQ(ts::Tensor<double>::logspace(0.0, 3.0, 4, ts::Device::cpu()).to_vector(),
            (std::vector<double>{1, 10, 100, 1000}));
  // Float logspace: the same bits on every device, each base^e correctly rounded from the
  // double computation (within 1 ulp of base^e in long double; issue 65).
  for (const auto& [start, end, steps, base] :
       {std::tuple{-3.0f, 7.5f, 41, 10.0}, {0.1f, 2.3f, 17, 2.0}, {-20.0f, 20.0f, 9, 3.7}}) {
    const auto host = ts::Tensor<float>::logspace(start, end, steps, base).to_vector();
    for (const auto device : tessera_test::available_devices()) {
      EXPECT_EQ(ts::Tensor<float>::logspace(start, end, steps, base, device).cpu().to_vector(),
                host);
    }
    const double step = (double(end) - double(start)) / double(steps - 1);
    for (int i = 0; i < steps; ++i) {
      const double e = i < steps / 2 ? start + step * i : end - step * (steps - i - 1);
      const auto want = static_cast<long double>(
          std::pow(static_cast<long double>(base), static_cast<long double>(e)));
      const float got = host[static_cast<std::size_t>(i)];
      EXPECT_LE(std::fabs(static_cast<long double>(got) - want),
                std::fabs(static_cast<long double>(std::nextafter(got, INFINITY)) - got))
          << "logspace(" << start << ", " << end << ", " << steps << ", " << base << ")[" << i
          << "]";
    }
  }
  EXPECT_EQ(ts::Tensor<bool>::eye(2).to_vector(), (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(ts::Tensor<std::int64_t>::eye(2, 3).to_vector(),
            (std::vector<std::int64_t>{1, 0, 0, 0, 1, 0}));
}

// ---- views: identity, writes, the read-only rule ------------------------------------------------

TEST(ShapesViews, EveryViewOpSharesStorageAndAllocatesNothing) {
  for (const auto device : tessera_test::available_devices()) {
    const auto x = ts::Tensor<float>::arange(0.0f, 24.0f, 1.0f, device).reshape({2, 3, 4});
    const float* base = x.data_ptr();
    const auto same = [&](const ts::Tensor<float>& v) {
      return v.storage().data() == x.storage().data();
    };
    ts::reset_peak_memory_stats(device);
    const std::size_t before = ts::memory_stats(device).current_bytes;
    EXPECT_TRUE(same(x.permute({2, 0, 1})));
    EXPECT_TRUE(same(x.movedim(0, -1)));
    EXPECT_TRUE(same(x.unsqueeze(1)));
    EXPECT_TRUE(same(x.unsqueeze(1).squeeze()));
    EXPECT_TRUE(same(x.unsqueeze(0).squeeze(0)));
    EXPECT_TRUE(same(x.flatten()));
    EXPECT_TRUE(same(x.flatten(1, 2)));
    EXPECT_TRUE(same(x.unflatten(2, {2, 2})));
    EXPECT_TRUE(same(x.view({6, 4})));
    EXPECT_TRUE(same(x.select(0, 0).unsqueeze(0).expand({4, 3, 4})));
    EXPECT_TRUE(same(ts::broadcast_to(x, {5, 2, 3, 4})));
    EXPECT_TRUE(same(x.narrow(1, 1, 2)));
    EXPECT_TRUE(same(x.select(0, 1).t()));
    EXPECT_TRUE(same(x.mT()));
    EXPECT_TRUE(same(x.diagonal()));
    EXPECT_TRUE(same(x.diagonal(1, 1, 2)));
    EXPECT_TRUE(same(x.unfold(2, 2, 1)));
    for (const auto& part : x.unbind(1)) EXPECT_TRUE(same(part));
    for (const auto& part : ts::split(x, 2, 2)) EXPECT_TRUE(same(part));
    for (const auto& part : ts::split(x, {1, 3}, 2)) EXPECT_TRUE(same(part));
    for (const auto& part : x.chunk(3, 1)) EXPECT_TRUE(same(part));
    EXPECT_EQ(x.narrow(2, 1, 2).data_ptr(), base + 1);
    EXPECT_EQ(x.diagonal(1, 1, 2).data_ptr(), base + 1);
    // No view allocated tensor memory, not even for a moment.
    EXPECT_EQ(ts::memory_stats(device).peak_bytes, before);
    // view() refuses what only a copy could give; reshape copies it.
    EXPECT_THROW(x.transpose(0, 2).view({24}), ts::ShapeError);
    EXPECT_FALSE(same(x.transpose(0, 2).reshape({24})));
  }
}

TEST(ShapesViews, WritesThroughViewsReachTheBase) {
  for (const auto device : tessera_test::available_devices()) {
    auto x = ts::Tensor<float>::zeros({3, 3}, device);
    auto d = x.diagonal();
    d = d + 1.0f;  // writes in place: same shape and device
    EXPECT_EQ(x.to_vector(), (std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    auto col = x.permute({1, 0}).select(0, 2).unsqueeze(0);
    col = col + 5.0f;
    EXPECT_EQ(x.to_vector(), (std::vector<float>{1, 0, 5, 0, 1, 5, 0, 0, 6}));
    auto w = x.unfold(1, 2, 1);  // (3, 2, 2) windows
    EXPECT_EQ(w.at({2, 1, 1}), 6.0f);
    auto parts = x.chunk(3, 0);
    parts[1].masked_fill_(parts[1] > 0.5f, -1.0f);
    EXPECT_EQ(x.to_vector(), (std::vector<float>{1, 0, 5, 0, -1, -1, 0, 0, 6}));
  }
}

TEST(ShapesViews, ExpandedTensorsAreReadOnlyDestinations) {
  for (const auto device : tessera_test::available_devices()) {
    const auto row = ts::Tensor<float>::arange(0.0f, 4.0f, 1.0f, device);
    auto e = row.expand({3, 4});
    const auto before = row.to_vector();
    EXPECT_THROW(e = e + 1.0f, ts::ValueError);
    EXPECT_THROW(e.masked_fill_(e > 1.0f, 0.0f), ts::ValueError);
    EXPECT_THROW(e.index_put_({ts::tensor<std::int64_t>({0}, device)}, 7.0f), ts::ValueError);
    auto m = ts::meshgrid({row, row});
    EXPECT_THROW(m[0] = m[0] * 2.0f, ts::ValueError);
    EXPECT_EQ(row.to_vector(), before);  // nothing was written
    try {
      e = e * 2.0f;
      ADD_FAILURE() << "no error";
    } catch (const ts::ValueError& err) {
      EXPECT_NE(std::string(err.what()).find("single memory location"), std::string::npos);
      EXPECT_NE(std::string(err.what()).find("(3, 4)"), std::string::npos);
    }
    // Reading an expanded tensor is fine; a clone is writable.
    EXPECT_EQ(ts::sum(e), 18.0f);
    auto c = e.clone();
    c = c + 1.0f;
    EXPECT_EQ(ts::sum(c), 30.0f);
    // Extent-1 dims with stride 0 hold one element each: writable.
    auto one = row.narrow(0, 0, 1).expand({1, 1});
    EXPECT_NO_THROW(one = one + 1.0f);
    EXPECT_EQ(row.to_vector()[0], 1.0f);
  }
}

TEST(ShapesViews, ErrorsNameTheOpAndTheValues) {
  const auto x = ts::Tensor<float>::zeros({2, 3});
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const ts::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THROW(x.permute({0, 2}), ts::IndexError);
  EXPECT_THROW(x.permute({0}), ts::ShapeError);
  EXPECT_THROW(x.permute({1, 1}), ts::ValueError);
  EXPECT_THROW(x.unsqueeze(3), ts::IndexError);
  EXPECT_THROW(x.squeeze(2), ts::IndexError);
  EXPECT_THROW(x.expand({3, 3}), ts::ShapeError);
  EXPECT_THROW(x.expand({-1, 2, 3}), ts::ShapeError);
  EXPECT_THROW(x.narrow(1, 2, 2), ts::ShapeError);
  EXPECT_THROW(x.narrow(1, 4, 0), ts::IndexError);
  EXPECT_THROW(x.narrow(1, 0, -1), ts::ValueError);
  EXPECT_THROW(x.unsqueeze(0).t(), ts::ShapeError);
  EXPECT_THROW(x.select(0, 0).mT(), ts::ShapeError);
  EXPECT_THROW(x.diagonal(0, 1, -1), ts::ValueError);
  // Fewer than 2 dimensions: dim2 = 1 is out of range, IndexError in torch's words (issue 65).
  EXPECT_TRUE(tessera_test::throws_with<ts::IndexError>(
      [] { (void)ts::Tensor<float>::zeros({3}).diagonal(); },
      {"diagonal: ", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"}));
  EXPECT_THROW((void)ts::Tensor<float>::zeros({}).diagonal(), ts::IndexError);
  EXPECT_THROW(x.unfold(1, 4, 1), ts::ShapeError);
  EXPECT_THROW(x.unfold(1, 2, 0), ts::ValueError);
  EXPECT_THROW(x.split(0, 1), ts::ValueError);
  EXPECT_THROW(x.split({1, 1}, 1), ts::ShapeError);
  EXPECT_THROW(x.chunk(0), ts::ValueError);
  EXPECT_THROW(x.view({4, -1}), ts::ShapeError);
  EXPECT_THROW(x.unflatten(1, {2, 2}), ts::ShapeError);
  EXPECT_THROW(x.flip({0, 0}), ts::ValueError);
  EXPECT_THROW(x.repeat({2}), ts::ShapeError);
  EXPECT_THROW(ts::roll(x, {1, 2}, {0}), ts::ShapeError);
  EXPECT_THROW(ts::tril(ts::Tensor<float>::zeros({3})), ts::ShapeError);
  EXPECT_THROW(ts::diag(ts::Tensor<float>::zeros({2, 2, 2})), ts::ShapeError);
  EXPECT_THROW(ts::meshgrid({x, x}), ts::ShapeError);
  EXPECT_THROW(ts::Tensor<float>::zeros({1, 1, 1, 1, 1, 1, 1, 1}).unsqueeze(0), ts::ShapeError);
  const std::string expand = message([&] { (void)x.expand({4, 4}); });
  EXPECT_NE(expand.find("expand"), std::string::npos) << expand;
  EXPECT_NE(expand.find("(4, 4)"), std::string::npos) << expand;
  EXPECT_NE(expand.find("(2, 3)"), std::string::npos) << expand;
  const std::string permute = message([&] { (void)x.permute({0, 5}); });
  EXPECT_NE(permute.find("permute"), std::string::npos) << permute;
  EXPECT_NE(permute.find("5"), std::string::npos) << permute;
}

// ---- expressions as inputs ----------------------------------------------------------------------

TEST(ShapesExpressions, EveryMethodOfTheBlockTakesAnExpression) {
  for (const auto device : tessera_test::available_devices()) {
    const auto r = ts::Tensor<float>::arange(0.0f, 6.0f, 1.0f, device);
    const auto m = r.reshape({2, 3});
    // The pairwise-difference idiom.
    ts::Tensor<float> diff = (r / 2.0f).unsqueeze(1) - r.unsqueeze(0);
    EXPECT_EQ(diff.shape(), (ts::Shape{6, 6}));
    EXPECT_EQ(diff.at({4, 1}), 1.0f);
    EXPECT_EQ((m + 1.0f).permute({1, 0}).to_vector(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ((m * 2.0f).flip({1}).to_vector(), (std::vector<float>{4, 2, 0, 10, 8, 6}));
    EXPECT_EQ((m + 0.0f).t().shape(), (ts::Shape{3, 2}));
    EXPECT_EQ((m + 0.0f).mT().shape(), (ts::Shape{3, 2}));
    EXPECT_EQ((m - 1.0f).flatten().shape(), (ts::Shape{6}));
    EXPECT_EQ((r + 0.0f).unflatten(0, {3, 2}).shape(), (ts::Shape{3, 2}));
    EXPECT_EQ((r + 0.0f).view({3, 2}).shape(), (ts::Shape{3, 2}));
    EXPECT_EQ((r + 0.0f).reshape({2, -1}).shape(), (ts::Shape{2, 3}));
    EXPECT_EQ((m + 0.0f).movedim(0, 1).shape(), (ts::Shape{3, 2}));
    EXPECT_EQ((m + 0.0f).unsqueeze(0).squeeze().shape(), (ts::Shape{2, 3}));
    EXPECT_EQ((m + 0.0f).unsqueeze(0).squeeze(0).shape(), (ts::Shape{2, 3}));
    EXPECT_EQ((m + 0.0f).expand({4, 2, 3}).shape(), (ts::Shape{4, 2, 3}));
    EXPECT_EQ(ts::broadcast_to(m + 0.0f, {4, 2, 3}).shape(), (ts::Shape{4, 2, 3}));
    EXPECT_EQ((m + 0.0f).narrow(1, 1, 2).to_vector(), (std::vector<float>{1, 2, 4, 5}));
    EXPECT_EQ((m + 0.0f).diagonal().to_vector(), (std::vector<float>{0, 4}));
    EXPECT_EQ((m + 0.0f).unbind(0).size(), 2u);
    EXPECT_EQ((m + 0.0f).split(2, 1).size(), 2u);
    EXPECT_EQ((m + 0.0f).split({1, 2}, 1).size(), 2u);
    EXPECT_EQ((m + 0.0f).chunk(3, 1).size(), 3u);
    EXPECT_EQ((r + 0.0f).unfold(0, 2, 2).shape(), (ts::Shape{3, 2}));
    EXPECT_EQ((m + 0.0f).repeat({1, 2}).shape(), (ts::Shape{2, 6}));
    EXPECT_EQ((m + 0.0f).roll({1}, {1}).to_vector(), (std::vector<float>{2, 0, 1, 5, 3, 4}));
    EXPECT_EQ((m + 0.0f).tril().to_vector(), (std::vector<float>{0, 0, 0, 3, 4, 0}));
    EXPECT_EQ((m + 0.0f).triu(1).to_vector(), (std::vector<float>{0, 1, 2, 0, 0, 5}));
    EXPECT_EQ((m + 0.0f).slice(1, 0, 3, 2).to_vector(), (std::vector<float>{0, 2, 3, 5}));
    EXPECT_EQ((m + 0.0f).select(1, 2).to_vector(), (std::vector<float>{2, 5}));
    EXPECT_EQ((m + 0.0f).transpose(0, 1).shape(), (ts::Shape{3, 2}));
    EXPECT_EQ(ts::flip(m * 1.0f, {0}).to_vector(), (std::vector<float>{3, 4, 5, 0, 1, 2}));
    EXPECT_EQ(ts::roll(m * 1.0f, 1).to_vector(), (std::vector<float>{5, 0, 1, 2, 3, 4}));
    EXPECT_EQ(ts::roll(m * 1.0f, -1, 0).to_vector(), (std::vector<float>{3, 4, 5, 0, 1, 2}));
    EXPECT_EQ(ts::tile(r * 1.0f, {2}).numel(), 12);
    EXPECT_EQ(ts::diag(r * 1.0f).shape(), (ts::Shape{6, 6}));
    EXPECT_EQ(ts::diag(m * 1.0f, 1).to_vector(), (std::vector<float>{1, 5}));
    // *_like read only the shape and device of an expression.
    const auto z = ts::zeros_like(m * 2.0f);
    EXPECT_EQ(z.shape(), m.shape());
    EXPECT_EQ(z.device(), device);
    EXPECT_EQ(ts::sum(z), 0.0f);
    EXPECT_EQ(ts::sum(ts::ones_like(m)), 6.0f);
    EXPECT_EQ(ts::full_like(m, 7).to_vector(), std::vector<float>(6, 7.0f));
    EXPECT_EQ(ts::empty_like(m > 1.0f).shape(), m.shape());
    static_assert(std::is_same_v<decltype(ts::empty_like(m > 1.0f)), ts::Tensor<bool>>);
  }
}

// ---- every dtype: copies against reference loops ------------------------------------------------

template <class C>
class ShapesTyped : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(ShapesTyped, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(ShapesTyped, CopiesAndViewsMoveEveryDtypeExactly) {
  using T = typename TypeParam::value_type;
  const auto device = this->device();
  std::vector<T> values;
  for (int i = 0; i < 12; ++i)
    values.push_back(static_cast<T>(std::is_same_v<T, bool> ? i % 3 == 0 : i + 1));
  const auto host = ts::Tensor<T>::from_vector(values, {3, 4});
  const auto x = host.to(device);
  const auto at = [&](std::int64_t i, std::int64_t j) {
    return values[static_cast<std::size_t>(i * 4 + j)];
  };
  std::vector<T> flipped, rolled, lower, transposed;
  for (std::int64_t i = 0; i < 3; ++i) {
    for (std::int64_t j = 0; j < 4; ++j) {
      flipped.push_back(at(2 - i, 3 - j));
      rolled.push_back(at((i + 2) % 3, (j + 3) % 4));  // shifts (1, 1)
      lower.push_back(j - i <= 0 ? at(i, j) : T(0));
    }
  }
  for (std::int64_t j = 0; j < 4; ++j) {
    for (std::int64_t i = 0; i < 3; ++i) transposed.push_back(at(i, j));
  }
  EXPECT_EQ(x.flip({0, 1}).to_vector(), flipped);
  EXPECT_EQ(ts::roll(x, {1, 1}, {0, 1}).to_vector(), rolled);
  EXPECT_EQ(ts::tril(x).to_vector(), lower);
  EXPECT_EQ(x.permute({1, 0}).contiguous().to_vector(), transposed);
  EXPECT_EQ(x.mT().unsqueeze(0).squeeze(0).contiguous().to_vector(), transposed);
  std::vector<T> tiled;
  for (int r = 0; r < 2; ++r) tiled.insert(tiled.end(), values.begin(), values.end());
  EXPECT_EQ(x.repeat({2, 1}).to_vector(), tiled);
  EXPECT_EQ(x.unsqueeze(0).expand({2, 3, 4}).contiguous().to_vector(), tiled);
  const auto d = ts::diag(x.diagonal());
  EXPECT_EQ(d.shape(), (ts::Shape{3, 3}));
  EXPECT_EQ(d.at({1, 1}), at(1, 1));
  EXPECT_EQ(d.at({0, 1}), T(0));
  EXPECT_EQ(ts::Tensor<T>::eye(2, 3, device).to_vector(),
            (std::vector<T>{T(1), T(0), T(0), T(0), T(1), T(0)}));
}

// ---- the docs' tour (docs/ops/shapes.md cuts it from here) --------------------------------------

TEST(ShapesDocs, TourComputesWhatThePageSays) {
  // [snippet:shapes-tour]
  auto x = ts::Tensor<float>::arange(0.0f, 6.0f).reshape({2, 3});  // a view of the arange
  auto xt = x.t();                                // (3, 2) view: strides swapped, no copy
  auto batch = x.unsqueeze(0).expand({4, 2, 3});  // (4, 2, 3) view, stride 0 on dim 0
  auto d = x.unsqueeze(1) - x.unsqueeze(0);       // (2, 2, 3) pairwise differences, lazy
  ts::Tensor<float> dist2 = ts::sum(d * d, -1);   // (2, 2): no (2, 2, 3) temporary
  auto windows = ts::Tensor<float>::arange(0.0f, 8.0f).unfold(0, 3, 2);  // (3, 3) windows
  auto rolled = ts::roll(x, /*shift*/ 1, /*dim*/ 1);                     // a new tensor
  auto grids = ts::meshgrid({ts::tensor<float>({1, 2}), ts::tensor<float>({5, 6, 7})},
                            ts::Indexing::XY);  // two (3, 2) read-only views
  // [end-snippet]
  EXPECT_EQ(xt.data_ptr(), x.data_ptr());
  EXPECT_EQ(xt.at({2, 1}), 5.0f);
  EXPECT_EQ(batch.strides(), (ts::Shape{0, 3, 1}));
  EXPECT_EQ(dist2.to_vector(), (std::vector<float>{0, 27, 27, 0}));
  EXPECT_EQ(windows.to_vector(), (std::vector<float>{0, 1, 2, 2, 3, 4, 4, 5, 6}));
  EXPECT_EQ(rolled.to_vector(), (std::vector<float>{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(grids[0].shape(), (ts::Shape{3, 2}));
  EXPECT_EQ(grids[1].contiguous().to_vector(), (std::vector<float>{5, 5, 6, 6, 7, 7}));
}

TEST(ShapesExpressions, FreeFunctionTwinsOfTheViews) {
  const auto m = ts::Tensor<float>::arange(0.0f, 6.0f).reshape({2, 3});
  EXPECT_EQ(ts::reshape(m + 0.0f, {3, 2}).shape(), (ts::Shape{3, 2}));
  EXPECT_EQ(ts::permute(m, {1, 0}).data_ptr(), m.data_ptr());
  EXPECT_EQ(ts::transpose(m, 0, 1).strides(), (ts::Shape{1, 3}));
  EXPECT_EQ(ts::movedim(m, 1, 0).shape(), (ts::Shape{3, 2}));
  EXPECT_EQ(ts::unsqueeze(m, -1).shape(), (ts::Shape{2, 3, 1}));
  EXPECT_EQ(ts::squeeze(m.unsqueeze(0)).shape(), (ts::Shape{2, 3}));
  EXPECT_EQ(ts::squeeze(m.unsqueeze(0), 0).shape(), (ts::Shape{2, 3}));
  EXPECT_EQ((m + 0.0f).unsqueeze(0).unsqueeze(2).squeeze({0, 2}).shape(), (ts::Shape{2, 3}));
  EXPECT_EQ((m + 0.0f).movedim({0, 1}, {1, 0}).shape(), (ts::Shape{3, 2}));
  EXPECT_EQ(ts::flatten(m).shape(), (ts::Shape{6}));
  EXPECT_EQ(ts::unflatten(m, 1, {3, 1}).shape(), (ts::Shape{2, 3, 1}));
  EXPECT_EQ(ts::narrow(m, 1, 1, 1).to_vector(), (std::vector<float>{1, 4}));
  EXPECT_EQ(ts::diagonal(m, 1).to_vector(), (std::vector<float>{1, 5}));
  EXPECT_EQ(ts::chunk(m, 2, 0).size(), 2u);
  EXPECT_EQ(ts::unbind(m, 1).size(), 3u);
}
