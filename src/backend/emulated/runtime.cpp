// SPDX-License-Identifier: BSD-3-Clause
// The emulated device (TESSERA_CUDA=EMULATED): the device runtime interface over host memory,
// so that the device backend's code (the same Thrust algorithms nvcc compiles, here on Thrust's
// OpenMP system) runs on machines without a GPU.
//
// Device memory must stay out of reach of host code, as a GPU's is: every allocation is its own
// anonymous mapping, PROT_NONE except while device work runs (a DeviceScope, a copy or a fill).
// Host code that dereferences a device pointer outside those windows faults at once instead of
// passing a test that would crash on a GPU. The windows are counted process-wide, so concurrent
// operations on several threads never close memory under each other's algorithms.

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "backend/host/gemm_blas.hpp"
#include "backend/host/lapack_solver.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::device_runtime {

namespace {

constexpr int kEmulatedDevices = 2;

struct Allocation {
  std::size_t mapped_bytes;
  int device;
};

/// Every live device allocation, and how many device-work windows are open.
class EmulatedMemory {
 public:
  static EmulatedMemory& instance() {
    static EmulatedMemory memory;
    return memory;
  }

  void* allocate(std::size_t nbytes, int device) {
    const std::size_t page = page_size();
    if (nbytes > SIZE_MAX - page) fail(nbytes, device, "size overflows");
    const std::size_t mapped = (nbytes + page - 1) / page * page;
    std::lock_guard lock(mutex_);
    // Mapped writable first: Linux charges (and refuses, as cudaMalloc would) only writable
    // private memory. A PROT_NONE mapping of 16 TiB succeeded, the window's mprotect then failed
    // silently, and the first write faulted (issue 19's op-name walk found it).
    void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) fail(nbytes, device, std::strerror(errno));
    if (open_ == 0) mprotect(p, mapped, PROT_NONE);
    live_.emplace(p, Allocation{mapped, device});
    return p;
  }

  void deallocate(void* p) noexcept {
    std::lock_guard lock(mutex_);
    const auto it = live_.find(p);
    if (it == live_.end()) return;
    munmap(p, it->second.mapped_bytes);
    live_.erase(it);
  }

  /// Opens device memory to device work (nested and concurrent windows are counted).
  void open() {
    std::lock_guard lock(mutex_);
    if (open_++ == 0) protect_all(PROT_READ | PROT_WRITE);
  }
  void close() noexcept {
    std::lock_guard lock(mutex_);
    if (--open_ == 0) protect_all(PROT_NONE);
  }

 private:
  static std::size_t page_size() {
    static const auto size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
  }
  [[noreturn]] static void fail(std::size_t nbytes, int device, const char* why) {
    raise<Error>("Storage::allocate", "cannot allocate ", nbytes, " bytes on cuda:", device,
                 " (emulated device): ", why);
  }
  void protect_all(int protection) noexcept {
    for (const auto& [p, allocation] : live_) mprotect(p, allocation.mapped_bytes, protection);
  }

  std::mutex mutex_;
  std::unordered_map<void*, Allocation> live_;
  int open_ = 0;
};

/// A device-work window for the duration of a copy or fill.
class Window {
 public:
  Window() { EmulatedMemory::instance().open(); }
  ~Window() { EmulatedMemory::instance().close(); }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
};

thread_local int current_device = 0;

void check_device(int device, const char* what) {
  if (device < 0 || device >= kEmulatedDevices) {
    raise<DeviceError>(what, "cuda:", device, " is not available (", kEmulatedDevices,
                       " emulated devices)");
  }
}

}  // namespace

int device_count() noexcept { return kEmulatedDevices; }

const char* backend_name() noexcept { return "emulated"; }

void* allocate(std::size_t nbytes, int device) {
  check_device(device, "Storage::allocate");
  return EmulatedMemory::instance().allocate(nbytes, device);
}

void deallocate(void* ptr, int) noexcept { EmulatedMemory::instance().deallocate(ptr); }

void copy_to_host(void* dst, const void* src, std::size_t nbytes, int device) {
  check_device(device, "copy to host");
  if (nbytes == 0) return;
  const Window window;
  std::memcpy(dst, src, nbytes);
}

void copy_from_host(void* dst, const void* src, std::size_t nbytes, int device) {
  check_device(device, "copy to device");
  if (nbytes == 0) return;
  const Window window;
  std::memcpy(dst, src, nbytes);
}

void copy_device(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes) {
  check_device(dst_device, "copy between devices");
  check_device(src_device, "copy between devices");
  if (nbytes == 0) return;
  const Window window;
  std::memmove(dst, src, nbytes);
}

void fill_bytes(void* dst, unsigned char byte, std::size_t nbytes, int device) {
  check_device(device, "fill");
  if (nbytes == 0) return;
  const Window window;
  std::memset(dst, byte, nbytes);
}

// The emulated device's matrix products are the host's (OpenBLAS), run on device memory inside
// a device-work window.
void gemm(const GemmCall& call, int device) {
  check_device(device, "matmul");
  const DeviceScope scope(device);
  host_ops::gemm_blas(call);
}

// And its solver routines the host's LAPACK, likewise.
void lapack(const SolverCall& call, int device) {
  check_device(device, "linalg");
  const DeviceScope scope(device);
  host_ops::lapack_solver(call);
}

// Emulated algorithms finish before they return: nothing is ever queued.
void synchronize(int device) { check_device(device, "synchronize"); }

DeviceScope::DeviceScope(int device) : previous_(current_device) {
  check_device(device, "device work");
  current_device = device;
  EmulatedMemory::instance().open();
}

DeviceScope::~DeviceScope() {
  EmulatedMemory::instance().close();
  current_device = previous_;
}

}  // namespace tessera::detail::device_runtime
