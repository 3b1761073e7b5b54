// SPDX-License-Identifier: BSD-3-Clause
// nonzero: the examples of torch.nonzero's reference page, then the rest of the family
// (count_nonzero, nonzero_static, argwhere, nonzero_out, expressions).
#include <cstdint>
#include <iostream>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:nonzero-seed]
  auto a = ts::tensor<int64_t>({1, 1, 1, 0, 1}, dev);
  auto b = ts::tensor<float>({{0.6f, 0.0f, 0.0f, 0.0f},
                              {0.0f, 0.4f, 0.0f, 0.0f},
                              {0.0f, 0.0f, 1.2f, 0.0f},
                              {0.0f, 0.0f, 0.0f, -0.4f}},
                             dev);
  std::cout << a.nonzero() << '\n' << b.nonzero() << '\n';
  example::print_tuple(std::cout, a.nonzero(ts::as_tuple));
  example::print_tuple(std::cout, b.nonzero(ts::as_tuple));
  example::print_tuple(std::cout, ts::tensor<int64_t>(5, dev).nonzero(ts::as_tuple));
  // [end-snippet]

  // [snippet:nonzero-api]
  auto x = ts::tensor<float>({{0, 1.5f, 0}, {2, 0, -0.0f}}, dev);
  ts::Tensor<int64_t> idx = x.nonzero();  // shape (z, x.dim())
  auto cols = x.nonzero(ts::as_tuple);    // one (z) tensor per dimension
  int64_t n = x.count_nonzero();          // the count, on the host
  auto fixed = x.nonzero_static(4, -1);   // shape (4, 2): no device sync
  auto big = (x > 1.0f).nonzero();        // predicate fused: no mask tensor
  auto same = ts::argwhere(x);            // torch.argwhere: same as nonzero()
  ts::Tensor<int64_t> out = ts::Tensor<int64_t>::empty({0, 2}, dev);
  x.nonzero_out(out);  // rebinds out to shape (z, 2)
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("nonzero family (all calls)");

  std::cout << "idx = " << idx << "\ncols = ";
  example::print_tuple(std::cout, cols);
  std::cout << "n = " << n << "\nfixed = " << fixed << "\nbig = " << big << "\nsame = " << same
            << "\nout = " << out << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "nonzero", run); }
