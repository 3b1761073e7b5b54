// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: searchsorted (method, free function, _out; int64/int32 results; right,
// side, sorter; strided inputs and out; mixed element types). Every call agrees with PyTorch's
// search written out (search_reference.hpp) on sorted rows and stays in [0, row length] on
// unsorted ones, or throws the tessera exception the arguments call for; inputs are never
// modified and an `out` is untouched by a failing call.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "outcome.hpp"
#include "search_reference.hpp"

namespace {

using namespace tessera_fuzz;
using ts::Shape;
using ts::Tensor;

/// NaN last, otherwise ascending in C: the order a sort (and a valid sorter) gives.
template <class C, class S>
bool sorts_before(S a, S b) {
  const C x = static_cast<C>(a);
  const C y = static_cast<C>(b);
  if (is_nan(x)) return false;
  if (is_nan(y)) return true;
  return x < y;
}

template <class Index, class S, class V>
void run(Input& in) {
  using C = std::common_type_t<S, V>;
  const Shape seq_shape = in.shape(0, 3);
  const std::int64_t length = seq_shape.empty() ? 0 : seq_shape.back();
  const std::int64_t nrows = length == 0 || seq_shape.empty() ? 0 : seq_shape.numel() / length;

  // Values: usually the shape the sequence asks for, sometimes any shape.
  Shape values_shape;
  if (in.pick(0, 3) != 0 && seq_shape.size() >= 2) {
    std::vector<std::int64_t> dims(seq_shape.begin(), seq_shape.end() - 1);
    dims.push_back(in.pick(0, 5));
    values_shape = Shape(dims.begin(), dims.end());
  } else {
    values_shape = in.shape(0, 3);
  }

  auto seq_values = values<S>(in, seq_shape.numel());
  const int sorter_mode = in.pick(0, 3);  // none, argsort, raw entries, wrong shape
  if (sorter_mode == 0 && length > 0 && in.flag()) {
    for (std::int64_t r = 0; r < nrows; ++r) {
      std::stable_sort(seq_values.begin() + r * length, seq_values.begin() + (r + 1) * length,
                       sorts_before<C, S>);
    }
  }
  const Tensor<S> seq = make_tensor<S>(in, seq_shape, seq_values);
  const auto value_list = values<V>(in, values_shape.numel());
  const Tensor<V> vals = make_tensor<V>(in, values_shape, value_list);

  // Options.
  ts::SearchSortedOptions options;
  options.right = in.flag();
  const int side = in.pick(0, 2);
  if (side == 1) options.side = ts::Side::Left;
  if (side == 2) options.side = ts::Side::Right;
  const bool right = options.side ? *options.side == ts::Side::Right : options.right;
  std::vector<std::int64_t> sorter_values;
  if (sorter_mode == 1 || sorter_mode == 2) {
    sorter_values.resize(static_cast<std::size_t>(seq_shape.numel()));
    for (std::int64_t r = 0; r < nrows; ++r) {
      auto* row = sorter_values.data() + r * length;
      if (sorter_mode == 1) {
        std::iota(row, row + length, std::int64_t{0});
        std::stable_sort(row, row + length, [&](std::int64_t a, std::int64_t b) {
          return sorts_before<C, S>(seq_values[static_cast<std::size_t>(r * length + a)],
                                    seq_values[static_cast<std::size_t>(r * length + b)]);
        });
      } else {
        for (std::int64_t i = 0; i < length; ++i) row[i] = in.pick(-1, 6) % (length + 2);
      }
    }
    options.sorter = make_tensor<std::int64_t>(in, seq_shape, sorter_values);
  } else if (sorter_mode == 3) {
    const Shape wrong = in.shape(0, 3);
    options.sorter = Tensor<std::int64_t>::zeros(wrong);
    // The shape may come out right after all: then it is a valid all-zero sorter.
    if (wrong == seq_shape) sorter_values.assign(static_cast<std::size_t>(wrong.numel()), 0);
  }

  // The errors these arguments call for (any of them may be the one reported).
  unsigned expected = kNone;
  if (seq_shape.empty()) expected |= kShape;
  if (values_shape.empty() && seq_shape.size() != 1) expected |= kShape;
  if (seq_shape.size() >= 2 &&
      (values_shape.size() != seq_shape.size() ||
       !std::equal(seq_shape.begin(), seq_shape.end() - 1, values_shape.begin()))) {
    expected |= kShape;
  }
  if (options.side == ts::Side::Left && options.right) expected |= kValue;
  if (options.sorter && options.sorter->shape() != seq_shape) expected |= kShape;
  if (sorter_mode == 2 && std::any_of(sorter_values.begin(), sorter_values.end(),
                                      [&](std::int64_t s) { return s < 0 || s >= length; })) {
    expected |= kIndex;
  }

  // The out tensor: none, the result's shape (contiguous or transposed), another shape.
  const int out_mode = in.pick(0, 3);
  Tensor<Index> out = Tensor<Index>::full({3}, Index(-7));
  if (out_mode == 1) out = Tensor<Index>::full(values_shape, Index(-7));
  if (out_mode == 3 && values_shape.size() >= 2) {
    std::vector<std::int64_t> dims(values_shape.begin(), values_shape.end());
    std::swap(dims.front(), dims.back());
    out = Tensor<Index>::full(Shape(dims.begin(), dims.end()), Index(-7))
              .transpose(0, static_cast<std::int64_t>(dims.size()) - 1);
  }
  const Shape out_shape_before = out.shape();
  const auto out_bytes_before = storage_bytes(out);
  const void* out_storage_before = out.storage().data();

  const auto seq_bytes = storage_bytes(seq);
  const auto vals_bytes = storage_bytes(vals);
  const auto sorter_bytes =
      options.sorter ? storage_bytes(*options.sorter) : std::vector<unsigned char>{};

  Tensor<Index> result;
  const int form = in.pick(0, 2);
  const bool scalar_value = std::is_same_v<S, V> && values_shape.empty() && in.flag();
  const char* op = out_mode != 0 ? "searchsorted_out" : "searchsorted";
  const bool ok = run_expecting(expected, op, [&] {
    if (out_mode != 0) {
      if (scalar_value) {
        seq.searchsorted_out(value_list[0], out, options);
      } else {
        seq.searchsorted_out(vals, out, options);
      }
      result = out;
    } else if (scalar_value) {
      result = seq.template searchsorted<Index>(value_list[0], options);
    } else if (form == 0) {
      result = seq.template searchsorted<Index>(vals, options);
    } else {
      result = ts::searchsorted<Index>(seq, vals, options);
    }
  });

  require(storage_bytes(seq) == seq_bytes, "the sequence changed");
  require(storage_bytes(vals) == vals_bytes, "the values changed");
  if (options.sorter) require(storage_bytes(*options.sorter) == sorter_bytes, "the sorter changed");
  if (!ok) {
    require(out.shape() == out_shape_before, "a failing call reshaped out");
    require(storage_bytes(out) == out_bytes_before, "a failing call wrote into out");
    return;
  }
  require(result.shape() == values_shape, "result shape differs from the values' shape");
  if (out_mode != 0 && out_shape_before == values_shape) {
    require(out.storage().data() == out_storage_before, "out of the right shape was reallocated");
  }
  const auto got = result.to_vector();
  const std::int64_t per_row = values_shape.empty() ? 1 : values_shape.back();
  std::vector<C> row(static_cast<std::size_t>(length));
  for (std::int64_t k = 0; k < values_shape.numel(); ++k) {
    const std::int64_t r = seq_shape.size() == 1 ? 0 : k / per_row;
    for (std::int64_t i = 0; i < length; ++i) {
      const std::int64_t at =
          options.sorter ? sorter_values[static_cast<std::size_t>(r * length + i)] : i;
      row[static_cast<std::size_t>(i)] =
          static_cast<C>(seq_values[static_cast<std::size_t>(r * length + at)]);
    }
    const std::int64_t g = got[static_cast<std::size_t>(k)];
    require(g >= 0 && g <= length, "result outside [0, row length]");
    if (row_is_sorted(row)) {
      const C v = static_cast<C>(value_list[static_cast<std::size_t>(k)]);
      require(g == reference_search<C>(row, v, right), "result differs from the reference search");
    }
  }
}

// (sorted sequence, values) dtype pairs.
using Pairs =
    Types<Types<float, float>, Types<double, double>, Types<std::int64_t, std::int64_t>,
          Types<std::int32_t, std::int32_t>, Types<std::int16_t, std::int16_t>,
          Types<std::int8_t, std::int8_t>, Types<std::uint8_t, std::uint8_t>,
          Types<std::int64_t, float>, Types<std::uint8_t, std::int8_t>, Types<float, double>>;

template <class Index, class S, class V>
void run_pair(Input& in, Types<S, V> /*pair*/) {
  run<Index, S, V>(in);
}

template <class Index>
void dispatch(Input& in) {
  with_picked_type(in, Pairs{}, [&in]<class Pair>() { run_pair<Index>(in, Pair{}); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  if (in.flag()) {
    dispatch<std::int32_t>(in);
  } else {
    dispatch<std::int64_t>(in);
  }
  return 0;
}
