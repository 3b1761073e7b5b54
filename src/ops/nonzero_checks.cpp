// SPDX-License-Identifier: BSD-3-Clause
// Argument checks of the nonzero family (the counting and the writing need none: every input
// shape and dtype is valid).

#include <cstdint>

#include "tessera/core/error.hpp"
#include "tessera/ops/nonzero.hpp"

namespace tessera::detail {

void check_nonzero_out_device(const char* op, Device out, Device input) {
  if (!(out == input)) raise<DeviceError>(op, "out is on ", out, " but the input is on ", input);
}

void check_nonzero_static_size(std::int64_t size) {
  if (size < 0) raise<ValueError>("nonzero_static", "size must be non-negative, got ", size);
}

}  // namespace tessera::detail
