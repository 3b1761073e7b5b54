// SPDX-License-Identifier: BSD-3-Clause
// The precompiled node kernels of host-compiled device expressions, one instantiation per dtype,
// on the device executor (Thrust on the device policy).

#include "backend/elementwise_nodes.inl"
#include "tessera/expr/device_executor.cuh"

namespace tessera::detail::cuda_nodes {

template <class T>
void map_unary(int device, UnaryOpId op, const Operand<T>& a, const TensorView<T>& out) {
  run_unary(DeviceExecutor{device}, op, a, out);
}
template <class T>
void map_unary_test(int device, UnaryOpId op, const Operand<T>& a, const TensorView<bool>& out) {
  run_unary_test(DeviceExecutor{device}, op, a, out);
}
template <class T>
void map_unary_part(int device, UnaryOpId op, const Operand<T>& a,
                    const TensorView<part_t<T>>& out) {
  run_unary_part(DeviceExecutor{device}, op, a, out);
}
template <class T>
void map_binary(int device, BinaryOpId op, const Operand<T>& a, const Operand<T>& b,
                const TensorView<T>& out) {
  run_binary(DeviceExecutor{device}, op, a, b, out);
}
template <class T>
void map_compare(int device, BinaryOpId op, const Operand<T>& a, const Operand<T>& b,
                 const TensorView<bool>& out) {
  run_compare(DeviceExecutor{device}, op, a, b, out);
}
template <class T>
void map_where(int device, const Operand<bool>& cond, const Operand<T>& a, const Operand<T>& b,
               const TensorView<T>& out) {
  run_where(DeviceExecutor{device}, cond, a, b, out);
}
template <class From, class To>
void convert(int device, const Operand<From>& a, const TensorView<To>& out) {
  run_convert(DeviceExecutor{device}, a, out);
}
template <class T>
void arange(int device, T start, T step, const TensorView<T>& out) {
  run_arange(DeviceExecutor{device}, start, step, out);
}
template <class T>
sum_t<T> reduce_sum(int device, const Operand<T>& a, const Extents& extents) {
  return run_reduce<ReduceKind::Sum, T>(DeviceExecutor{device}, a, extents);
}
template <class T>
T reduce_min(int device, const Operand<T>& a, const Extents& extents) {
  return run_reduce<ReduceKind::Min, T>(DeviceExecutor{device}, a, extents);
}
template <class T>
T reduce_max(int device, const Operand<T>& a, const Extents& extents) {
  return run_reduce<ReduceKind::Max, T>(DeviceExecutor{device}, a, extents);
}
bool reduce_any(int device, const Operand<bool>& a, const Extents& extents) {
  return run_reduce<ReduceKind::Any, bool>(DeviceExecutor{device}, a, extents);
}
bool reduce_all(int device, const Operand<bool>& a, const Extents& extents) {
  return run_reduce<ReduceKind::All, bool>(DeviceExecutor{device}, a, extents);
}

#define TESSERA_INSTANTIATE_CONVERT(From, To) \
  template void convert<From, To>(int, const Operand<From>&, const TensorView<To>&);
/// The pointwise nodes every element type has.
#define TESSERA_INSTANTIATE_POINTWISE_NODES(T)                                                 \
  template void map_unary<T>(int, UnaryOpId, const Operand<T>&, const TensorView<T>&);         \
  template void map_binary<T>(int, BinaryOpId, const Operand<T>&, const Operand<T>&,           \
                              const TensorView<T>&);                                           \
  template void map_unary_test<T>(int, UnaryOpId, const Operand<T>&, const TensorView<bool>&); \
  template void map_compare<T>(int, BinaryOpId, const Operand<T>&, const Operand<T>&,          \
                               const TensorView<bool>&);                                       \
  template void map_where<T>(int, const Operand<bool>&, const Operand<T>&, const Operand<T>&,  \
                             const TensorView<T>&);
#define TESSERA_INSTANTIATE_NODES(T)                                       \
  TESSERA_INSTANTIATE_POINTWISE_NODES(T)                                   \
  template void arange<T>(int, T, T, const TensorView<T>&);                \
  template sum_t<T> reduce_sum<T>(int, const Operand<T>&, const Extents&); \
  template T reduce_min<T>(int, const Operand<T>&, const Extents&);        \
  template T reduce_max<T>(int, const Operand<T>&, const Extents&);        \
  TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_CONVERT, T)
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_NODES)

// The complex types: the pointwise nodes (no arange, min or max: complex numbers are not
// ordered), conversions from every real type and between the complex types, and the rows that
// give the part type (abs, angle).
#define TESSERA_INSTANTIATE_REAL_TO_COMPLEX(T) \
  TESSERA_FOR_EACH_COMPLEX_DTYPE_WITH(TESSERA_INSTANTIATE_CONVERT, T)
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_REAL_TO_COMPLEX)
#define TESSERA_INSTANTIATE_COMPLEX_NODES(T)                               \
  TESSERA_INSTANTIATE_POINTWISE_NODES(T)                                   \
  template void map_unary_part<T>(int, UnaryOpId, const Operand<T>&,       \
                                  const TensorView<part_t<T>>&);           \
  template sum_t<T> reduce_sum<T>(int, const Operand<T>&, const Extents&); \
  TESSERA_FOR_EACH_COMPLEX_DTYPE_WITH(TESSERA_INSTANTIATE_CONVERT, T)
TESSERA_FOR_EACH_COMPLEX_DTYPE(TESSERA_INSTANTIATE_COMPLEX_NODES)

#undef TESSERA_INSTANTIATE_COMPLEX_NODES
#undef TESSERA_INSTANTIATE_REAL_TO_COMPLEX
#undef TESSERA_INSTANTIATE_NODES
#undef TESSERA_INSTANTIATE_POINTWISE_NODES
#undef TESSERA_INSTANTIATE_CONVERT

}  // namespace tessera::detail::cuda_nodes
