// SPDX-License-Identifier: BSD-3-Clause
// The README's first program: build tensors, fuse an expression, reduce, print; on the GPU too
// when there is one.
#include <iostream>

#include <tessera/tessera.hpp>

namespace ts = tessera;

int main() {
  // clang-format off
  // [snippet:quickstart]
  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  ts::Tensor<float> b = a * 2.0f + 1.0f;              // lazy; one fused pass on assignment
  ts::Tensor<bool> big = (b > 10.0f) & !(b == 13.0f);
  auto kept = ts::eval(ts::where(big, b, 0.0f));      // a Tensor<float>
  float total = ts::sum(b * b);                       // reductions fuse with the expression
  auto row = ts::Tensor<float>::arange(0.0f, 5.0f);   // [0, 1, 2, 3, 4]
  ts::Tensor<float> c = a - row;                      // broadcast (2, 5) with (5)
  std::cout << "kept = " << kept << "\ntotal = " << total << "\nc = " << c << '\n';
  if (ts::cuda_available()) {                         // explicit transfers, never implicit
    auto g = a.to(ts::Device::cuda());
    ts::Tensor<float> h = ts::sqrt(g) + 1.0f;         // runs on the GPU
    std::cout << "h = " << h << '\n';
  }
  // [end-snippet]
  // clang-format on
  std::cout << "cuda available: " << std::boolalpha << ts::cuda_available() << '\n';
  return 0;
}
