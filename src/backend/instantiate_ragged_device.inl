// Explicit instantiations of the ragged device entry points (ragged::range per (T, S), to_tensor
// per dtype and split type). Included inside namespace tessera::detail::ragged_ops by the device
// backend and by its stand-in for builds without a device, so both define the same symbols.

#define TESSERA_INSTANTIATE_RANGE_DEVICE(T, S)                                           \
  template void range_cuda<T, S>(int, const RangeOperands<T>&, std::int64_t, Tensor<S>&, \
                                 Tensor<T>&);
TESSERA_FOR_EACH_RAGGED_RANGE_TYPE(TESSERA_INSTANTIATE_RANGE_DEVICE)
#undef TESSERA_INSTANTIATE_RANGE_DEVICE

#define TESSERA_INSTANTIATE_TO_TENSOR_DEVICE(S, T)                                        \
  template void to_tensor_cuda<T, S>(int, const T*, const S*, std::int64_t, std::int64_t, \
                                     std::int64_t, T, T*);
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_TO_TENSOR_DEVICE, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_TO_TENSOR_DEVICE, int64_t)
#undef TESSERA_INSTANTIATE_TO_TENSOR_DEVICE
