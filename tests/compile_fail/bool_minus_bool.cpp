// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: PyTorch refuses `-` on two bool tensors, and so does tessera, with advice
// that exists (`^`, `!`). tests/CMakeLists.txt builds this and expects that message.

#include "tessera/tessera.hpp"

int main() {
  const auto a = tessera::tensor<bool>({true, false});
  const tessera::Tensor<bool> d = a - a;
  return static_cast<int>(d.numel());
}
