// SPDX-License-Identifier: BSD-3-Clause
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
#include <utility>
#include <vector>

#include "tessera/core/extent_product.hpp"

namespace tessera {

/// Most dimensions a tensor may have; kernels carry shapes and strides in fixed arrays this long.
inline constexpr int kMaxDims = 8;

namespace detail {
/// Sets all kMaxDims entries of `dst`: the first `n` from `src`, zero after. `src` must have
/// kMaxDims readable entries (a Shape's extents or a view's arrays). Written without branches
/// and of constant length so that GCC emits a few vector instructions: zeroing an array this
/// long with `= {}` becomes `rep stos` (12-16 ns on the build machine against 2-3 ns for the
/// stores, and a small tensor's evaluation made several), and a copy of a run-time length a
/// call to memcpy.
TESSERA_HD inline void copy_dims(std::int64_t* dst, const std::int64_t* src, int n) {
  for (int d = 0; d < kMaxDims; ++d) dst[d] = src[d] & -static_cast<std::int64_t>(d < n);
}
/// Sets all kMaxDims entries of `dst` to zero (a multi-index's start; see copy_dims).
TESSERA_HD inline void zero_dims(std::int64_t* dst) {
  for (int d = 0; d < kMaxDims; ++d) dst[d] = 0;
}
}  // namespace detail

/// The extents of a tensor. `Shape{}` is the shape of a 0-d (scalar) tensor.
///
///     tessera::Shape s{2, 3};   // s.size() == 2, s[1] == 3, s.numel() == 6
///
/// Up to kMaxDims extents live inside the object, so making, copying and comparing the shapes
/// and strides of real tensors never allocates (an expression's evaluation builds several).
/// A longer Shape can still be made, e.g. to be refused by a factory with a ShapeError.
class Shape {
 public:
  /// The shape of a 0-d tensor.
  Shape() noexcept { detail::zero_dims(inline_.data()); }
  /// Copies; allocates only for a shape longer than kMaxDims.
  Shape(const Shape& other) : size_(other.size_), inline_(other.inline_) {
    if (other.spilled()) spill_ = copy_of(other.spill_.get(), size_);
  }
  /// Moves; `other` is left a 0-d shape.
  Shape(Shape&& other) noexcept
      : size_(std::exchange(other.size_, 0)),
        inline_(other.inline_),
        spill_(std::move(other.spill_)) {}
  /// Copy-assigns; allocates only for a shape longer than kMaxDims.
  Shape& operator=(const Shape& other) {
    if (this != &other) *this = Shape(other);
    return *this;
  }
  /// Move-assigns; `other` is left a 0-d shape.
  Shape& operator=(Shape&& other) noexcept {
    size_ = std::exchange(other.size_, 0);
    inline_ = other.inline_;
    spill_ = std::move(other.spill_);
    return *this;
  }
  ~Shape() = default;
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
    if (n <= kInline) {
      std::array<std::int64_t, kInline> values;
      values.fill(value);
      // NOLINTNEXTLINE(modernize-return-braced-init-list): {} would read as the extents
      return Shape(values.data(), values.data() + n);
    }
    Shape shape;
    shape.size_ = n;
    shape.spill_ = std::make_unique<std::int64_t[]>(n);
    std::fill_n(shape.spill_.get(), n, value);
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
  const std::int64_t* data() const noexcept { return spilled() ? spill_.get() : inline_.data(); }
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
    // A loop, not std::equal: for int64 that becomes a call to memcmp, which costs more than
    // comparing the few extents of a real shape.
    if (a.size_ != b.size_) return false;
    const std::int64_t* x = a.data();
    const std::int64_t* y = b.data();
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }

 private:
  static constexpr std::size_t kInline = static_cast<std::size_t>(kMaxDims);

  static std::unique_ptr<std::int64_t[]> copy_of(const std::int64_t* dims, std::size_t n) {
    auto copy = std::make_unique<std::int64_t[]>(n);
    std::copy(dims, dims + n, copy.get());
    return copy;
  }
  bool spilled() const noexcept { return size_ > kInline; }
  void assign(const std::int64_t* dims, std::size_t n) {
    size_ = n;
    if (n <= kInline) {
      // `dims` may hold fewer than kInline entries: not copy_dims, but also a loop of
      // constant length (a few stores, no call to memcpy).
      for (std::size_t i = 0; i < kInline; ++i) inline_[i] = i < n ? dims[i] : 0;
    } else {
      detail::zero_dims(inline_.data());
      spill_ = copy_of(dims, n);
    }
  }
  std::int64_t* mutable_data() noexcept { return spilled() ? spill_.get() : inline_.data(); }

  std::size_t size_ = 0;
  // Every constructor sets all of it (zeros past size_), so copies never read an indeterminate
  // value; no `{}` here, which would cost a `rep stos` per Shape (see detail::copy_dims).
  std::array<std::int64_t, kInline> inline_;
  // The extents when there are more than kInline (a pointer, not a vector: copying and
  // destroying an empty vector cost real time on every copy of a tensor).
  std::unique_ptr<std::int64_t[]> spill_;
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
/// `d` wrapped into [0, ndim) (negative counts from the end); IndexError naming `op` in
/// PyTorch's words when out of range. A 0-d tensor accepts 0 and -1 (as PyTorch's reductions
/// and views), `ndim` then counting as 1.
std::int64_t wrap_dim(const char* op, std::int64_t d, std::int64_t ndim);
/// `sizes` with its one -1 (if any) replaced so that the product is `numel`; ShapeError naming
/// `op` for a second -1, another negative extent, or a -1 no extent can satisfy.
Shape infer_extents(const char* op, const Shape& sizes, std::int64_t numel);
/// "[1, 3]": a list of dims or sizes as PyTorch prints it in messages.
std::string list_str(const std::vector<std::int64_t>& values);
/// The strides under which `target` (same element count) views the elements of a tensor of
/// (`shape`, `strides`) in row-major order, or false when a target dimension would span two
/// non-contiguous subspaces (ATen's computeStride). Writes them to `out` on success.
bool view_strides(const Shape& shape, const Shape& strides, const Shape& target, Shape& out);
/// ValueError naming `op` when several elements of (`shape`, `strides`) share one memory
/// location by a stride of 0 (an expanded tensor): such a tensor cannot be written in place
/// (PyTorch's "unsupported operation: more than one element of the written-to tensor refers
/// to a single memory location").
void require_writable(const char* op, const Shape& shape, const Shape& strides);
}  // namespace detail

}  // namespace tessera
