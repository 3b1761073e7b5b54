// SPDX-License-Identifier: BSD-3-Clause
// DLPack without a framework on the other side: tessera's exporter checked field by field,
// round trips through tessera's own importer (same pointer, no copy), capsules built by hand
// (strides, byte_offset, foreign dtypes and devices), and the deleter contract counted: every
// capsule's deleter runs exactly once, on success and on every error. tests/test_dlpack_torch.cpp
// does the same against PyTorch.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"
#include "tessera/interop/dlpack.hpp"

namespace ts = tessera;
using tessera_test::iota_values;
using tessera_test::tensor_matches;
using tessera_test::throws_with;

namespace {

/// A capsule made by hand (as another framework would make one) over `data`, counting the
/// calls of its deleter in `*deletions`.
struct Manual {
  std::vector<std::int64_t> shape, strides;
  int* deletions = nullptr;
  DLManagedTensor managed{};
};

DLManagedTensor* manual_capsule(void* data, DLDataType dtype, DLDevice device,
                                std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                                std::uint64_t byte_offset, int* deletions) {
  auto* m = new Manual{std::move(shape), std::move(strides), deletions, {}};
  DLTensor& dl = m->managed.dl_tensor;
  dl.data = data;
  dl.device = device;
  dl.ndim = static_cast<int>(m->shape.size());
  dl.dtype = dtype;
  dl.shape = m->shape.data();
  dl.strides = m->strides.empty() ? nullptr : m->strides.data();
  dl.byte_offset = byte_offset;
  m->managed.manager_ctx = m;
  m->managed.deleter = [](DLManagedTensor* self) {
    auto* owner = static_cast<Manual*>(self->manager_ctx);
    ++*owner->deletions;
    delete owner;
  };
  return &m->managed;
}

constexpr DLDevice kCpu{kDLCPU, 0};

}  // namespace

template <class C>
class DLPack : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(DLPack, tessera_test::AllCases, tessera_test::CaseName);

// The exported DLTensor describes the tensor exactly (pointer, device, dtype, shape, strides).
TYPED_TEST(DLPack, ExportDescribesTheTensor) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto base = ts::Tensor<T>::from_vector(iota_values<T>(24), {2, 3, 4}, dev);
  const auto t = base.transpose(0, 2).slice(1, 1);  // shape (4, 2, 2), strides (1, 4, 12)
  DLManagedTensor* m = t.to_dlpack();
  const DLTensor& dl = m->dl_tensor;
  EXPECT_EQ(dl.data, static_cast<void*>(t.data_ptr()));
  EXPECT_EQ(dl.byte_offset, 0u);
  EXPECT_EQ(dl.device.device_type, dev.is_cpu() ? kDLCPU : kDLCUDA);
  EXPECT_EQ(dl.device.device_id, dev.index());
  EXPECT_EQ(dl.dtype.bits, 8 * sizeof(T));
  EXPECT_EQ(dl.dtype.lanes, 1);
  const int code = std::is_floating_point_v<T>                          ? kDLFloat
                   : (std::is_same_v<T, bool> || std::is_unsigned_v<T>) ? kDLUInt
                                                                        : kDLInt;
  EXPECT_EQ(dl.dtype.code, code);
  ASSERT_EQ(dl.ndim, 3);
  EXPECT_EQ(std::vector<std::int64_t>(dl.shape, dl.shape + 3),
            (std::vector<std::int64_t>{4, 2, 2}));
  EXPECT_EQ(std::vector<std::int64_t>(dl.strides, dl.strides + 3),
            (std::vector<std::int64_t>{1, 4, 12}));
  m->deleter(m);
}

// Export then import: the same memory (pointer, strides) and values; the capsule keeps the
// memory alive after every tessera handle of the original is gone, and the adopted buffer's
// own deleter runs exactly once, after the last handle of the round-tripped tensor.
TYPED_TEST(DLPack, RoundTripKeepsPointerAndLifetime) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto values = iota_values<T>(12);
  int freed = 0;
  ts::Tensor<T> back;
  T* first = nullptr;
  {
    const auto src = ts::Tensor<T>::from_vector(values, {3, 4}, dev);
    // A buffer tessera adopted, so its release can be counted.
    auto owned = ts::Tensor<T>::from_blob(src.data_ptr(), {3, 4}, dev, [&freed, src](T*) {
      ++freed;  // the lambda's copy of `src` keeps the real memory valid until here
    });
    const auto view = owned.transpose(0, 1);
    first = view.data_ptr();
    back = ts::from_dlpack<T>(view.to_dlpack());
  }
  EXPECT_EQ(freed, 0) << "the capsule keeps the memory alive";
  EXPECT_EQ(back.data_ptr(), first);
  EXPECT_EQ(back.strides(), (ts::Shape{1, 4}));
  EXPECT_TRUE(tensor_matches(
      back, {4, 3},
      ts::Tensor<T>::from_vector(values, {3, 4}).transpose(0, 1).contiguous().to_vector()));
  back = ts::Tensor<T>();
  EXPECT_EQ(freed, 1);
}

// Writes through either side are seen by the other (no copy anywhere).
TYPED_TEST(DLPack, MutationsAreSharedBothWays) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  auto a = ts::Tensor<T>::zeros({2, 3}, dev);
  auto b = ts::from_dlpack<T>(a.to_dlpack());
  b = ts::cast<T>(ts::Tensor<T>::ones({2, 3}, dev));  // in place
  EXPECT_EQ(a.to_vector(), std::vector<T>(6, T(1)));
  a = ts::cast<T>(ts::Tensor<T>::zeros({2, 3}, dev));
  EXPECT_EQ(b.to_vector(), std::vector<T>(6, T(0)));
}

// A capsule made elsewhere, with its own strides and a byte_offset (the first element 3
// elements into the buffer), on cuda:N too.
TYPED_TEST(DLPack, ImportsStridesAndByteOffset) {
  using T = typename TypeParam::value_type;
  const auto dev = this->device();
  const auto buffer = ts::Tensor<T>::from_vector(iota_values<T>(16), {16}, dev);
  const auto expect = buffer.slice(0, 3).slice(0, 0, 12).reshape({3, 4}).transpose(0, 1);
  int deletions = 0;
  const DLDevice where = dev.is_cpu() ? kCpu : DLDevice{kDLCUDA, dev.index()};
  {
    auto t = ts::from_dlpack<T>(manual_capsule(buffer.data_ptr(), ts::detail::dlpack::dl_dtype<T>(),
                                               where, {4, 3}, {1, 4}, 3 * sizeof(T), &deletions));
    EXPECT_EQ(t.device(), dev);
    EXPECT_EQ(t.data_ptr(), buffer.data_ptr() + 3);
    EXPECT_EQ(t.to_vector(), expect.contiguous().to_vector());
    // Null strides mean compact row-major.
    auto c = ts::from_dlpack<T>(manual_capsule(buffer.data_ptr(), ts::detail::dlpack::dl_dtype<T>(),
                                               where, {2, 8}, {}, 0, &deletions));
    EXPECT_TRUE(c.is_contiguous());
    EXPECT_EQ(c.to_vector(), buffer.to_vector());
    EXPECT_EQ(deletions, 0);
  }
  EXPECT_EQ(deletions, 2);
}

TEST(DLPack, CudaDeviceIdMapsToThatDevice) {
  if (ts::cuda_device_count() < 2)
    GTEST_SKIP() << "needs two CUDA devices (the emulated build has)";
  auto t = ts::Tensor<float>::arange(0.0f, 4.0f, 1.0f, ts::Device::cuda(1));
  DLManagedTensor* m = t.to_dlpack();
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(m->dl_tensor.device.device_id, 1);
  auto back = ts::from_dlpack<float>(m);
  EXPECT_EQ(back.device(), ts::Device::cuda(1));
  ts::Tensor<float> doubled = back * 2.0f;  // runs on cuda:1
  EXPECT_EQ(doubled.to_vector(), (std::vector<float>{0, 2, 4, 6}));
}

// Every refused capsule is still released, exactly once, before the error reaches the caller.
TEST(DLPack, ErrorsReleaseTheCapsuleOnce) {
  std::vector<float> data(8, 1.0f);
  std::vector<std::uint8_t> bytes{0, 1, 2, 1};
  int deletions = 0;
  const auto f32 = ts::detail::dlpack::dl_dtype<float>();
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::from_dlpack<double>(manual_capsule(data.data(), f32, kCpu, {8}, {}, 0, &deletions));
      },
      {"from_dlpack", "float32 elements", "not float64 (float64)"}));
  EXPECT_EQ(deletions, 1);
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::from_dlpack<float>(
            manual_capsule(data.data(), {kDLFloat, 32, 4}, kCpu, {2}, {}, 0, &deletions));
      },
      {"from_dlpack", "4 lanes"}));
  EXPECT_EQ(deletions, 2);
  EXPECT_TRUE(throws_with<ts::DeviceError>(
      [&] {
        ts::from_dlpack<float>(
            manual_capsule(data.data(), f32, {kDLOpenCL, 0}, {8}, {}, 0, &deletions));
      },
      {"from_dlpack", "device type 4", "not supported"}));
  EXPECT_EQ(deletions, 3);
  EXPECT_TRUE(throws_with<ts::DeviceError>(
      [&] {
        ts::from_dlpack<float>(
            manual_capsule(data.data(), f32, {kDLCUDA, 9}, {8}, {}, 0, &deletions));
      },
      {"from_dlpack", "cuda:9", "not available"}));
  EXPECT_EQ(deletions, 4);
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [&] {
        ts::from_dlpack<float>(
            manual_capsule(data.data(), f32, kCpu, {1, 1, 1, 1, 1, 1, 1, 1, 8}, {}, 0, &deletions));
      },
      {"from_dlpack: from_blob", "9 dimensions", "at most 8"}));
  EXPECT_EQ(deletions, 5);
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::from_dlpack<float>(
            manual_capsule(data.data(), f32, kCpu, {2, 4}, {4, -1}, 0, &deletions));
      },
      {"from_dlpack: from_blob", "stride -1", "positive"}));
  EXPECT_EQ(deletions, 6);
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::from_dlpack<float>(manual_capsule(data.data(), f32, kCpu, {4}, {}, 2, &deletions));
      },
      {"from_dlpack: from_blob", "not aligned"}));
  EXPECT_EQ(deletions, 7);
  // Bytes other than 0/1 are not bools (checked before any bool is read).
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] {
        ts::from_dlpack<bool>(
            manual_capsule(bytes.data(), {kDLUInt, 8, 1}, kCpu, {4}, {}, 0, &deletions));
      },
      {"from_dlpack", "uint8", "other than 0 and 1"}));
  EXPECT_EQ(deletions, 8);
  EXPECT_TRUE(throws_with<ts::ValueError>([] { ts::from_dlpack<float>(nullptr); },
                                          {"from_dlpack", "null"}));
}

TEST(DLPack, BoolTravelsAsBytesAndComesBack) {
  auto t = ts::tensor<bool>({true, false, true});
  DLManagedTensor* m = t.to_dlpack();
  EXPECT_EQ(m->dl_tensor.dtype.code, kDLUInt);
  EXPECT_EQ(m->dl_tensor.dtype.bits, 8);
  EXPECT_EQ(ts::from_dlpack<bool>(m).to_vector(), (std::vector<bool>{true, false, true}));
  // DLPack 0.8's kDLBool (code 6) is accepted too.
  std::vector<std::uint8_t> bytes{1, 0};
  int deletions = 0;
  EXPECT_EQ(
      ts::from_dlpack<bool>(manual_capsule(bytes.data(), {6, 8, 1}, kCpu, {2}, {}, 0, &deletions))
          .to_vector(),
      (std::vector<bool>{true, false}));
  EXPECT_EQ(deletions, 1);
}

TEST(DLPack, RaggedTravelsAsValuesAndRowSplits) {
  const auto r = ts::RaggedTensor<float>::from_row_splits(ts::tensor<float>({1, 2, 3, 4, 5}),
                                                          ts::tensor<std::int64_t>({0, 2, 2, 5}));
  auto [values, splits] = ts::to_dlpack(r);
  EXPECT_EQ(values->dl_tensor.data, static_cast<void*>(r.values().data_ptr()));
  EXPECT_EQ(splits->dl_tensor.dtype.code, kDLInt);
  const auto back = ts::from_dlpack<float>(values, splits);
  EXPECT_EQ(back.values().data_ptr(), r.values().data_ptr());
  EXPECT_EQ(back.row_splits().data_ptr(), r.row_splits().data_ptr());
  EXPECT_EQ(back.row(2).to_vector(), (std::vector<float>{3, 4, 5}));

  // Invalid splits (last != number of values): ValueError, and both capsules released.
  std::vector<float> v(3);
  std::vector<std::int64_t> bad{0, 2};
  int deletions = 0;
  EXPECT_TRUE(throws_with<ts::ValueError>([&] {
    ts::from_dlpack<float>(manual_capsule(v.data(), ts::detail::dlpack::dl_dtype<float>(), kCpu,
                                          {3}, {}, 0, &deletions),
                           manual_capsule(bad.data(), ts::detail::dlpack::dl_dtype<std::int64_t>(),
                                          kCpu, {2}, {}, 0, &deletions));
  }));
  EXPECT_EQ(deletions, 2);
}

// tensor_scatter_nd_* on an rvalue never writes memory a capsule lends (docs/ops/scatter.md):
// an exported tensor moved into the scatter is copied (the capsule still holds it), and so is
// an imported one, the only tessera handle of memory another framework owns.
class DLPackScatter : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(DLPackScatter);

TEST_P(DLPackScatter, RvalueScatterCopiesLentOrBorrowedMemory) {
  const auto dev = device();
  const auto values = iota_values<float>(6);
  const auto i = ts::tensor<std::int64_t>({{1}, {4}}, dev);
  const auto u = ts::tensor<float>({10, 20}, dev);
  const std::vector<float> expected{0, 11, 2, 3, 24, 5};

  auto exported = ts::Tensor<float>::from_vector(values, dev);
  DLManagedTensor* m = exported.to_dlpack();
  const float* lent = exported.data_ptr();
  const auto h = std::move(exported).tensor_scatter_nd_add(i, u);
  EXPECT_NE(h.data_ptr(), lent);
  EXPECT_EQ(h.to_vector(), expected);
  const auto through_capsule = ts::from_dlpack<float>(m);
  EXPECT_EQ(through_capsule.data_ptr(), lent);
  EXPECT_EQ(through_capsule.to_vector(), values);

  const auto owner = ts::Tensor<float>::from_vector(values, dev);
  auto imported = ts::from_dlpack<float>(owner.to_dlpack());
  ASSERT_EQ(imported.storage().use_count(), 1);
  const float* borrowed = imported.data_ptr();
  const auto g = std::move(imported).tensor_scatter_nd_add(i, u);
  EXPECT_NE(g.data_ptr(), borrowed);
  EXPECT_EQ(g.to_vector(), expected);
  EXPECT_EQ(owner.to_vector(), values);
}

// complex64 and complex128 travel as kDLComplex of 64 and 128 bits (torch's codes), zero-copy
// both ways, on every device; a capsule of the other complex type is refused and released.
class DLPackComplex : public tessera_test::OnEachDevice {};
TESSERA_INSTANTIATE_ON_EACH_DEVICE(DLPackComplex);

TEST_P(DLPackComplex, DescribesComplexAsTorchAndRoundTrips) {
  using c64 = ts::complex64;
  const auto z = ts::tensor<c64>({{c64(1, 2), c64(3, 4)}, {c64(5, 6), c64(7, 8)}}, device());
  DLManagedTensor* m = z.to_dlpack();
  EXPECT_EQ(m->dl_tensor.dtype.code, kDLComplex);
  EXPECT_EQ(m->dl_tensor.dtype.bits, 64);
  EXPECT_EQ(m->dl_tensor.dtype.lanes, 1);
  const auto back = ts::from_dlpack<c64>(m);
  EXPECT_EQ(back.data(), z.data());
  EXPECT_EQ(back.to_vector(), z.to_vector());
  DLManagedTensor* d = ts::Tensor<ts::complex128>::ones({2}, device()).to_dlpack();
  EXPECT_EQ(d->dl_tensor.dtype.bits, 128);
  // from_dlpack owns the capsule from the call on: refused, it is released (ASan checks).
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { (void)ts::from_dlpack<c64>(d); },
                                          {"complex128", "complex64"}));
}
