// SPDX-License-Identifier: BSD-3-Clause
// The host kernels of sort, argsort and topk, instantiated per dtype. Every element becomes an
// order key (src/backend/ordering_keys.hpp) paired with its position; rows are sorted by a stable
// LSD radix sort on the key bytes (one pass per byte that varies), or, for topk with a small k,
// the k best are selected in one pass through a heap. Rows run in parallel, one contiguous
// range of rows per thread; one long row is cut into one part per thread, each radix sorted
// (or selected from) alone, and the parts are merged.

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "backend/ordering_kernels.hpp"
#include "backend/ordering_keys.hpp"
#include "tessera/core/dtype.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/host_parallel.hpp"

namespace tessera::detail::host_ops {

namespace {

/// A key and the position along the row it came from.
template <class K>
struct Item {
  K key;
  std::uint32_t pos;
};

/// Rows shorter than this are sorted by insertion.
constexpr std::int64_t kInsertionRows = 32;
/// Work (elements) below which everything stays on the calling thread.
constexpr std::int64_t kSerialElements = 1 << 15;
/// A row at least this long is sorted by all threads together when there are fewer rows than
/// threads.
constexpr std::int64_t kParallelRow = 1 << 16;

template <class K>
bool before(const Item<K>& a, const Item<K>& b) {
  return a.key < b.key || (a.key == b.key && a.pos < b.pos);
}

/// Stable insertion sort by key.
template <class K>
void insertion_sort(Item<K>* a, std::int64_t n) {
  for (std::int64_t i = 1; i < n; ++i) {
    const Item<K> v = a[i];
    std::int64_t j = i;
    for (; j > 0 && a[j - 1].key > v.key; --j) a[j] = a[j - 1];
    a[j] = v;
  }
}

/// Counts of every key byte's digits.
template <class K>
using Histogram = std::array<std::array<std::uint32_t, 256>, sizeof(K)>;

template <class K>
void count_digits(const Item<K>* a, std::int64_t n, Histogram<K>& h) {
  for (auto& byte : h) byte.fill(0);
  for (std::int64_t i = 0; i < n; ++i) {
    const K key = a[i].key;
    for (std::size_t b = 0; b < sizeof(K); ++b) ++h[b][(key >> (8 * b)) & 0xFF];
  }
}

/// Stable LSD radix sort of a[0, n) by key, with `tmp` of n items; returns where the result is
/// (a or tmp). Bytes that are the same in every key cost no pass.
template <class K>
Item<K>* radix_sort(Item<K>* a, Item<K>* tmp, std::int64_t n) {
  Histogram<K> h;
  count_digits(a, n, h);
  for (std::size_t b = 0; b < sizeof(K); ++b) {
    const auto& count = h[b];
    if (count[(a[0].key >> (8 * b)) & 0xFF] == n) continue;
    std::array<std::uint32_t, 256> at;
    std::uint32_t sum = 0;
    for (int d = 0; d < 256; ++d) {
      at[d] = sum;
      sum += count[d];
    }
    for (std::int64_t i = 0; i < n; ++i) tmp[at[(a[i].key >> (8 * b)) & 0xFF]++] = a[i];
    std::swap(a, tmp);
  }
  return a;
}

/// A row of the input: its first element and the distance between elements.
template <class T>
struct RowIn {
  const T* at;
  std::int64_t step;
  T operator[](std::int64_t j) const { return at[j * step]; }
};

/// Where a row's results go: positions (and values unless null), `step` apart.
template <class T>
struct RowOut {
  T* values;
  std::int64_t* indices;
  std::int64_t step;
};

/// Items of row elements [begin, end).
template <class T>
void make_items(RowIn<T> row, std::int64_t begin, std::int64_t end, bool descending,
                Item<order_key_t<T>>* items) {
  for (std::int64_t j = begin; j < end; ++j) {
    items[j - begin] = {order_key(row[j], descending), static_cast<std::uint32_t>(j)};
  }
}

/// Writes sorted items [begin, end) as results begin.. of the row.
template <class T>
void write_items(RowIn<T> row, const Item<order_key_t<T>>* items, std::int64_t begin,
                 std::int64_t end, bool descending, RowOut<T> out) {
  using K = order_key_t<T>;
  for (std::int64_t j = begin; j < end; ++j) {
    const Item<K> it = items[j];
    out.indices[j * out.step] = it.pos;
    if (out.values != nullptr) {
      const K key = descending ? K(~it.key) : it.key;
      out.values[j * out.step] = key_is_ambiguous<T>(key) ? row[it.pos] : value_of_key<T>(key);
    }
  }
}

/// A thread's scratch for whole rows.
template <class T>
struct RowScratch {
  std::vector<Item<order_key_t<T>>> a, b;
};

/// Sorts one row on the calling thread and writes its first k results.
template <class T>
void sort_row(RowIn<T> row, std::int64_t n, bool descending, std::int64_t k, RowOut<T> out,
              RowScratch<T>& s) {
  using K = order_key_t<T>;
  if (static_cast<std::int64_t>(s.a.size()) < n) {
    s.a.resize(static_cast<std::size_t>(n));
    s.b.resize(static_cast<std::size_t>(n));
  }
  make_items(row, 0, n, descending, s.a.data());
  Item<K>* sorted = s.a.data();
  if (n <= kInsertionRows) {
    insertion_sort(sorted, n);
  } else {
    sorted = radix_sort(s.a.data(), s.b.data(), n);
  }
  write_items(row, sorted, 0, k, descending, out);
}

/// Keys of block p[0, m) into `keys`, and the lowest of them (a loop the compiler vectorises:
/// the order is a template argument and the elements are contiguous).
template <bool Descending, class T>
order_key_t<T> block_keys(const T* __restrict p, std::int64_t m, order_key_t<T>* __restrict keys) {
  using K = order_key_t<T>;
  K low = std::numeric_limits<K>::max();
  for (std::int64_t t = 0; t < m; ++t) {
    const K key = order_key(p[t]);
    keys[t] = Descending ? K(~key) : key;
    low = std::min(low, keys[t]);
  }
  return low;
}

/// select_row for one order: a heap whose top is the worst kept item; blocks of keys whose
/// lowest does not beat it (most blocks, once the heap holds good items) cost no heap work.
/// Built for AVX2 too (the key loop is most of the time; its result has no rounding).
template <bool Descending, class T>
TESSERA_ELEMENTWISE_CLONES std::vector<Item<order_key_t<T>>> select_contiguous(const T* row,
                                                                               std::int64_t begin,
                                                                               std::int64_t end,
                                                                               std::int64_t k) {
  using K = order_key_t<T>;
  const auto worse = [](const Item<K>& x, const Item<K>& y) { return before(x, y); };
  std::vector<Item<K>> heap;
  heap.reserve(static_cast<std::size_t>(k));
  std::int64_t j = begin;
  for (; j < end && static_cast<std::int64_t>(heap.size()) < k; ++j) {
    heap.push_back({order_key(row[j], Descending), static_cast<std::uint32_t>(j)});
    std::push_heap(heap.begin(), heap.end(), worse);
  }
  constexpr std::int64_t kBlock = 32;
  K keys[kBlock];
  for (; j < end; j += kBlock) {
    const std::int64_t m = std::min(kBlock, end - j);
    // Later positions lose ties, so only a strictly lower key enters.
    if (block_keys<Descending>(row + j, m, keys) >= heap.front().key) continue;
    for (std::int64_t t = 0; t < m; ++t) {
      if (keys[t] < heap.front().key) {
        std::pop_heap(heap.begin(), heap.end(), worse);
        heap.back() = {keys[t], static_cast<std::uint32_t>(j + t)};
        std::push_heap(heap.begin(), heap.end(), worse);
      }
    }
  }
  std::sort(heap.begin(), heap.end(), before<K>);
  return heap;
}

/// The k first items (in sorted order) of elements [begin, end) of a contiguous row (k <= end -
/// begin), in one pass: one key per element, and heap work only for an element that beats the
/// worst kept one. Returns them sorted.
template <class T>
std::vector<Item<order_key_t<T>>> select_row(RowIn<T> row, std::int64_t begin, std::int64_t end,
                                             bool descending, std::int64_t k) {
  return descending ? select_contiguous<true>(row.at, begin, end, k)
                    : select_contiguous<false>(row.at, begin, end, k);
}

/// Whether topk's k of a row of n is selected rather than sorted.
bool selects(std::int64_t k, std::int64_t n) { return k < n && k * 16 <= n && k <= 1024; }

/// How many of the first d items of the merge of sorted a[0, na) and b[0, nb) come from a
/// (items are totally ordered by `before`): the merge path's split at d.
template <class K>
std::int64_t merge_split(const Item<K>* a, std::int64_t na, const Item<K>* b, std::int64_t nb,
                         std::int64_t d) {
  std::int64_t lo = std::max<std::int64_t>(0, d - nb), hi = std::min(d, na);
  while (lo < hi) {
    const std::int64_t i = lo + (hi - lo) / 2;
    if (before(a[i], b[d - i - 1])) {
      lo = i + 1;  // a[i] comes before the (d - i)-th item of b: it is among the first d
    } else {
      hi = i;
    }
  }
  return lo;
}

/// Items [d0, d1) of the merge of sorted a[0, na) and b[0, nb), written to out[d0, d1).
template <class K>
void merge_slice(const Item<K>* a, std::int64_t na, const Item<K>* b, std::int64_t nb,
                 std::int64_t d0, std::int64_t d1, Item<K>* out) {
  const std::int64_t i0 = merge_split(a, na, b, nb, d0), i1 = merge_split(a, na, b, nb, d1);
  std::merge(a + i0, a + i1, b + (d0 - i0), b + (d1 - i1), out + d0, before<K>);
}

/// One long row with every thread: radix sorted parts merged (or per-thread selections merged,
/// for a small k).
template <class T>
void order_long_row(RowIn<T> row, std::int64_t n, bool descending, std::int64_t k, RowOut<T> out,
                    std::int64_t threads) {
  using K = order_key_t<T>;
  const auto part = [&](std::int64_t t) { return n * t / threads; };
  if (selects(k, n)) {
    std::unique_ptr<T[]> gathered;
    if (row.step != 1) {  // the selection reads contiguous rows
      gathered.reset(new T[static_cast<std::size_t>(n)]);
      for (std::int64_t j = 0; j < n; ++j) gathered[static_cast<std::size_t>(j)] = row[j];
      row = {gathered.get(), 1};
    }
    std::vector<std::vector<Item<K>>> best(static_cast<std::size_t>(threads));
    host_parallel_for(threads, [&](std::int64_t t) {
      best[static_cast<std::size_t>(t)] = select_row(row, part(t), part(t + 1), descending, k);
    });
    std::vector<Item<K>> all;
    for (const auto& b : best) all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end(), before<K>);
    write_items(row, all.data(), 0, k, descending, out);
    return;
  }
  // Each thread radix sorts its part of the row alone; then rounds of pairwise merges, each
  // cut into one equal slice of the output per thread (merge path), put the parts together.
  // Items are ordered by (key, position), a total order, so the merges are stable. Two
  // parallel regions for two threads (the last round also writes the results): one region
  // per radix pass, as a parallel radix sort takes, waited for a descheduled thread per pass
  // on a loaded machine (10^6 floats: 70 ms on two threads against 18 ms on one).
  const auto words = static_cast<std::int64_t>((sizeof(Item<K>) * n + 7) / 8);
  const auto buffers = Tensor<std::int64_t>::empty({2 * words});
  Item<K>* src = reinterpret_cast<Item<K>*>(buffers.data());
  Item<K>* dst = reinterpret_cast<Item<K>*>(buffers.data() + words);
  host_parallel_for(threads, [&](std::int64_t t) {
    const std::int64_t begin = part(t), len = part(t + 1) - begin;
    if (len == 0) return;
    make_items(row, begin, part(t + 1), descending, src + begin);
    const Item<K>* sorted = radix_sort(src + begin, dst + begin, len);
    if (sorted != src + begin) std::copy(sorted, sorted + len, src + begin);
  });
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(threads + 1));
  for (std::int64_t t = 0; t <= threads; ++t) bounds[static_cast<std::size_t>(t)] = part(t);
  while (bounds.size() > 2) {
    const std::size_t runs = bounds.size() - 1;
    const bool last = runs <= 2;
    host_parallel_for(threads, [&](std::int64_t t) {
      const std::int64_t lo = part(t), hi = part(t + 1);
      for (std::size_t m = 0; m < runs; m += 2) {
        const std::int64_t s = bounds[m], e = bounds[std::min(m + 2, runs)];
        if (e <= lo || s >= hi) continue;
        const std::int64_t mid = m + 1 < runs ? bounds[m + 1] : e;
        merge_slice(src + s, mid - s, src + mid, e - mid, std::max(lo, s) - s, std::min(hi, e) - s,
                    dst + s);
      }
      if (last) write_items(row, dst, std::min(lo, k), std::min(hi, k), descending, out);
    });
    std::vector<std::int64_t> merged;
    for (std::size_t m = 0; m < runs; m += 2) merged.push_back(bounds[m]);
    merged.push_back(n);
    bounds = std::move(merged);
    std::swap(src, dst);
  }
  if (threads == 1) write_items(row, src, 0, k, descending, out);
}

/// Rows [first, last) on the calling thread.
template <class T>
void order_row_range(const T* in, const OrderingRows& rows, bool descending, std::int64_t k,
                     T* values, std::int64_t* indices, std::int64_t first, std::int64_t last) {
  RowScratch<T> scratch;
  // A copy of one strided row (not std::vector, which packs bools).
  const bool strided = rows.inner > 1 && rows.n > 1;
  const std::unique_ptr<T[]> gathered(strided ? new T[static_cast<std::size_t>(rows.n)] : nullptr);
  const bool select = selects(k, rows.n);
  for (std::int64_t r = first; r < last; ++r) {
    const std::int64_t o = r / rows.inner, i = r % rows.inner;
    RowIn<T> row{in + o * rows.n * rows.inner + i, rows.inner};
    if (strided) {  // read the row once, into a contiguous copy
      for (std::int64_t j = 0; j < rows.n; ++j) gathered[static_cast<std::size_t>(j)] = row[j];
      row = {gathered.get(), 1};
    }
    const std::int64_t at = o * k * rows.inner + i;
    const RowOut<T> out{values == nullptr ? nullptr : values + at, indices + at, rows.inner};
    if (select) {
      const auto best = select_row(row, 0, rows.n, descending, k);
      write_items(row, best.data(), 0, k, descending, out);
    } else {
      sort_row(row, rows.n, descending, k, out, scratch);
    }
  }
}

/// Rows too long for 32-bit positions: a comparison sort of positions by key.
template <class T>
void order_huge_rows(const T* in, const OrderingRows& rows, bool descending, std::int64_t k,
                     T* values, std::int64_t* indices) {
  std::vector<std::int64_t> pos(static_cast<std::size_t>(rows.n));
  for (std::int64_t r = 0; r < rows.rows(); ++r) {
    const std::int64_t o = r / rows.inner, i = r % rows.inner;
    const RowIn<T> row{in + o * rows.n * rows.inner + i, rows.inner};
    for (std::int64_t j = 0; j < rows.n; ++j) pos[static_cast<std::size_t>(j)] = j;
    std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t x, std::int64_t y) {
      return order_key(row[x], descending) < order_key(row[y], descending);
    });
    const std::int64_t at = o * k * rows.inner + i;
    for (std::int64_t j = 0; j < k; ++j) {
      const std::int64_t p = pos[static_cast<std::size_t>(j)];
      indices[at + j * rows.inner] = p;
      if (values != nullptr) values[at + j * rows.inner] = row[p];
    }
  }
}

}  // namespace

template <class T>
void order_rows(const T* in, const OrderingRows& rows, bool descending, std::int64_t k, T* values,
                std::int64_t* indices) {
  const std::int64_t count = rows.rows();
  if (count == 0 || k == 0) return;
  if (rows.n > std::numeric_limits<std::uint32_t>::max()) {
    order_huge_rows(in, rows, descending, k, values, indices);
    return;
  }
  const std::int64_t threads = host_thread_count();
  const bool alone = threads == 1 || count * rows.n < kSerialElements;
  if (!alone && count < threads && rows.n >= kParallelRow) {
    for (std::int64_t r = 0; r < count; ++r) {
      const std::int64_t o = r / rows.inner, i = r % rows.inner;
      const std::int64_t at = o * k * rows.inner + i;
      order_long_row(RowIn<T>{in + o * rows.n * rows.inner + i, rows.inner}, rows.n, descending, k,
                     RowOut<T>{values == nullptr ? nullptr : values + at, indices + at, rows.inner},
                     threads);
    }
    return;
  }
  const std::int64_t parts = alone ? 1 : std::min(threads, count);
  host_parallel_for(parts, [&](std::int64_t t) {
    order_row_range(in, rows, descending, k, values, indices, count * t / parts,
                    count * (t + 1) / parts);
  });
}

#define TESSERA_INSTANTIATE_ORDER_ROWS(T) \
  template void order_rows<T>(const T*, const OrderingRows&, bool, std::int64_t, T*, std::int64_t*);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_ORDER_ROWS)
#undef TESSERA_INSTANTIATE_ORDER_ROWS

}  // namespace tessera::detail::host_ops
