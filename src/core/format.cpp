// Printing tensors the way PyTorch's repr does.

#include "tessera/format.hpp"

#include <ostream>
#include <sstream>

namespace tessera {

std::ostream& operator<<(std::ostream& os, DType dtype) { return os << dtype_name(dtype); }

template <class T>
std::string to_string(const Tensor<T>& t) {
  std::ostringstream os;
  const auto values = t.to_vector();
  os << "tensor([";
  for (std::size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << +values[i];
  os << "])";
  return os.str();
}

template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T>& t) {
  return os << to_string(t);
}

#define TESSERA_INSTANTIATE_FORMAT(T)                           \
  template std::string to_string<T>(const Tensor<T>&);          \
  template std::ostream& operator<< <T>(std::ostream&, const Tensor<T>&);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_FORMAT)

}  // namespace tessera
