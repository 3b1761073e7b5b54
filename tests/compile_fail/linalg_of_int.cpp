// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: a decomposition of an integer matrix (PyTorch raises "linalg.inv: Expected a
// floating point or complex tensor as input. Got Long"); tessera's message says to cast first.
// tests/CMakeLists.txt builds this and expects that message.

#include "tessera/tessera.hpp"

int main() {
  const auto a = tessera::Tensor<std::int64_t>::eye(3);
  const auto i = tessera::linalg::inv(a);
  return static_cast<int>(i.numel());
}
