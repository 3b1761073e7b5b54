#include "tessera/core/shape.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <sstream>
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

}  // namespace tessera
