// SPDX-License-Identifier: BSD-3-Clause
// Argument checks of RaggedTensor's factories and ragged::range. Every message names the
// operation, the argument and the offending position and values, and is raised before anything
// is allocated for the result. Host compiler only.

#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {
constexpr const char* split_name(std::int32_t*) { return "int32"; }
constexpr const char* split_name(std::int64_t*) { return "int64"; }
}  // namespace

template <class S>
void check_row_splits(const char* op, const std::vector<S>& splits, std::int64_t nvalues) {
  if (splits.empty()) raise<ValueError>(op, "row_splits must have at least one entry, got none");
  if (splits.front() != 0) {
    raise<ValueError>(op, "row_splits[0] must be 0, got ", static_cast<std::int64_t>(splits[0]));
  }
  for (std::size_t i = 1; i < splits.size(); ++i) {
    if (splits[i] < splits[i - 1]) {
      raise<ValueError>(op, "row_splits must be non-decreasing, got row_splits[", i - 1,
                        "] = ", static_cast<std::int64_t>(splits[i - 1]), " > row_splits[", i,
                        "] = ", static_cast<std::int64_t>(splits[i]));
    }
  }
  if (static_cast<std::int64_t>(splits.back()) != nvalues) {
    raise<ValueError>(op, "row_splits[-1] must equal the number of values ", nvalues, ", got ",
                      static_cast<std::int64_t>(splits.back()));
  }
}
template void check_row_splits<std::int32_t>(const char*, const std::vector<std::int32_t>&,
                                             std::int64_t);
template void check_row_splits<std::int64_t>(const char*, const std::vector<std::int64_t>&,
                                             std::int64_t);

void check_ragged_vector(const char* op, const char* what, const Shape& shape, Device got,
                         Device device) {
  if (shape.size() != 1) raise<ShapeError>(op, what, " must be 1-d, got shape ", shape);
  if (got != device) {
    raise<DeviceError>(op, what, " is on ", got, " but values are on ", device);
  }
}

void check_ragged_values(const char* op, const Shape& values) {
  if (values.empty()) {
    raise<ShapeError>(op, "values must have at least one dimension, got a 0-d tensor");
  }
}

namespace ragged_ops {

template <class T>
void raise_range_fault(RangeFault fault, std::int64_t row, T start, T limit, T delta) {
  std::ostringstream where;
  where << " (row " << row << ": start = " << +start << ", limit = " << +limit
        << ", delta = " << +delta << ")";
  if (fault == RangeFault::ZeroDelta) {
    raise<ValueError>("ragged::range", "Requires delta != 0", where.str());
  }
  raise<ValueError>("ragged::range", "Requires ((limit - start) / delta) <= ",
                    std::numeric_limits<std::int64_t>::max(), where.str());
}
template void raise_range_fault<std::int32_t>(RangeFault, std::int64_t, std::int32_t, std::int32_t,
                                              std::int32_t);
template void raise_range_fault<std::int64_t>(RangeFault, std::int64_t, std::int64_t, std::int64_t,
                                              std::int64_t);
template void raise_range_fault<float>(RangeFault, std::int64_t, float, float, float);
template void raise_range_fault<double>(RangeFault, std::int64_t, double, double, double);

template <class S>
void raise_range_total(std::int64_t total, bool saturated) {
  std::ostringstream size;
  if (saturated) {
    size << "more than " << std::numeric_limits<std::int64_t>::max() - 1;
  } else {
    size << total;
  }
  raise<ValueError>("ragged::range", "The total range size overflowed: ", size.str(),
                    " values do not fit ", split_name(static_cast<S*>(nullptr)),
                    " row_splits (at most ", std::numeric_limits<S>::max(),
                    "). Consider int64_t row splits (ragged::range<T, int64_t>).");
}
template void raise_range_total<std::int32_t>(std::int64_t, bool);
template void raise_range_total<std::int64_t>(std::int64_t, bool);

}  // namespace ragged_ops

}  // namespace tessera::detail
