#pragma once
/// @file error.hpp
/// The exception hierarchy. Every message names the operation, the argument and the values:
/// `tensor_scatter_nd_sub: indices[2] = [6] does not index into shape [6]`.

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tessera {

/// Base of every exception tessera throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Shapes that do not fit together (broadcasting, reshape, op preconditions).
class ShapeError : public Error {
 public:
  using Error::Error;
};

/// An index outside the valid range.
class IndexError : public Error {
 public:
  using Error::Error;
};

/// An argument value that the operation does not accept.
class ValueError : public Error {
 public:
  using Error::Error;
};

/// A device that is unavailable, or operands on different devices.
class DeviceError : public Error {
 public:
  using Error::Error;
};

namespace detail {
/// Throws E with the message "op: parts..." (each part streamed with operator<<).
template <class E, class... Parts>
[[noreturn]] void raise(std::string_view op, const Parts&... parts) {
  std::ostringstream message;
  message << op << ": ";
  (message << ... << parts);
  throw E(message.str());
}
}  // namespace detail

}  // namespace tessera
