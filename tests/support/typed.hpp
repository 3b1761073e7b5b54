// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file typed.hpp
/// Typed tests over element types x devices (MatX `TypedCartesianProduct` style).
///
/// The eight dtypes are named once (`DTypes`); every GoogleTest type list below is derived from
/// it. A test case is `Case<T, OnCpu>` or `Case<T, OnCuda>`: the device part is a run-time value,
/// so the same test body runs on both, and CUDA cases skip themselves (with the reason) in
/// `SetUp` when no GPU is usable. On a GPU machine they really run: tensors are created on
/// `device()` and compared with host reference loops.
///
///     template <class C> class MySuite : public tessera_test::Typed<C> {};
///     TYPED_TEST_SUITE(MySuite, tessera_test::AllCases, tessera_test::CaseName);
///     TYPED_TEST(MySuite, Works) { using T = typename TypeParam::value_type; ... this->device() }

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tessera/config.hpp"
#include "tessera/tessera.hpp"

namespace tessera_test {

namespace ts = tessera;

/// The element types of tessera, named once (same order as TESSERA_FOR_EACH_DTYPE).
using DTypes = std::tuple<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                          float, double>;

/// Device kinds a case runs on (the device itself is chosen at run time).
struct OnCpu {
  static ts::Device device() { return ts::Device::cpu(); }
  static constexpr const char* name = "cpu";
};
struct OnCuda {
  static ts::Device device() { return ts::Device::cuda(0); }
  static constexpr const char* name = "cuda0";
};
/// The device kinds typed suites run on: cpu and cuda:0 when tessera has its CUDA backend (CUDA
/// cases skip themselves at run time where no GPU is present); cpu alone in a host-only build,
/// where no CUDA tensor can exist, so the CUDA instantiations would only cost compile time.
#if TESSERA_WITH_CUDA
using DeviceKinds = std::tuple<OnCpu, OnCuda>;
#else
using DeviceKinds = std::tuple<OnCpu>;
#endif

/// One test case: element type T on device kind D.
template <class T, class D>
struct Case {
  using value_type = T;
  using device_kind = D;
  static ts::Device device() { return D::device(); }
};

namespace detail {
template <class T, class... Ds>
using case_row = std::tuple<Case<T, Ds>...>;

template <class Types, class Devices>
struct cartesian;
template <class... Ts, class... Ds>
struct cartesian<std::tuple<Ts...>, std::tuple<Ds...>> {
  using type = decltype(std::tuple_cat(std::declval<case_row<Ts, Ds...>>()...));
};

template <template <class> class Keep, class Tuple>
struct filter;
template <template <class> class Keep, class... Ts>
struct filter<Keep, std::tuple<Ts...>> {
  using type = decltype(std::tuple_cat(
      std::declval<std::conditional_t<Keep<Ts>::value, std::tuple<Ts>, std::tuple<>>>()...));
};

template <class Tuple>
struct gtest_types;
template <class... Ts>
struct gtest_types<std::tuple<Ts...>> {
  using type = ::testing::Types<Ts...>;
};

template <class T>
struct is_numeric : std::bool_constant<!std::is_same_v<T, bool>> {};
template <class T>
struct is_signed_numeric : std::bool_constant<std::is_signed_v<T>> {};
}  // namespace detail

template <class Types, class Devices = DeviceKinds>
using cartesian_t = typename detail::cartesian<Types, Devices>::type;
template <class Tuple>
using gtest_types_t = typename detail::gtest_types<Tuple>::type;

/// Every dtype but bool; signed dtypes (signed integers and floats); floating dtypes.
using NumericDTypes = typename detail::filter<detail::is_numeric, DTypes>::type;
using SignedDTypes = typename detail::filter<detail::is_signed_numeric, DTypes>::type;
using FloatDTypes = typename detail::filter<std::is_floating_point, DTypes>::type;

/// GoogleTest type lists: dtypes x {cpu, cuda:0}.
using AllCases = gtest_types_t<cartesian_t<DTypes>>;
using NumericCases = gtest_types_t<cartesian_t<NumericDTypes>>;
using SignedCases = gtest_types_t<cartesian_t<SignedDTypes>>;
using FloatCases = gtest_types_t<cartesian_t<FloatDTypes>>;

static_assert(std::tuple_size_v<DTypes> == 8);
static_assert(std::tuple_size_v<cartesian_t<DTypes>> == 8 * std::tuple_size_v<DeviceKinds>);
static_assert(std::tuple_size_v<NumericDTypes> == 7);
static_assert(std::tuple_size_v<SignedDTypes> == 6);
static_assert(std::tuple_size_v<FloatDTypes> == 2);

/// Calls `f(std::type_identity<U>{})` for every U in a dtype tuple.
template <class Tuple, class F>
void for_each_dtype(F&& f) {
  std::apply([&](auto... tags) { (f(std::type_identity<decltype(tags)>{}), ...); }, Tuple{});
}

/// Test names: "float32_cpu", "int8_cuda0", ...
struct CaseName {
  template <class C>
  static std::string GetName(int) {
    return std::string(ts::dtype_name(ts::dtype_v<typename C::value_type>)) + "_" +
           C::device_kind::name;
  }
};

/// Empty when `device` is usable here, otherwise why not.
inline std::string unavailable_reason(ts::Device device) {
  if (device.is_cpu() || device.index() < ts::cuda_device_count()) return {};
  if (TESSERA_WITH_CUDA == 0) return "no CUDA device: tessera built without CUDA";
  if (ts::cuda_device_count() == 0) return "no CUDA device: no GPU present";
  return "no CUDA device: " + device.str() + " not present (" +
         std::to_string(ts::cuda_device_count()) + " GPUs)";
}

/// Every device a test is written for (CUDA ones skip themselves where absent).
inline std::vector<ts::Device> all_devices() { return {ts::Device::cpu(), ts::Device::cuda(0)}; }

/// The devices usable here: the CPU, plus cuda:0 when `ts::cuda_available()`.
inline std::vector<ts::Device> available_devices() {
  std::vector<ts::Device> devices{ts::Device::cpu()};
  if (ts::cuda_available()) devices.push_back(ts::Device::cuda(0));
  return devices;
}

}  // namespace tessera_test

/// Skips the current test (GTEST_SKIP with the reason) when `device` is not usable here.
#define TESSERA_SKIP_IF_UNAVAILABLE(device)                                              \
  do {                                                                                   \
    const std::string tessera_skip_reason_ = ::tessera_test::unavailable_reason(device); \
    if (!tessera_skip_reason_.empty()) GTEST_SKIP() << tessera_skip_reason_;             \
  } while (0)

namespace tessera_test {

/// Fixture of typed tests: runs the body on `device()`, or skips it when that device is absent.
template <class C>
class Typed : public ::testing::Test {
 protected:
  void SetUp() override { TESSERA_SKIP_IF_UNAVAILABLE(C::device()); }
  static ts::Device device() { return C::device(); }
};

/// Fixture of value-parameterised tests over `all_devices()` (same skipping rule).
class OnEachDevice : public ::testing::TestWithParam<ts::Device> {
 protected:
  void SetUp() override { TESSERA_SKIP_IF_UNAVAILABLE(GetParam()); }
  ts::Device device() const { return GetParam(); }
};

inline std::string device_param_name(const ::testing::TestParamInfo<ts::Device>& info) {
  return info.param.is_cpu() ? "cpu" : "cuda" + std::to_string(info.param.index());
}

}  // namespace tessera_test

/// Instantiates a `TEST_P` suite derived from OnEachDevice for cpu and cuda:0.
#define TESSERA_INSTANTIATE_ON_EACH_DEVICE(Suite)                                              \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, ::testing::ValuesIn(::tessera_test::all_devices()), \
                           ::tessera_test::device_param_name)
