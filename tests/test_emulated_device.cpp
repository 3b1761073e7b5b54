// SPDX-License-Identifier: BSD-3-Clause
// The emulated device (TESSERA_CUDA=EMULATED) is the CI stand-in for a GPU, so it must be as
// strict as one: two devices whose memory host code cannot read. These tests prove that a stray
// host read of device memory is caught (the process dies), while the runtime's copies and the
// device algorithms reach that memory.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/reference.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;
namespace runtime = tessera::detail::device_runtime;
using tessera_test::throws_with;

namespace {
// Reads element 0 of a device tensor the way buggy host code would: through its pointer.
template <class T>
T read_directly(const ts::Tensor<T>& t) {
  return *static_cast<const volatile T*>(t.data());
}

class EmulatedDeviceDeathTest : public ::testing::Test {
 protected:
  // The OpenMP pool has threads by the time these run: fork-and-exec is the safe style.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
}  // namespace

TEST(EmulatedDevice, HasTwoDevices) {
  EXPECT_TRUE(ts::cuda_available());
  EXPECT_EQ(ts::cuda_device_count(), 2);
  EXPECT_EQ(std::string(runtime::backend_name()), "emulated");
}

TEST(EmulatedDevice, RuntimeCopiesReachDeviceMemory) {
  const auto host = ts::tensor<float>({1.5f, -2.0f, 3.25f});
  const auto on0 = host.to(ts::Device::cuda(0));
  const auto on1 = on0.to(ts::Device::cuda(1));
  EXPECT_EQ(on1.device(), ts::Device::cuda(1));
  EXPECT_EQ(on1.to_vector(), host.to_vector());
  EXPECT_EQ(on0.at({2}), 3.25f);
  ts::Tensor<float> doubled = on1 * 2.0f;  // a device algorithm on cuda:1
  EXPECT_EQ(doubled.to_vector(), (std::vector<float>{3.0f, -4.0f, 6.5f}));
}

TEST(EmulatedDevice, OperandsOnTwoDevicesAreDeviceError) {
  const auto a = ts::tensor<float>({1, 2}, ts::Device::cuda(0));
  const auto b = ts::tensor<float>({1, 2}, ts::Device::cuda(1));
  EXPECT_TRUE(throws_with<ts::DeviceError>([&] { ts::eval(a + b); }, {"cuda:0", "cuda:1"}));
  EXPECT_TRUE(throws_with<ts::DeviceError>(
      [&] { ts::Tensor<float>::zeros({2}, ts::Device::cuda(2)); }, {"cuda:2"}));
}

TEST_F(EmulatedDeviceDeathTest, HostReadOfDeviceMemoryIsCaught) {
  const auto t = ts::tensor<std::int32_t>({7, 8, 9}, ts::Device::cuda(0));
  EXPECT_DEATH((void)read_directly(t), "");
  // The same read through the runtime is fine, and the host copy is ordinary memory.
  EXPECT_EQ(t.to_vector(), (std::vector<std::int32_t>{7, 8, 9}));
  EXPECT_EQ(read_directly(t.cpu()), 7);
}

TEST_F(EmulatedDeviceDeathTest, DeviceMemoryClosesAgainAfterDeviceWork) {
  const auto a = ts::Tensor<double>::arange(0.0, 1000.0, 1.0, ts::Device::cuda(1));
  ts::Tensor<double> b = a * a + 1.0;  // opens device memory for the algorithm, then closes it
  EXPECT_EQ(ts::sum(b), 332834500.0);  // sum of i * i + 1 over [0, 1000)
  EXPECT_DEATH((void)read_directly(b), "");
  EXPECT_DEATH((void)read_directly(a), "");
}

TEST_F(EmulatedDeviceDeathTest, HostWriteToDeviceMemoryIsCaught) {
  auto t = ts::Tensor<std::uint8_t>::zeros({16}, ts::Device::cuda(0));
  EXPECT_DEATH(*static_cast<volatile std::uint8_t*>(t.data()) = 1, "");
  EXPECT_EQ(ts::count_nonzero(t), 0);
}
