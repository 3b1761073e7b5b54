// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file segment_ops.hpp
/// The op structs of TensorFlow's ragged reductions (`tf.reduce_sum(r, axis=1)` and its
/// siblings) for the reduction engine's segment path (reduce_segments.hpp): the engine's own
/// structs (reduce_ops.hpp) with TensorFlow's result types and identities. Sums and products
/// keep T (integers wrap); max and min start from the type's lowest and largest finite values,
/// so an empty row gives them (TensorFlow: -FLT_MAX, not -inf); the mean is the sum in T over
/// the count, in TensorFlow's true-division type.

#include <cstdint>
#include <limits>
#include <type_traits>

#include "tessera/core/dtype.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/expr/reduce_ops.hpp"

/// Expands X(Id, T) for every ragged reduction the library instantiates.
#define TESSERA_FOR_EACH_SEGMENT_REDUCTION(X)              \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Sum)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Prod) \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Max)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Min)  \
  TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Mean) \
  X(Any, bool) X(All, bool)
/// Expands X(Id, T) for reduction Id over every number dtype.
#define TESSERA_FOR_EACH_SEGMENT_REDUCTION_OVER_NUMBERS(X, Id) \
  TESSERA_FOR_EACH_NUMERIC_DTYPE_WITH(X, Id)

namespace tessera::detail {

/// Run-time names of the segment reductions (the precompiled kernels' instantiation list).
enum class SegmentId : std::uint8_t { Sum, Prod, Max, Min, Mean, Any, All };

namespace segment_ops {

/// TensorFlow's true division type: floats keep T, int32/int64 give double, smaller ints float.
template <class T>
using mean_t =
    std::conditional_t<Floating<T>, T, std::conditional_t<(sizeof(T) >= 4), double, float>>;

/// An engine op whose result is converted to `Out` (sum and prod of integers wrap to T).
template <class Base, class R>
struct AsType : Base {
  using Out = R;
  TESSERA_HD Out finish(typename Base::Acc a, std::int64_t n) const {
    return static_cast<Out>(Base::finish(a, n));
  }
};

/// max (Max = true) or min starting from the lowest (largest) finite value; NaN propagates.
template <class T, bool Max>
struct Extreme : reduce_ops::Extreme<T, Max> {
  TESSERA_HD T init() const {
    return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
};

/// The sum in T over the element count, divided in mean_t<T> (0 / 0: NaN, as TensorFlow).
template <class T>
struct Mean : reduce_ops::Sum<T> {
  using Out = mean_t<T>;
  TESSERA_HD Out finish(typename reduce_ops::Sum<T>::Acc a, std::int64_t n) const {
    return static_cast<Out>(static_cast<T>(a)) / static_cast<Out>(n);
  }
};

/// The op struct of a segment reduction id over T.
template <SegmentId Id, class T>
struct op_of;
template <class T>
struct op_of<SegmentId::Sum, T> {
  using type = AsType<reduce_ops::Sum<T>, T>;
};
template <class T>
struct op_of<SegmentId::Prod, T> {
  using type = AsType<reduce_ops::Prod<T>, T>;
};
template <class T>
struct op_of<SegmentId::Max, T> {
  using type = Extreme<T, true>;
};
template <class T>
struct op_of<SegmentId::Min, T> {
  using type = Extreme<T, false>;
};
template <class T>
struct op_of<SegmentId::Mean, T> {
  using type = Mean<T>;
};
template <class T>
struct op_of<SegmentId::Any, T> {
  using type = reduce_ops::Logical<T, true>;
};
template <class T>
struct op_of<SegmentId::All, T> {
  using type = reduce_ops::Logical<T, false>;
};

/// The result type of segment reduction Id over T.
template <SegmentId Id, class T>
using out_t = typename op_of<Id, T>::type::Out;

}  // namespace segment_ops
}  // namespace tessera::detail
