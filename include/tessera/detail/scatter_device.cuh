// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file scatter_device.cuh
/// The device tensor_scatter_nd_* kernels (device-compiled units only), on Thrust:
/// - Bounds: a reduction (`device_reduce`) over the index rows gives the lowest bad row; it
///   returns to the host, the one sync of the Error policy (Ignore needs none).
/// - Default (sub, add, min, max): one `for_each_n` over the update elements, combined with
///   atomics through `cuda::atomic_ref` (fetch_add / fetch_min / fetch_max where they exist, a
///   compare-exchange loop on the enclosing 32- or 64-bit word otherwise). Float sums then depend
///   on the order in which updates arrive.
/// - deterministic, and always for update (the last duplicate row wins, as on the host):
///   destination keys (`transform`), a stable sort of the rows by destination
///   (`stable_sort_by_key`), then one `for_each_n` in which the first row of each destination
///   applies that destination's rows in index order: the host's loop, bit for bit.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cuda/atomic>

#include "tessera/core/element_traits.hpp"
#include "tessera/detail/scatter_kernels.hpp"
#include "tessera/expr/device_executor.cuh"
#include "tessera/expr/nodes.hpp"

namespace tessera::detail {

template <class To, class From>
TESSERA_HD To scatter_bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To y;
  memcpy(&y, &x, sizeof(To));
  return y;
}

template <class T>
using device_atomic = cuda::atomic_ref<T, cuda::thread_scope_device>;

/// *address = Op(*address, u) atomically, by compare-exchange on the enclosing word.
template <class Op, class T>
TESSERA_HD void scatter_atomic_cas(T* address, T u) {
  if constexpr (sizeof(T) == 8 || sizeof(T) == 4) {
    using Word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
    device_atomic<Word> word(*reinterpret_cast<Word*>(address));
    Word old = word.load(cuda::std::memory_order_relaxed);
    while (true) {
      const Word desired = scatter_bit_cast<Word>(Op::apply(scatter_bit_cast<T>(old), u));
      if (desired == old ||
          word.compare_exchange_weak(old, desired, cuda::std::memory_order_relaxed)) {
        return;
      }
    }
  } else {
    // 1- and 2-byte elements: the aligned 32-bit word that holds them.
    const auto raw = reinterpret_cast<std::uintptr_t>(address);
    device_atomic<unsigned int> word(*reinterpret_cast<unsigned int*>(raw & ~std::uintptr_t{3}));
    const unsigned int shift = static_cast<unsigned int>(raw & 3u) * 8u;
    constexpr unsigned int kMask = sizeof(T) == 1 ? 0xffu : 0xffffu;
    using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t>;
    unsigned int old = word.load(cuda::std::memory_order_relaxed);
    while (true) {
      const T x = scatter_bit_cast<T>(static_cast<Bits>((old >> shift) & kMask));
      const auto bits = static_cast<unsigned int>(scatter_bit_cast<Bits>(Op::apply(x, u)));
      const unsigned int desired = (old & ~(kMask << shift)) | (bits << shift);
      if (desired == old ||
          word.compare_exchange_weak(old, desired, cuda::std::memory_order_relaxed)) {
        return;
      }
    }
  }
}

/// *address = Op(*address, u) atomically, with the hardware's own atomics where they exist.
template <class Op, class T>
TESSERA_HD void scatter_atomic(T* address, T u) {
  constexpr bool sub = std::is_same_v<Op, scatter_ops::Sub>;
  constexpr bool add_like = sub || std::is_same_v<Op, scatter_ops::Add>;
  constexpr bool min_like =
      std::is_same_v<Op, scatter_ops::Min> || std::is_same_v<Op, scatter_ops::Minimum>;
  if constexpr (add_like && Floating<T>) {
    device_atomic<T>(*address).fetch_add(sub ? -u : u, cuda::std::memory_order_relaxed);
  } else if constexpr (add_like && Integral<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    // Two's complement: adding the wrapped negation subtracts, in unsigned words.
    using Word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
    const auto w = static_cast<Word>(u);
    device_atomic<Word>(*reinterpret_cast<Word*>(address))
        .fetch_add(sub ? Word{0} - w : w, cuda::std::memory_order_relaxed);
  } else if constexpr ((std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>)&&(
                           min_like || std::is_same_v<Op, scatter_ops::Max> ||
                           std::is_same_v<Op, scatter_ops::Maximum>)) {
    if constexpr (min_like) {
      device_atomic<T>(*address).fetch_min(u, cuda::std::memory_order_relaxed);
    } else {
      device_atomic<T>(*address).fetch_max(u, cuda::std::memory_order_relaxed);
    }
  } else {
    scatter_atomic_cas<Op>(address, u);
  }
}

/// Row i when it names no slice of the output, else `rows` (so the minimum is the first bad row).
template <class Index>
struct ScatterBadRow {
  ScatterGeometry g;
  const Index* indices;
  std::int64_t rows;
  TESSERA_HD std::int64_t operator()(std::int64_t i) const {
    return g.slice_of(indices + i * g.k) < 0 ? i : rows;
  }
};

/// The smaller of two row numbers.
struct LowerRow {
  TESSERA_HD std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? a : b; }
};

/// Combines update element p into its destination atomically (bad rows are skipped).
template <class Op, class T, class Index, class K>
struct ScatterAtomicElement {
  T* out;
  ScatterGeometry g;
  const Index* indices;
  K updates;
  Extents extents;
  bool linear;
  TESSERA_HD void operator()(std::int64_t p) const {
    const std::int64_t S = g.slice_size;
    const std::int64_t i = p / S;
    const std::int64_t slice = g.slice_of(indices + i * g.k);
    if (slice < 0) return;
    scatter_atomic<Op>(out + slice * S + (p - i * S),
                       scatter_update_at<T>(updates, extents, linear, p));
  }
};

/// The slice row i names (g.slices when none: sorts last, applies nowhere).
template <class Index>
struct ScatterRowKey {
  ScatterGeometry g;
  const Index* indices;
  TESSERA_HD std::int64_t operator()(std::int64_t i) const {
    const std::int64_t slice = g.slice_of(indices + i * g.k);
    return slice < 0 ? g.slices : slice;
  }
};

/// For (sorted position s, slice element e): when s is the first row of its destination,
/// applies that destination's rows in index order (the sort was stable).
template <class Op, class T, class K>
struct ScatterOrderedElement {
  T* out;
  std::int64_t slices;
  std::int64_t S;
  const std::int64_t* keys;
  const std::int64_t* order;
  std::int64_t rows;
  K updates;
  Extents extents;
  bool linear;
  TESSERA_HD void operator()(std::int64_t p) const {
    const std::int64_t s = p / S;
    const std::int64_t e = p - s * S;
    const std::int64_t key = keys[s];
    if (key >= slices || (s > 0 && keys[s - 1] == key)) return;
    T* const dst = out + key * S + e;
    T x = *dst;
    for (std::int64_t t = s; t < rows && keys[t] == key; ++t) {
      x = Op::apply(x, scatter_update_at<T>(updates, extents, linear, order[t] * S + e));
    }
    *dst = x;
  }
};

/// The lowest position of a row outside `g`, or `rows` (waits for the device).
template <class Index>
std::int64_t scatter_first_bad_device(int device, const ScatterGeometry& g, const Index* indices,
                                      std::int64_t rows) {
  return device_call("tensor_scatter_nd", device, [&] {
    return device_reduce(device, rows, ScatterBadRow<Index>{g, indices, rows}, rows, LowerRow{});
  });
}

/// Applies Op for every row to the contiguous `out`, skipping rows outside `g`; queued, nothing
/// waits.
template <class Op, class T, class Index, class K>
void scatter_device(int device, T* out, const ScatterGeometry& g, const Index* indices,
                    std::int64_t rows, const K& updates, const Extents& extents, bool linear,
                    bool deterministic) {
  const std::int64_t n = rows * g.slice_size;
  if (n == 0) return;
  device_call("tensor_scatter_nd", device, [&] {
    DeviceWork work(device);
    const thrust::counting_iterator<std::int64_t> first(0);
    // Update with duplicate rows: the last row in index order wins on every device (as on the
    // host), so it always takes the ordered path; the other ops commute (up to float rounding).
    if constexpr (!std::is_same_v<Op, scatter_ops::Update>) {
      if (!deterministic) {
        thrust::for_each_n(
            work.policy(), first, n,
            ScatterAtomicElement<Op, T, Index, K>{out, g, indices, updates, extents, linear});
        return;
      }
    }
    const DeviceBuffer<std::int64_t> keys(rows, device);
    const DeviceBuffer<std::int64_t> order(rows, device);
    thrust::transform(work.policy(), first, first + rows, keys.data(),
                      ScatterRowKey<Index>{g, indices});
    thrust::copy(work.policy(), first, first + rows, order.data());
    thrust::stable_sort_by_key(work.policy(), keys.data(), keys.data() + rows, order.data());
    thrust::for_each_n(
        work.policy(), first, n,
        ScatterOrderedElement<Op, T, K>{out, g.slices, g.slice_size, keys.data(), order.data(),
                                        rows, updates, extents, linear});
  });
}

// The scatter on the device executor (ops/scatter.hpp picks it by overload): an expression of
// updates is read inside the kernel unless it reads the output's memory.
inline namespace TESSERA_EVAL_NS {
template <class Index>
std::int64_t scatter_first_bad_with(const DeviceExecutor& executor, const ScatterGeometry& g,
                                    const Index* indices, std::int64_t rows) {
  return scatter_first_bad_device(executor.device, g, indices, rows);
}

template <class Op, class T, class Index, class U>
void scatter_apply_with(const DeviceExecutor& executor, T* out, const ScatterGeometry& g,
                        const Index* indices, std::int64_t rows, const U& updates,
                        const Shape& updates_shape, bool updates_alias, bool deterministic) {
  if (updates_alias) {
    const auto copy = materialize<T>(updates);
    scatter_device<Op>(executor.device, out, g, indices, rows, expr_bind(copy, updates_shape),
                       Extents::of(updates_shape), copy.is_contiguous(), deterministic);
  } else {
    scatter_device<Op>(executor.device, out, g, indices, rows, expr_bind(updates, updates_shape),
                       Extents::of(updates_shape), expr_linear(updates, updates_shape),
                       deterministic);
  }
}
}  // namespace TESSERA_EVAL_NS

}  // namespace tessera::detail
