// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file snapshot.hpp
/// The raw bytes of a tensor's whole storage (host or CUDA), so a test can prove that a failing
/// call wrote nothing: not into the view, and not next to it either.

#include <cstdint>
#include <vector>

#include "tessera/core/device_runtime.hpp"
#include "tessera/tessera.hpp"

namespace tessera_test {

/// Every byte of the storage behind `t` (copied to the host first for a CUDA tensor).
template <class T>
std::vector<unsigned char> storage_bytes(const tessera::Tensor<T>& t) {
  const auto& storage = t.storage();
  if (storage.data() == nullptr || storage.nbytes() == 0) return {};
  std::vector<unsigned char> bytes(storage.nbytes());
  if (t.device().is_cpu()) {
    const auto* p = static_cast<const unsigned char*>(storage.data());
    bytes.assign(p, p + storage.nbytes());
  } else {
    tessera::detail::device_runtime::copy_to_host(bytes.data(), storage.data(), storage.nbytes(),
                                                  t.device().index());
  }
  return bytes;
}

}  // namespace tessera_test
