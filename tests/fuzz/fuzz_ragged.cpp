// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: ragged::range (one, two and three arguments; scalars, 0-d and 1-d tensors,
// strided; int32/int64/float/double values; int32/int64 row splits) and the validating
// RaggedTensor factories (from_row_splits, from_row_lengths, from_value_rowids with and without
// nrows). Results equal Python's range row by row, computed below without overflow; bad
// arguments raise the ShapeError/ValueError of docs/ops/ragged.md; arguments are never modified.

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "outcome.hpp"

namespace {

using namespace tessera_fuzz;
using ts::Shape;
using ts::Tensor;

/// Above this many values a successful call is not made (it would only test the allocator).
constexpr std::int64_t kMaxTotal = 1 << 14;
/// Row counts whose splits (8 bytes each) exceed any memory here and ASan's 1 TiB limit.
constexpr std::int64_t kUnallocatable = std::int64_t{1} << 40;
constexpr double kTwo63 = 9223372036854775808.0;

/// The row's size as docs/ops/ragged.md defines it, or nullopt for a ValueError (delta == 0, a size
/// above INT64_MAX, NaN/inf).
template <class T>
std::optional<std::int64_t> reference_size(T start, T limit, T delta) {
  if (delta == T(0)) return std::nullopt;
  if constexpr (std::is_integral_v<T>) {
    const bool away = (delta > 0 && limit <= start) || (delta < 0 && limit >= start);
    if (away) return 0;
    // |limit - start| and |delta| as unsigned 64-bit: exact for every int64 pair.
    const auto span = limit > start
                          ? static_cast<std::uint64_t>(limit) - static_cast<std::uint64_t>(start)
                          : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(limit);
    const auto step = delta > 0 ? static_cast<std::uint64_t>(delta)
                                : std::uint64_t{0} - static_cast<std::uint64_t>(delta);
    const std::uint64_t size = (span - 1) / step + 1;
    if (size > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return std::nullopt;
    }
    return static_cast<std::int64_t>(size);
  } else {
    if ((delta > 0 && limit < start) || (delta < 0 && limit > start)) return 0;
    const T size = std::ceil(std::fabs((limit - start) / delta));
    if (!(static_cast<double>(size) < kTwo63)) return std::nullopt;  // NaN, inf, > INT64_MAX
    return static_cast<std::int64_t>(size);
  }
}

/// Element j of a row: start + j * delta, exactly for integers (no overflow: it lies between
/// start and limit), in double for floats (docs/ops/ragged.md).
template <class T>
T reference_element(T start, T delta, std::int64_t j) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<__int128>(start) + static_cast<__int128>(j) * delta);
  } else {
    return static_cast<T>(static_cast<double>(start) +
                          static_cast<double>(j) * static_cast<double>(delta));
  }
}

/// A range argument: a scalar, a 0-d tensor, a 1-d tensor of `n` (or another length), or 2-d.
template <class T>
struct Arg {
  std::optional<Tensor<T>> tensor;
  std::vector<T> values;  // one value for scalars
  int rank = 0;
};

template <class T>
T range_value(Input& in) {
  const std::uint8_t mode = in.byte();
  if (mode < 220) return static_cast<T>(static_cast<int>(mode % 24) - 8);
  if (mode < 240) {
    constexpr T extremes[] = {std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), T(1),
                              T(-1)};
    return extremes[mode % 4];
  }
  return in.raw<T>();
}

template <class T>
Arg<T> make_arg(Input& in, std::int64_t n) {
  Arg<T> a;
  const int kind = in.pick(0, 9);
  if (kind <= 3) {  // scalar
    a.values = {range_value<T>(in)};
    return a;
  }
  Shape shape;
  if (kind == 4) {
    shape = Shape{};
  } else if (kind == 5) {
    shape = Shape{in.pick(0, 4)};
  } else if (kind == 6) {
    shape = Shape{1, in.pick(0, 2)};
  } else {
    shape = Shape{n};
  }
  a.rank = static_cast<int>(shape.size());
  for (std::int64_t i = 0; i < shape.numel(); ++i) a.values.push_back(range_value<T>(in));
  a.tensor = make_tensor<T>(in, shape, a.values);
  return a;
}

template <class T, class S>
void run_range(Input& in) {
  const std::int64_t n = in.pick(0, 6);
  const int arity = in.pick(1, 3);
  Arg<T> starts = arity >= 2 ? make_arg<T>(in, n) : Arg<T>{std::nullopt, {T(0)}, 0};
  Arg<T> limits = make_arg<T>(in, n);
  Arg<T> deltas = arity == 3 ? make_arg<T>(in, n) : Arg<T>{std::nullopt, {T(1)}, 0};

  unsigned expected = kNone;
  std::optional<std::int64_t> rows;
  bool bad_shape = false;
  for (const Arg<T>* a : {&starts, &limits, &deltas}) {
    if (a->rank > 1) bad_shape = true;
    if (a->rank != 1) continue;
    const auto len = static_cast<std::int64_t>(a->values.size());
    if (rows && *rows != len) bad_shape = true;
    rows = len;
  }
  if (bad_shape) expected |= kShape;
  const std::int64_t nrows = rows.value_or(1);
  auto at = [](const Arg<T>& a, std::int64_t i) {
    return a.rank == 1 ? a.values[static_cast<std::size_t>(i)] : a.values[0];
  };
  std::vector<std::int64_t> sizes;
  __int128 total = 0;
  if (!bad_shape) {
    for (std::int64_t i = 0; i < nrows; ++i) {
      const auto size = reference_size<T>(at(starts, i), at(limits, i), at(deltas, i));
      if (!size) {
        expected |= kValue;
        break;
      }
      sizes.push_back(*size);
      total += *size;
    }
    if (total > std::numeric_limits<S>::max()) expected |= kValue;
  }
  // A valid call with many values is skipped: allocation is not what this target tests.
  if (expected == kNone && total > kMaxTotal) return;

  auto pass = [](const Arg<T>& a) -> ts::ragged::RangeArg<T> {
    if (a.tensor) return ts::ragged::RangeArg<T>(*a.tensor);
    return ts::ragged::RangeArg<T>(a.values[0]);
  };
  std::vector<std::vector<unsigned char>> before;
  for (const Arg<T>* a : {&starts, &limits, &deltas}) {
    if (a->tensor) before.push_back(storage_bytes(*a->tensor));
  }
  ts::RaggedTensor<T, S> r;
  const bool ok = run_expecting(expected, "ragged::range", [&] {
    if (arity == 1) {
      r = ts::ragged::range<T, S>(pass(limits));
    } else if (arity == 2) {
      r = ts::ragged::range<T, S>(pass(starts), pass(limits));
    } else {
      r = ts::ragged::range<T, S>(pass(starts), pass(limits), pass(deltas));
    }
  });
  std::size_t b = 0;
  for (const Arg<T>* a : {&starts, &limits, &deltas}) {
    if (a->tensor) require(storage_bytes(*a->tensor) == before[b++], "a range argument changed");
  }
  if (!ok) return;
  require(r.nrows() == nrows, "ragged::range: wrong number of rows");
  const auto splits = r.row_splits().to_vector();
  const auto got = r.values().to_vector();
  require(splits.size() == static_cast<std::size_t>(nrows) + 1 && splits[0] == 0,
          "ragged::range: bad row splits");
  require(static_cast<std::int64_t>(got.size()) == static_cast<std::int64_t>(total),
          "ragged::range: wrong number of values");
  for (std::int64_t i = 0; i < nrows; ++i) {
    require(splits[static_cast<std::size_t>(i) + 1] - splits[static_cast<std::size_t>(i)] ==
                sizes[static_cast<std::size_t>(i)],
            "ragged::range: wrong row length");
    for (std::int64_t j = 0; j < sizes[static_cast<std::size_t>(i)]; ++j) {
      const T want = reference_element<T>(at(starts, i), at(deltas, i), j);
      require(same(got[static_cast<std::size_t>(splits[static_cast<std::size_t>(i)] + j)], want),
              "ragged::range: value differs from start + j * delta");
    }
  }
}

/// The factories on `n` values and fuzzed partition vectors.
template <class S>
void run_factory(Input& in) {
  const Shape values_shape = in.pick(0, 9) == 0 ? Shape{} : Shape{in.pick(0, 8)};
  const std::int64_t nvalues = values_shape.empty() ? 0 : values_shape[0];
  const auto vals = values<float>(in, values_shape.numel());
  const Tensor<float> values_t = make_tensor<float>(in, values_shape, vals);
  const Shape part_shape = in.pick(0, 9) == 0 ? in.shape(0, 2) : Shape{in.pick(0, 9)};
  std::vector<S> part(static_cast<std::size_t>(part_shape.numel()));
  for (auto& p : part) {
    const std::uint8_t mode = in.byte();
    p = mode < 240 ? static_cast<S>(static_cast<int>(mode % 12) - 1) : in.raw<S>();
  }
  const Tensor<S> part_t = make_tensor<S>(in, part_shape, part);
  const auto values_bytes = storage_bytes(values_t);
  const auto part_bytes = storage_bytes(part_t);

  // The reference validation, and the row splits a valid call must give.
  unsigned expected = kNone;
  if (values_shape.empty() || part_shape.size() != 1) expected |= kShape;
  std::vector<std::int64_t> splits;
  const int which = in.pick(0, 3);
  const char* op = "RaggedTensor::from_row_splits";
  std::int64_t nrows = 0;
  if (which == 0) {
    bool valid = !part.empty() && part[0] == 0 && static_cast<std::int64_t>(part.back()) == nvalues;
    for (std::size_t i = 1; i < part.size(); ++i) valid = valid && part[i] >= part[i - 1];
    if (!valid) expected |= kValue;
    splits.assign(part.begin(), part.end());
  } else if (which == 1) {
    op = "RaggedTensor::from_row_lengths";
    splits.push_back(0);
    __int128 sum = 0;
    bool valid = true;
    for (S p : part) {
      valid = valid && p >= 0;
      sum += p;
      splits.push_back(static_cast<std::int64_t>(sum));
    }
    if (!valid || sum != nvalues) expected |= kValue;
  } else {
    op = "RaggedTensor::from_value_rowids";
    // nrows: given (small, or so big that its splits cannot be allocated) or from the ids.
    const bool given = which == 2;
    if (given) {
      nrows = in.pick(0, 15) == 0 ? std::int64_t{1} << 52 : in.pick(-1, 9);
    } else if (!part.empty() && part.back() != std::numeric_limits<S>::max()) {
      nrows = static_cast<std::int64_t>(part.back()) + 1;
    }
    bool valid = static_cast<std::int64_t>(part.size()) == nvalues && nrows >= 0;
    for (std::size_t k = 0; k < part.size(); ++k) {
      valid = valid && part[k] >= 0 && part[k] < nrows && (k == 0 || part[k] >= part[k - 1]);
    }
    if (!valid) expected |= kValue;
    // Valid with many rows: only the allocator would be tested, slowly; with very many, the
    // splits cannot be allocated and the call must fail as a tessera::Error.
    if (valid && nrows > kMaxTotal && nrows < kUnallocatable) return;
    // Error from the allocator, or ValueError (naming the op) when the bytes overflow int64.
    if (valid && nrows >= kUnallocatable) expected |= kAnyError | kValue;
    if (valid && nrows <= kMaxTotal) {
      for (std::int64_t i = 0; i <= nrows; ++i) {
        std::int64_t before_i = 0;
        for (S p : part) before_i += p < i ? 1 : 0;
        splits.push_back(before_i);
      }
    }
    if (!given && !part.empty() && part.back() == std::numeric_limits<S>::max()) {
      expected |= kValue;  // nrows = last id + 1 does not exist
    }
  }
  ts::RaggedTensor<float, S> r;
  const bool ok = run_expecting(expected, op, [&] {
    if (which == 0) {
      r = ts::RaggedTensor<float, S>::from_row_splits(values_t, part_t);
    } else if (which == 1) {
      r = ts::RaggedTensor<float, S>::from_row_lengths(values_t, part_t);
    } else if (which == 2) {
      r = ts::RaggedTensor<float, S>::from_value_rowids(values_t, part_t, nrows);
    } else {
      r = ts::RaggedTensor<float, S>::from_value_rowids(values_t, part_t);
    }
  });
  require(storage_bytes(values_t) == values_bytes, "the values changed");
  require(storage_bytes(part_t) == part_bytes, "the partition changed");
  if (!ok) return;
  require(nrows < kUnallocatable, "factory: more row splits than memory, yet no error");
  const auto got = r.row_splits().to_vector();
  require(got.size() == splits.size(), "factory: wrong number of row splits");
  for (std::size_t i = 0; i < got.size(); ++i) {
    require(static_cast<std::int64_t>(got[i]) == splits[i], "factory: row splits differ");
  }
  const auto got_values = r.values().to_vector();
  require(got_values.size() == vals.size(), "factory: number of values differs");
  for (std::size_t i = 0; i < vals.size(); ++i) {
    require(same(got_values[i], vals[i]), "factory: values differ");  // NaN equals NaN
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  switch (in.pick(0, 9)) {
    case 0:
      run_range<std::int32_t, std::int64_t>(in);
      break;
    case 1:
      run_range<std::int64_t, std::int64_t>(in);
      break;
    case 2:
      run_range<float, std::int64_t>(in);
      break;
    case 3:
      run_range<double, std::int64_t>(in);
      break;
    case 4:
      run_range<std::int32_t, std::int32_t>(in);
      break;
    case 5:
      run_range<std::int64_t, std::int32_t>(in);
      break;
    case 6:
      run_range<double, std::int32_t>(in);
      break;
    case 7:
      run_factory<std::int64_t>(in);
      break;
    case 8:
      run_factory<std::int32_t>(in);
      break;
    default:
      run_range<float, std::int32_t>(in);
      break;
  }
  return 0;
}
