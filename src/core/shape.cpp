// SPDX-License-Identifier: BSD-3-Clause
#include "tessera/core/shape.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tessera/core/error.hpp"

namespace tessera {

std::string Shape::str() const {
  std::ostringstream os;
  os << '(';
  for (std::size_t i = 0; i < size(); ++i) os << (i ? ", " : "") << (*this)[i];
  if (size() == 1) os << ',';
  os << ')';
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Shape& shape) { return os << shape.str(); }

Shape detail::contiguous_strides(const Shape& shape) {
  // In unsigned arithmetic: a zero-element shape such as (0, 2^40, 2^40) has a product of outer
  // strides beyond int64, which must not overflow (no element is ever addressed through it).
  Shape strides = shape;
  std::uint64_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(std::max<std::int64_t>(shape[d], 1));
  }
  return strides;
}

void detail::check_shape(const char* op, const Shape& shape, std::size_t element_size) {
  if (shape.size() > static_cast<std::size_t>(kMaxDims)) {
    detail::raise<ShapeError>(op, "shape ", shape, " has ", shape.size(),
                              " dimensions; tessera supports at most ", kMaxDims);
  }
  for (auto d : shape) {
    if (d < 0) detail::raise<ShapeError>(op, "negative dimension in shape ", shape);
  }
  // A zero extent anywhere makes the shape empty, whatever the order of the others (PyTorch
  // accepts (2^40, 2^40, 0) as it accepts (0, 2^40, 2^40)).
  std::int64_t n = 0;
  if (std::find(shape.begin(), shape.end(), 0) == shape.end()) {
    n = 1;
    for (auto d : shape) {
      if (n > std::numeric_limits<std::int64_t>::max() / d) {
        detail::raise<ValueError>(op, "shape ", shape, " has too many elements");
      }
      n *= d;
    }
  }
  if (n > std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(element_size)) {
    detail::raise<ValueError>(op, "shape ", shape, " needs more bytes than fit in int64");
  }
}

std::int64_t detail::wrap_dim(const char* op, std::int64_t d, std::int64_t ndim) {
  const std::int64_t lo = ndim == 0 ? -1 : -ndim;
  const std::int64_t hi = ndim == 0 ? 0 : ndim - 1;
  if (d < lo || d > hi) {
    detail::raise<IndexError>(op, "Dimension out of range (expected to be in range of [", lo, ", ",
                              hi, "], but got ", d, ")");
  }
  return d < 0 ? d + std::max<std::int64_t>(ndim, 1) : d;
}

Shape detail::infer_extents(const char* op, const Shape& sizes, std::int64_t numel) {
  std::vector<std::int64_t> dims(sizes.begin(), sizes.end());
  // The product of the given extents, independent of their order: 0 when any is 0, and
  // `too_many` (instead of a signed overflow) when it exceeds int64.
  int inferred = -1;
  std::int64_t known = 1;
  bool zero = false;
  bool too_many = false;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == -1) {
      if (inferred >= 0) detail::raise<ShapeError>(op, "only one dimension can be -1");
      inferred = static_cast<int>(d);
    } else if (dims[d] < 0) {
      detail::raise<ShapeError>(op, "invalid shape dimension ", dims[d], " in ", sizes);
    } else if (dims[d] == 0) {
      zero = true;
    } else if (!too_many && known > std::numeric_limits<std::int64_t>::max() / dims[d]) {
      too_many = true;
    } else if (!too_many) {
      known *= dims[d];
    }
  }
  if (zero) known = 0;
  if (inferred >= 0) {
    if (known == 0 || too_many || numel % known != 0) {
      detail::raise<ShapeError>(op, "shape ", sizes, " is invalid for input of size ", numel);
    }
    dims[static_cast<std::size_t>(inferred)] = numel / known;
  }
  return Shape(dims);
}

std::string detail::list_str(const std::vector<std::int64_t>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(values[i]);
  }
  return s + "]";
}

bool detail::view_strides(const Shape& shape, const Shape& strides, const Shape& target,
                          Shape& out) {
  // ATen's computeStride: walk the old dims from the last, grouping those that are contiguous
  // with each other into chunks; each chunk must be covered exactly by whole target dims.
  Shape result = target;
  if (shape.numel() == 0 || target.numel() == 0) {
    if (shape.numel() != target.numel()) return false;
    out = detail::contiguous_strides(target);
    return true;
  }
  if (shape.empty()) {  // one element: any shape of one element views it
    out = detail::contiguous_strides(target);
    return true;
  }
  const auto old_n = static_cast<std::int64_t>(shape.size());
  auto view_d = static_cast<std::int64_t>(target.size()) - 1;
  std::int64_t chunk_base_stride = old_n > 0 ? strides[shape.size() - 1] : 1;
  std::int64_t tensor_numel = 1;
  std::int64_t view_numel = 1;
  for (std::int64_t tensor_d = old_n - 1; tensor_d >= 0; --tensor_d) {
    const auto td = static_cast<std::size_t>(tensor_d);
    tensor_numel *= shape[td];
    // A chunk ends where the next old dim is not laid out right after this one.
    if (tensor_d == 0 ||
        (shape[td - 1] != 1 && strides[td - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 &&
             (view_numel < tensor_numel || target[static_cast<std::size_t>(view_d)] == 1)) {
        result[static_cast<std::size_t>(view_d)] = view_numel * chunk_base_stride;
        view_numel *= target[static_cast<std::size_t>(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (tensor_d > 0) {
        chunk_base_stride = strides[td - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return false;
  out = std::move(result);
  return true;
}

void detail::require_writable(const char* op, const Shape& shape, const Shape& strides) {
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (strides[d] == 0 && shape[d] > 1) {
      detail::raise<ValueError>(
          op, "unsupported operation: more than one element of the written-to tensor of shape ",
          shape, " (strides ", strides,
          ") refers to a single memory location (an expanded tensor is read-only; call "
          "contiguous() or clone() first)");
    }
  }
}

}  // namespace tessera
