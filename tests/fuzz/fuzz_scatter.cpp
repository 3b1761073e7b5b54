// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: tensor_scatter_nd_{sub,add,update,min,max} and the in-place `_` forms, with
// int32/int64 indices, element and slice updates, out-of-range rows under both policies, the
// deterministic option and strided operands. Results are bit-identical to TensorFlow's CPU loop
// written out below (updates applied in index order, integers wrap), or the call throws the
// ShapeError/IndexError that docs/ops/scatter.md names and nothing was written.

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "outcome.hpp"

namespace {

using namespace tessera_fuzz;
using ts::Shape;
using ts::Tensor;

enum class Op { Sub, Add, Update, Min, Max };
constexpr const char* kNames[] = {"tensor_scatter_nd_sub", "tensor_scatter_nd_add",
                                  "tensor_scatter_nd_update", "tensor_scatter_nd_min",
                                  "tensor_scatter_nd_max"};

/// TensorFlow's combine; integer sub/add wrap around (two's complement) instead of overflowing.
template <class T>
T combine(Op op, T x, T u) {
  if constexpr (std::is_same_v<T, bool>) {
    return u;
  } else {
    if (op == Op::Update) return u;
    if (op == Op::Min) return u < x ? u : x;
    if (op == Op::Max) return x < u ? u : x;
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      const U a = static_cast<U>(x);
      const U b = static_cast<U>(u);
      return static_cast<T>(static_cast<U>(op == Op::Sub ? a - b : a + b));
    } else {
      return op == Op::Sub ? x - u : x + u;
    }
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a == b;
  } else {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        if (a[i] != a[i] && b[i] != b[i]) continue;  // NaN payloads may differ
      }
      if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return false;
    }
    return true;
  }
}

template <class T, class Index>
Tensor<T> call(Op op, bool in_place, bool free_function, Tensor<T>& t, const Tensor<Index>& i,
               const Tensor<T>& u, const ts::ScatterOptions& o) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)op;
    (void)free_function;
    if (in_place) {
      t.scatter_nd_update_(i, u, o);
      return t;
    }
    return ts::tensor_scatter_nd_update(t, i, u, o);
  } else {
    if (in_place) {
      switch (op) {
        case Op::Sub:
          t.scatter_nd_sub_(i, u, o);
          break;
        case Op::Add:
          t.scatter_nd_add_(i, u, o);
          break;
        case Op::Update:
          t.scatter_nd_update_(i, u, o);
          break;
        case Op::Min:
          t.scatter_nd_min_(i, u, o);
          break;
        case Op::Max:
          t.scatter_nd_max_(i, u, o);
          break;
      }
      return t;
    }
    if (free_function) {
      switch (op) {
        case Op::Sub:
          return ts::tensor_scatter_nd_sub(t, i, u, o);
        case Op::Add:
          return ts::tensor_scatter_nd_add(t, i, u, o);
        case Op::Update:
          return ts::tensor_scatter_nd_update(t, i, u, o);
        case Op::Min:
          return ts::tensor_scatter_nd_min(t, i, u, o);
        case Op::Max:
          break;
      }
      return ts::tensor_scatter_nd_max(t, i, u, o);
    }
    switch (op) {
      case Op::Sub:
        return t.tensor_scatter_nd_sub(i, u, o);
      case Op::Add:
        return t.tensor_scatter_nd_add(i, u, o);
      case Op::Update:
        return t.tensor_scatter_nd_update(i, u, o);
      case Op::Min:
        return t.tensor_scatter_nd_min(i, u, o);
      case Op::Max:
        break;
    }
    return t.tensor_scatter_nd_max(i, u, o);
  }
}

template <class T, class Index>
void run(Input& in) {
  const Op op = std::is_same_v<T, bool> ? Op::Update : static_cast<Op>(in.pick(0, 4));
  const Shape shape = in.shape(0, 3, 5);
  const auto rank = static_cast<std::int64_t>(shape.size());
  const std::int64_t k = in.pick(0, 7) != 0
                             ? in.pick(1, static_cast<int>(std::max<std::int64_t>(rank, 1)))
                             : in.pick(0, 4);
  Shape indices_shape;
  if (in.pick(0, 15) == 0) {
    indices_shape = Shape{};  // 0-d
  } else {
    const Shape batch = in.shape(0, 2, 4);
    std::vector<std::int64_t> dims(batch.begin(), batch.end());
    dims.push_back(k);
    indices_shape = Shape(dims.begin(), dims.end());
  }
  const std::int64_t nrows = indices_shape.empty() || k == 0 ? 0 : indices_shape.numel() / k;
  // Updates: indices.shape[:-1] + shape[K:] (when that exists), sometimes anything.
  Shape updates_shape;
  const bool well_formed = !indices_shape.empty() && k >= 1 && k <= rank;
  if (well_formed && in.pick(0, 9) != 0) {
    std::vector<std::int64_t> dims(indices_shape.begin(), indices_shape.end() - 1);
    dims.insert(dims.end(), shape.begin() + k, shape.end());
    updates_shape = Shape(dims.begin(), dims.end());
  } else {
    updates_shape = in.shape(0, 3, 4);
  }
  if (updates_shape.numel() > 4 * kMaxElements) return;

  // Index values: mostly inside the dimension, sometimes just outside (-1, dim) or anything.
  std::vector<Index> index_values(static_cast<std::size_t>(indices_shape.numel()));
  for (std::size_t j = 0; j < index_values.size(); ++j) {
    const std::int64_t d = k == 0 ? 0 : static_cast<std::int64_t>(j) % k;
    const std::int64_t dim = d < rank ? shape[d] : 1;
    const std::uint8_t mode = in.byte();
    if (mode < 230) {
      index_values[j] = static_cast<Index>(dim == 0 ? 0 : mode % dim);
    } else if (mode < 245) {
      index_values[j] = static_cast<Index>(mode & 1 ? -1 : dim);
    } else {
      index_values[j] = in.raw<Index>();
    }
  }
  auto tensor_values = values<T>(in, shape.numel());
  const auto update_values = values<T>(in, updates_shape.numel());
  Tensor<T> tensor = make_tensor<T>(in, shape, tensor_values);
  const Tensor<Index> indices = make_tensor<Index>(in, indices_shape, index_values);
  const Tensor<T> updates = make_tensor<T>(in, updates_shape, update_values);
  ts::ScatterOptions options;
  options.out_of_bounds = in.flag() ? ts::OutOfBounds::Ignore : ts::OutOfBounds::Error;
  options.deterministic = in.flag();
  const bool in_place = in.flag();
  const bool free_function = in.flag();

  // The errors docs/ops/scatter.md names.
  unsigned expected = kNone;
  if (rank == 0 || indices_shape.empty() || updates_shape.empty()) expected |= kShape;
  if (!indices_shape.empty() && (k < 1 || k > rank)) expected |= kShape;
  if (well_formed) {
    std::vector<std::int64_t> dims(indices_shape.begin(), indices_shape.end() - 1);
    dims.insert(dims.end(), shape.begin() + k, shape.end());
    if (updates_shape != Shape(dims.begin(), dims.end())) expected |= kShape;
    if (shape.numel() == 0 && indices_shape.numel() != 0) expected |= kShape;
  }
  // Reference: the sequential loop over index rows, skipping rows outside the tensor.
  std::vector<T> want = tensor_values;
  if (expected == kNone) {
    std::int64_t slice = 1;
    for (std::int64_t d = k; d < rank; ++d) slice *= shape[d];
    for (std::int64_t r = 0; r < nrows; ++r) {
      std::int64_t at = 0;
      bool inside = true;
      for (std::int64_t d = 0; d < k; ++d) {
        const auto v = static_cast<std::int64_t>(index_values[static_cast<std::size_t>(r * k + d)]);
        inside = inside && v >= 0 && v < shape[d];
        at = at * shape[d] + (inside ? v : 0);
      }
      if (!inside) {
        if (options.out_of_bounds == ts::OutOfBounds::Error) expected |= kIndex;
        continue;
      }
      for (std::int64_t j = 0; j < slice; ++j) {
        const auto w = static_cast<std::size_t>(at * slice + j);
        want[w] = combine<T>(op, want[w], update_values[static_cast<std::size_t>(r * slice + j)]);
      }
    }
  }

  const auto tensor_bytes = storage_bytes(tensor);
  const auto indices_bytes = storage_bytes(indices);
  const auto updates_bytes = storage_bytes(updates);
  const Tensor<T> alias = tensor;  // the caller's other handle on the same memory
  Tensor<T> result;
  const bool ok = run_expecting(expected, kNames[static_cast<int>(op)], [&] {
    result = call<T, Index>(op, in_place, free_function, tensor, indices, updates, options);
  });
  require(storage_bytes(indices) == indices_bytes, "the indices changed");
  require(storage_bytes(updates) == updates_bytes, "the updates changed");
  if (!ok || !in_place) {
    require(storage_bytes(alias) == tensor_bytes, "the input tensor changed");
  }
  if (!ok) return;
  require(result.shape() == shape, "result shape differs from the tensor's");
  require(same_bits(result.to_vector(), want), "result differs from the reference loop");
  if (in_place) {
    require(alias.storage().data() == tensor.storage().data(), "in place moved the tensor");
    require(same_bits(alias.to_vector(), want), "in place: the caller's tensor differs");
  }
}

template <class T>
void with_index(Input& in) {
  if (in.flag()) {
    run<T, std::int32_t>(in);
  } else {
    run<T, std::int64_t>(in);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  with_picked_type(in,
                   Types<float, double, std::int32_t, std::int64_t, std::int8_t, std::uint8_t,
                         std::int16_t, bool>{},
                   [&in]<class T>() { with_index<T>(in); });
  return 0;
}
