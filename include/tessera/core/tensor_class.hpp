// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file tensor_class.hpp
/// `Tensor<T>`: an owning, reference-counted, strided n-d array on one device. This header
/// declares the class; include tessera/tensor.hpp, which adds the evaluation of expressions
/// and the definitions of the operation methods (ops/).

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "tessera/core/device.hpp"
#include "tessera/core/dtype.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/storage.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/expr.hpp"

struct DLManagedTensor;  // dlpack/dlpack.h; Tensor<T>::to_dlpack is in tessera/interop/dlpack.hpp

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

class Generator;  // tessera/random/generator.hpp

namespace detail {
inline namespace TESSERA_EVAL_NS {
// Defined in expr/evaluate.hpp.
template <class T, class E>
Tensor<T> materialize(const E& expression);
template <class T, class E>
void assign_expression(Tensor<T>& destination, const E& expression);
}  // namespace TESSERA_EVAL_NS
}  // namespace detail

/// The parts of complex `z` as a view of shape (..., 2) (real, imaginary), strides (2s..., 1):
/// writes go through to z (torch.view_as_real).
template <Complex T>
Tensor<part_t<T>> view_as_real(const Tensor<T>& z);
/// A float or double tensor whose last dimension holds (real, imaginary) pairs as a complex
/// view without that dimension (torch.view_as_complex): last extent 2 with stride 1, the other
/// strides and the offset even, at least one dimension; ShapeError otherwise.
template <Floating F>
Tensor<std::complex<F>> view_as_complex(const Tensor<F>& r);

/// An n-d array of T (one of the ten dtypes) on the CPU or a CUDA GPU.
///
/// Copies are cheap and share memory (like PyTorch); `clone()` copies the elements. Views
/// (`slice`, `select`, `transpose`, `permute`, `unsqueeze`, `expand`, `diagonal`, `reshape`
/// where the strides allow it, ...) share memory and carry strides. A Tensor is also the leaf of
/// lazy expressions:
///
///     auto a = tessera::tensor<float>({{1, 2}, {3, 4}});
///     tessera::Tensor<float> b = a * 2.0f + 1.0f;   // one fused pass
template <class T>
class Tensor : public Expr<Tensor<T>> {
  static_assert(is_dtype_v<T>,
                "tessera::Tensor<T>: T must be bool, uint8_t, int8_t, int16_t, int32_t, "
                "int64_t, float, double, std::complex<float> or std::complex<double>");

 public:
  using value_type = T;  ///< the element type

  /// An empty 1-d tensor of shape (0) on the CPU (as `torch.Tensor()`).
  Tensor();
  /// Another handle to the same memory (no element copy; clone() copies).
  Tensor(const Tensor&) = default;
  /// Takes over `other`'s memory.
  Tensor(Tensor&&) noexcept = default;
  /// Rebinds this handle to `other`'s memory (no element copy).
  Tensor& operator=(const Tensor&) = default;
  /// Takes over `other`'s memory.
  Tensor& operator=(Tensor&&) noexcept = default;
  ~Tensor() = default;

  // Two constructors rather than one with explicit(bool): nvcc warns (#2651) that it ignores
  // the flavour tag on the specialisations an explicit(bool) constructor template makes.

  /// Evaluates an expression of element type T into a new tensor (one fused pass on the
  /// expression's device): `ts::Tensor<float> b = a * 2.0f;`.
  template <Expression E>
  requires(!std::is_same_v<std::remove_cvref_t<E>, Tensor> &&
           std::is_same_v<typename E::value_type, T>) TESSERA_EVAL_TAG Tensor(const E& expression)
      : Tensor(detail::materialize<T>(expression)) {}

  /// Evaluates an expression of another element type into a new tensor of T, converting each
  /// element as ts::cast does: `ts::Tensor<double> d(a * 2.0f);` (explicit).
  template <Expression E>
  requires(!std::is_same_v<typename E::value_type, T>)
      TESSERA_EVAL_TAG explicit Tensor(const E& expression)
      : Tensor(detail::materialize<T>(expression)) {}

  /// Writes an expression into this tensor's elements when the shapes match (other views of
  /// the memory see the result), otherwise rebinds to new memory of the expression's shape.
  /// Safe when the expression reads this tensor (`a = a.transpose(0, 1) + a`).
  template <Expression E>
  requires(!std::is_same_v<std::remove_cvref_t<E>, Tensor>) TESSERA_EVAL_TAG Tensor& operator=(
      const E& expression) {
    detail::assign_expression(*this, expression);
    return *this;
  }

  /// @name Factories (each takes an optional Device, CPU by default)
  /// @{

  /// A 0-d tensor holding `value`.
  static Tensor scalar(T value, Device device = Device::cpu());
  /// Uninitialised elements.
  static Tensor empty(const Shape& shape, Device device = Device::cpu());
  /// Elements 0.
  static Tensor zeros(const Shape& shape, Device device = Device::cpu());
  /// Elements 1.
  static Tensor ones(const Shape& shape, Device device = Device::cpu());
  /// Every element `value`.
  static Tensor full(const Shape& shape, T value, Device device = Device::cpu());
  /// `[start, start + step, ...)` up to `stop` (exclusive), as `torch.arange`. step == 0 or a
  /// non-finite bound → ValueError.
  static Tensor arange(T start, T stop, T step = T(1),
                       Device device = Device::cpu()) requires Ordered<T>;
  /// `arange(0, stop)`.
  static Tensor arange(T stop, Device device = Device::cpu()) requires Ordered<T>;
  /// `steps` values from `start` to `end` inclusive, evenly spaced as `torch.linspace` (the
  /// first half counted from start, the second from end, so both ends are exact); integer
  /// types truncate. steps < 0 → ValueError.
  static Tensor linspace(T start, T end, std::int64_t steps,
                         Device device = Device::cpu()) requires Ordered<T>;
  /// `base` raised to linspace(start, end, steps), as `torch.logspace`.
  static Tensor logspace(T start, T end, std::int64_t steps, double base = 10.0,
                         Device device = Device::cpu()) requires Ordered<T>;
  /// logspace with base 10 on `device`.
  static Tensor logspace(T start, T end, std::int64_t steps, Device device) requires Ordered<T>;
  /// The n x n identity.
  static Tensor eye(std::int64_t n, Device device = Device::cpu());
  /// An n x m matrix with ones on the main diagonal.
  static Tensor eye(std::int64_t n, std::int64_t m, Device device = Device::cpu());
  /// Copies `values` (row-major) into a tensor of `shape`; sizes must agree (ShapeError).
  static Tensor from_vector(const std::vector<T>& values, const Shape& shape,
                            Device device = Device::cpu());
  /// A 1-d tensor holding `values`.
  static Tensor from_vector(const std::vector<T>& values, Device device = Device::cpu());
  /// A tensor over memory tessera did not allocate, without copying (as `torch::from_blob`):
  /// `data` on `device` (a host pointer, or a device pointer of GPU `device.index()`), row-major
  /// `shape`. With a `deleter`, the tensor owns the memory: the last handle (views, copies,
  /// DLPack exports included) calls `deleter(data)` once. Without one the caller keeps ownership
  /// and must keep the memory alive while any handle exists. tessera cannot check that a device
  /// pointer belongs to `device`. On an error the deleter is not called.
  ///
  ///     float* p = new float[6]{1, 2, 3, 4, 5, 6};
  ///     auto t = Tensor<float>::from_blob(p, {2, 3}, Device::cpu(), [](float* q) { delete[] q; });
  static Tensor from_blob(T* data, const Shape& shape, Device device,
                          std::function<void(T*)> deleter = {});
  /// from_blob with element `strides` (non-negative, non-overlapping; ValueError otherwise).
  static Tensor from_blob(T* data, const Shape& shape, const Shape& strides, Device device,
                          std::function<void(T*)> deleter = {});
  /// @}

  /// @name Queries
  /// @{

  /// The extents.
  const Shape& shape() const noexcept { return shape_; }
  /// Element strides, one per dimension.
  const Shape& strides() const noexcept { return strides_; }
  /// Number of dimensions (0 for a scalar).
  std::int64_t dim() const noexcept { return static_cast<std::int64_t>(shape_.size()); }
  /// Number of elements (1 for 0-d).
  std::int64_t numel() const noexcept { return shape_.numel(); }
  /// Extent of dimension d; negative d counts from the end. IndexError when out of range.
  std::int64_t size(std::int64_t d) const;
  /// Where the elements live.
  Device device() const noexcept { return storage_.device(); }
  /// True when the elements are dense in row-major order (a view may not be).
  bool is_contiguous() const noexcept {
    // Inline: every evaluation asks it of each operand (out of line, through the PLT, 5 % of a
    // (2, 4) + (4) assignment).
    if (numel() == 0) return true;
    std::int64_t expected = 1;
    for (std::size_t d = shape_.size(); d-- > 0;) {
      if (shape_[d] != 1 && strides_[d] != expected) return false;
      expected *= shape_[d];
    }
    return true;
  }
  /// Offset (in elements) of the first element inside the storage.
  std::int64_t storage_offset() const noexcept { return offset_; }
  /// The shared memory this tensor views.
  const Storage& storage() const noexcept { return storage_; }
  /// Pointer to the first element (a device pointer for CUDA tensors).
  T* data() const noexcept { return static_cast<T*>(storage_.data()) + offset_; }
  /// data() under PyTorch's name.
  T* data_ptr() const noexcept { return data(); }
  /// The elements of a contiguous CPU tensor, in row-major order, as a std::span over its
  /// memory (writes show in the tensor). DeviceError for a CUDA tensor, ValueError for a
  /// non-contiguous one (call contiguous() first).
  std::span<T> span() const;
  /// A DLPack capsule viewing this tensor's memory (zero-copy; it keeps the memory alive until
  /// its deleter runs). Defined in tessera/interop/dlpack.hpp, which must be included.
  DLManagedTensor* to_dlpack() const;
  /// The (pointer, shape, strides) view kernels receive.
  TensorView<T> view() const noexcept {
    // Every member initialised explicitly, zero past ndim: a default-constructed view is
    // zeroed first, which GCC does with `rep stos` (see detail::copy_dims) and then keeps.
    static_assert(kMaxDims == 8);
    const int n = static_cast<int>(shape_.size());
    const std::int64_t* e = shape_.data();
    const std::int64_t* s = strides_.data();
    const auto keep = [n](int d) { return -static_cast<std::int64_t>(d < n); };
    return TensorView<T>{data(),
                         n,
                         {e[0] & keep(0), e[1] & keep(1), e[2] & keep(2), e[3] & keep(3),
                          e[4] & keep(4), e[5] & keep(5), e[6] & keep(6), e[7] & keep(7)},
                         {s[0] & keep(0), s[1] & keep(1), s[2] & keep(2), s[3] & keep(3),
                          s[4] & keep(4), s[5] & keep(5), s[6] & keep(6), s[7] & keep(7)}};
  }
  /// @}

  /// @name Transfers and copies
  /// @{

  /// This tensor on `device`: shares memory when already there, copies otherwise.
  Tensor to(Device device) const;
  /// `to(Device::cpu())`.
  Tensor cpu() const { return to(Device::cpu()); }
  /// A contiguous deep copy on the same device.
  Tensor clone() const;
  /// This tensor when contiguous, otherwise a contiguous copy.
  Tensor contiguous() const;
  /// The elements in row-major order (copied to the host when needed).
  std::vector<T> to_vector() const;
  /// The only element of a one-element tensor (ValueError otherwise).
  T item() const;
  /// The element at `index` (one entry per dimension, negatives count from the end);
  /// IndexError when out of range.
  T at(std::initializer_list<std::int64_t> index) const;
  /// at() with the index in a vector.
  T at(const std::vector<std::int64_t>& index) const;
  /// A converted copy (`a.cast<double>()`, `x.cast<complex64>()`: imaginary part +0). A complex
  /// tensor converts to complex types only: `real`, `imag` or `abs` say what a real result
  /// means (torch drops the imaginary part with a warning).
  template <class U>
  requires(!Complex<T> || Complex<U>) Tensor<U> cast()
  const;
  /// cast<U>() under PyTorch's name: `x.to<complex64>()`.
  template <class U>
  requires(!Complex<T> || Complex<U>) Tensor<U> to()
  const { return cast<U>(); }
  /// @}

  /// @name Views (share memory)
  /// @{

  /// Same elements, new shape; one entry may be -1. A view when the strides allow it (always
  /// for contiguous tensors), a copy otherwise, as `torch.reshape`.
  Tensor reshape(const Shape& shape) const;
  /// Elements start, start+step, ... < stop of dimension `dim` (Python slice rules: negative
  /// bounds count from the end and are clamped); step must be positive (ValueError).
  Tensor slice(std::int64_t dim, std::int64_t start,
               std::int64_t stop = std::numeric_limits<std::int64_t>::max(),
               std::int64_t step = 1) const;
  /// Index `index` of dimension `dim`, removing that dimension.
  Tensor select(std::int64_t dim, std::int64_t index) const;
  /// Swaps two dimensions.
  Tensor transpose(std::int64_t dim0, std::int64_t dim1) const;
  /// Same elements, new shape (one entry may be -1), always a view: ShapeError when the
  /// strides cannot express it (a dimension spanning two contiguous subspaces), as
  /// `torch.Tensor.view`; reshape() copies instead.
  Tensor view(const Shape& shape) const;
  /// The dimensions reordered: dimension i of the result is dimension dims[i] of this tensor.
  /// dims must be a permutation (IndexError out of range, ValueError repeated, ShapeError when
  /// its length is not dim()).
  Tensor permute(const std::vector<std::int64_t>& dims) const;
  /// Dimension `source` moved to position `destination`, the others keeping their order.
  Tensor movedim(std::int64_t source, std::int64_t destination) const;
  /// Several dimensions moved at once (`torch.movedim` with lists of equal length).
  Tensor movedim(const std::vector<std::int64_t>& source,
                 const std::vector<std::int64_t>& destination) const;
  /// A new dimension of extent 1 at `dim` (in [-dim()-1, dim()]).
  Tensor unsqueeze(std::int64_t dim) const;
  /// Every dimension of extent 1 removed.
  Tensor squeeze() const;
  /// Dimension `dim` removed when its extent is 1 (a no-op otherwise).
  Tensor squeeze(std::int64_t dim) const;
  /// Each of `dims` removed when its extent is 1.
  Tensor squeeze(const std::vector<std::int64_t>& dims) const;
  /// Dimensions start_dim..end_dim merged into one (a view when the strides allow it, a copy
  /// otherwise, as `torch.flatten`); a 0-d tensor becomes shape (1).
  Tensor flatten(std::int64_t start_dim = 0, std::int64_t end_dim = -1) const;
  /// Dimension `dim` split into `sizes` (one entry may be -1; their product must be the
  /// extent, ShapeError otherwise). Always a view.
  Tensor unflatten(std::int64_t dim, const Shape& sizes) const;
  /// A view broadcast to `shape` (-1 keeps an extent; new dimensions lead): extents of 1 get
  /// stride 0, any other extent must match (ShapeError). The result is read-only as a
  /// destination (ValueError on in-place writes).
  Tensor expand(const Shape& shape) const;
  /// Elements start .. start+length-1 of dimension `dim` (start may be negative).
  Tensor narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const;
  /// transpose(0, 1) of a 2-d tensor; a 0-d or 1-d tensor as is (ShapeError above 2-d).
  Tensor t() const;
  /// The last two dimensions swapped (ShapeError below 2-d).
  Tensor mT() const;
  /// The diagonal of dimensions dim1 and dim2 (above it for offset > 0, below for offset < 0),
  /// appended as the last dimension; the two dimensions are removed.
  Tensor diagonal(std::int64_t offset = 0, std::int64_t dim1 = 0, std::int64_t dim2 = 1) const;
  /// One view per index of `dim`, that dimension removed.
  std::vector<Tensor> unbind(std::int64_t dim = 0) const;
  /// Views of `size` elements along `dim` (the last one shorter when it does not divide).
  std::vector<Tensor> split(std::int64_t size, std::int64_t dim = 0) const;
  /// Views of the given lengths along `dim` (they must sum to the extent, ShapeError).
  std::vector<Tensor> split(const std::vector<std::int64_t>& sizes, std::int64_t dim = 0) const;
  /// At most `chunks` views along `dim`, each ceil(extent / chunks) long but the last.
  std::vector<Tensor> chunk(std::int64_t chunks, std::int64_t dim = 0) const;
  /// The real parts as a view of the part type (`z.real()` of a complex64 tensor is a float
  /// view with twice its strides; writes go through to z, as torch's); a real tensor itself.
  Tensor<part_t<T>> real() const;
  /// The imaginary parts as a view of the part type (one element past the real parts; writes go
  /// through). Complex tensors only (torch raises for a real one).
  Tensor<part_t<T>> imag() const requires Complex<T>;
  /// The complex conjugate as a new tensor (torch's conj() is a lazy view; the values are the
  /// same); a real tensor itself, as torch.
  Tensor conj() const;
  /// Sliding windows of `size` elements every `step` along `dim`, the window appended as the
  /// last dimension (`torch.Tensor.unfold`); size > extent → ShapeError.
  Tensor unfold(std::int64_t dim, std::int64_t size, std::int64_t step) const;
  /// @}

  /// @name Copies in a new layout (new tensors, PyTorch's values)
  /// @{

  /// The elements reversed along each of `dims`.
  Tensor flip(const std::vector<std::int64_t>& dims) const;
  /// Tiled `repeats[i]` times along dimension i (repeats may have more entries than dim():
  /// new leading dimensions), as `torch.Tensor.repeat`.
  Tensor repeat(const std::vector<std::int64_t>& repeats) const;
  /// Rolled by `shifts[i]` along `dims[i]`; with no dims, over the flattened tensor (one shift).
  Tensor roll(const std::vector<std::int64_t>& shifts,
              const std::vector<std::int64_t>& dims = {}) const;
  /// @}

  /// @name Random fills in place (tessera/random/random.hpp; the default generator unless one
  /// is given). Elements are numbered in row-major order whatever the strides; an expanded
  /// tensor is refused (ValueError) and nothing is drawn.
  /// @{

  /// Uniform in [lo, hi) (lo > hi → ValueError); float and double tensors (ValueError else).
  const Tensor& uniform_(double lo = 0.0, double hi = 1.0) const requires Ordered<T>;
  /// uniform_ from `generator`.
  const Tensor& uniform_(double lo, double hi,
                         const Generator& generator) const requires Ordered<T>;
  /// Normal with `mean` and standard deviation `std` (std < 0 → ValueError); float and double.
  const Tensor& normal_(double mean = 0.0, double std = 1.0) const requires Ordered<T>;
  /// normal_ from `generator`.
  const Tensor& normal_(double mean, double std,
                        const Generator& generator) const requires Ordered<T>;
  /// 1 with probability p, else 0 (p in [0, 1], else ValueError); any dtype (the uniforms are
  /// of T for float and double tensors, double otherwise).
  const Tensor& bernoulli_(double p = 0.5) const requires Ordered<T>;
  /// bernoulli_ from `generator`.
  const Tensor& bernoulli_(double p, const Generator& generator) const requires Ordered<T>;
  /// @}

  /// @name Copies in a new layout, continued
  /// @{

  /// The lower triangle (j - i <= k) of the last two dimensions, zeros elsewhere.
  Tensor tril(std::int64_t k = 0) const;
  /// The upper triangle (j - i >= k) of the last two dimensions, zeros elsewhere.
  Tensor triu(std::int64_t k = 0) const;
  /// @}

 private:
  template <class U>
  friend class Tensor;
  template <Complex U>
  friend Tensor<part_t<U>> view_as_real(const Tensor<U>& z);
  template <Floating F>
  friend Tensor<std::complex<F>> view_as_complex(const Tensor<F>& r);
  Tensor(Storage storage, Shape shape, Shape strides, std::int64_t offset);

  Storage storage_;
  Shape shape_;
  Shape strides_;
  std::int64_t offset_ = 0;
};

/// A nested initializer list of T, any depth; the argument type of `tensor<T>(...)`.
template <class T>
class NestedList {
 public:
  /// A leaf: one element.
  NestedList(T value) : value_(value), leaf_(true) {}  // NOLINT(google-explicit-constructor)
  /// A leaf from a number of another type, converted (`tensor<complex64>({{1, 2}, {3, 4}})`:
  /// an int to a complex number is two conversions, which one constructor cannot chain).
  template <class V>
  requires(Number<V> && !std::is_same_v<V, T> && std::is_convertible_v<V, T>)
      NestedList(V value)  // NOLINT(google-explicit-constructor)
      : value_(static_cast<T>(value)), leaf_(true) {}
  /// A level: one entry per index of this dimension.
  NestedList(std::initializer_list<NestedList> children)  // NOLINT(google-explicit-constructor)
      : children_(children) {}
  /// True for an element, false for a level.
  bool is_leaf() const noexcept { return leaf_; }
  /// The element of a leaf.
  T value() const noexcept { return value_; }
  /// The entries of a level.
  const std::initializer_list<NestedList>& children() const noexcept { return children_; }

 private:
  T value_{};
  bool leaf_ = false;
  std::initializer_list<NestedList> children_;
};

/// A tensor from nested braces: `tensor<float>({{1, 2}, {3, 4}})` is 2x2, `tensor<float>({})`
/// has shape (0). Ragged nesting → ShapeError.
template <class T>
Tensor<T> tensor(std::initializer_list<NestedList<T>> values, Device device = Device::cpu());

/// A 0-d tensor: `tensor<double>(5.0)`. The value's type is a deduced template parameter so
/// that a braced list can never match this overload: `tensor<float>({1})` is the 1-d tensor of
/// shape (1) on every compiler (with a plain `T value`, clang 14 took `{1}` as the scalar).
template <class T, class V>
requires Number<V> && std::is_convertible_v<V, T> Tensor<T> tensor(V value,
                                                                   Device device = Device::cpu()) {
  return Tensor<T>::scalar(static_cast<T>(value), device);
}

}  // namespace tessera

TESSERA_EVAL_TAGS_END
