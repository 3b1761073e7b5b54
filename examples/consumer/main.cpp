// SPDX-License-Identifier: BSD-3-Clause
// Uses an installed tessera through find_package(tessera): builds tensors, evaluates a fused
// expression with broadcasting, reduces it, prints it, and checks the values (exit code 1 on a
// mismatch, so CI notices a broken install).
#include <cstdlib>
#include <iostream>

#include <tessera/tessera.hpp>

namespace ts = tessera;

#if defined(CONSUMER_CUDA)
double fused_sum(const ts::Tensor<float>& a);  // fused.cu, compiled by nvcc
#endif

int main() {
  auto a = ts::tensor<float>({{1, 2, 3}, {4, 5, 6}});
  auto row = ts::Tensor<float>::arange(0.0f, 3.0f);  // [0, 1, 2], broadcast over rows
  ts::Tensor<float> c = a * 2.0f + row;              // one fused pass
  ts::Tensor<bool> big = c > 7.0f;
  const float total = ts::sum(c);
  const auto n_big = ts::sum(big);  // int64, as PyTorch

  std::cout << "tessera " << TESSERA_VERSION_MAJOR << '.' << TESSERA_VERSION_MINOR << '.'
            << TESSERA_VERSION_PATCH << " (CUDA backend: " << TESSERA_WITH_CUDA
            << ", GPU usable: " << std::boolalpha << ts::cuda_available() << ")\n"
            << "c = " << c << "\nsum(c) = " << total << ", count(c > 7) = " << n_big << '\n';

  // c = [[2, 5, 8], [8, 11, 14]]
  bool ok = c.shape() == ts::Shape{2, 3} && c.at({0, 0}) == 2.0f && c.at({1, 2}) == 14.0f &&
            total == 48.0f && n_big == 4;
  if (ts::cuda_available()) {
    // Host-compiled code with CUDA tensors: runs on the GPU node by node.
    const auto dev = ts::Device::cuda();
    ts::Tensor<float> g = a.to(dev) * 2.0f + row.to(dev);
    std::cout << "on " << g.device() << ": sum = " << ts::sum(g) << '\n';
    ok = ok && g.device() == dev && g.cpu().to_vector() == c.to_vector();
  }
#if defined(CONSUMER_CUDA)
  // sum(a * 2 + 1) = 2 * 21 + 6 = 48, on the CPU and, when there is a GPU, on it.
  const double cpu_sum = fused_sum(a);
  std::cout << "nvcc unit, cpu: " << cpu_sum << '\n';
  ok = ok && cpu_sum == 48.0;
  if (ts::cuda_available()) {
    const double gpu_sum = fused_sum(a.to(ts::Device::cuda()));
    std::cout << "nvcc unit, cuda: " << gpu_sum << '\n';
    ok = ok && gpu_sum == 48.0;
  }
#endif
  if (!ok) {
    std::cerr << "consumer: unexpected result from the installed tessera\n";
    return EXIT_FAILURE;
  }
  std::cout << "consumer: OK\n";
  return EXIT_SUCCESS;
}
