// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file executors.hpp
/// Which executor runs an operation: `HostExecutor` for CPU tensors; for device tensors the
/// fused `DeviceExecutor` in device-compiled units (nvcc, or the emulated device's device units)
/// and the node-by-node `NodeExecutor` (precompiled device kernels) in host-compiled ones.
/// Operations overload their kernels on the executor type; `with_executor` picks one by device.

#include <utility>

#include "tessera/core/device.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/expr/cuda_nodes.hpp"
#include "tessera/expr/host_executor.hpp"

#if TESSERA_DEVICE_CODE
#include "tessera/expr/device_executor.cuh"
#endif

namespace tessera::detail {
inline namespace TESSERA_EVAL_NS {

#if TESSERA_DEVICE_CODE
/// The device executor of this translation unit: one fused device algorithm per operation.
using UnitDeviceExecutor = DeviceExecutor;
#else
/// The device executor of this translation unit: node by node through precompiled kernels.
using UnitDeviceExecutor = cuda_nodes::NodeExecutor;
#endif

/// Calls `f(executor)` with the executor of `device` in this translation unit. A build without
/// a device backend has no cuda:N tensor (allocating one raises DeviceError), so there its
/// host-compiled units instantiate the host executor alone: no node-by-node path is compiled
/// for an expression that can never be on a device (examples/quickstart.cpp: 209 -> 198 KB).
template <class F>
decltype(auto) with_executor(Device device, F&& f) {
#if TESSERA_WITH_CUDA || TESSERA_DEVICE_CODE
  if (device.is_cpu()) return std::forward<F>(f)(HostExecutor{});
  return std::forward<F>(f)(UnitDeviceExecutor{device.index()});
#else
  if (!device.is_cpu()) {
    raise<DeviceError>(op_or("eval"),
                       "tessera was built without a device backend "
                       "(TESSERA_CUDA=OFF, or AUTO without a CUDA compiler)");
  }
  return std::forward<F>(f)(HostExecutor{});
#endif
}

}  // namespace TESSERA_EVAL_NS
}  // namespace tessera::detail
