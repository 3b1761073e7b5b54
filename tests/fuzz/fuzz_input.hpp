// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file fuzz_input.hpp
/// Turns a libFuzzer byte string into tessera arguments: shapes, layouts (contiguous,
/// transposed, sliced with a step, offset), element values from raw bytes, option flags. Every
/// decoder is total: when the bytes run out it answers zeros, so any input decodes to something.
/// Sizes stay small (kMaxElements) so each execution takes microseconds.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "support/snapshot.hpp"
#include "tessera/tessera.hpp"

namespace tessera_fuzz {

namespace ts = tessera;

/// Upper bound on the elements of one decoded tensor (before the layout's padding).
inline constexpr std::int64_t kMaxElements = 512;

/// Stops the run with a message libFuzzer records as a crash (a wrong answer, not an exception).
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "tessera fuzz: %s\n", what);
  std::abort();
}
inline void require(bool ok, const char* what) {
  if (!ok) fail(what);
}

/// Bytes consumed front to back.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  bool flag() { return (byte() & 1) != 0; }
  /// An integer in [lo, hi] (hi - lo < 256).
  int pick(int lo, int hi) { return lo + byte() % (hi - lo + 1); }
  template <class T>
  T raw() {
    T v{};
    if constexpr (std::is_same_v<T, bool>) {
      v = flag();  // bool objects must hold 0 or 1
    } else {
      unsigned char bytes[sizeof(T)] = {};
      for (auto& b : bytes) b = byte();
      std::memcpy(&v, bytes, sizeof(T));
    }
    return v;
  }
  /// Mostly small values (so sorted rows, duplicates and in-range indices are common), now and
  /// then raw bits (NaN, inf, extremes).
  template <class T>
  T value() {
    const std::uint8_t mode = byte();
    if constexpr (std::is_same_v<T, bool>) {
      return (mode & 1) != 0;
    } else {
      if (mode < 200) return static_cast<T>(static_cast<int>(mode % 16) - 4);
      return raw<T>();
    }
  }
  /// A shape of rank [min_rank, max_rank], dims in [0, max_dim], at most kMaxElements elements.
  ts::Shape shape(int min_rank, int max_rank, int max_dim = 6) {
    const int rank = pick(min_rank, max_rank);
    std::vector<std::int64_t> dims;
    std::int64_t n = 1;
    for (int d = 0; d < rank; ++d) {
      std::int64_t dim = pick(0, max_dim);
      if (n * std::max<std::int64_t>(dim, 1) > kMaxElements) dim = 1;
      n *= std::max<std::int64_t>(dim, 1);
      dims.push_back(dim);
    }
    return ts::Shape(dims.begin(), dims.end());
  }
  bool empty() const { return at_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

/// Row-major index tuple of linear position `k` in `shape`.
inline std::vector<std::int64_t> unravel(std::int64_t k, const ts::Shape& shape) {
  std::vector<std::int64_t> idx(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
  return idx;
}

/// Element offset (from data()) of linear position `k` of a strided host tensor.
template <class T>
std::int64_t offset_of(const ts::Tensor<T>& t, std::int64_t k) {
  const auto idx = unravel(k, t.shape());
  std::int64_t at = 0;
  for (std::size_t d = 0; d < idx.size(); ++d) at += idx[d] * t.strides()[d];
  return at;
}

/// Writes row-major `values` through a host view's strides (by hand: independent of the
/// library's expression assignment).
template <class T>
void write_elements(const ts::Tensor<T>& view, const std::vector<T>& values) {
  for (std::int64_t k = 0; k < view.numel(); ++k) {
    view.data()[offset_of(view, k)] = values[static_cast<std::size_t>(k)];
  }
}

/// A tensor of `shape` holding `values` (row-major), in a layout the input picks: contiguous,
/// a slice with step 2 of a bigger tensor, or the transpose of a contiguous tensor (dims 0 and
/// last swapped back), each at a non-zero offset. Padding elements hold a poison value so a read
/// outside the view shows up in the results.
template <class T>
ts::Tensor<T> make_tensor(Input& in, const ts::Shape& shape, const std::vector<T>& values) {
  const int layout = shape.empty() ? 0 : in.pick(0, 2);
  if (layout == 0) return ts::Tensor<T>::from_vector(values, shape);
  const auto rank = static_cast<std::int64_t>(shape.size());
  if (layout == 1) {
    // Base with every dim doubled (+1), then a step-2 slice of dim 0 and a [1:] slice of the rest.
    std::vector<std::int64_t> big(shape.begin(), shape.end());
    big[0] = 2 * big[0] + 1;
    for (std::int64_t d = 1; d < rank; ++d) big[d] += 1;
    ts::Shape big_shape(big.begin(), big.end());
    auto base = ts::Tensor<T>::full(big_shape, in.raw<T>());
    auto view = base.slice(0, 1, 1 + 2 * shape[0], 2);
    for (std::int64_t d = 1; d < rank; ++d) view = view.slice(d, 1, 1 + shape[d], 1);
    require(view.shape() == shape, "decoder: sliced view has the wrong shape");
    write_elements(view, values);
    return view;
  }
  // The transpose of a contiguous tensor with dims 0 and rank-1 swapped.
  std::vector<std::int64_t> swapped(shape.begin(), shape.end());
  std::swap(swapped.front(), swapped.back());
  auto base = ts::Tensor<T>::empty(ts::Shape(swapped.begin(), swapped.end()));
  auto view = base.transpose(0, rank - 1);
  write_elements(view, values);
  return view;
}

/// `n` values decoded from the input.
template <class T>
std::vector<T> values(Input& in, std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = in.value<T>();  // vector<bool>: no T&
  return v;
}

using tessera_test::storage_bytes;

/// Same value, NaN equal to NaN (results are compared to the reference loops with this).
template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return b != b;
  }
  return a == b;
}

/// A list of types (or of Types<A, B> pairs) for with_picked_type.
template <class... Ts>
struct Types {};

/// Calls `f.template operator()<T>()` with the type of `list` the next byte picks: byte % N
/// picks the list's entry in order, so a seed keeps its meaning while the list keeps its order.
template <class... Ts, class F>
void with_picked_type(Input& in, Types<Ts...> /*list*/, F&& f) {
  const int picked = in.pick(0, static_cast<int>(sizeof...(Ts)) - 1);
  int at = 0;
  (void)((at++ == picked ? (f.template operator()<Ts>(), true) : false) || ...);
}

}  // namespace tessera_fuzz
