// SPDX-License-Identifier: BSD-3-Clause
// DLPack against real PyTorch in the same process: libtorch's at::toDLPack / at::fromDLPack on
// one side, tessera's from_dlpack / to_dlpack on the other. Round trips keep the pointer (no
// copy), writes on either side are seen on the other, and memory lives exactly as long as the
// last user on either side (CI runs this under AddressSanitizer, which reports any use after
// free or leak). Built only where libtorch is found (tests/CMakeLists.txt); CI's torch stage
// installs Debian's libtorch-dev (1.13) and requires it.

#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tessera/interop/dlpack.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {

// The numeric dtypes (bool: see BoolIsBytesInPyTorch113).
using Numeric = ::testing::Types<std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                 std::int64_t, float, double>;

template <class T>
std::vector<T> torch_values(const at::Tensor& x) {
  const at::Tensor c = x.contiguous();
  return std::vector<T>(c.data_ptr<T>(), c.data_ptr<T>() + c.numel());
}

template <class T>
std::vector<std::int64_t> strides_of(const ts::Tensor<T>& t) {
  return t.strides().vec();
}

}  // namespace

template <class T>
class DLPackTorch : public ::testing::Test {};
TYPED_TEST_SUITE(DLPackTorch, Numeric);

// torch → tessera: the same memory, a transposed and offset view included, PyTorch's dtype.
TYPED_TEST(DLPackTorch, FromTorchKeepsPointerStridesAndValues) {
  using T = TypeParam;
  const auto dtype = c10::CppTypeToScalarType<T>::value;
  const at::Tensor x = at::arange(24, at::TensorOptions().dtype(dtype)).reshape({4, 6});
  const at::Tensor view = x.slice(0, 1).t();  // shape (6, 3), strides (1, 6), offset 6
  auto t = ts::from_dlpack<T>(at::toDLPack(view));
  EXPECT_EQ(static_cast<void*>(t.data_ptr()), view.data_ptr());
  EXPECT_EQ(t.shape(), (ts::Shape{6, 3}));
  EXPECT_EQ(strides_of(t), view.strides().vec());
  EXPECT_EQ(t.to_vector(), torch_values<T>(view));
}

// tessera → torch: the same memory and layout, the matching torch dtype.
TYPED_TEST(DLPackTorch, ToTorchKeepsPointerStridesAndValues) {
  using T = TypeParam;
  const auto base = ts::Tensor<T>::arange(T(0), T(24)).reshape({2, 3, 4});
  const auto t = base.transpose(0, 2).slice(1, 1);  // shape (4, 2, 2), strides (1, 4, 12)
  const at::Tensor x = at::fromDLPack(t.to_dlpack());
  EXPECT_EQ(x.scalar_type(), c10::CppTypeToScalarType<T>::value);
  EXPECT_EQ(x.data_ptr(), static_cast<void*>(t.data_ptr()));
  EXPECT_EQ(x.sizes().vec(), t.shape().vec());
  EXPECT_EQ(x.strides().vec(), strides_of(t));
  EXPECT_EQ(torch_values<T>(x), t.contiguous().to_vector());
}

// tessera → torch → tessera and torch → tessera → torch end on the first pointer.
TYPED_TEST(DLPackTorch, RoundTripsBothWaysKeepThePointer) {
  using T = TypeParam;
  const auto t = ts::Tensor<T>::ones({5, 2});
  const auto back = ts::from_dlpack<T>(at::toDLPack(at::fromDLPack(t.to_dlpack())));
  EXPECT_EQ(back.data_ptr(), t.data_ptr());
  const at::Tensor x =
      at::zeros({3, 3}, at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value));
  const at::Tensor y = at::fromDLPack(ts::from_dlpack<T>(at::toDLPack(x)).to_dlpack());
  EXPECT_EQ(y.data_ptr(), x.data_ptr());
}

TEST(DLPackTorch, MutationsAreVisibleOnBothSides) {
  at::Tensor x = at::zeros({2, 3}, at::kFloat);
  auto t = ts::from_dlpack<float>(at::toDLPack(x));
  t = t + 1.0f;  // same shape: written in place, into torch's memory
  EXPECT_EQ(torch_values<float>(x), std::vector<float>(6, 1.0f));
  x.mul_(5.0f);  // torch writes; tessera reads the same memory
  EXPECT_EQ(t.to_vector(), std::vector<float>(6, 5.0f));

  auto u = ts::tensor<double>({{1, 2}, {3, 4}});
  at::Tensor y = at::fromDLPack(u.to_dlpack());
  y.t_().add_(10.0);  // in place through a transposed torch view
  EXPECT_EQ(u.to_vector(), (std::vector<double>{11, 12, 13, 14}));
}

// Memory tessera adopted stays alive while torch holds it, and its deleter runs once, after
// torch's last reference, not before (ASan would report the read of freed memory).
TEST(DLPackTorch, TesseraMemoryLivesUntilTorchLetsGo) {
  int freed = 0;
  at::Tensor x;
  {
    auto t = ts::Tensor<float>::from_blob(new float[4]{1, 2, 3, 4}, {4}, ts::Device::cpu(),
                                          [&freed](float* p) {
                                            ++freed;
                                            delete[] p;
                                          });
    x = at::fromDLPack(t.to_dlpack());
  }
  EXPECT_EQ(freed, 0);
  EXPECT_EQ(x.sum().item<float>(), 10.0f);  // reads the adopted buffer after tessera let go
  x = at::Tensor();
  EXPECT_EQ(freed, 1);
}

// Memory torch owns (here: at::from_blob with a counting deleter) stays alive while tessera
// holds it, through a tessera view and a second export, and is freed once after the last.
TEST(DLPackTorch, TorchMemoryLivesUntilTesseraLetsGo) {
  int freed = 0;
  ts::Tensor<std::int64_t> view;
  {
    auto* buffer = new std::int64_t[6]{0, 1, 2, 3, 4, 5};
    at::Tensor x = at::from_blob(
        buffer, {2, 3},
        [&freed](void* p) {
          ++freed;
          delete[] static_cast<std::int64_t*>(p);
        },
        at::kLong);
    view = ts::from_dlpack<std::int64_t>(at::toDLPack(x)).select(1, 2);
  }
  EXPECT_EQ(freed, 0);
  EXPECT_EQ(view.to_vector(), (std::vector<std::int64_t>{2, 5}));
  at::Tensor again = at::fromDLPack(view.to_dlpack());  // torch → tessera → torch
  view = ts::Tensor<std::int64_t>();
  EXPECT_EQ(freed, 0);
  EXPECT_EQ(again.sum().item<std::int64_t>(), 7);
  again = at::Tensor();
  EXPECT_EQ(freed, 1);
}

// PyTorch 1.13 (DLPack 0.6) has no DLPack bool: tessera's bools arrive as uint8 0/1, which
// tessera takes back as bools.
TEST(DLPackTorch, BoolIsBytesInPyTorch113) {
  const auto t = ts::tensor<bool>({true, false, true, true});
  const at::Tensor x = at::fromDLPack(t.to_dlpack());
  EXPECT_EQ(x.scalar_type(), at::kByte);
  EXPECT_EQ(torch_values<std::uint8_t>(x), (std::vector<std::uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(x.data_ptr(), static_cast<void*>(t.data_ptr()));
  const auto back = ts::from_dlpack<bool>(at::toDLPack(x));
  EXPECT_EQ(back.to_vector(), (std::vector<bool>{true, false, true, true}));
  // (at::toDLPack(torch.bool tensor) throws c10::Error, and leaks the capsule it allocated
  // before checking the dtype: the torch stage's ASan reported it, so it is not called here.)
  // torch bytes other than 0/1 are refused as bools (and the capsule released: ASan's leak
  // check would report it otherwise).
  EXPECT_THROW(ts::from_dlpack<bool>(at::toDLPack(at::full({3}, 7, at::kByte))), ts::ValueError);
}

TEST(DLPackTorch, RaggedAsValuesAndRowSplits) {
  const auto r = ts::RaggedTensor<float>::from_row_splits(ts::tensor<float>({1, 2, 3, 4, 5}),
                                                          ts::tensor<std::int64_t>({0, 2, 2, 5}));
  auto [values, splits] = ts::to_dlpack(r);
  const at::Tensor v = at::fromDLPack(values);
  const at::Tensor s = at::fromDLPack(splits);
  EXPECT_EQ(v.data_ptr(), static_cast<void*>(r.values().data_ptr()));
  // Row 2 the torch way: values[splits[2]:splits[3]].
  const at::Tensor row = v.slice(0, s[2].item<std::int64_t>(), s[3].item<std::int64_t>());
  EXPECT_EQ(torch_values<float>(row), (std::vector<float>{3, 4, 5}));
  const auto back = ts::from_dlpack<float>(at::toDLPack(v), at::toDLPack(s));
  EXPECT_EQ(back.values().data_ptr(), r.values().data_ptr());
  EXPECT_EQ(back.nrows(), 3);
}
