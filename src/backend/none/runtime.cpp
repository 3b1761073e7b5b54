// SPDX-License-Identifier: BSD-3-Clause
// The device runtime of a build without a device (TESSERA_CUDA=OFF, or AUTO without a CUDA
// compiler): no device is ever usable, so no cuda:N tensor can be created and none of the
// device kernels (compiled by the host compiler in this build, see CMakeLists.txt) is reached.
// Every call still raises DeviceError rather than being left undefined.

#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::device_runtime {

namespace {
[[noreturn]] void unavailable(const char* what) {
  raise<DeviceError>(what,
                     "tessera was built without a device backend (TESSERA_CUDA=OFF, or AUTO "
                     "without a CUDA compiler)");
}
}  // namespace

int device_count() noexcept { return 0; }
const char* backend_name() noexcept { return "none"; }
void* allocate(std::size_t, int) { unavailable("Storage::allocate"); }
void deallocate(void*, int) noexcept {}
void copy_to_host(void*, const void*, std::size_t, int) { unavailable("copy to host"); }
void copy_from_host(void*, const void*, std::size_t, int) { unavailable("copy to device"); }
void copy_device(void*, int, const void*, int, std::size_t) { unavailable("copy between devices"); }
void fill_bytes(void*, unsigned char, std::size_t, int) { unavailable("fill"); }
void gemm(const GemmCall&, int) { unavailable("matmul"); }
void lapack(const SolverCall&, int) { unavailable("linalg"); }
void synchronize(int) { unavailable("synchronize"); }
DeviceScope::DeviceScope(int) { unavailable("device work"); }
DeviceScope::~DeviceScope() = default;

}  // namespace tessera::detail::device_runtime
