// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: ordering complex numbers (PyTorch raises at run time for `<` of complex
// tensors); tessera refuses at compile time with a message naming the rule and the docs.
// tests/CMakeLists.txt builds this and expects that message.

#include "tessera/tessera.hpp"

int main() {
  const auto z = tessera::tensor<tessera::complex64>({{1, 2}, {3, 4}});
  const tessera::Tensor<bool> less = z < z;
  return static_cast<int>(less.numel());
}
