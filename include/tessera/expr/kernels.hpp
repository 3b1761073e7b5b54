// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file kernels.hpp
/// Kernel-side expression functors: trivially copyable, host/device callable. An expression
/// binds to one of these for a given output shape; the evaluator calls `at(index)` (any
/// layout) or `linear(i)` (when every operand is contiguous and of the output's shape).
///
/// The host's row-wise path uses a cursor instead of `at`: `seek(index)` fixes every index but
/// the innermost (on a copy of the kernel), then `inner(j)` reads along the innermost dimension
/// with one multiply per operand, and `next_row(d)` moves the cursor one step along dimension d
/// (the row after the one sought, when only index[d] changed): one addition per leaf instead
/// of a seek. The cursor lives in the kernels themselves rather than in separate row
/// types so that an expression instantiates no more types than before.

#include <cstdint>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/expr/functors.hpp"

namespace tessera::detail {

/// Reads a tensor through strides broadcast to the output shape (stride 0 on broadcast dims).
template <class T>
struct LeafKernel {
  using value_type = T;
  const T* data;
  int ndim;
  std::int64_t strides[kMaxDims];

  /// Row cursor: the row `seek` found and the stride along it.
  const T* row = nullptr;
  std::int64_t step = 0;

  TESSERA_HD T at(const std::int64_t* index) const {
    std::int64_t offset = 0;
    for (int d = 0; d < ndim; ++d) offset += index[d] * strides[d];
    return data[offset];
  }
  TESSERA_HD T linear(std::int64_t i) const { return data[i]; }
  TESSERA_HD void seek(const std::int64_t* index) {
    std::int64_t offset = 0;
    for (int d = 0; d + 1 < ndim; ++d) offset += index[d] * strides[d];
    row = data + offset;
    step = ndim > 0 ? strides[ndim - 1] : 0;
  }
  TESSERA_HD void next_row(int d) { row += strides[d]; }
  TESSERA_HD T inner(std::int64_t j) const { return row[j * step]; }
  /// True when the innermost stride is 1, whatever the row (seek takes `step` from it): then
  /// inner_unit() may replace inner(), a loop the compiler can vectorise. Read from the strides,
  /// not `step`, so the executor asks before any seek, without a copy of the kernel.
  TESSERA_HD bool unit() const { return ndim > 0 && strides[ndim - 1] == 1; }
  /// By reference: a loop that reads whole blocks of the row can read them in place (lanes_at).
  TESSERA_HD const T& inner_unit(std::int64_t j) const { return row[j]; }
  /// Renumbers the dimensions: dimension i becomes the former dimension perm[i] (the host
  /// reductions walk a reordered view, reduced_layout.hpp).
  void permute(const int* perm) {
    std::int64_t was[kMaxDims];
    for (int d = 0; d < ndim; ++d) was[d] = strides[d];
    for (int d = 0; d < ndim; ++d) strides[d] = was[perm[d]];
  }
  /// Leaves reading memory contiguously along dimension d.
  int unit_leaves(int d) const { return strides[d] == 1 ? 1 : 0; }

  /// Operands that read memory (leaves) under this kernel, numbered depth-first: bit `Bit` of
  /// a mask is this leaf's.
  static constexpr int kLeaves = 1;
  /// Bit `Bit` set when this leaf's row is contiguous (after seek).
  template <int Bit>
  TESSERA_HD unsigned unit_mask() const {
    return step == 1 ? (1u << Bit) : 0u;
  }
  /// inner(j) with the leaves whose bit is set in Mask read at unit step: a loop in which the
  /// compiler knows which operands are contiguous (and vectorises their loads).
  template <unsigned Mask, int Bit>
  TESSERA_HD T inner_masked(std::int64_t j) const {
    if constexpr (((Mask >> Bit) & 1u) != 0) {
      return row[j];
    } else {
      return row[j * step];
    }
  }
};

/// A constant.
template <class T>
struct ScalarKernel {
  using value_type = T;
  T value;
  TESSERA_HD T at(const std::int64_t*) const { return value; }
  TESSERA_HD T linear(std::int64_t) const { return value; }
  TESSERA_HD void seek(const std::int64_t*) {}
  TESSERA_HD void next_row(int) {}
  TESSERA_HD T inner(std::int64_t) const { return value; }
  TESSERA_HD bool unit() const { return true; }
  TESSERA_HD T inner_unit(std::int64_t) const { return value; }
  void permute(const int*) {}
  int unit_leaves(int) const { return 0; }
  static constexpr int kLeaves = 0;
  template <int Bit>
  TESSERA_HD unsigned unit_mask() const {
    return 0u;
  }
  template <unsigned Mask, int Bit>
  TESSERA_HD T inner_masked(std::int64_t) const {
    return value;
  }
};

/// Op(C(a)) with result R (R = C for arithmetic and math, bool for tests such as isnan).
template <class Op, class C, class R, class A>
struct UnaryKernel {
  using value_type = R;
  A a;
  TESSERA_HD R at(const std::int64_t* index) const {
    return Op::apply(static_cast<C>(a.at(index)));
  }
  TESSERA_HD R linear(std::int64_t i) const { return Op::apply(static_cast<C>(a.linear(i))); }
  TESSERA_HD void seek(const std::int64_t* index) { a.seek(index); }
  TESSERA_HD void next_row(int d) { a.next_row(d); }
  TESSERA_HD R inner(std::int64_t j) const { return Op::apply(static_cast<C>(a.inner(j))); }
  TESSERA_HD bool unit() const { return a.unit(); }
  TESSERA_HD R inner_unit(std::int64_t j) const {
    return Op::apply(static_cast<C>(a.inner_unit(j)));
  }
  void permute(const int* perm) { a.permute(perm); }
  int unit_leaves(int d) const { return a.unit_leaves(d); }
  static constexpr int kLeaves = A::kLeaves;
  template <int Bit>
  TESSERA_HD unsigned unit_mask() const {
    return a.template unit_mask<Bit>();
  }
  template <unsigned Mask, int Bit>
  TESSERA_HD R inner_masked(std::int64_t j) const {
    return Op::apply(static_cast<C>(a.template inner_masked<Mask, Bit>(j)));
  }
};

/// Op(C(a), C(b)) with result R (R = C for arithmetic, bool for comparisons).
template <class Op, class C, class R, class A, class B>
struct BinaryKernel {
  using value_type = R;
  A a;
  B b;
  TESSERA_HD R at(const std::int64_t* index) const {
    return Op::apply(static_cast<C>(a.at(index)), static_cast<C>(b.at(index)));
  }
  TESSERA_HD R linear(std::int64_t i) const {
    return Op::apply(static_cast<C>(a.linear(i)), static_cast<C>(b.linear(i)));
  }
  TESSERA_HD void seek(const std::int64_t* index) {
    a.seek(index);
    b.seek(index);
  }
  TESSERA_HD void next_row(int d) {
    a.next_row(d);
    b.next_row(d);
  }
  TESSERA_HD R inner(std::int64_t j) const {
    return Op::apply(static_cast<C>(a.inner(j)), static_cast<C>(b.inner(j)));
  }
  TESSERA_HD bool unit() const { return a.unit() && b.unit(); }
  TESSERA_HD R inner_unit(std::int64_t j) const {
    return Op::apply(static_cast<C>(a.inner_unit(j)), static_cast<C>(b.inner_unit(j)));
  }
  void permute(const int* perm) {
    a.permute(perm);
    b.permute(perm);
  }
  int unit_leaves(int d) const { return a.unit_leaves(d) + b.unit_leaves(d); }
  static constexpr int kLeaves = A::kLeaves + B::kLeaves;
  template <int Bit>
  TESSERA_HD unsigned unit_mask() const {
    return a.template unit_mask<Bit>() | b.template unit_mask<Bit + A::kLeaves>();
  }
  template <unsigned Mask, int Bit>
  TESSERA_HD R inner_masked(std::int64_t j) const {
    return Op::apply(static_cast<C>(a.template inner_masked<Mask, Bit>(j)),
                     static_cast<C>(b.template inner_masked<Mask, Bit + A::kLeaves>(j)));
  }
};

/// cond ? V(a) : V(b).
template <class V, class Cond, class A, class B>
struct WhereKernel {
  using value_type = V;
  Cond cond;
  A a;
  B b;
  TESSERA_HD V at(const std::int64_t* index) const {
    return cond.at(index) ? static_cast<V>(a.at(index)) : static_cast<V>(b.at(index));
  }
  TESSERA_HD V linear(std::int64_t i) const {
    return cond.linear(i) ? static_cast<V>(a.linear(i)) : static_cast<V>(b.linear(i));
  }
  TESSERA_HD void seek(const std::int64_t* index) {
    cond.seek(index);
    a.seek(index);
    b.seek(index);
  }
  TESSERA_HD void next_row(int d) {
    cond.next_row(d);
    a.next_row(d);
    b.next_row(d);
  }
  TESSERA_HD V inner(std::int64_t j) const {
    return cond.inner(j) ? static_cast<V>(a.inner(j)) : static_cast<V>(b.inner(j));
  }
  TESSERA_HD bool unit() const { return cond.unit() && a.unit() && b.unit(); }
  TESSERA_HD V inner_unit(std::int64_t j) const {
    return cond.inner_unit(j) ? static_cast<V>(a.inner_unit(j)) : static_cast<V>(b.inner_unit(j));
  }
  void permute(const int* perm) {
    cond.permute(perm);
    a.permute(perm);
    b.permute(perm);
  }
  int unit_leaves(int d) const { return cond.unit_leaves(d) + a.unit_leaves(d) + b.unit_leaves(d); }
  static constexpr int kLeaves = Cond::kLeaves + A::kLeaves + B::kLeaves;
  template <int Bit>
  TESSERA_HD unsigned unit_mask() const {
    return cond.template unit_mask<Bit>() | a.template unit_mask<Bit + Cond::kLeaves>() |
           b.template unit_mask<Bit + Cond::kLeaves + A::kLeaves>();
  }
  template <unsigned Mask, int Bit>
  TESSERA_HD V inner_masked(std::int64_t j) const {
    return cond.template inner_masked<Mask, Bit>(j)
               ? static_cast<V>(a.template inner_masked<Mask, Bit + Cond::kLeaves>(j))
               : static_cast<V>(b.template inner_masked<Mask, Bit + Cond::kLeaves + A::kLeaves>(j));
  }
};

/// The identity: UnaryKernel converts its operand to C before applying the op, so with this op
/// it is the cast U(a).
struct Convert {
  template <class T>
  TESSERA_HD static T apply(T a) {
    return a;
  }
};

/// U(a).
template <class U, class A>
using CastKernel = UnaryKernel<Convert, U, U, A>;

/// start + i * step (arange). Floating ranges compute in double (as PyTorch). Integers compute
/// modulo 2^64: every element is in range, but i * step alone may not be
/// (arange(INT_MIN, INT_MAX, 2^30)), and signed overflow would be undefined behaviour.
template <class T>
struct ArangeKernel {
  using value_type = T;
  using acc_type = std::conditional_t<Floating<T>, double, T>;
  acc_type start;
  acc_type step;
  TESSERA_HD T linear(std::int64_t i) const {
    if constexpr (Floating<T>) {
      return static_cast<T>(start + static_cast<double>(i) * step);
    } else {
      return static_cast<T>(static_cast<std::uint64_t>(start) +
                            static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(step));
    }
  }
  TESSERA_HD T at(const std::int64_t* index) const { return linear(index[0]); }
};

}  // namespace tessera::detail
