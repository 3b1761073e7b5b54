// SPDX-License-Identifier: BSD-3-Clause
// Kernels for node-by-node evaluation: each expression node as one elementwise pass whose op is
// chosen at run time, written once against an executor (HostExecutor or CudaExecutor).
#pragma once

#include <type_traits>

#include "tessera/expr/cuda_nodes.hpp"
#include "tessera/expr/functors.hpp"
#include "tessera/expr/reduce.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::cuda_nodes {

template <class T>
struct OperandKernel {
  using value_type = T;
  Operand<T> op;
  TESSERA_HD T at(const std::int64_t* index) const {
    if (op.data == nullptr) return op.value;
    std::int64_t offset = 0;
    for (int d = 0; d < op.ndim; ++d) offset += index[d] * op.strides[d];
    return op.data[offset];
  }
  TESSERA_HD T linear(std::int64_t i) const { return op.data == nullptr ? op.value : op.data[i]; }
};

template <class T>
struct UnaryNodeKernel {
  using value_type = T;
  UnaryOpId id;
  OperandKernel<T> a;
  TESSERA_HD T at(const std::int64_t* index) const { return apply_unary(id, a.at(index)); }
  TESSERA_HD T linear(std::int64_t i) const { return apply_unary(id, a.linear(i)); }
};

template <class T>
struct UnaryTestNodeKernel {
  using value_type = bool;
  UnaryOpId id;
  OperandKernel<T> a;
  TESSERA_HD bool at(const std::int64_t* index) const { return apply_unary_test(id, a.at(index)); }
  TESSERA_HD bool linear(std::int64_t i) const { return apply_unary_test(id, a.linear(i)); }
};

template <class T>
struct UnaryPartNodeKernel {
  using value_type = part_t<T>;
  UnaryOpId id;
  OperandKernel<T> a;
  TESSERA_HD part_t<T> at(const std::int64_t* index) const {
    return apply_unary_part(id, a.at(index));
  }
  TESSERA_HD part_t<T> linear(std::int64_t i) const { return apply_unary_part(id, a.linear(i)); }
};

template <class T>
struct BinaryNodeKernel {
  using value_type = T;
  BinaryOpId id;
  OperandKernel<T> a;
  OperandKernel<T> b;
  TESSERA_HD T at(const std::int64_t* index) const {
    return apply_binary(id, a.at(index), b.at(index));
  }
  TESSERA_HD T linear(std::int64_t i) const { return apply_binary(id, a.linear(i), b.linear(i)); }
};

template <class T>
struct CompareNodeKernel {
  using value_type = bool;
  BinaryOpId id;
  OperandKernel<T> a;
  OperandKernel<T> b;
  TESSERA_HD bool at(const std::int64_t* index) const {
    return apply_binary_test(id, a.at(index), b.at(index));
  }
  TESSERA_HD bool linear(std::int64_t i) const {
    return apply_binary_test(id, a.linear(i), b.linear(i));
  }
};

template <class T>
struct WhereNodeKernel {
  using value_type = T;
  OperandKernel<bool> cond;
  OperandKernel<T> a;
  OperandKernel<T> b;
  TESSERA_HD T at(const std::int64_t* index) const {
    return cond.at(index) ? a.at(index) : b.at(index);
  }
  TESSERA_HD T linear(std::int64_t i) const { return cond.linear(i) ? a.linear(i) : b.linear(i); }
};

/// True when the operand can be read with the output's linear index.
template <class T, class U>
bool reads_linearly(const Operand<T>& op, const TensorView<U>& out) {
  if (op.data == nullptr) return true;
  std::int64_t expected = 1;
  for (int d = out.ndim - 1; d >= 0; --d) {
    if (out.shape[d] != 1 && op.strides[d] != expected) return false;
    expected = wrapping_mul(expected, out.shape[d]);  // past a zero extent: unused
  }
  return true;
}

template <class Executor, class T>
void run_unary(const Executor& ex, UnaryOpId id, const Operand<T>& a, const TensorView<T>& out) {
  ex.run(out, UnaryNodeKernel<T>{id, {a}}, out.is_contiguous() && reads_linearly(a, out));
}

template <class Executor, class T>
void run_unary_test(const Executor& ex, UnaryOpId id, const Operand<T>& a,
                    const TensorView<bool>& out) {
  ex.run(out, UnaryTestNodeKernel<T>{id, {a}}, out.is_contiguous() && reads_linearly(a, out));
}

template <class Executor, class T>
void run_unary_part(const Executor& ex, UnaryOpId id, const Operand<T>& a,
                    const TensorView<part_t<T>>& out) {
  ex.run(out, UnaryPartNodeKernel<T>{id, {a}}, out.is_contiguous() && reads_linearly(a, out));
}

template <class Executor, class T>
void run_binary(const Executor& ex, BinaryOpId id, const Operand<T>& a, const Operand<T>& b,
                const TensorView<T>& out) {
  ex.run(out, BinaryNodeKernel<T>{id, {a}, {b}},
         out.is_contiguous() && reads_linearly(a, out) && reads_linearly(b, out));
}

template <class Executor, class T>
void run_compare(const Executor& ex, BinaryOpId id, const Operand<T>& a, const Operand<T>& b,
                 const TensorView<bool>& out) {
  ex.run(out, CompareNodeKernel<T>{id, {a}, {b}},
         out.is_contiguous() && reads_linearly(a, out) && reads_linearly(b, out));
}

template <class Executor, class T>
void run_where(const Executor& ex, const Operand<bool>& c, const Operand<T>& a, const Operand<T>& b,
               const TensorView<T>& out) {
  ex.run(out, WhereNodeKernel<T>{{c}, {a}, {b}},
         out.is_contiguous() && reads_linearly(c, out) && reads_linearly(a, out) &&
             reads_linearly(b, out));
}

template <class Executor, class From, class To>
void run_convert(const Executor& ex, const Operand<From>& a, const TensorView<To>& out) {
  ex.run(out, OperandKernel<From>{a}, out.is_contiguous() && reads_linearly(a, out));
}

template <class Executor, class T>
void run_arange(const Executor& ex, T start, T step, const TensorView<T>& out) {
  using K = ArangeKernel<T>;
  ex.run(out, K{static_cast<typename K::acc_type>(start), static_cast<typename K::acc_type>(step)},
         true);
}

template <ReduceKind Kind, class V, class Executor, class T>
auto run_reduce(const Executor& ex, const Operand<T>& a, const Extents& extents) {
  Operand<T> op = a;
  op.ndim = extents.ndim;
  bool linear = op.data == nullptr;
  if (!linear) {
    linear = true;
    std::int64_t expected = 1;
    for (int d = extents.ndim - 1; d >= 0; --d) {
      if (extents.shape[d] != 1 && op.strides[d] != expected) linear = false;
      expected = wrapping_mul(expected, extents.shape[d]);  // past a zero extent: unused
    }
  }
  return reduce_kernel<Kind, V>(ex, extents, OperandKernel<T>{op}, linear);
}

}  // namespace tessera::detail::cuda_nodes
