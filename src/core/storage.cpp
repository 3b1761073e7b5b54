#include "tessera/core/storage.hpp"

#include <cstdlib>
#include <new>

#include "tessera/core/cuda_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera {

namespace {
constexpr std::size_t kHostAlignment = 64;

std::shared_ptr<void> allocate_host(std::size_t nbytes) {
  // aligned_alloc wants a multiple of the alignment; a zero-byte tensor still gets a real
  // (never dereferenced) allocation so that views of it compare by address.
  const std::size_t rounded = ((nbytes + kHostAlignment - 1) / kHostAlignment) * kHostAlignment;
  void* p = std::aligned_alloc(kHostAlignment, rounded == 0 ? kHostAlignment : rounded);
  if (p == nullptr) {
    detail::raise<Error>("Storage::allocate", "out of host memory allocating ", nbytes,
                         " bytes");
  }
  return std::shared_ptr<void>(p, [](void* q) { std::free(q); });
}

std::shared_ptr<void> allocate_cuda(std::size_t nbytes, int index) {
  if (detail::cuda::device_count() <= index) {
    detail::raise<DeviceError>(
        "Storage::allocate", "cuda:", index, " is not available (",
        detail::cuda::device_count(), " usable GPUs",
        detail::cuda::device_count() == 0 ? "; tessera was built without CUDA or no GPU is present"
                                          : "",
        ")");
  }
  void* p = detail::cuda::allocate(nbytes == 0 ? 1 : nbytes, index);
  return std::shared_ptr<void>(p, [index](void* q) { detail::cuda::deallocate(q, index); });
}
}  // namespace

Storage Storage::allocate(std::size_t nbytes, Device device) {
  if (device.is_cpu()) return Storage(allocate_host(nbytes), nbytes, device);
  return Storage(allocate_cuda(nbytes, device.index()), nbytes, device);
}

}  // namespace tessera
