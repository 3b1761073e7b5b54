#pragma once
/// @file expr.hpp
/// The base of every lazy expression and the concept that recognises one.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tessera/core/macros.hpp"

namespace tessera {

template <class T>
class Tensor;

/// Tag selecting the tuple form of nonzero: `x.nonzero(tessera::as_tuple)`.
struct AsTuple {
  explicit constexpr AsTuple() = default;
};
/// The AsTuple tag value.
inline constexpr AsTuple as_tuple{};

/// Which boundary searchsorted reports for values equal to sequence elements.
enum class Side {
  Left,  ///< the first suitable position (`seq[i-1] < v <= seq[i]`)
  Right  ///< the last suitable position (`seq[i-1] <= v < seq[i]`)
};
/// Options of searchsorted (defined in tessera/ops/searchsorted.hpp).
struct SearchSortedOptions;

namespace detail {
/// Selects the evaluation flavour of the including translation unit (see TESSERA_EVAL_NS);
/// a default template argument of this type gives member templates distinct mangled names.
inline namespace TESSERA_EVAL_NS {
struct EvalAbi {};
}  // namespace TESSERA_EVAL_NS
}  // namespace detail

/// CRTP base of every expression: tensors (leaves), scalars and operator nodes. An expression
/// answers its shape, device and element type, and binds to a trivially copyable kernel functor
/// that the evaluator calls once per output element.
template <class Derived>
struct Expr {
  /// This expression as its concrete type.
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }

  /// @name Operations on any expression (defined in tessera/ops/); see the free functions.
  /// @{

  /// Indices of the nonzero elements, (z, dim()) int64 in C order: `(x > 0).nonzero()`.
  template <class Abi = detail::EvalAbi>
  Tensor<std::int64_t> nonzero() const;
  /// One int64 tensor of shape (z) per dimension (max(dim(), 1) tensors).
  template <class Abi = detail::EvalAbi>
  std::vector<Tensor<std::int64_t>> nonzero(AsTuple) const;
  /// Writes nonzero() into `out` (resized when its shape differs).
  template <class Abi = detail::EvalAbi>
  void nonzero_out(Tensor<std::int64_t>& out) const;
  /// The first `size` rows of nonzero(), padded with `fill_value`; never syncs on CUDA.
  template <class Abi = detail::EvalAbi>
  Tensor<std::int64_t> nonzero_static(std::int64_t size, std::int64_t fill_value = -1) const;
  /// Number of nonzero elements.
  template <class Abi = detail::EvalAbi>
  std::int64_t count_nonzero() const;
  /// Same as nonzero().
  template <class Abi = detail::EvalAbi>
  Tensor<std::int64_t> argwhere() const;

  /// Positions at which `values` (a tensor, expression or scalar) would be inserted into this
  /// sorted sequence to keep it sorted: `seq.searchsorted(v)`, `seq.searchsorted<int32_t>(v)`.
  template <class Index = std::int64_t, class Values, class Abi = detail::EvalAbi>
  Tensor<Index> searchsorted(const Values& values) const;
  /// With options: `seq.searchsorted(v, {.right = true})`, `{.side = Side::Right}`,
  /// `{.sorter = order}`.
  template <class Index = std::int64_t, class Values, class Abi = detail::EvalAbi>
  Tensor<Index> searchsorted(const Values& values, const SearchSortedOptions& options) const;
  /// searchsorted into `out` (int32 or int64; resized to the values' shape when it differs).
  template <class Values, class Index, class Abi = detail::EvalAbi>
  void searchsorted_out(const Values& values, Tensor<Index>& out) const;
  /// searchsorted_out() with options.
  template <class Values, class Index, class Abi = detail::EvalAbi>
  void searchsorted_out(const Values& values, Tensor<Index>& out,
                        const SearchSortedOptions& options) const;
  /// The bucket of each element among 1-d sorted `boundaries`:
  /// `boundaries.searchsorted(*this, right)`.
  template <class Index = std::int64_t, class Boundaries, class Abi = detail::EvalAbi>
  Tensor<Index> bucketize(const Boundaries& boundaries, bool right = false) const;
  /// bucketize into `out` (int32 or int64; resized to this shape when it differs).
  template <class Boundaries, class Index, class Abi = detail::EvalAbi>
  void bucketize_out(const Boundaries& boundaries, Tensor<Index>& out, bool right = false) const;
  /// @}
};

/// Any tessera expression (a Tensor or a lazy node).
template <class E>
concept Expression = std::is_base_of_v<Expr<std::remove_cvref_t<E>>, std::remove_cvref_t<E>>;

/// What may appear beside an expression in an operator: another expression or an arithmetic scalar.
template <class X>
concept Operand = Expression<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>;

}  // namespace tessera
