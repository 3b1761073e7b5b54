// SPDX-License-Identifier: BSD-3-Clause
// Argument checks of the tensor_scatter_nd_* family: shapes and devices are validated before
// anything is written, and out-of-bounds rows are reported in TensorFlow's words.

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/ops/scatter.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {
// TensorFlow prints shapes as [4,4,4] (and () for a scalar as []).
std::string tf_shape(const Shape& shape) {
  std::ostringstream s;
  s << '[';
  for (std::size_t d = 0; d < shape.size(); ++d) s << (d ? "," : "") << shape[d];
  s << ']';
  return s.str();
}
}  // namespace

void check_scatter_shapes(const char* op, const Shape& tensor, const Shape& indices,
                          const Shape& updates) {
  if (tensor.empty()) {
    raise<ShapeError>(op, "tensor must be at least 1-D, got a 0-d tensor (shape [])");
  }
  if (indices.empty()) {
    raise<ShapeError>(op, "indices must be at least 1-D, got a 0-d tensor (shape [])");
  }
  if (updates.empty()) {
    raise<ShapeError>(op, "updates must be at least 1-D, got a 0-d tensor (shape [])");
  }
  const std::int64_t k = indices.back();
  const auto rank = static_cast<std::int64_t>(tensor.size());
  if (k < 1 || k > rank) {
    raise<ShapeError>(op, "the last dimension of indices (", k, ") must be in [1, ", rank,
                      "] for a tensor of shape ", tf_shape(tensor), "; indices shape ",
                      tf_shape(indices));
  }
  std::vector<std::int64_t> dims(indices.begin(), indices.end() - 1);
  dims.insert(dims.end(), tensor.begin() + k, tensor.end());
  const Shape expected(std::move(dims));
  if (updates != expected) {
    raise<ShapeError>(op, "updates shape ", tf_shape(updates), " must be indices.shape[:-1] + ",
                      "tensor.shape[K:] = ", tf_shape(expected), " (tensor shape ",
                      tf_shape(tensor), ", indices shape ", tf_shape(indices), ", K = ", k, ")");
  }
  if (tensor.numel() == 0 && indices.numel() != 0) {
    raise<ShapeError>(op, "indices and updates specified for empty output shape ", tf_shape(tensor),
                      " (indices shape ", tf_shape(indices), ")");
  }
}

void check_scatter_device(const char* op, const char* what, Device got, Device expected) {
  if (got != expected) {
    raise<DeviceError>(op, what, " is on ", got, " but the tensor is on ", expected);
  }
}

void raise_scatter_out_of_bounds(const char* op, const Shape& indices, std::int64_t row,
                                 const std::int64_t* values, const Shape& tensor) {
  // The row's position among indices.shape[:-1], row-major: indices[1,0].
  const std::size_t batch_dims = indices.size() - 1;
  std::vector<std::int64_t> position(batch_dims);
  for (std::size_t d = batch_dims; d-- > 0;) {
    position[d] = row % indices[d];
    row /= indices[d];
  }
  std::ostringstream s;
  s << "indices[";
  for (std::size_t d = 0; d < batch_dims; ++d) s << (d ? "," : "") << position[d];
  s << "] = [";
  for (std::int64_t j = 0; j < indices.back(); ++j) s << (j ? ", " : "") << values[j];
  s << "] does not index into shape " << tf_shape(tensor);
  raise<IndexError>(op, s.str());
}

}  // namespace tessera::detail
