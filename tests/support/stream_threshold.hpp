// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file stream_threshold.hpp
/// A scoped setting of the host executor's streaming-store threshold, for tests of the streamed
/// paths.

#include <cstdint>

#include "tessera/expr/host_stream_stores.hpp"

namespace tessera_test {

/// Sets the host's streaming threshold for one scope (0: every output streams where its rows
/// allow), restoring the process's afterwards.
class StreamThreshold {
 public:
  explicit StreamThreshold(std::int64_t bytes)
      : before_(tessera::detail::host_stream_min_bytes().exchange(bytes)) {}
  StreamThreshold(const StreamThreshold&) = delete;
  StreamThreshold& operator=(const StreamThreshold&) = delete;
  ~StreamThreshold() { tessera::detail::host_stream_min_bytes().store(before_); }

 private:
  std::int64_t before_;
};

}  // namespace tessera_test
