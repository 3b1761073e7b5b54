// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file device.hpp
/// Where a tensor's memory lives: the host (`Device::cpu()`) or a CUDA GPU (`Device::cuda(i)`).

#include <cstdint>
#include <iosfwd>
#include <string>

namespace tessera {

/// A memory location. Small, trivially copyable, comparable.
///
///     auto d = tessera::Device::cuda(0);   // d.is_cuda(), d.index() == 0, prints "cuda:0"
class Device {
 public:
  /// The kind of memory.
  enum class Kind : std::uint8_t { CPU, CUDA };

  /// Host memory. `Device::cpu().index()` is 0.
  static constexpr Device cpu() noexcept { return {Kind::CPU, 0}; }
  /// Memory of CUDA device `index` (>= 0; ValueError otherwise). Whether that GPU exists is
  /// checked when memory is first allocated on it (DeviceError).
  static Device cuda(int index = 0);

  /// CPU or CUDA.
  constexpr Kind kind() const noexcept { return kind_; }
  /// The GPU's index (0 for the CPU).
  constexpr int index() const noexcept { return index_; }
  /// True for host memory.
  constexpr bool is_cpu() const noexcept { return kind_ == Kind::CPU; }
  /// True for the memory of a CUDA GPU.
  constexpr bool is_cuda() const noexcept { return kind_ == Kind::CUDA; }
  /// "cpu" or "cuda:N".
  std::string str() const;

  /// Same kind and same index.
  friend constexpr bool operator==(Device a, Device b) noexcept {
    return a.kind_ == b.kind_ && a.index_ == b.index_;
  }

 private:
  constexpr Device(Kind kind, int index) noexcept : kind_(kind), index_(index) {}
  Kind kind_;
  int index_;
};

/// Prints "cpu" or "cuda:N".
std::ostream& operator<<(std::ostream& os, Device device);

/// True when tessera was built with its CUDA backend and at least one GPU is usable.
bool cuda_available();

/// Number of usable GPUs (0 without the CUDA backend or without a GPU).
int cuda_device_count();

/// Waits until every operation queued on `device` has finished (nothing to wait for on the
/// CPU, whose operations finish before they return). Timing code needs it; results do not:
/// reading a CUDA tensor on the host waits by itself.
void synchronize(Device device);

}  // namespace tessera
