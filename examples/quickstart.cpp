// The README's first program: build tensors, fuse an expression, reduce, print.
#include <iostream>

#include "tessera/tessera.hpp"

namespace ts = tessera;

int main() {
  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  ts::Tensor<float> b = a * 2.0f + 1.0f;                 // one fused pass
  ts::Tensor<bool> big = (b > 10.0f) & !(b == 13.0f);
  auto kept = ts::eval(ts::where(big, b, 0.0f));
  std::cout << "a = " << a << "\nb = " << b << "\nkept = " << kept << '\n';
  std::cout << "sum(b * b) = " << ts::sum(b * b) << ", max = " << ts::max(b) << '\n';
  std::cout << "cuda available: " << std::boolalpha << ts::cuda_available() << '\n';
  return 0;
}
