// SPDX-License-Identifier: BSD-3-Clause
// sort, argsort and topk: the examples of torch.sort / torch.argsort / torch.topk's reference
// pages, then the rest of the API (stable order, NaN, expressions, searchsorted with an argsort
// sorter), printed as PyTorch does.
#include <cstdint>
#include <iostream>
#include <limits>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:ordering-seed]
  auto x = ts::tensor<float>({{-2.0f, 1.5f, 0.5f, 1.5f}, {3.0f, -1.0f, 0.0f, -1.0f}}, dev);
  auto [sorted, indices] = x.sort();
  std::cout << sorted << '\n' << indices << '\n';
  auto d = x.sort(/*dim*/ 0, /*descending*/ true);
  std::cout << d.values << '\n' << d.indices << '\n';
  std::cout << x.argsort(/*dim*/ 1, /*descending*/ true) << '\n';
  auto [top, pos] = ts::tensor<float>({1, 2, 3, 4, 5}, dev).topk(3);
  std::cout << top << '\n' << pos << '\n';
  // [end-snippet]

  // [snippet:ordering-api]
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto t = ts::tensor<float>({2.0f, nan, -0.0f, 1.0f, 0.0f, nan, 2.0f}, dev);
  auto up = t.sort();                                // NaN last; -0.0 and +0.0 keep their order
  auto down = ts::sort(t, -1, /*descending*/ true);  // NaN first; ties still in input order
  auto order = ts::argsort(t * 2.0f - 1.0f);         // an expression, evaluated once
  auto low = t.topk(2, /*dim*/ 0, /*largest*/ false, /*sorted*/ true);
  auto seq = ts::tensor<int64_t>({50, 10, 40, 20, 30}, dev);
  auto where = seq.searchsorted(ts::tensor<int64_t>({25, 45}, dev), {.sorter = seq.argsort()});
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("ordering (all calls)");

  std::cout << "up = " << up.values << ' ' << up.indices << "\ndown = " << down.values << ' '
            << down.indices << "\norder = " << order << "\nlow = " << low.values << ' '
            << low.indices << "\nwhere = " << where << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "ordering", run); }
