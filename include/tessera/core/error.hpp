// SPDX-License-Identifier: BSD-3-Clause
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

/// A linear-algebra routine that cannot complete on its input: a singular matrix in
/// `linalg::inv` / `linalg::solve` (an exactly zero pivot), a matrix that is not positive-definite
/// in `linalg::cholesky`. The message is PyTorch's, with the flat batch element when batched:
/// `linalg.inv: (Batch element 2): The diagonal element 2 is zero, ...`.
class LinAlgError : public Error {
 public:
  using Error::Error;
};

/// A device that is unavailable, or operands on different devices.
class DeviceError : public Error {
 public:
  using Error::Error;
};

namespace detail {
/// The public operation running on this thread (set by the outermost OpScope), or null.
inline thread_local const char* current_op = nullptr;

/// Marks the public operation `op` as running on this thread while the scope lives, so that an
/// error raised by anything it calls (an allocation, a view, an expression it evaluates) names
/// it first: `ragged::range: shape (4611686018427387904,) needs more bytes than fit in int64`.
/// The outermost scope wins: an op built from other public ops is the one the user called.
///
///     const detail::OpScope scope("ragged::range");
class OpScope {
 public:
  explicit OpScope(const char* op) noexcept : previous_(current_op) {
    if (previous_ == nullptr) current_op = op;
  }
  ~OpScope() { current_op = previous_; }
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;

 private:
  const char* previous_;
};

/// The name under which an internal step reports (an allocation, a size check): the running
/// public op when there is one, else the step's own name (`empty` called by the user).
inline const char* op_or(const char* step) noexcept {
  return current_op != nullptr ? current_op : step;
}

/// Throws E with the message "op: parts..." (each part streamed with operator<<), prefixed with
/// the running public op ("nonzero: add: shapes ...") when that is another one.
template <class E, class... Parts>
[[noreturn]] void raise(std::string_view op, const Parts&... parts) {
  std::ostringstream message;
  if (current_op != nullptr && op != current_op) message << current_op << ": ";
  message << op << ": ";
  (message << ... << parts);
  throw E(message.str());
}
}  // namespace detail

}  // namespace tessera
