#pragma once
/// @file format.hpp
/// Printing like PyTorch: `tensor([[1., 3.], [2., 4.]])`, with the device when not the CPU,
/// the dtype when not the default one, and `...` summaries of large tensors.

#include <iosfwd>
#include <string>

#include "tessera/tensor.hpp"

namespace tessera {

/// Writes `t` as PyTorch's `repr` does (copies CUDA tensors to the host to print them).
template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T>& t);

/// The text `os << t` writes.
template <class T>
std::string to_string(const Tensor<T>& t);

/// Prints the dtype name, e.g. "float32".
std::ostream& operator<<(std::ostream& os, DType dtype);

}  // namespace tessera
