// SPDX-License-Identifier: BSD-3-Clause
#include "backend/host/host_block_cache.hpp"

#include <cstdlib>
#include <string>

namespace tessera::detail {

namespace {
std::size_t configured_limit() {
#if defined(__SANITIZE_ADDRESS__)
  return 0;
#else
  if (const char* env = std::getenv("TESSERA_HOST_CACHE_BYTES")) {
    try {
      return static_cast<std::size_t>(std::stoull(env));
    } catch (...) {
      return 0;  // unparsable: play safe, cache nothing
    }
  }
  return std::size_t{1} << 30;
#endif
}
}  // namespace

HostBlockCache& HostBlockCache::instance() {
  // Never destroyed: tensors freed during static destruction may still hand blocks back.
  static auto* cache = new HostBlockCache(configured_limit());
  return *cache;
}

std::size_t HostBlockCache::block_size(std::size_t nbytes) {
  if (nbytes < kMinBytes) return nbytes;
  return (nbytes + kGranuleBytes - 1) / kGranuleBytes * kGranuleBytes;
}

void* HostBlockCache::take(std::size_t size) {
  if (size < kMinBytes) return nullptr;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = blocks_.find(size);
  if (it == blocks_.end()) return nullptr;
  void* block = it->second;
  blocks_.erase(it);
  cached_ -= size;
  return block;
}

void HostBlockCache::give(void* block, std::size_t size) {
  if (size >= kMinBytes) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (cached_ + size <= limit_) {
      blocks_.emplace(size, block);
      cached_ += size;
      return;
    }
  }
  std::free(block);
}

std::size_t HostBlockCache::release_all() {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [size, block] : blocks_) std::free(block);
  blocks_.clear();
  const std::size_t released = cached_;
  cached_ = 0;
  return released;
}

std::size_t HostBlockCache::cached_bytes() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}

}  // namespace tessera::detail
