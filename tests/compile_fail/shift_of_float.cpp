// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: shifting floats (PyTorch raises for bitwise_left_shift of float);
// tessera's message names the operators and the fix. tests/CMakeLists.txt builds this and
// expects that message.

#include "tessera/tessera.hpp"

int main() {
  const auto a = tessera::tensor<float>({1, 2, 3});
  const tessera::Tensor<float> s = a << 1;
  return static_cast<int>(s.numel());
}
