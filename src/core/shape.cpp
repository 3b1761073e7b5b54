#include "tessera/core/shape.hpp"

#include <algorithm>
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
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= std::max<std::int64_t>(shape[d], 1);
  }
  return Shape(std::move(strides));
}

}  // namespace tessera
