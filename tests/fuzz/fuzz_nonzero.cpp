// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: nonzero, nonzero(as_tuple), count_nonzero, nonzero_static, nonzero_out and
// nonzero of an expression, over every element type, ranks 0-4 and strided layouts. Results
// equal a C-order loop over the input's values (docs/ops/nonzero.md: x != 0, NaN counts, -0.0 does
// not); nonzero_static with a negative size is the one ValueError. Inputs are never modified, and
// an `out` of the right shape keeps its memory and strides.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "outcome.hpp"

namespace {

using namespace tessera_fuzz;
using ts::Shape;
using ts::Tensor;

/// The reference: (z, n) row-major coordinates of the elements for which `keep` holds.
template <class T, class Keep>
std::vector<std::int64_t> reference_rows(const std::vector<T>& v, const Shape& shape, Keep keep) {
  std::vector<std::int64_t> rows;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (!keep(v[k])) continue;
    const auto idx = unravel(static_cast<std::int64_t>(k), shape);
    rows.insert(rows.end(), idx.begin(), idx.end());
  }
  return rows;
}

template <class T>
void run(Input& in) {
  const Shape shape = in.shape(0, 4, 5);
  const auto ndim = static_cast<std::int64_t>(shape.size());
  const auto v = values<T>(in, shape.numel());
  const Tensor<T> x = make_tensor<T>(in, shape, v);
  const auto x_bytes = storage_bytes(x);
  const auto expected = reference_rows(v, shape, [](T e) { return e != T(0); });
  // A 0-d input counts as one element; its rows have no columns.
  const std::int64_t z =
      ndim == 0 ? (v[0] != T(0) ? 1 : 0) : static_cast<std::int64_t>(expected.size()) / ndim;

  switch (in.pick(0, 5)) {
    case 0: {
      const auto r = x.nonzero();
      require(r.shape() == Shape({z, ndim}), "nonzero: wrong shape");
      require(r.to_vector() == expected, "nonzero: rows differ from the reference");
      break;
    }
    case 1: {
      const auto cols = x.nonzero(ts::as_tuple);
      require(static_cast<std::int64_t>(cols.size()) == std::max<std::int64_t>(ndim, 1),
              "nonzero(as_tuple): wrong number of tensors");
      for (std::size_t d = 0; d < cols.size(); ++d) {
        require(cols[d].shape() == Shape({z}), "nonzero(as_tuple): wrong column shape");
        const auto c = cols[d].to_vector();
        for (std::int64_t i = 0; i < z; ++i) {
          const std::int64_t want =
              ndim == 0 ? 0 : expected[static_cast<std::size_t>(i * ndim) + d];
          require(c[static_cast<std::size_t>(i)] == want, "nonzero(as_tuple): column differs");
        }
      }
      break;
    }
    case 2:
      require(x.count_nonzero() == z, "count_nonzero differs from the reference");
      break;
    case 3: {
      const std::int64_t size = in.pick(-2, 40);
      const std::int64_t fill = in.raw<std::int64_t>();
      Tensor<std::int64_t> r;
      const bool ok = run_expecting(size < 0 ? kValue : kNone, "nonzero_static",
                                    [&] { r = x.nonzero_static(size, fill); });
      if (!ok) break;
      require(r.shape() == Shape({size, ndim}), "nonzero_static: wrong shape");
      const auto got = r.to_vector();
      for (std::int64_t i = 0; i < size * ndim; ++i) {
        const std::int64_t want = i < z * ndim ? expected[static_cast<std::size_t>(i)] : fill;
        require(got[static_cast<std::size_t>(i)] == want, "nonzero_static differs");
      }
      break;
    }
    case 4: {
      // out: the result's shape (contiguous or transposed) or another shape.
      Tensor<std::int64_t> out = Tensor<std::int64_t>::full({1, 2}, -7);
      const int mode = in.pick(0, 2);
      if (mode == 1) out = Tensor<std::int64_t>::full({z, ndim}, -7);
      if (mode == 2) out = Tensor<std::int64_t>::full({ndim, z}, -7).transpose(0, 1);
      const bool right_shape = out.shape() == Shape({z, ndim});
      const void* before = out.storage().data();
      const Shape strides_before = out.strides();
      x.nonzero_out(out);
      require(out.shape() == Shape({z, ndim}), "nonzero_out: wrong shape");
      require(out.to_vector() == expected, "nonzero_out: rows differ from the reference");
      if (right_shape) {
        require(out.storage().data() == before && out.strides() == strides_before,
                "nonzero_out: an out of the right shape lost its memory or strides");
      }
      break;
    }
    default: {
      if constexpr (!std::is_same_v<T, bool>) {
        const T threshold = in.value<T>();
        const auto want = reference_rows(v, shape, [&](T e) { return e > threshold; });
        const auto r = (x > threshold).nonzero();
        const std::int64_t zz =
            ndim == 0 ? (v[0] > threshold ? 1 : 0) : static_cast<std::int64_t>(want.size()) / ndim;
        require(r.shape() == Shape({zz, ndim}), "nonzero(expression): wrong shape");
        require(r.to_vector() == want, "nonzero(expression): rows differ");
      }
      break;
    }
  }
  require(storage_bytes(x) == x_bytes, "the input changed");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  with_picked_type(in,
                   Types<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                         float, double>{},
                   [&in]<class T>() { run<T>(in); });
  return 0;
}
