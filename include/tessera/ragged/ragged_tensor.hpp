// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ragged_tensor.hpp
/// `RaggedTensor<T, S>`: rows of different lengths (TensorFlow's `tf.RaggedTensor` with
/// ragged_rank 1): a values tensor (1-d, or n-d with uniform inner dimensions) whose first
/// dimension is cut into rows by `row_splits` (int64 or int32), both on one device.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tessera/core/device.hpp"
#include "tessera/core/dtype.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/tensor.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

template <class S, class E>
class RaggedExpr;

/// The pad value of `RaggedTensor::from_tensor(dense, ts::padding(0.0f))`.
template <class T>
struct Padding {
  T value;  ///< the value whose trailing run each row drops
};
/// `ts::padding(v)`: rows of `from_tensor` drop their trailing run of v (TensorFlow's `padding=`).
template <class T>
Padding<T> padding(T value) {
  return Padding<T>{value};
}

/// Rows of different lengths over one values tensor:
///
///     auto r = tessera::RaggedTensor<int64_t>::from_row_splits(
///         tessera::tensor<int64_t>({0, 1, 2, 8, 9, 10, 11}), tessera::tensor<int64_t>({0, 3, 3,
///         7}));
///     std::cout << r;  // <RaggedTensor [[0, 1, 2], [], [8, 9, 10, 11]]>
///     r.nrows();       // 3
///     tessera::RaggedTensor<int64_t> q = r * 2 + 1;  // same row partition, values 2v + 1
///
/// A RaggedExpr converts to a RaggedTensor by evaluating its values (implicitly when its element
/// type is T, explicitly when it converts). Copies share memory (as Tensor). Row i holds
/// `values()[row_splits()[i]:row_splits()[i + 1]]`. Queries that need split values on the host
/// (`row`, `to_list`, `to_tensor`'s width and the factories' validation) wait for a CUDA device
/// once.
template <class T, class S = std::int64_t>
class RaggedTensor {
  static_assert(is_dtype_v<T>, "tessera::RaggedTensor<T, S>: T must be one of the eight dtypes");
  static_assert(std::is_same_v<S, std::int32_t> || std::is_same_v<S, std::int64_t>,
                "tessera::RaggedTensor<T, S>: row splits S are int64_t (default) or int32_t");

 public:
  using value_type = T;  ///< element type of the values
  using split_type = S;  ///< type of the row splits

  /// No rows: values of shape (0), row_splits `[0]`, on the CPU.
  RaggedTensor();

  /// Evaluates a ragged expression of element type T (`r * 2 + 1`) into new values with its
  /// row partition. (Two constructors rather than one with explicit(bool): see Tensor's.)
  template <class E>
  requires(std::is_same_v<typename E::value_type, T>)
      TESSERA_EVAL_TAG RaggedTensor(const RaggedExpr<S, E>& e)
      : values_(detail::materialize<T>(e.values())), row_splits_(e.row_splits()) {}
  /// Evaluates a ragged expression of another element type, converting each value (explicit).
  template <class E>
  requires(!std::is_same_v<typename E::value_type, T>)
      TESSERA_EVAL_TAG explicit RaggedTensor(const RaggedExpr<S, E>& e)
      : values_(detail::materialize<T>(e.values())), row_splits_(e.row_splits()) {}

  /// @name Factories (each validates unless `validate` is false; ValueError names the position)
  /// @{

  /// Rows `values[splits[i]:splits[i + 1]]`. splits: 1-d, splits[0] = 0, non-decreasing, last
  /// = values.size(0). `from_row_splits(tensor<float>({1, 2, 3}), tensor<int64_t>({0, 2, 3}))`.
  static RaggedTensor from_row_splits(const Tensor<T>& values, const Tensor<S>& row_splits,
                                      bool validate = true);
  /// Rows of the given lengths (each >= 0, summing to values.size(0)).
  static RaggedTensor from_row_lengths(const Tensor<T>& values, const Tensor<S>& row_lengths,
                                       bool validate = true);
  /// Value k goes to row value_rowids[k] (non-decreasing, in [0, nrows)); nrows >= 0 rows.
  static RaggedTensor from_value_rowids(const Tensor<T>& values, const Tensor<S>& value_rowids,
                                        std::int64_t nrows, bool validate = true);
  /// As above with nrows = value_rowids[-1] + 1 (0 when there are no values).
  static RaggedTensor from_value_rowids(const Tensor<T>& values, const Tensor<S>& value_rowids);
  /// Row i = the first lengths[i] entries of dense[i] (dense: (nrows, width, inner...); lengths:
  /// 1-d, nrows entries on dense's device): `tf.RaggedTensor.from_tensor(dense, lengths=)`.
  /// ValueError unless 0 <= lengths[i] <= width (TensorFlow clamps silently; tessera refuses).
  static RaggedTensor from_tensor(const Tensor<T>& dense, const Tensor<S>& lengths);
  /// Row i = dense[i] without its trailing run of pad values (an entry with inner dimensions is
  /// a pad when all its elements are): `from_tensor(dense, ts::padding(0.0f))`, TensorFlow's
  /// `padding=`. A NaN pad drops nothing (NaN equals nothing).
  template <class U>
  static RaggedTensor from_tensor(const Tensor<T>& dense, Padding<U> pad) {
    return from_tensor_padded(dense, static_cast<T>(pad.value));
  }
  /// @}

  /// @name Row selection
  /// @{

  /// Rows `rows` (1-d, int64 or int32, on this tensor's device) in that order, repeats allowed:
  /// `tf.gather(r, rows)`. IndexError for an entry outside [0, nrows) (negative too, as
  /// TensorFlow).
  RaggedTensor gather(const Tensor<std::int64_t>& rows) const;
  /// As above with int32 rows.
  RaggedTensor gather(const Tensor<std::int32_t>& rows) const;
  /// @}

  /// @name Queries
  /// @{

  /// The concatenated rows (first dimension = total number of values).
  const Tensor<T>& values() const noexcept { return values_; }
  /// 1-d, nrows() + 1 entries: row i is values[row_splits[i]:row_splits[i + 1]].
  const Tensor<S>& row_splits() const noexcept { return row_splits_; }
  /// Number of rows.
  std::int64_t nrows() const noexcept { return row_splits_.numel() - 1; }
  /// row_splits[1:] - row_splits[:-1], on the same device.
  Tensor<S> row_lengths() const;
  /// The row of every value (1-d, values.size(0) entries), on the same device.
  Tensor<S> value_rowids() const;
  /// Row i as a view of values() (negative i counts from the end); IndexError when out of range.
  Tensor<T> row(std::int64_t i) const;
  /// The rows as vectors (1-d values only; ShapeError otherwise). Copies to the host.
  std::vector<std::vector<T>> to_list() const;
  /// Where values and row splits live.
  Device device() const noexcept { return values_.device(); }
  /// @}

  /// @name Transfers and conversions
  /// @{

  /// This ragged tensor on `device`: shares memory when already there, copies otherwise.
  RaggedTensor to(Device device) const;
  /// `to(Device::cpu())`.
  RaggedTensor cpu() const { return to(Device::cpu()); }
  /// Dense (nrows, max row length, inner dims...), short rows padded with `pad`.
  Tensor<T> to_tensor(T pad = T(0)) const;
  /// The bucket of every value among 1-d sorted `boundaries` (as Tensor::bucketize), with this
  /// row partition.
  template <class Boundaries>
  TESSERA_EVAL_TAG RaggedTensor<std::int64_t, S> bucketize(const Boundaries& boundaries,
                                                           bool right = false) const {
    return RaggedTensor<std::int64_t, S>::from_row_splits(values_.bucketize(boundaries, right),
                                                          row_splits_, false);
  }
  /// @}

 private:
  template <class U, class R>
  friend class RaggedTensor;
  static RaggedTensor from_tensor_padded(const Tensor<T>& dense, T pad);
  template <class I>
  RaggedTensor gather_rows(const Tensor<I>& rows) const;
  RaggedTensor(Tensor<T> values, Tensor<S> row_splits)
      : values_(std::move(values)), row_splits_(std::move(row_splits)) {}

  Tensor<T> values_;
  Tensor<S> row_splits_;
};

/// Elementwise work on a ragged tensor's values that keeps its row partition: `r * 2 + 1`,
/// `-r`, `r > 3`. Lazy until it becomes a RaggedTensor (assignment or `eval`). Holds the row
/// splits and the values expression; the ragged operand must outlive it only as a Tensor does.
template <class S, class E>
class RaggedExpr {
 public:
  using value_type = typename E::value_type;  ///< element type of the values expression
  using split_type = S;                       ///< type of the row splits
  /// The partition `row_splits` over the lazy `values`.
  RaggedExpr(Tensor<S> row_splits, E values)
      : row_splits_(std::move(row_splits)), values_(std::move(values)) {}
  /// The row partition, shared with the ragged operand.
  const Tensor<S>& row_splits() const noexcept { return row_splits_; }
  /// The lazy values expression.
  const E& values() const noexcept { return values_; }

 private:
  Tensor<S> row_splits_;
  E values_;
};

namespace detail {
template <class X>
struct is_ragged : std::false_type {};
template <class T, class S>
struct is_ragged<RaggedTensor<T, S>> : std::true_type {};
template <class S, class E>
struct is_ragged<RaggedExpr<S, E>> : std::true_type {};
/// A ragged tensor or ragged expression.
template <class X>
concept Ragged = is_ragged<std::remove_cvref_t<X>>::value;
/// Operands that may stand beside a ragged operand: arithmetic scalars.
template <class X>
concept RaggedScalar = Arithmetic<std::remove_cvref_t<X>>;

template <class R>
auto ragged_wrap(const R& r, auto values) {
  return RaggedExpr<typename R::split_type, decltype(values)>(r.row_splits(), std::move(values));
}
}  // namespace detail

/// Evaluates a ragged expression into a RaggedTensor (values of the expression's type).
template <class S, class E>
TESSERA_EVAL_TAG RaggedTensor<typename E::value_type, S> eval(const RaggedExpr<S, E>& e) {
  return RaggedTensor<typename E::value_type, S>(e);
}

// Binary operators between a ragged operand and a scalar, either side; unary minus and `!`.
// They reuse the Tensor expression vocabulary on the values.
/// Defines `ragged OP scalar` and `scalar OP ragged` (a RaggedExpr with the same partition).
#define TESSERA_RAGGED_BINARY(OP)                     \
  template <detail::Ragged R, detail::RaggedScalar X> \
  auto operator OP(const R& r, const X& x) {          \
    return detail::ragged_wrap(r, r.values() OP x);   \
  }                                                   \
  template <detail::RaggedScalar X, detail::Ragged R> \
  auto operator OP(const X& x, const R& r) {          \
    return detail::ragged_wrap(r, x OP r.values());   \
  }
TESSERA_RAGGED_BINARY(+)
TESSERA_RAGGED_BINARY(-)
TESSERA_RAGGED_BINARY(*)
TESSERA_RAGGED_BINARY(/)
TESSERA_RAGGED_BINARY(<)
TESSERA_RAGGED_BINARY(<=)
TESSERA_RAGGED_BINARY(>)
TESSERA_RAGGED_BINARY(>=)
TESSERA_RAGGED_BINARY(==)
TESSERA_RAGGED_BINARY(!=)
#undef TESSERA_RAGGED_BINARY

/// `-r`: the negated values, same row partition.
template <detail::Ragged R>
auto operator-(const R& r) {
  return detail::ragged_wrap(r, -r.values());
}
/// `!r` for bool ragged operands: the negated values, same row partition.
template <detail::Ragged R>
auto operator!(const R& r) {
  return detail::ragged_wrap(r, !r.values());
}

namespace ragged {
/// Row i = the entries of x[i] where mask[i] is true (`tf.ragged.boolean_mask` of 2-d x and
/// mask; x may have inner dimensions after the two the mask covers). ShapeError unless
/// mask.shape equals x.shape[:2]; DeviceError unless both are on one device.
template <class T>
RaggedTensor<T> boolean_mask(const Tensor<T>& x, const Tensor<bool>& mask);
inline namespace TESSERA_EVAL_NS {
/// boolean_mask of lazy expressions (`ragged::boolean_mask(x * 1, x > 0)`): each is evaluated
/// once (every function reads expressions where it takes values).
template <Expression X, Expression M>
requires(std::is_same_v<typename M::value_type, bool> &&
         !(std::is_same_v<X, Tensor<typename X::value_type>> && std::is_same_v<M, Tensor<bool>>))
    RaggedTensor<typename X::value_type> boolean_mask(const X& x, const M& mask) {
  return ::tessera::ragged::boolean_mask<typename X::value_type>(detail::tensor_of(x),
                                                                 detail::tensor_of(mask));
}
}  // namespace TESSERA_EVAL_NS
}  // namespace ragged

namespace detail {
// Validation and layout helpers of RaggedTensor (src/ops/ragged_checks.cpp, host compiler).
/// Checks row splits (host copy `splits` of length nrows + 1) against `nvalues` values.
template <class S>
void check_row_splits(const char* op, const std::vector<S>& splits, std::int64_t nvalues);
/// ShapeError unless `t` (argument `what`) is 1-d; DeviceError unless on `device`.
void check_ragged_vector(const char* op, const char* what, const Shape& shape, Device got,
                         Device device);
/// ShapeError unless `values` has at least one dimension.
void check_ragged_values(const char* op, const Shape& values);
}  // namespace detail

namespace detail::ragged_ops {
/// Dense copy of a ragged tensor on a GPU (src/backend/cuda/ragged.cu, or its stand-in that
/// raises DeviceError): out (nrows, width, inner) from contiguous values (nvalues, inner).
template <class T, class S>
void to_tensor_cuda(int device, const T* values, const S* splits, std::int64_t nrows,
                    std::int64_t width, std::int64_t inner, T pad, T* out);
}  // namespace detail::ragged_ops

}  // namespace tessera

TESSERA_EVAL_TAGS_END
