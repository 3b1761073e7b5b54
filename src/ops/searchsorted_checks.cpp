// SPDX-License-Identifier: BSD-3-Clause
// Argument checks of searchsorted and bucketize: everything is validated before anything is
// written, so a bad call leaves `out` and the inputs as they were.

#include <climits>
#include <cstdint>
#include <optional>

#include "tessera/core/error.hpp"
#include "tessera/ops/searchsorted.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

bool search_right(const char* op, bool right, std::optional<Side> side) {
  if (!side) return right;
  if (*side == Side::Left && right) {
    raise<ValueError>(op,
                      "side and right can't be set to opposites, got side = Side::Left while "
                      "right = true");
  }
  return *side == Side::Right;
}

void check_search_shapes(const char* op, const char* sequence_name, const Shape& sequence,
                         const Shape& values) {
  if (sequence.empty()) {
    raise<ShapeError>(op, sequence_name,
                      " must have at least one dimension, got a 0-d tensor (shape ())");
  }
  if (sequence.size() == 1) return;  // every value searches the one row
  if (values.empty()) {
    raise<ShapeError>(op, "a scalar value needs a 1-d ", sequence_name, ", got shape ", sequence);
  }
  bool leading_match = values.size() == sequence.size();
  for (std::size_t d = 0; leading_match && d + 1 < sequence.size(); ++d) {
    leading_match = values[d] == sequence[d];
  }
  if (!leading_match) {
    raise<ShapeError>(op, "the dimensions of ", sequence_name, " ", sequence, " and values ",
                      values, " must match except the last (or ", sequence_name, " must be 1-d)");
  }
}

void check_search_sorter(const char* op, const Tensor<std::int64_t>& sorter, const Shape& sequence,
                         Device device) {
  if (sorter.shape() != sequence) {
    raise<ShapeError>(op, "sorter must have the shape of sorted_sequence ", sequence, ", got ",
                      sorter.shape());
  }
  check_search_device(op, "sorter", sorter.device(), device);
  if (sorter.numel() == 0) return;
  // On CUDA the bounds come back to the host (PyTorch's aminmax check waits there too).
  const std::int64_t length = sequence.back();
  const std::int64_t lowest = tessera::min(sorter);
  const std::int64_t highest = tessera::max(sorter);
  if (lowest < 0 || highest >= length) {
    raise<IndexError>(op, "sorter entry ", lowest < 0 ? lowest : highest,
                      " is out of range for rows of length ", length, " (valid: [0, ", length,
                      "))");
  }
}

void check_search_int32(const char* op, const Shape& sequence) {
  if (!sequence.empty() && sequence.back() >= INT32_MAX) {
    raise<ValueError>(op, "int32 results (out_int32) need rows of fewer than ", INT32_MAX,
                      " elements, got ", sequence.back());
  }
}

void check_bucketize_boundaries(const char* op, const Shape& boundaries) {
  if (boundaries.size() != 1) {
    raise<ShapeError>(op, "boundaries must be 1-d, got shape ", boundaries);
  }
}

void check_search_device(const char* op, const char* what, Device got, Device expected) {
  if (got != expected) {
    raise<DeviceError>(op, what, " is on ", got, " but the sorted sequence is on ", expected);
  }
}

}  // namespace tessera::detail
