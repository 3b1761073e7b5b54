// SPDX-License-Identifier: BSD-3-Clause
// The reduction engine's device kernels for host-compiled callers: one instantiation per op and
// canonical dtype (reduce_nodes.hpp), over an evaluated operand.

#include "backend/elementwise_nodes.inl"
#include "tessera/detail/reduce_device.cuh"
#include "tessera/expr/reduce_nodes.hpp"

namespace tessera::detail::cuda_nodes {

template <ReduceId Id, class T>
void reduce_dims(int device, const Operand<T>& a, const ReducePlan& plan,
                 typename reduce_ops::op_of<Id, T>::type::Out* values, std::int64_t* positions,
                 double correction) {
  using Op = typename reduce_ops::op_of<Id, T>::type;
  Op op{};
  if constexpr (Id == ReduceId::Var || Id == ReduceId::Std) op.correction = correction;
  (void)correction;
  ReduceStore<Op> store;
  store.values = values;
  store.positions = positions;
  device_reduce_dims(device, op, OperandKernel<T>{a}, plan, store);
}

#define TESSERA_INSTANTIATE_REDUCE(ID, T)        \
  template void reduce_dims<ReduceId::ID, T>(    \
      int, const Operand<T>&, const ReducePlan&, \
      typename reduce_ops::op_of<ReduceId::ID, T>::type::Out*, std::int64_t*, double);
/// Ops over every canonical number type (int64 for bool and integers, float, double).
#define TESSERA_INSTANTIATE_REDUCE_NUMBERS(ID) \
  TESSERA_INSTANTIATE_REDUCE(ID, std::int64_t) \
  TESSERA_INSTANTIATE_REDUCE(ID, float) TESSERA_INSTANTIATE_REDUCE(ID, double)
/// Ops of floating inputs only.
#define TESSERA_INSTANTIATE_REDUCE_FLOATS(ID) \
  TESSERA_INSTANTIATE_REDUCE(ID, float) TESSERA_INSTANTIATE_REDUCE(ID, double)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(Sum)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(Prod)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(Max)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(Min)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(ArgMax)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(ArgMin)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(CumSum)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(CumProd)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(CumMax)
TESSERA_INSTANTIATE_REDUCE_NUMBERS(CumMin)
TESSERA_INSTANTIATE_REDUCE(Any, bool)
TESSERA_INSTANTIATE_REDUCE(All, bool)
TESSERA_INSTANTIATE_REDUCE(CountNonzero, bool)
TESSERA_INSTANTIATE_REDUCE_FLOATS(NanSum)
TESSERA_INSTANTIATE_REDUCE_FLOATS(Mean)
TESSERA_INSTANTIATE_REDUCE_FLOATS(NanMean)
TESSERA_INSTANTIATE_REDUCE_FLOATS(LogSumExp)
TESSERA_INSTANTIATE_REDUCE_FLOATS(Var)
TESSERA_INSTANTIATE_REDUCE_FLOATS(Std)
/// The reductions and scans with a complex form: sums, products, means (complex128 accumulators).
#define TESSERA_INSTANTIATE_REDUCE_COMPLEX(T) \
  TESSERA_INSTANTIATE_REDUCE(Sum, T)          \
  TESSERA_INSTANTIATE_REDUCE(Prod, T)         \
  TESSERA_INSTANTIATE_REDUCE(Mean, T)         \
  TESSERA_INSTANTIATE_REDUCE(CumSum, T)       \
  TESSERA_INSTANTIATE_REDUCE(CumProd, T)
TESSERA_FOR_EACH_COMPLEX_DTYPE(TESSERA_INSTANTIATE_REDUCE_COMPLEX)
#undef TESSERA_INSTANTIATE_REDUCE_COMPLEX
#undef TESSERA_INSTANTIATE_REDUCE_FLOATS
#undef TESSERA_INSTANTIATE_REDUCE_NUMBERS
#undef TESSERA_INSTANTIATE_REDUCE

}  // namespace tessera::detail::cuda_nodes
