#pragma once
/// @file shape.hpp
/// `Shape`: the extents of a tensor, one int64 per dimension.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <string>
#include <vector>

#include "tessera/core/extent_product.hpp"

namespace tessera {

/// Most dimensions a tensor may have; kernels carry shapes and strides in fixed arrays this long.
inline constexpr int kMaxDims = 8;

/// The extents of a tensor. `Shape{}` is the shape of a 0-d (scalar) tensor.
///
///     tessera::Shape s{2, 3};   // s.size() == 2, s[1] == 3, s.numel() == 6
class Shape {
 public:
  Shape() = default;
  /// The listed extents: `Shape{2, 3}`.
  Shape(std::initializer_list<std::int64_t> dims) : dims_(dims) {}
  /// From any range of integers, e.g. `Shape(v.begin(), v.end())`.
  template <std::input_iterator It>
  Shape(It first, It last) : dims_(first, last) {}
  /// The extents in `dims`.
  explicit Shape(std::vector<std::int64_t> dims) : dims_(std::move(dims)) {}

  /// Number of dimensions.
  std::size_t size() const noexcept { return dims_.size(); }
  /// True for the shape of a 0-d tensor.
  bool empty() const noexcept { return dims_.empty(); }
  /// Extent of dimension i (unchecked).
  std::int64_t operator[](std::size_t i) const { return dims_[i]; }
  /// Extent of dimension i, writable (unchecked).
  std::int64_t& operator[](std::size_t i) { return dims_[i]; }
  /// Extent of the last dimension (the shape must not be empty).
  std::int64_t back() const { return dims_.back(); }
  /// Iterator to the first extent.
  auto begin() const noexcept { return dims_.begin(); }
  /// Iterator past the last extent.
  auto end() const noexcept { return dims_.end(); }
  /// The extents as a contiguous array of size().
  const std::int64_t* data() const noexcept { return dims_.data(); }
  /// The extents as a vector.
  const std::vector<std::int64_t>& vec() const noexcept { return dims_; }

  /// Product of the extents (1 for a 0-d shape; 0 whenever any extent is 0, whatever the
  /// others). Factories and views reject shapes whose product exceeds int64; for a shape not yet
  /// checked the product wraps instead of overflowing (no undefined behaviour).
  std::int64_t numel() const noexcept {
    return detail::extent_product(dims_.data(), static_cast<int>(dims_.size()));
  }
  /// "(2, 3)"; "()" for a 0-d shape; "(5,)" for a 1-d one.
  std::string str() const;

  /// Same number of dimensions and same extents.
  friend bool operator==(const Shape& a, const Shape& b) = default;

 private:
  std::vector<std::int64_t> dims_;
};

/// Prints the shape as a Python tuple, e.g. "(2, 3)".
std::ostream& operator<<(std::ostream& os, const Shape& shape);

namespace detail {
/// Row-major strides of `shape`, as Tensor::empty lays it out (an extent of 0 counts as 1).
Shape contiguous_strides(const Shape& shape);
/// The checks every new tensor's shape passes, each error naming `op`: at most kMaxDims
/// dimensions and none negative (ShapeError), and elements and bytes (`element_size` each)
/// that fit int64 (ValueError), a zero extent anywhere making the shape empty.
void check_shape(const char* op, const Shape& shape, std::size_t element_size);
}  // namespace detail

}  // namespace tessera
