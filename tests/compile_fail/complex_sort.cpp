// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: sorting complex numbers (PyTorch raises at run time); the message names the
// op and what orders complex numbers instead. tests/CMakeLists.txt builds this and expects it.

#include "tessera/tessera.hpp"

int main() {
  const auto z = tessera::tensor<tessera::complex64>({{1, 2}, {3, 4}});
  const auto sorted = tessera::sort(z, 1);
  return static_cast<int>(sorted.values.numel());
}
