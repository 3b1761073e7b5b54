#pragma once
/// @file shape.hpp
/// `Shape`: the extents of a tensor, one int64 per dimension.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/extent_product.hpp"

namespace tessera {

/// Most dimensions a tensor may have; kernels carry shapes and strides in fixed arrays this long.
inline constexpr int kMaxDims = 8;

/// The extents of a tensor. `Shape{}` is the shape of a 0-d (scalar) tensor.
///
///     tessera::Shape s{2, 3};   // s.size() == 2, s[1] == 3, s.numel() == 6
///
/// Up to kMaxDims extents live inside the object, so making, copying and comparing the shapes
/// and strides of real tensors never allocates (an expression's evaluation builds several).
/// A longer Shape can still be made, e.g. to be refused by a factory with a ShapeError.
class Shape {
 public:
  Shape() = default;
  /// The listed extents: `Shape{2, 3}`.
  Shape(std::initializer_list<std::int64_t> dims) { assign(dims.begin(), dims.size()); }
  /// From any range of integers, e.g. `Shape(v.begin(), v.end())`.
  template <std::input_iterator It>
  Shape(It first, It last) {
    if constexpr (std::contiguous_iterator<It> &&
                  std::is_same_v<std::iter_value_t<It>, std::int64_t>) {
      assign(std::to_address(first), static_cast<std::size_t>(last - first));
    } else {
      const std::vector<std::int64_t> dims(first, last);
      assign(dims.data(), dims.size());
    }
  }
  /// The extents in `dims`.
  explicit Shape(const std::vector<std::int64_t>& dims) { assign(dims.data(), dims.size()); }
  /// `n` extents, each `value` (a named factory: `Shape(2, 3)` would read as the extents 2, 3).
  static Shape filled(std::size_t n, std::int64_t value) {
    Shape shape;
    shape.size_ = n;
    if (n <= kInline) {
      std::fill_n(shape.inline_.begin(), n, value);
    } else {
      shape.spill_.assign(n, value);
    }
    return shape;
  }

  /// Number of dimensions.
  std::size_t size() const noexcept { return size_; }
  /// True for the shape of a 0-d tensor.
  bool empty() const noexcept { return size_ == 0; }
  /// Extent of dimension i (unchecked).
  std::int64_t operator[](std::size_t i) const noexcept { return data()[i]; }
  /// Extent of dimension i, writable (unchecked).
  std::int64_t& operator[](std::size_t i) noexcept { return mutable_data()[i]; }
  /// Extent of the last dimension (the shape must not be empty).
  std::int64_t back() const noexcept { return data()[size_ - 1]; }
  /// Iterator to the first extent.
  const std::int64_t* begin() const noexcept { return data(); }
  /// Iterator past the last extent.
  const std::int64_t* end() const noexcept { return data() + size_; }
  /// The extents as a contiguous array of size().
  const std::int64_t* data() const noexcept {
    return size_ <= kInline ? inline_.data() : spill_.data();
  }
  /// The extents as a new vector.
  std::vector<std::int64_t> vec() const { return {begin(), end()}; }

  /// Product of the extents (1 for a 0-d shape; 0 whenever any extent is 0, whatever the
  /// others). Factories and views reject shapes whose product exceeds int64; for a shape not yet
  /// checked the product wraps instead of overflowing (no undefined behaviour).
  std::int64_t numel() const noexcept {
    return detail::extent_product(data(), static_cast<int>(size_));
  }
  /// "(2, 3)"; "()" for a 0-d shape; "(5,)" for a 1-d one.
  std::string str() const;

  /// Same number of dimensions and same extents.
  friend bool operator==(const Shape& a, const Shape& b) noexcept {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  static constexpr std::size_t kInline = static_cast<std::size_t>(kMaxDims);

  void assign(const std::int64_t* dims, std::size_t n) {
    size_ = n;
    if (n <= kInline) {
      std::copy(dims, dims + n, inline_.begin());
    } else {
      spill_.assign(dims, dims + n);
    }
  }
  std::int64_t* mutable_data() noexcept {
    return size_ <= kInline ? inline_.data() : spill_.data();
  }

  std::size_t size_ = 0;
  std::array<std::int64_t, kInline> inline_{};
  std::vector<std::int64_t> spill_;  // the extents when there are more than kInline
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
