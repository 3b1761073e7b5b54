// SPDX-License-Identifier: BSD-3-Clause
// Compiled by nvcc: expressions over CUDA tensors fuse into one kernel here (cuda_executor.cuh),
// unlike host-compiled tests, which evaluate them node by node. Both must give the host's
// answers. Skipped (with the reason) where no GPU is usable.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <thrust/system_error.h>

#include "tessera/detail/device_work.cuh"
#include "tessera/tessera.hpp"

namespace ts = tessera;

namespace {
#define REQUIRE_GPU()                                                                  \
  if (!ts::cuda_available()) {                                                         \
    GTEST_SKIP() << "no CUDA device: tessera built without CUDA or no GPU is present"; \
  }

ts::Tensor<float> sample(ts::Shape shape, float scale) {
  std::vector<float> values(static_cast<std::size_t>(shape.numel()));
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = scale * static_cast<float>((static_cast<int>(i) * 37) % 101 - 50);
  }
  return ts::Tensor<float>::from_vector(values, shape);
}
}  // namespace

TEST(CudaFused, ExpressionMatchesHost) {
  REQUIRE_GPU();
  const auto a = sample({64, 33}, 0.25f);
  const auto b = sample({33}, -0.5f);
  const auto da = a.to(ts::Device::cuda());
  const auto db = b.to(ts::Device::cuda());
  ts::Tensor<float> host = ts::where(a > b, a * 2.0f - b, ts::sqrt(ts::abs(a)) + 1.0f);
  ts::Tensor<float> gpu = ts::where(da > db, da * 2.0f - db, ts::sqrt(ts::abs(da)) + 1.0f);
  EXPECT_EQ(gpu.device(), ts::Device::cuda());
  EXPECT_EQ(gpu.to_vector(), host.to_vector());
}

TEST(CudaFused, StridedOperandsAndOutput) {
  REQUIRE_GPU();
  const auto a = sample({40, 50}, 1.0f);
  const auto da = a.to(ts::Device::cuda());
  ts::Tensor<double> host = ts::cast<double>(a.transpose(0, 1) * 3.0f);
  ts::Tensor<double> gpu = ts::cast<double>(da.transpose(0, 1) * 3.0f);
  EXPECT_EQ(gpu.to_vector(), host.to_vector());
  auto target = ts::Tensor<float>::zeros({50, 40}, ts::Device::cuda()).transpose(0, 1);
  target = da + 1.0f;  // writes through the transposed view
  EXPECT_EQ(target.to_vector(), ts::eval(a + 1.0f).to_vector());
}

TEST(CudaFused, ReductionsMatchHost) {
  REQUIRE_GPU();
  const auto a = sample({1000, 37}, 0.125f);
  const auto da = a.to(ts::Device::cuda());
  EXPECT_DOUBLE_EQ(ts::sum(da * da), ts::sum(a * a));
  EXPECT_EQ(ts::min(da), ts::min(a));
  EXPECT_EQ(ts::max(da - 1.0f), ts::max(a - 1.0f));
  EXPECT_EQ(ts::any(da > 6.0f), ts::any(a > 6.0f));
  EXPECT_EQ(ts::all(da > -100.0f), ts::all(a > -100.0f));
}

TEST(CudaFused, AliasedAssignmentIsSafe) {
  REQUIRE_GPU();
  const auto a = sample({30, 30}, 1.0f);
  auto da = a.to(ts::Device::cuda());
  da = da.transpose(0, 1) + da;
  EXPECT_EQ(da.to_vector(), ts::eval(a.transpose(0, 1) + a).to_vector());
}

TEST(CudaFused, SearchAndNonzeroReadExpressionsInTheKernel) {
  REQUIRE_GPU();
  const auto a = sample({1000, 37}, 0.125f);
  const auto da = a.to(ts::Device::cuda());
  const auto seq = ts::tensor<float>({-4, -1, 0, 0.5f, 2, 3.5f, 7});
  const auto dseq = seq.to(ts::Device::cuda());
  EXPECT_EQ(dseq.searchsorted(da * 2.0f).to_vector(), seq.searchsorted(a * 2.0f).to_vector());
  EXPECT_EQ(dseq.searchsorted<std::int32_t>(da.transpose(0, 1), {.right = true}).to_vector(),
            seq.searchsorted<std::int32_t>(a.transpose(0, 1), {.right = true}).to_vector());
  EXPECT_EQ((da - 1.0f).bucketize(dseq, true).to_vector(),
            (a - 1.0f).bucketize(seq, true).to_vector());
  EXPECT_EQ((da > 0.5f).nonzero().to_vector(), (a > 0.5f).nonzero().to_vector());
}

TEST(CudaFused, ScatterReadsExpressionUpdatesInTheKernel) {
  REQUIRE_GPU();
  const auto t = sample({50, 37}, 0.25f);
  const auto u = sample({1000, 37}, 0.125f);
  std::vector<std::int64_t> rows(1000);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<std::int64_t>(i * 7 % 50);
  const auto i = ts::Tensor<std::int64_t>::from_vector(rows, {1000, 1});
  const auto gpu = ts::Device::cuda();
  const auto dt = t.to(gpu);
  const auto du = u.to(gpu);
  const auto di = i.to(gpu);
  const ts::ScatterOptions deterministic{.deterministic = true};
  EXPECT_EQ(dt.tensor_scatter_nd_sub(di, du * 0.5f, deterministic).to_vector(),
            t.tensor_scatter_nd_sub(i, u * 0.5f).to_vector());
  EXPECT_EQ(dt.tensor_scatter_nd_max(di, du.transpose(0, 1).transpose(0, 1) - 1.0f).to_vector(),
            t.tensor_scatter_nd_max(i, u - 1.0f).to_vector());
}

// A failure Thrust reports (on CUDA: a launch error, or an error from an algorithm that waits)
// reaches the caller as tessera's DeviceError naming the operation and the device, not as a
// thrust::system_error, whose type host-compiled callers cannot even name.
TEST(DeviceCall, ThrustFailureBecomesDeviceErrorNamingOpAndDevice) {
  REQUIRE_GPU();
  const auto failing = [] {
    throw thrust::system_error(thrust::error_code(1, thrust::generic_category()),
                               "for_each: failed to launch");
  };
  try {
    ts::detail::device_call("nonzero", 0, failing);
    FAIL() << "no exception";
  } catch (const ts::DeviceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("nonzero"), std::string::npos) << what;
    EXPECT_NE(what.find("cuda:0"), std::string::npos) << what;
    EXPECT_NE(what.find("for_each: failed to launch"), std::string::npos) << what;
  }
  EXPECT_EQ(ts::detail::device_call("nonzero", 0, [] { return 7; }), 7);
}

// The pointwise table fused into one device pass: transcendental, test, integer and composite
// functions give the host's answers (the same <cmath> calls on the emulated device; CUDA's math
// library within the documented ulps on a GPU).
TEST(CudaFused, PointwiseTableMatchesHost) {
  REQUIRE_GPU();
  const auto a = sample({32, 17}, 0.125f);
  const auto da = a.to(ts::Device::cuda());
  ts::Tensor<float> host = ts::sin(a) * ts::pow(ts::abs(a), 1.5f) + ts::atan2(a, 2.0f) -
                           ts::clamp(ts::floor_divide(a, 0.75f), -2, 2);
  ts::Tensor<float> gpu = ts::sin(da) * ts::pow(ts::abs(da), 1.5f) + ts::atan2(da, 2.0f) -
                          ts::clamp(ts::floor_divide(da, 0.75f), -2, 2);
  EXPECT_TRUE(ts::allclose(gpu.cpu(), host, 1e-6, 1e-6));
  ts::Tensor<bool> host_tests = ts::isfinite(ts::log(a)) ^ ts::signbit(a);
  ts::Tensor<bool> gpu_tests = ts::isfinite(ts::log(da)) ^ ts::signbit(da);
  EXPECT_EQ(gpu_tests.to_vector(), host_tests.to_vector());
  const auto i = ts::cast<std::int32_t>(a * 8.0f);
  const auto di = ts::cast<std::int32_t>(da * 8.0f);
  ts::Tensor<std::int32_t> host_bits = ((i % 5) ^ (i << 3)) | ~(i >> 1);
  ts::Tensor<std::int32_t> gpu_bits = ((di % 5) ^ (di << 3)) | ~(di >> 1);
  EXPECT_EQ(gpu_bits.to_vector(), host_bits.to_vector());
}

// Reductions over dimensions fused with their input on the device: the same op structs in the
// same order as the host, hence the host's bits.
TEST(CudaFused, ReductionsOverDimsMatchHostBits) {
  REQUIRE_GPU();
  const auto a = sample({300, 37}, 0.125f);
  const auto b = sample({37}, -0.5f);
  const auto da = a.to(ts::Device::cuda());
  const auto db = b.to(ts::Device::cuda());
  EXPECT_EQ(ts::sum(da * db, 1).to_vector(), ts::sum(a * b, 1).to_vector());
  EXPECT_EQ(ts::sum(da * db, 0).to_vector(), ts::sum(a * b, 0).to_vector());
  EXPECT_EQ(ts::var(da.transpose(0, 1), 1).to_vector(), ts::var(a.transpose(0, 1), 1).to_vector());
  EXPECT_EQ(ts::argmax(da - db, 0).to_vector(), ts::argmax(a - b, 0).to_vector());
  const auto [dv, di] = ts::cummax(da, 0);
  const auto [hv, hi] = ts::cummax(a, 0);
  EXPECT_EQ(dv.to_vector(), hv.to_vector());
  EXPECT_EQ(di.to_vector(), hi.to_vector());
  EXPECT_EQ(ts::cumsum(da, 1).to_vector(), ts::cumsum(a, 1).to_vector());
}

// Issue 46: linear algebra from a device-compiled unit: the norms run on the device's reduction
// engine fused with their input expression, the decompositions take their host round trip and
// come back on the device.
TEST(CudaFused, LinalgNormsAndDecompositions) {
  REQUIRE_GPU();
  const auto a = sample({6, 5}, 0.125f);
  const auto da = a.to(ts::Device::cuda());
  for (const double ord : {2.0, 1.0, 0.0, 3.0, -std::numeric_limits<double>::infinity()}) {
    const ts::Tensor<float> host = ts::linalg::vector_norm(a - 0.5f, ord, 1);
    const ts::Tensor<float> gpu = ts::linalg::vector_norm(da - 0.5f, ord, 1);
    EXPECT_EQ(gpu.device(), ts::Device::cuda());
    EXPECT_TRUE(ts::allclose(gpu.cpu(), host, 1e-6, 1e-6)) << "ord " << ord;
  }
  EXPECT_TRUE(ts::allclose(ts::linalg::matrix_norm(da * 2.0f, 1.0).cpu(),
                           ts::linalg::matrix_norm(a * 2.0f, 1.0), 1e-6, 1e-6));
  const auto m = a.narrow(0, 0, 5) + ts::Tensor<float>::eye(5) * 8.0f;
  const auto dm = da.narrow(0, 0, 5) + ts::Tensor<float>::eye(5, ts::Device::cuda()) * 8.0f;
  const auto dinv = ts::linalg::inv(dm);
  EXPECT_EQ(dinv.device(), ts::Device::cuda());
  EXPECT_TRUE(ts::allclose(dinv.cpu(), ts::linalg::inv(m), 1e-5, 1e-6));
  EXPECT_NEAR(ts::linalg::det(dm).item(), ts::linalg::det(m).item(), 1e-3);
}
