// SPDX-License-Identifier: BSD-3-Clause
#include "tessera/core/storage.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <sys/sysinfo.h>
#endif

#include "backend/host/host_block_cache.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera {

namespace {
constexpr std::size_t kHostAlignment = 64;
// Statistics for the host and the first few GPUs; allocations beyond are not tracked.
constexpr int kTrackedDevices = 17;

struct Counters {
  std::atomic<std::size_t> current{0};
  std::atomic<std::size_t> peak{0};
};

Counters& counters(Device device) {
  static Counters table[kTrackedDevices];
  const int slot = device.is_cpu() ? 0 : 1 + device.index();
  static Counters untracked;
  return slot < kTrackedDevices ? table[slot] : untracked;
}

void record_allocation(Device device, std::size_t nbytes) {
  auto& c = counters(device);
  const std::size_t now = c.current.fetch_add(nbytes) + nbytes;
  std::size_t peak = c.peak.load();
  while (now > peak && !c.peak.compare_exchange_weak(peak, now)) {
  }
}

void record_release(Device device, std::size_t nbytes) { counters(device).current -= nbytes; }

/// Bytes of memory and swap this machine has (0: unknown). An allocation beyond them can never
/// be backed: on a machine that overcommits (vm.overcommit_memory = 1, as the GPU machine of
/// 2026-12-04) aligned_alloc would still succeed, and the first pass over the memory would
/// end in the OOM killer instead of an Error.
std::size_t host_memory_limit() {
#if defined(__linux__)
  static const std::size_t limit = [] {
    struct sysinfo info {};
    if (sysinfo(&info) != 0) return std::size_t{0};
    return (static_cast<std::size_t>(info.totalram) + static_cast<std::size_t>(info.totalswap)) *
           static_cast<std::size_t>(info.mem_unit);
  }();
  return limit;
#else
  return 0;
#endif
}

/// A fresh host block of `size` bytes (a HostBlockCache::block_size), or nullptr. Blocks of
/// whole 2 MiB granules are aligned to one and asked for transparent huge pages: a pass over
/// memory then misses the TLB once per 2 MiB instead of once per 4 KiB (sum over the rows of a
/// 4000 x 4000 float matrix, 2 threads of the build VM, 2026-12-04: 0.93-0.98 ms on huge pages,
/// 1.01-1.19 ms over the same values in malloc's 4 KiB pages).
/// The kernel may decline (THP off, no free huge page): the block then has ordinary pages.
void* allocate_host_block(std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t kHugePage = detail::HostBlockCache::kGranuleBytes;
  if (size >= kHugePage && size % kHugePage == 0) {
    void* p = std::aligned_alloc(kHugePage, size);
    if (p != nullptr) madvise(p, size, MADV_HUGEPAGE);  // a hint: its failure changes nothing
    return p;
  }
#endif
  return std::aligned_alloc(kHostAlignment, size);
}

std::shared_ptr<void> allocate_host(std::size_t nbytes) {
  if (const std::size_t limit = host_memory_limit(); limit != 0 && nbytes > limit) {
    detail::raise<Error>(detail::op_or("Storage::allocate"), "out of host memory allocating ",
                         nbytes, " bytes (the machine has ", limit, " bytes of memory and swap)");
  }
  // aligned_alloc wants a multiple of the alignment; a zero-byte tensor still gets a real
  // (never dereferenced) allocation so that views of it compare by address.
  auto& cache = detail::HostBlockCache::instance();
  const std::size_t rounded = ((nbytes + kHostAlignment - 1) / kHostAlignment) * kHostAlignment;
  const std::size_t size =
      detail::HostBlockCache::block_size(rounded == 0 ? kHostAlignment : rounded);
  void* p = cache.take(size);
  if (p == nullptr) p = allocate_host_block(size);
  if (p == nullptr && cache.release_all() > 0) p = allocate_host_block(size);
  if (p == nullptr) {
    detail::raise<Error>(detail::op_or("Storage::allocate"), "out of host memory allocating ",
                         nbytes, " bytes");
  }
  record_allocation(Device::cpu(), nbytes);
  return std::shared_ptr<void>(p, [nbytes, size](void* q) {
    record_release(Device::cpu(), nbytes);
    detail::HostBlockCache::instance().give(q, size);
  });
}

std::shared_ptr<void> allocate_cuda(std::size_t nbytes, int index) {
  if (detail::device_runtime::device_count() <= index) {
    detail::raise<DeviceError>(detail::op_or("Storage::allocate"), "cuda:", index,
                               " is not available (", detail::device_runtime::device_count(),
                               " usable GPUs",
                               detail::device_runtime::device_count() == 0
                                   ? "; tessera was built without CUDA or no GPU is present"
                                   : "",
                               ")");
  }
  void* p = detail::device_runtime::allocate(nbytes == 0 ? 1 : nbytes, index);
  record_allocation(Device::cuda(index), nbytes);
  return std::shared_ptr<void>(p, [index, nbytes](void* q) {
    detail::device_runtime::deallocate(q, index);
    record_release(Device::cuda(index), nbytes);
  });
}
}  // namespace

MemoryStats memory_stats(Device device) {
  const auto& c = counters(device);
  return {c.current.load(), c.peak.load()};
}

std::size_t empty_cache() { return detail::HostBlockCache::instance().release_all(); }

std::size_t cached_memory() { return detail::HostBlockCache::instance().cached_bytes(); }

void reset_peak_memory_stats(Device device) {
  auto& c = counters(device);
  c.peak = c.current.load();
}

Storage Storage::allocate(std::size_t nbytes, Device device) {
  if (device.is_cpu()) return Storage(allocate_host(nbytes), nbytes, device, false);
  return Storage(allocate_cuda(nbytes, device.index()), nbytes, device, false);
}

Storage Storage::adopt(void* data, std::size_t nbytes, Device device,
                       std::function<void(void*)> deleter) {
  if (!deleter) return Storage(std::shared_ptr<void>(data, [](void*) {}), nbytes, device, true);
  // shared_ptr calls the deleter on `data` if its control block cannot be allocated, so the
  // memory is released exactly once on every path.
  return Storage(std::shared_ptr<void>(data, std::move(deleter)), nbytes, device, true);
}

}  // namespace tessera
