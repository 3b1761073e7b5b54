// SPDX-License-Identifier: BSD-3-Clause
// The argument checks of the norms and the trace (linalg/norms.hpp), compiled once.

#include <cmath>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/linalg/norms.hpp"

namespace tessera::detail {

void check_vector_norm_ord(double ord) {
  if (std::isnan(ord)) raise<ValueError>("linalg.vector_norm", "ord must not be NaN");
}

std::pair<std::int64_t, std::int64_t> matrix_norm_dims(const Dims& dim, std::int64_t ndim) {
  const char* op = "linalg.matrix_norm";
  if (ndim < 2) raise<ShapeError>(op, "The input tensor A must have at least 2 dimensions.");
  if (dim.size() != 2) {
    raise<ValueError>(op, "dim must be a 2-tuple. Got ", dim.size(), " dimension",
                      dim.size() == 1 ? "" : "s");
  }
  std::int64_t d[2];
  for (int i = 0; i < 2; ++i) {
    d[i] = wrap_dim(op, dim[i], ndim);  // ndim >= 2 here
  }
  if (d[0] == d[1]) {
    raise<ValueError>(op, "dims must be different. Got (", dim[0], ", ", dim[1], ")");
  }
  return {d[0], d[1]};
}

void check_matrix_norm_ord(double ord) {
  const double a = std::abs(ord);
  if (!(a == 1.0 || a == 2.0 || std::isinf(a))) {
    raise<ValueError>("linalg.matrix_norm", "Order ", ord,
                      " not supported (1, -1, 2, -2, inf, -inf, \"fro\" or \"nuc\")");
  }
}

bool matrix_norm_is_nuclear(std::string_view ord) {
  if (ord == "nuc") return true;
  if (ord == "fro") return false;
  raise<ValueError>("linalg.matrix_norm", "Order ", ord,
                    " not supported (1, -1, 2, -2, inf, -inf, \"fro\" or \"nuc\")");
}

void check_trace_input(std::int64_t ndim) {
  if (ndim != 2) raise<ShapeError>("trace", "expected a matrix, but got tensor with dim ", ndim);
}

std::vector<std::int64_t> dims_moved_last(std::int64_t ndim, std::int64_t d0, std::int64_t d1) {
  std::vector<std::int64_t> order;
  for (std::int64_t d = 0; d < ndim; ++d) {
    if (d != d0 && d != d1) order.push_back(d);
  }
  order.push_back(d0);
  order.push_back(d1);
  return order;
}

}  // namespace tessera::detail
