// SPDX-License-Identifier: BSD-3-Clause
// Must NOT compile: the mean of an integer tensor (PyTorch raises "mean(): could not infer
// output dtype"); tessera's message says to cast first. tests/CMakeLists.txt builds this and
// expects that message.

#include "tessera/tessera.hpp"

int main() {
  const auto a = tessera::tensor<int>({1, 2, 3});
  const auto m = tessera::mean(a, 0);
  return static_cast<int>(m.numel());
}
