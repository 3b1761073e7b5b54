// SPDX-License-Identifier: BSD-3-Clause
// Indexing and gathering: the use case of torch.nonzero's reference page (x[x.nonzero(as_tuple=
// True)] gives the nonzero values), then a small job: the top-2 readings of each sensor and the
// rows of the log that hold them, a mask, gather_nd reading back what a scatter wrote, and the
// batches joined by cat and stack. Printed as PyTorch / TensorFlow print them.
#include <cstdint>
#include <iostream>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:indexing-seed]
  auto x = ts::tensor<float>({{0.6f, 0.0f, 0.0f, 0.0f},
                              {0.0f, 0.4f, 0.0f, 0.0f},
                              {0.0f, 0.0f, 1.2f, 0.0f},
                              {0.0f, 0.0f, 0.0f, -0.4f}},
                             dev);
  std::cout << x.index(x.nonzero(ts::as_tuple)) << '\n';  // x[x.nonzero(as_tuple=True)]
  // [end-snippet]

  // [snippet:indexing-job]
  // Readings: one row per sensor, one column per time step.
  auto readings = ts::tensor<float>({{3.0f, 9.0f, 1.0f, 7.0f, 5.0f},
                                     {2.0f, 8.0f, 6.0f, 4.0f, 0.0f},
                                     {5.0f, 5.0f, 9.0f, 1.0f, 3.0f}},
                                    dev);
  auto [top, when] = readings.topk(2, /*dim*/ 1);  // the two largest of each sensor
  auto again = readings.gather(/*dim*/ 1, when);   // the same values, read back
  auto times = ts::tensor<int64_t>({10, 20, 30, 40, 50}, dev);
  auto stamps = times.index_select(0, when.reshape({-1})).reshape({3, 2});
  auto hot = readings.index(ts::eval(readings.amax(1) > 8.5f));    // sensors that went above 8.5
  auto loud = readings.masked_select(ts::eval(readings >= 8.0f));  // every reading >= 8
  auto sorted = readings.take_along_dim(readings.argsort(1), /*dim*/ 1);
  auto ends = ts::tensor<int64_t>({0, -1}, dev);
  auto corners = readings.index({ends, ends});  // readings[[0, -1], [0, -1]]
  // TensorFlow's gather_nd reads back what tensor_scatter_nd_update wrote.
  auto where = ts::tensor<int64_t>({{0, 1}, {2, 4}}, dev);
  auto fixed = readings.tensor_scatter_nd_update(where, ts::tensor<float>({-1.0f, -2.0f}, dev));
  auto read = fixed.gather_nd(where);
  auto rows = ts::gather_nd(fixed, ts::tensor<int64_t>({{2}, {7}}, dev),
                            {.out_of_bounds = ts::OutOfBounds::Ignore});  // row 7: zeros
  auto joined = ts::cat({readings, fixed}, /*dim*/ 0);
  auto pairs = ts::stack({readings.select(0, 0), fixed.select(0, 0)}, /*dim*/ 1);
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("indexing (all calls)");

  std::cout << "top = " << top << "\nwhen = " << when << "\nagain = " << again
            << "\nstamps = " << stamps << "\nhot = " << hot << "\nloud = " << loud
            << "\nsorted = " << sorted << "\ncorners = " << corners << "\nread = " << read
            << "\nrows = " << rows << "\njoined = " << joined.shape() << "\npairs = " << pairs
            << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "indexing", run); }
