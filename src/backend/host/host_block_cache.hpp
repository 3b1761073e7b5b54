// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A cache of freed large host blocks, so that a loop allocating same-sized tensors reuses memory
// whose pages are already mapped instead of faulting in fresh pages on every call (about 0.4 ms
// per MB on the 2-core build machine: 35 ms for a 1e7-element int64 result, more than the
// search that fills it). The CUDA side needs none: cudaMallocAsync pools already.

#include <cstddef>
#include <map>
#include <mutex>

namespace tessera::detail {

class HostBlockCache {
 public:
  /// Blocks of at least this many bytes are cached; smaller ones go straight to malloc/free,
  /// which already recycles them.
  static constexpr std::size_t kMinBytes = std::size_t{1} << 20;
  /// Large requests round up to multiples of this (a huge page of x86-64 Linux, which
  /// allocate_host asks for on such blocks).
  static constexpr std::size_t kGranuleBytes = std::size_t{2} << 20;

  /// The process-wide cache. Its limit comes from TESSERA_HOST_CACHE_BYTES (bytes; 0 turns
  /// caching off), 1 GiB by default, 0 under AddressSanitizer (reused blocks would hide
  /// use-after-free).
  static HostBlockCache& instance();

  /// The size a request of `nbytes` occupies (large requests round up to 2 MiB).
  static std::size_t block_size(std::size_t nbytes);
  /// A cached block of `size` bytes (a block_size), or nullptr.
  void* take(std::size_t size);
  /// Keeps `block` of `size` bytes for reuse if it fits under the limit; otherwise frees it.
  void give(void* block, std::size_t size);
  /// Frees every cached block; returns the bytes released.
  std::size_t release_all();
  /// Bytes held in the cache now.
  std::size_t cached_bytes();

 private:
  explicit HostBlockCache(std::size_t limit) : limit_(limit) {}
  std::mutex mutex_;
  std::multimap<std::size_t, void*> blocks_;
  std::size_t cached_ = 0;
  std::size_t limit_;
};

}  // namespace tessera::detail
