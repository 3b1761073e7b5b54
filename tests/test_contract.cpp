// SPDX-License-Identifier: BSD-3-Clause
// The public API contract, spelled exactly as users write it: code outside this
// repository compiles against these lines, so this unit must keep compiling (and the values
// checked here keep their meaning). Each block follows the contract's order.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/interop/npy.hpp"
#include "tessera/interop/xtensor.hpp"
#include "tessera/tessera.hpp"
#if __has_include(<dlpack/dlpack.h>)
#include "tessera/interop/dlpack.hpp"
#define TESSERA_CONTRACT_DLPACK 1
#endif

namespace {

namespace ts = tessera;

TEST(Contract, DevicesFactoriesAndProperties) {
  EXPECT_TRUE(ts::Device::cpu().is_cpu());
  EXPECT_TRUE(ts::Device::cuda(0).is_cuda());
  EXPECT_EQ(ts::Device::cuda(0).index(), 0);
  EXPECT_EQ(ts::Device::cpu().index(), 0);
  EXPECT_TRUE(ts::Device::cpu() == ts::Device::cpu());
  std::ostringstream device_text;
  device_text << ts::Device::cpu();
  EXPECT_FALSE(device_text.str().empty());
  (void)ts::cuda_available();

  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  auto b = ts::tensor<int64_t>({1, 2, 3}, ts::Device::cpu());
  auto s = ts::Tensor<double>::scalar(5.0);
  EXPECT_EQ(ts::tensor<float>({}).shape(), ts::Shape{0});
  const ts::Shape shape{2, 3};
  EXPECT_EQ(ts::Tensor<float>::zeros({2, 3}).numel(), 6);
  EXPECT_EQ(ts::Tensor<float>::ones(shape).at({1, 2}), 1.0f);
  EXPECT_EQ(ts::Tensor<float>::full(shape, 2.5f).at({0, 0}), 2.5f);
  EXPECT_EQ(ts::Tensor<float>::empty(shape).shape(), shape);
  EXPECT_EQ(ts::Tensor<float>::zeros({2, 3}, ts::Device::cpu()).device(), ts::Device::cpu());
  EXPECT_EQ(ts::Tensor<int64_t>::arange(0, 10, 2).to_vector(),
            (std::vector<int64_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(ts::Tensor<float>::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}).at({1, 0}),
            4.0f);

  EXPECT_EQ(a.shape()[1], 5);
  EXPECT_EQ(a.shape().size(), 2u);
  EXPECT_EQ(a.dim(), 2);
  EXPECT_EQ(a.numel(), 10);
  EXPECT_EQ(a.size(-1), 5);
  EXPECT_EQ(a.device(), ts::Device::cpu());
  EXPECT_EQ(a.cpu().to_vector(), a.to_vector());
  EXPECT_EQ(a.clone().to_vector(), a.to_vector());
  EXPECT_TRUE(a.contiguous().is_contiguous());
  EXPECT_EQ(s.item(), 5.0);
  EXPECT_EQ(a.at({1, 2}), 6.0f);
  EXPECT_EQ(a.reshape({5, 2}).shape(), (ts::Shape{5, 2}));
  EXPECT_EQ(a.slice(/*dim*/ 1, /*start*/ 0, /*stop*/ 4, /*step*/ 2).to_vector(),
            (std::vector<float>{1, 5, 2, 6}));
  EXPECT_EQ(a.select(0, 1).to_vector(), (std::vector<float>{2, 4, 6, 8, 10}));
  EXPECT_EQ(a.transpose(0, 1).shape(), (ts::Shape{5, 2}));
  EXPECT_TRUE((std::is_same_v<decltype(a.cast<double>()), ts::Tensor<double>>));
  EXPECT_EQ(b.numel(), 3);
  std::vector<int64_t> dims{4, 5};
  EXPECT_EQ(ts::Shape(dims.begin(), dims.end()), (ts::Shape{4, 5}));
  if (ts::cuda_available()) {
    EXPECT_EQ(a.to(ts::Device::cuda()).cpu().to_vector(), a.to_vector());
  }
}

TEST(Contract, ExpressionsAndReductions) {
  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  auto b = ts::tensor<int64_t>({1, 2, 3, 4, 5});
  ts::Tensor<float> e = a + a * 2.0f - b.cast<float>();
  EXPECT_EQ(e.at({0, 0}), 2.0f);
  ts::Tensor<bool> m = (a > 4.0f) & !(a == 7.0f);
  EXPECT_EQ(m.at({0, 2}), true);
  EXPECT_EQ(m.at({0, 3}), false);
  auto w = ts::eval(ts::where(m, a, 0.0f));
  EXPECT_EQ(w.at({0, 0}), 0.0f);
  auto bf = b.cast<float>();
  EXPECT_EQ(ts::eval(ts::abs(-a)).at({0, 0}), 1.0f);
  EXPECT_EQ(ts::eval(ts::sqrt(a)).at({0, 0}), 1.0f);
  EXPECT_EQ(ts::eval(ts::exp(a * 0.0f)).at({0, 0}), 1.0f);
  EXPECT_EQ(ts::eval(ts::log(a)).at({0, 0}), 0.0f);
  EXPECT_EQ(ts::eval(ts::minimum(a, bf)).at({1, 0}), 1.0f);
  EXPECT_EQ(ts::eval(ts::maximum(a, bf)).at({0, 0}), 1.0f);
  EXPECT_EQ(ts::eval(ts::cast<double>(a * 2.0f)).at({0, 1}), 6.0);
  float total = ts::sum(a * a);
  EXPECT_EQ(total, 385.0f);
  EXPECT_EQ(ts::min(a), 1.0f);
  EXPECT_EQ(ts::max(a), 10.0f);
  bool any = ts::any(a > 9.0f);
  EXPECT_TRUE(any);
  EXPECT_FALSE(ts::all(m));
  a = a + 1.0f;
  EXPECT_EQ(a.at({0, 0}), 2.0f);
}

TEST(Contract, SearchsortedAndBucketize) {
  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  auto v = ts::tensor<float>({{3, 6, 9}, {3, 6, 9}});
  auto order = ts::tensor<int64_t>({{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}});
  auto seq1d = ts::tensor<float>({1, 3, 5, 7, 9});
  ts::Tensor<int64_t> i1 = a.searchsorted(v);
  EXPECT_EQ(i1.to_vector(), (std::vector<int64_t>{1, 3, 4, 1, 2, 4}));
  auto i2 = a.searchsorted(v, {.right = true});
  EXPECT_EQ(i2.to_vector(), (std::vector<int64_t>{2, 3, 5, 1, 3, 4}));
  auto i3 = a.searchsorted(v, {.side = ts::Side::Right});
  EXPECT_EQ(i3.to_vector(), i2.to_vector());
  auto i4 = a.searchsorted(v, {.sorter = order});
  EXPECT_EQ(i4.to_vector(), i1.to_vector());
  ts::Tensor<int32_t> i5 = a.searchsorted<int32_t>(v);
  EXPECT_EQ(i5.at({0, 1}), 3);
  auto i6 = seq1d.searchsorted(3.0f);
  EXPECT_EQ(i6.dim(), 0);
  EXPECT_EQ(i6.item(), 1);
  ts::Tensor<int64_t> out;
  a.searchsorted_out(v, out, {.right = true});
  EXPECT_EQ(out.to_vector(), i2.to_vector());
  EXPECT_EQ(ts::searchsorted(a, v, {.right = true}).to_vector(), i2.to_vector());
  ts::SearchSortedOptions options{.right = false, .side = std::nullopt, .sorter = std::nullopt};
  EXPECT_EQ(a.searchsorted(v, options).to_vector(), i1.to_vector());

  auto boundaries = ts::tensor<float>({1, 3, 5, 7, 9});
  auto k1 = v.bucketize(boundaries);
  auto k2 = v.bucketize(boundaries, /*right=*/true);
  auto k3 = v.bucketize<int32_t>(boundaries);
  EXPECT_EQ(k1.to_vector(), (std::vector<int64_t>{1, 3, 4, 1, 3, 4}));
  EXPECT_EQ(k2.to_vector(), (std::vector<int64_t>{2, 3, 5, 2, 3, 5}));
  EXPECT_EQ(k3.at({0, 2}), 4);
  v.bucketize_out(boundaries, out, true);
  EXPECT_EQ(out.to_vector(), k2.to_vector());
}

TEST(Contract, Nonzero) {
  auto x = ts::tensor<float>({{0, 1, 0}, {2, 0, 3}});
  ts::Tensor<int64_t> nz = x.nonzero();
  EXPECT_EQ(nz.shape(), (ts::Shape{3, 2}));
  std::vector<ts::Tensor<int64_t>> cols = x.nonzero(ts::as_tuple);
  EXPECT_EQ(cols.size(), 2u);
  EXPECT_EQ(x.count_nonzero(), 3);
  auto fixed = x.nonzero_static(/*size*/ 16, /*fill_value*/ -1);
  EXPECT_EQ(fixed.shape(), (ts::Shape{16, 2}));
  ts::Tensor<int64_t> out;
  x.nonzero_out(out);
  EXPECT_EQ(out.to_vector(), nz.to_vector());
  EXPECT_EQ((x > 0).nonzero().to_vector(), nz.to_vector());
}

TEST(Contract, TensorScatterNdSub) {
  auto t = ts::tensor<int32_t>({1, 2, 3, 4, 5, 6, 7, 8});
  auto indices = ts::tensor<int64_t>({{4}, {3}, {1}, {7}});
  auto updates = ts::tensor<int32_t>({9, 10, 11, 12});
  ts::Tensor<int32_t> u = t.tensor_scatter_nd_sub(indices, updates);
  EXPECT_EQ(u.to_vector(), (std::vector<int32_t>{1, -9, 3, -6, -4, 6, 7, -4}));
  EXPECT_EQ(t.at({1}), 2);  // input untouched
  auto options =
      ts::ScatterOptions{.out_of_bounds = ts::OutOfBounds::Ignore, .deterministic = true};
  auto v = t.tensor_scatter_nd_sub(indices, updates, options);
  EXPECT_EQ(v.to_vector(), u.to_vector());
  auto i32 = ts::tensor<int32_t>({{4}, {3}, {1}, {7}});
  auto w = t.tensor_scatter_nd_sub(
      i32, updates, {.out_of_bounds = ts::OutOfBounds::Ignore, .deterministic = true});
  EXPECT_EQ(w.to_vector(), u.to_vector());
  t.scatter_nd_sub_(indices, updates);
  EXPECT_EQ(t.to_vector(), u.to_vector());
  EXPECT_EQ(ts::tensor_scatter_nd_sub(u, indices, updates).at({1}), -20);
  try {
    (void)u.tensor_scatter_nd_sub(ts::tensor<int64_t>({{8}}), ts::tensor<int32_t>({1}));
    ADD_FAILURE() << "no IndexError";
  } catch (const ts::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("indices[0] = [8] does not index into shape [8]"),
              std::string::npos)
        << e.what();
  }
}

TEST(Contract, RaggedRangeAndRaggedTensor) {
  auto starts = ts::tensor<int64_t>({0, 5, 8});
  auto limits = ts::tensor<int64_t>({3, 3, 12});
  auto deltas = ts::tensor<int64_t>({1, 1, 1});
  ts::RaggedTensor<int64_t> r = ts::ragged::range<int64_t>(starts, limits, deltas);
  auto r2 = ts::ragged::range<int64_t>(ts::tensor<int64_t>({3, 5, 2}));
  auto r3 = ts::ragged::range<float, int32_t>(
      ts::tensor<float>({0, 5, 8}), ts::tensor<float>({3, 3, 12}), ts::tensor<float>({1, 1, 1}));
  auto r4 = ts::ragged::range<int64_t>(starts, limits, 2);
  EXPECT_EQ(r4.to_list(), (std::vector<std::vector<int64_t>>{{0, 2}, {}, {8, 10}}));
  EXPECT_EQ(r.values().to_vector(), (std::vector<int64_t>{0, 1, 2, 8, 9, 10, 11}));
  EXPECT_EQ(r.row_splits().to_vector(), (std::vector<int64_t>{0, 3, 3, 7}));
  EXPECT_EQ(r.nrows(), 3);
  EXPECT_EQ(r.row_lengths().to_vector(), (std::vector<int64_t>{3, 0, 4}));
  EXPECT_EQ(r.value_rowids().to_vector(), (std::vector<int64_t>{0, 0, 0, 2, 2, 2, 2}));
  EXPECT_EQ(r.row(1).numel(), 0);
  EXPECT_EQ(r2.to_list(), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {0, 1, 2, 3, 4}, {0, 1}}));
  EXPECT_TRUE((std::is_same_v<decltype(r3), ts::RaggedTensor<float, int32_t>>));
  EXPECT_EQ(r3.row_splits().to_vector(), (std::vector<int32_t>{0, 3, 3, 7}));
  EXPECT_EQ(r.device(), ts::Device::cpu());
  EXPECT_EQ(r.to(ts::Device::cpu()).cpu().to_list(), r.to_list());
  EXPECT_EQ(r.to_tensor(/*pad*/ 0).shape(), (ts::Shape{3, 4}));
  std::ostringstream text;
  text << r;
  EXPECT_EQ(text.str(), "<RaggedTensor [[0, 1, 2], [], [8, 9, 10, 11]]>");

  auto values = ts::tensor<float>({1, 2, 3, 4});
  auto a = ts::RaggedTensor<float>::from_row_splits(values, ts::tensor<int64_t>({0, 1, 1, 4}));
  auto b = ts::RaggedTensor<float>::from_row_lengths(values, ts::tensor<int64_t>({1, 0, 3}));
  auto c = ts::RaggedTensor<float>::from_value_rowids(values, ts::tensor<int64_t>({0, 2, 2, 2}),
                                                      /*nrows*/ 4);
  EXPECT_EQ(a.to_list(), b.to_list());
  EXPECT_EQ(c.nrows(), 4);
  EXPECT_THROW(ts::RaggedTensor<float>::from_row_splits(values, ts::tensor<int64_t>({0, 3, 2, 4})),
               ts::ValueError);
}

TEST(Contract, PrintingErrorsAndXtensor) {
  auto a = ts::tensor<float>({{1, 3}, {2, 4}});
  std::ostringstream text;
  text << a;
  EXPECT_EQ(text.str().rfind("tensor([[1., 3.]", 0), 0u) << text.str();
  bool caught = false;
  try {
    (void)a.reshape({3});
  } catch (const ts::ShapeError&) {
    caught = true;
  } catch (const ts::Error&) {
  }
  EXPECT_TRUE(caught);
  static_assert(std::is_base_of_v<ts::Error, ts::IndexError>);
  static_assert(std::is_base_of_v<ts::Error, ts::ValueError>);
  static_assert(std::is_base_of_v<ts::Error, ts::DeviceError>);
  static_assert(std::is_base_of_v<std::runtime_error, ts::Error>);

  xt::xarray<float> xt_expr = {{1.0f, 2.0f}, {3.0f, 4.0f}};
  auto from = ts::from_xtensor(xt_expr);
  auto from_on = ts::from_xtensor(xt_expr, ts::Device::cpu());
  EXPECT_EQ(from.at({1, 0}), 3.0f);
  EXPECT_EQ(from_on.numel(), 4);
  xt::xarray<float> back = ts::to_xtensor(from);
  EXPECT_EQ(back(1, 1), 4.0f);
  auto view = ts::as_xtensor(from);
  EXPECT_EQ(view(0, 1), 2.0f);
}

TEST(Contract, ExternalMemoryDLPackAndNpy) {
  float* ptr = new float[6]{1, 2, 3, 4, 5, 6};
  {
    auto own =
        ts::Tensor<float>::from_blob(ptr, {2, 3}, ts::Device::cpu(), [](float* p) { delete[] p; });
    auto lent = ts::Tensor<float>::from_blob(ptr, {2, 3}, ts::Device::cpu());
    float* p = own.data_ptr();
    std::span<float> sp = own.span();  // span: contiguous host tensors
    EXPECT_EQ(p, ptr);
    EXPECT_EQ(sp.size(), 6u);
    EXPECT_EQ(lent.at({1, 2}), 6.0f);
#if TESSERA_CONTRACT_DLPACK
    DLManagedTensor* m = own.to_dlpack();
    ts::Tensor<float> back = ts::from_dlpack<float>(m);
    EXPECT_EQ(back.data_ptr(), ptr);
#endif
  }
  // .npy files, at the relative paths of the contract: in a scratch working directory.
  const auto cwd = std::filesystem::current_path();
  const auto dir = std::filesystem::temp_directory_path() / "tessera_contract_npy";
  std::filesystem::create_directories(dir);
  std::filesystem::current_path(dir);
  ts::save_npy("x.npy", ts::tensor<double>({{1, 2}, {3, 4}}));
  {
    ts::Tensor<double> x = ts::load_npy<double>("x.npy");
    ts::save_npy("y.npy", x);
  }
  EXPECT_EQ(ts::load_npy<double>("y.npy").to_vector(), (std::vector<double>{1, 2, 3, 4}));
  std::filesystem::current_path(cwd);
  std::filesystem::remove_all(dir);
}

// Part 3, "shapes and views", spelled as the contract spells it.

}  // namespace
