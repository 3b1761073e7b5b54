// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: a complex -> real conversion (PyTorch drops the imaginary part with only a
// warning); tessera asks for what is meant. tests/CMakeLists.txt builds this and expects that
// message.

#include "tessera/tessera.hpp"

int main() {
  const auto z = tessera::tensor<tessera::complex64>({{1, 2}, {3, 4}});
  const tessera::Tensor<float> x(z * 2.0f);
  return static_cast<int>(x.numel());
}
