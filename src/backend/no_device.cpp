// Built instead of the device backend (backend/device/ with a runtime) when tessera is
// configured without one (TESSERA_CUDA=OFF): no device is ever usable, so tensors cannot be
// created on one and none of the device kernels can be reached; they still raise DeviceError
// rather than being left undefined.

#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"
#include "tessera/ops/nonzero.hpp"
#include "tessera/ops/scatter.hpp"
#include "tessera/ops/searchsorted.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/tensor.hpp"  // first: defines Tensor, then the expression machinery

namespace tessera::detail {

namespace {
[[noreturn]] void unavailable(const char* what) {
  raise<DeviceError>(what,
                     "tessera was built without a device backend (TESSERA_CUDA=OFF, or AUTO "
                     "without a CUDA compiler)");
}
}  // namespace

namespace device_runtime {
int device_count() noexcept { return 0; }
const char* backend_name() noexcept { return "none"; }
void* allocate(std::size_t, int) { unavailable("Storage::allocate"); }
void deallocate(void*, int) noexcept {}
void copy_to_host(void*, const void*, std::size_t, int) { unavailable("copy to host"); }
void copy_from_host(void*, const void*, std::size_t, int) { unavailable("copy to device"); }
void copy_device(void*, int, const void*, int, std::size_t) { unavailable("copy between devices"); }
void fill_bytes(void*, unsigned char, std::size_t, int) { unavailable("fill"); }
void synchronize(int) { unavailable("synchronize"); }
DeviceScope::DeviceScope(int) { unavailable("device work"); }
DeviceScope::~DeviceScope() = default;
}  // namespace device_runtime

namespace cuda_nodes {
template <class T>
void map_unary(int, UnaryOpId, const Operand<T>&, const TensorView<T>&) {
  unavailable("map_unary");
}
template <class T>
void map_binary(int, BinaryOpId, const Operand<T>&, const Operand<T>&, const TensorView<T>&) {
  unavailable("map_binary");
}
template <class T>
void map_compare(int, CompareOpId, const Operand<T>&, const Operand<T>&, const TensorView<bool>&) {
  unavailable("map_compare");
}
template <class T>
void map_where(int, const Operand<bool>&, const Operand<T>&, const Operand<T>&,
               const TensorView<T>&) {
  unavailable("map_where");
}
template <class From, class To>
void convert(int, const Operand<From>&, const TensorView<To>&) {
  unavailable("convert");
}
template <class T>
void arange(int, T, T, const TensorView<T>&) {
  unavailable("arange");
}
template <class T>
sum_t<T> reduce_sum(int, const Operand<T>&, const Extents&) {
  unavailable("sum");
}
template <class T>
T reduce_min(int, const Operand<T>&, const Extents&) {
  unavailable("min");
}
template <class T>
T reduce_max(int, const Operand<T>&, const Extents&) {
  unavailable("max");
}
bool reduce_any(int, const Operand<bool>&, const Extents&) { unavailable("any"); }
bool reduce_all(int, const Operand<bool>&, const Extents&) { unavailable("all"); }

#include "backend/instantiate_device_nodes.inl"
}  // namespace cuda_nodes

namespace cuda_ops {
template <class T>
std::int64_t count_nonzero(int, const TensorView<T>&) {
  unavailable("count_nonzero");
}
template <class T>
void nonzero_write(int, const TensorView<T>&, const TensorView<std::int64_t>&, std::int64_t) {
  unavailable("nonzero");
}
#define TESSERA_INSTANTIATE_NONZERO(T)                                                       \
  template std::int64_t count_nonzero<T>(int, const TensorView<T>&);                         \
  template void nonzero_write<T>(int, const TensorView<T>&, const TensorView<std::int64_t>&, \
                                 std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_NONZERO)
#undef TESSERA_INSTANTIATE_NONZERO

template <class C, class Index>
void searchsorted(int, const SearchRows<C>&, const TensorView<C>&, std::int64_t, bool,
                  const TensorView<Index>&) {
  unavailable("searchsorted");
}
TESSERA_FOR_EACH_NUMERIC_DTYPE(TESSERA_INSTANTIATE_SEARCHSORTED_CUDA)

template <class Index>
std::int64_t scatter_first_bad(int, const ScatterGeometry&, const Index*, std::int64_t) {
  unavailable("tensor_scatter_nd");
}
template <class T, class Index>
void scatter_nd(int, ScatterOpId, T*, const ScatterGeometry&, const Index*, std::int64_t,
                const TensorView<T>&, bool) {
  unavailable("tensor_scatter_nd");
}
TESSERA_FOR_EACH_INDEX_DTYPE(TESSERA_INSTANTIATE_SCATTER_CHECK_CUDA)
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_SCATTER_CUDA)
}  // namespace cuda_ops

namespace ragged_ops {
template <class T, class S>
void range_cuda(int, const RangeOperands<T>&, std::int64_t, Tensor<S>&, Tensor<T>&) {
  unavailable("ragged::range");
}
template <class T, class S>
void to_tensor_cuda(int, const T*, const S*, std::int64_t, std::int64_t, std::int64_t, T, T*) {
  unavailable("RaggedTensor::to_tensor");
}
#include "backend/instantiate_ragged_device.inl"
}  // namespace ragged_ops

}  // namespace tessera::detail
