#include "tessera/core/shape.hpp"

#include <ostream>
#include <sstream>

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

}  // namespace tessera
