#include "tessera/core/shape.hpp"

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <utility>
#include <vector>

namespace tessera {

std::string Shape::str() const {
  std::ostringstream os;
  os << '(';
  for (std::size_t i = 0; i < dims_.size(); ++i) os << (i ? ", " : "") << dims_[i];
  if (dims_.size() == 1) os << ',';
  os << ')';
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Shape& shape) { return os << shape.str(); }

Shape detail::contiguous_strides(const Shape& shape) {
  // In unsigned arithmetic: a zero-element shape such as (0, 2^40, 2^40) has a product of outer
  // strides beyond int64, which must not overflow (no element is ever addressed through it).
  std::vector<std::int64_t> strides(shape.size());
  std::uint64_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(std::max<std::int64_t>(shape[d], 1));
  }
  return Shape(std::move(strides));
}

}  // namespace tessera
