// Explicit instantiations of the cuda_nodes kernel API for every dtype (and every dtype pair
// for convert). Included inside namespace tessera::detail::cuda_nodes by the device backend and
// by its stand-in for builds without a device, so both define exactly the same symbols.

#define TESSERA_INSTANTIATE_CONVERT(From, To) \
  template void convert<From, To>(int, const Operand<From>&, const TensorView<To>&);
#define TESSERA_INSTANTIATE_NODES(T)                                                        \
  template void map_unary<T>(int, UnaryOpId, const Operand<T>&, const TensorView<T>&);      \
  template void map_binary<T>(int, BinaryOpId, const Operand<T>&, const Operand<T>&,        \
                              const TensorView<T>&);                                        \
  template void map_compare<T>(int, CompareOpId, const Operand<T>&, const Operand<T>&,      \
                               const TensorView<bool>&);                                    \
  template void map_where<T>(int, const Operand<bool>&, const Operand<T>&, const Operand<T>&, \
                             const TensorView<T>&);                                         \
  template void arange<T>(int, T, T, const TensorView<T>&);                                 \
  template sum_t<T> reduce_sum<T>(int, const Operand<T>&, const Extents&);                  \
  template T reduce_min<T>(int, const Operand<T>&, const Extents&);                         \
  template T reduce_max<T>(int, const Operand<T>&, const Extents&);                         \
  TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_CONVERT, T)
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_NODES)

#undef TESSERA_INSTANTIATE_NODES
#undef TESSERA_INSTANTIATE_CONVERT
