// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: bucketize (method, free function, _out; int64/int32 results; right; strided
// inputs and out). Every call equals PyTorch's search of each input element in the boundaries
// (search_reference.hpp) when the boundaries are sorted, lies in [0, boundaries.numel()]
// otherwise, or throws ShapeError for boundaries that are not 1-d; inputs are never modified and
// an `out` is untouched by a failing call.

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "outcome.hpp"
#include "search_reference.hpp"

namespace {

using namespace tessera_fuzz;
using ts::Shape;
using ts::Tensor;

template <class Index, class V, class B>
void run(Input& in) {
  using C = std::common_type_t<V, B>;
  const Shape input_shape = in.shape(0, 3);
  const Shape boundaries_shape = in.pick(0, 3) != 0 ? Shape{in.pick(0, 12)} : in.shape(0, 2);
  const auto input_values = values<V>(in, input_shape.numel());
  auto boundary_values = values<B>(in, boundaries_shape.numel());
  if (in.flag()) {
    std::stable_sort(boundary_values.begin(), boundary_values.end(), [](B a, B b) {
      const C x = static_cast<C>(a);
      const C y = static_cast<C>(b);
      return !is_nan(x) && (is_nan(y) || x < y);
    });
  }
  const Tensor<V> input = make_tensor<V>(in, input_shape, input_values);
  const Tensor<B> boundaries = make_tensor<B>(in, boundaries_shape, boundary_values);
  const bool right = in.flag();
  const unsigned expected = boundaries_shape.size() == 1 ? kNone : kShape;

  const int out_mode = in.pick(0, 3);  // none, right shape, other shape, right shape transposed
  Tensor<Index> out = Tensor<Index>::full({2, 1}, Index(-7));
  if (out_mode == 1) out = Tensor<Index>::full(input_shape, Index(-7));
  if (out_mode == 3 && input_shape.size() >= 2) {
    std::vector<std::int64_t> dims(input_shape.begin(), input_shape.end());
    std::swap(dims.front(), dims.back());
    out = Tensor<Index>::full(Shape(dims.begin(), dims.end()), Index(-7))
              .transpose(0, static_cast<std::int64_t>(dims.size()) - 1);
  }
  const Shape out_shape_before = out.shape();
  const auto out_bytes_before = storage_bytes(out);
  const auto input_bytes = storage_bytes(input);
  const auto boundary_bytes = storage_bytes(boundaries);

  Tensor<Index> result;
  const int form = in.pick(0, 1);
  const char* op = out_mode != 0 ? "bucketize_out" : "bucketize";
  const bool ok = run_expecting(expected, op, [&] {
    if (out_mode != 0) {
      input.bucketize_out(boundaries, out, right);
      result = out;
    } else if (form == 0) {
      result = input.template bucketize<Index>(boundaries, right);
    } else {
      result = ts::bucketize<Index>(input, boundaries, right);
    }
  });

  require(storage_bytes(input) == input_bytes, "the input changed");
  require(storage_bytes(boundaries) == boundary_bytes, "the boundaries changed");
  if (!ok) {
    require(out.shape() == out_shape_before, "a failing call reshaped out");
    require(storage_bytes(out) == out_bytes_before, "a failing call wrote into out");
    return;
  }
  require(result.shape() == input_shape, "result shape differs from the input's");
  std::vector<C> row(boundary_values.begin(), boundary_values.end());
  const bool sorted = row_is_sorted(row);
  const auto got = result.to_vector();
  for (std::size_t k = 0; k < got.size(); ++k) {
    const std::int64_t g = got[k];
    require(g >= 0 && g <= static_cast<std::int64_t>(row.size()), "result outside [0, n]");
    if (sorted) {
      require(g == reference_search<C>(row, static_cast<C>(input_values[k]), right),
              "result differs from the reference search");
    }
  }
}

// (boundaries, values) dtype pairs.
using Pairs = Types<Types<float, float>, Types<double, double>, Types<std::int64_t, std::int64_t>,
                    Types<std::int32_t, std::int32_t>, Types<std::int8_t, std::int8_t>,
                    Types<std::uint8_t, std::uint8_t>, Types<float, std::int64_t>,
                    Types<std::int16_t, double>>;

template <class Index, class B, class V>
void run_pair(Input& in, Types<B, V> /*pair*/) {
  run<Index, B, V>(in);
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
