// SPDX-License-Identifier: BSD-3-Clause
// searchsorted: the examples of torch.searchsorted's reference page, then the rest of the API
// (options, int32 results, scalar and expression values, sorter, out), printed as PyTorch does.
#include <cstdint>
#include <iostream>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:searchsorted-seed]
  auto sorted_sequence = ts::tensor<int64_t>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}}, dev);
  auto values = ts::tensor<int64_t>({{3, 6, 9}, {3, 6, 9}}, dev);
  std::cout << sorted_sequence.searchsorted(values) << '\n';
  std::cout << sorted_sequence.searchsorted(values, {.side = ts::Side::Right}) << '\n';
  auto sorted_sequence_1d = ts::tensor<int64_t>({1, 3, 5, 7, 9}, dev);
  std::cout << sorted_sequence_1d.searchsorted(values) << '\n';
  // [end-snippet]

  // [snippet:searchsorted-api]
  auto seq = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}}, dev);
  auto v = ts::tensor<float>({{3, 6, 9}, {3, 6, 9}}, dev);
  ts::Tensor<int64_t> i = seq.searchsorted(v);             // int64, the values' shape
  auto r = seq.searchsorted(v, {.right = true});           // same as {.side = Side::Right}
  auto i32 = seq.searchsorted<int32_t>(v);                 // PyTorch's out_int32=True
  auto s = seq.select(0, 0).searchsorted(6.0f);            // scalar value: 0-d result
  auto w = seq.searchsorted(v * 2.0f - 1.0f);              // expression read in the kernel
  auto raw = ts::tensor<float>({9, 1, 7, 3, 5}, dev);      // unsorted ...
  auto order = ts::tensor<int64_t>({1, 3, 4, 2, 0}, dev);  // ... and its argsort
  auto u = raw.searchsorted(v, {.sorter = order});         // indexes the sorted order
  auto out = ts::Tensor<int64_t>::empty({0}, dev);         // on the sequence's device
  seq.searchsorted_out(v, out);                            // resized to v's shape
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("searchsorted (all calls)");

  std::cout << "i = " << i << "\nr = " << r << "\ni32 = " << i32 << "\ns = " << s << "\nw = " << w
            << "\nu = " << u << "\nout = " << out << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "searchsorted", run); }
