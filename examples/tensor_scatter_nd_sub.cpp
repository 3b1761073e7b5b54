// SPDX-License-Identifier: BSD-3-Clause
// tensor_scatter_nd_sub: the examples of tf.tensor_scatter_nd_sub's reference page, then the
// siblings (add, update, min, max), in-place forms, options and expression updates.
#include <cstdint>
#include <iostream>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:scatter-seed]
  auto indices = ts::tensor<int64_t>({{4}, {3}, {1}, {7}}, dev);
  auto updates = ts::tensor<int32_t>({9, 10, 11, 12}, dev);
  auto tensor = ts::Tensor<int32_t>::ones({8}, dev);
  std::cout << tensor.tensor_scatter_nd_sub(indices, updates) << '\n';

  auto slice_indices = ts::tensor<int64_t>({{0}, {2}}, dev);
  auto slices = ts::tensor<int32_t>({{{5, 5, 5, 5}, {6, 6, 6, 6}, {7, 7, 7, 7}, {8, 8, 8, 8}},
                                     {{5, 5, 5, 5}, {6, 6, 6, 6}, {7, 7, 7, 7}, {8, 8, 8, 8}}},
                                    dev);
  auto cube = ts::Tensor<int32_t>::ones({4, 4, 4}, dev);
  std::cout << cube.tensor_scatter_nd_sub(slice_indices, slices) << '\n';
  // [end-snippet]

  // [snippet:scatter-api]
  auto t = ts::Tensor<int32_t>::ones({8}, dev);
  auto i = ts::tensor<int32_t>({{4}, {3}, {1}, {4}}, dev);  // int32 or int64; 4 twice
  auto u = ts::tensor<int32_t>({9, 10, 11, 12}, dev);
  auto r = t.tensor_scatter_nd_add(i, u);  // new tensor; t unchanged
  t.scatter_nd_sub_(i, u);                 // in place, returns t
  auto f = ts::Tensor<float>::zeros({8}, dev);
  auto v = ts::tensor<float>({1, 2, 3, 4}, dev);
  auto j = ts::tensor<int64_t>({{4}, {3}, {1}, {0}}, dev);  // update: unique rows
  auto e = f.tensor_scatter_nd_update(j, v * 0.5f);         // expression updates, fused
  auto far = ts::tensor<int64_t>({{1}, {99}, {2}, {-1}}, dev);
  auto g = f.tensor_scatter_nd_add(far, v, {.out_of_bounds = ts::OutOfBounds::Ignore});
  f.scatter_nd_max_(i, v, {.deterministic = true});  // same bits on every run
  auto m = ts::tensor_scatter_nd_min(f, i, -v);      // free-function twin
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("scatter family (all calls)");

  std::cout << "r = " << r << "\nt = " << t << "\ne = " << e << "\ng = " << g << "\nf = " << f
            << "\nm = " << m << '\n';

  // [snippet:scatter-error]
  try {
    ts::Tensor<float>::zeros({8}, dev).tensor_scatter_nd_sub(far, v);
  } catch (const ts::IndexError& error) {  // the same error on every device
    std::cout << "IndexError: " << error.what() << '\n';
  }
  // [end-snippet]
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return example::run_example(argc, argv, "tensor_scatter_nd_sub", run);
}
