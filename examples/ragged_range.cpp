// SPDX-License-Identifier: BSD-3-Clause
// ragged::range: the examples of tf.ragged.range's reference page, then the RaggedTensor API
// (row queries, to_tensor, expressions, bucketize, factories), printed as TensorFlow does.
#include <cstdint>
#include <iostream>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

int run(const ts::Device dev) {
  example::Stopwatch clock;

  // [snippet:ragged-seed]
  std::cout << ts::ragged::range<int64_t>(ts::tensor<int64_t>({3, 5, 2}, dev)) << '\n';
  std::cout << ts::ragged::range<int64_t>(ts::tensor<int64_t>({0, 5, 8}, dev),
                                          ts::tensor<int64_t>({3, 3, 12}, dev))
            << '\n';
  std::cout << ts::ragged::range<int64_t>(ts::tensor<int64_t>({0, 5, 8}, dev),
                                          ts::tensor<int64_t>({3, 3, 12}, dev), 2)
            << '\n';
  // [end-snippet]

  // [snippet:ragged-api]
  auto r = ts::ragged::range<int64_t>(ts::tensor<int64_t>({0, 5, 8}, dev),    // starts
                                      ts::tensor<int64_t>({3, 3, 12}, dev));  // limits
  auto quarters = ts::ragged::range<float, int32_t>(                          // int32 splits
      0.0f, ts::tensor<float>({1, 2}, dev), 0.25f);
  auto tenths = ts::ragged::range<double>(0.0, 1.0, 0.1, dev);  // one row
  ts::RaggedTensor<int64_t> q = r * 2 + 1;  // same row partition, one fused pass
  ts::RaggedTensor<bool> big = r > 8;       // comparisons too
  auto buckets = r.bucketize(ts::tensor<int64_t>({2, 9}, dev));
  auto values = ts::tensor<float>({1, 2, 3, 4}, dev);
  auto from_splits =
      ts::RaggedTensor<float>::from_row_splits(values, ts::tensor<int64_t>({0, 1, 1, 4}, dev));
  auto from_lengths =
      ts::RaggedTensor<float>::from_row_lengths(values, ts::tensor<int64_t>({1, 0, 3}, dev));
  // [end-snippet]
  example::wait_for(dev);
  clock.stop("ragged::range (all calls)");

  // [snippet:ragged-queries]
  std::cout << "r = " << r << "\nvalues = " << r.values() << "\nrow_splits = " << r.row_splits()
            << "\nnrows = " << r.nrows() << "\nrow_lengths = " << r.row_lengths()
            << "\nvalue_rowids = " << r.value_rowids() << "\nrow(2) = " << r.row(2)
            << "\nrow(-1) = " << r.row(-1) << "\nto_tensor(-1) = " << r.to_tensor(-1) << '\n';
  // [end-snippet]
  std::cout << "quarters = " << quarters << "\ntenths = " << tenths << "\nq = " << q
            << "\nbig = " << big << "\nbuckets = " << buckets << "\nfrom_splits = " << from_splits
            << "\nfrom_lengths = " << from_lengths << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "ragged_range", run); }
