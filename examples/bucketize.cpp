// SPDX-License-Identifier: BSD-3-Clause
// bucketize: the examples of torch.bucketize's reference page, then int32 results and out.
#include <cstdint>
#include <iostream>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:bucketize-seed]
  auto boundaries = ts::tensor<int64_t>({1, 3, 5, 7, 9}, dev);
  auto v = ts::tensor<int64_t>({{3, 6, 9}, {3, 6, 9}}, dev);
  std::cout << v.bucketize(boundaries) << '\n';
  std::cout << v.bucketize(boundaries, /*right=*/true) << '\n';
  // [end-snippet]

  // [snippet:bucketize-api]
  auto b32 = v.bucketize<int32_t>(boundaries, true);  // int32 results
  auto e = (v * 2 - 5).bucketize(boundaries);         // an expression as input
  auto f = ts::bucketize(v, boundaries);              // free-function spelling
  auto out = ts::Tensor<int64_t>::empty({0}, dev);    // resized to v's shape
  v.bucketize_out(boundaries, out, /*right=*/false);
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("bucketize (all calls)");

  std::cout << "b32 = " << b32 << "\ne = " << e << "\nf = " << f << "\nout = " << out << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "bucketize", run); }
