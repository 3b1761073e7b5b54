// SPDX-License-Identifier: BSD-3-Clause
#include "tessera/core/device.hpp"

#include <ostream>

#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera {

Device Device::cuda(int index) {
  if (index < 0) detail::raise<ValueError>("Device::cuda", "index must be >= 0, got ", index);
  return Device(Kind::CUDA, index);
}

std::string Device::str() const {
  return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(index_);
}

std::ostream& operator<<(std::ostream& os, Device device) { return os << device.str(); }

int cuda_device_count() { return detail::device_runtime::device_count(); }

bool cuda_available() { return cuda_device_count() > 0; }

void synchronize(Device device) {
  if (device.is_cuda()) detail::device_runtime::synchronize(device.index());
}

}  // namespace tessera
