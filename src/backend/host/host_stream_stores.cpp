// SPDX-License-Identifier: BSD-3-Clause
#include "tessera/expr/host_stream_stores.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

namespace tessera::detail {

namespace {

/// The size of cpu0's last-level data cache as Linux's sysfs lists it ("32768K"), or -1.
/// Preferred to sysconf(_SC_LEVEL3_CACHE_SIZE), which reports what CPUID says and under KVM
/// said 384 MiB for a guest whose L3 is 32 MiB.
std::int64_t sysfs_last_level_cache_bytes() {
  int best_level = 0;
  std::int64_t best_bytes = -1;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::ifstream level_file(dir + "/level");
    std::ifstream type_file(dir + "/type");
    std::ifstream size_file(dir + "/size");
    int level = 0;
    std::string type;
    std::int64_t size = 0;
    std::string unit;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) break;
    if (type == "Instruction" || level <= best_level) continue;
    size_file >> unit;  // "32768K": the number stops at the unit
    const std::int64_t scale = unit == "K" ? 1024 : unit == "M" ? 1024 * 1024 : 1;
    best_level = level;
    best_bytes = size * scale;
  }
  return best_bytes;
}

/// The last-level cache's size in bytes: sysfs, else the C library's answer, else 32 MiB (the
/// build machine's L3).
std::int64_t last_level_cache_bytes() {
  if (const std::int64_t bytes = sysfs_last_level_cache_bytes(); bytes > 0) return bytes;
  long bytes = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return bytes > 0 ? static_cast<std::int64_t>(bytes) : std::int64_t{32} << 20;
}

std::int64_t configured_min_bytes() {
  if (const char* env = std::getenv("TESSERA_HOST_STREAM_BYTES")) {
    try {
      return static_cast<std::int64_t>(std::stoll(env));
    } catch (...) {
      return std::numeric_limits<std::int64_t>::max();  // unparsable: plain stores only
    }
  }
  return last_level_cache_bytes();
}

}  // namespace

std::atomic<std::int64_t>& host_stream_min_bytes() noexcept {
  // Initialised on first use; configured_min_bytes cannot throw out of here (it catches).
  static std::atomic<std::int64_t> min_bytes{configured_min_bytes()};
  return min_bytes;
}

}  // namespace tessera::detail
