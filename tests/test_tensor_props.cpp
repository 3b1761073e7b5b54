// SPDX-License-Identifier: BSD-3-Clause
// Property tests: random shapes (0..4-d, some empty), random strides (permutations, steps,
// offsets, selects), every dtype and every dtype pair, on every device present; every result
// is compared with a plain reference loop over to_vector() values. Seeds are fixed and printed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "support/layouts.hpp"
#include "support/reference.hpp"
#include "support/typed.hpp"

namespace ts = tessera;
namespace ref = tessera_test::ref;
using tessera_test::random_values;
using tessera_test::ref_binary;
using tessera_test::tensor_matches;
using tessera_test::values_match;

namespace {

constexpr int kTrials = 50;

/// A random strided tensor of `shape` holding random values.
template <class T>
tessera_test::Strided<T> random_tensor(const ts::Shape& shape, std::mt19937_64& rng,
                                       ts::Device device, bool nonzero = false) {
  const auto values = random_values<T>(shape.numel(), rng, nonzero);
  return tessera_test::make_strided(values, shape, tessera_test::random_layout(shape.size(), rng),
                                    device, tessera_test::sentinel_value<T>());
}

/// A host-side reference tensor: row-major values and a shape.
template <class T>
struct RefTensor {
  std::vector<T> values;
  std::vector<std::int64_t> shape;

  std::int64_t numel() const {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
  /// Out element at multi-index `out` reads this at `source(out)`.
  template <class Source>
  RefTensor gather(std::vector<std::int64_t> out_shape, Source source) const {
    RefTensor r{{}, out_shape};
    std::vector<std::int64_t> idx(out_shape.size(), 0);
    for (std::int64_t k = 0; k < r.numel(); ++k) {
      std::int64_t rest = k;
      for (std::size_t d = out_shape.size(); d-- > 0;) {
        idx[d] = rest % out_shape[d];
        rest /= out_shape[d];
      }
      const auto in = source(idx);
      std::int64_t pos = 0;
      for (std::size_t d = 0; d < shape.size(); ++d) pos = pos * shape[d] + in[d];
      r.values.push_back(values[static_cast<std::size_t>(pos)]);
    }
    return r;
  }
};

}  // namespace

template <class C>
class TensorProperties : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(TensorProperties, tessera_test::AllCases, tessera_test::CaseName);

TYPED_TEST(TensorProperties, ElementwiseExpressionsMatchReference) {
  using T = typename TypeParam::value_type;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::mt19937_64 rng(1000 + trial);
    const ts::Shape out = tessera_test::random_shape(rng);
    const ts::Shape as = tessera_test::random_broadcastable(out, rng);
    const ts::Shape bs = tessera_test::random_broadcastable(out, rng);
    const auto a = random_tensor<T>(as, rng, this->device());
    const auto b = random_tensor<T>(bs, rng, this->device(), /*nonzero=*/true);
    const auto av = a.view.to_vector();
    const auto bv = b.view.to_vector();
    const ts::Shape rs = tessera_test::ref_broadcast(as, bs);
    SCOPED_TRACE(testing::Message() << "seed " << 1000 + trial << ": " << as << " " << a.name
                                    << " with " << bs << " " << b.name);
    const auto& x = a.view;
    const auto& y = b.view;
    EXPECT_TRUE(tensor_matches(ts::eval(x + y), rs, ref_binary<T>(av, as, bv, bs, ref::add<T>)));
    EXPECT_TRUE(tensor_matches(ts::eval(x * y), rs, ref_binary<T>(av, as, bv, bs, ref::mul<T>)));
    // bool / bool is true division into float (PyTorch); y is nonzero, so the quotient is x.
    using Quotient = typename decltype(x / y)::value_type;
    EXPECT_TRUE(
        tensor_matches(ts::eval(x / y), rs, ref_binary<Quotient>(av, as, bv, bs, ref::div<T>)));
    if constexpr (!std::is_same_v<T, bool>) {
      EXPECT_TRUE(tensor_matches(ts::eval(x - y), rs, ref_binary<T>(av, as, bv, bs, ref::sub<T>)));
      EXPECT_TRUE(tensor_matches(ts::eval(-x), as, tessera_test::ref_unary<T>(av, [](T v) {
                                   return static_cast<T>(T(0) - v);
                                 })));
    }
    EXPECT_TRUE(tensor_matches(ts::eval(ts::maximum(x, y)), rs,
                               ref_binary<T>(av, as, bv, bs, ref::maximum<T>)));
    EXPECT_TRUE(tensor_matches(ts::eval(ts::minimum(x, y)), rs,
                               ref_binary<T>(av, as, bv, bs, ref::minimum<T>)));
    EXPECT_TRUE(tensor_matches(ts::eval(x < y), rs,
                               ref_binary<bool>(av, as, bv, bs, [](T p, T q) { return p < q; })));
    EXPECT_TRUE(tensor_matches(ts::eval(x == y), rs,
                               ref_binary<bool>(av, as, bv, bs, [](T p, T q) { return p == q; })));
    EXPECT_TRUE(
        tensor_matches(ts::eval(ts::where(x > y, x, y)), rs,
                       ref_binary<T>(av, as, bv, bs, [](T p, T q) { return p > q ? p : q; })));
    // A deeper fused tree: (x + y) * x, in the reference's order.
    const auto sum_xy = ref_binary<T>(av, as, bv, bs, ref::add<T>);
    EXPECT_TRUE(
        tensor_matches(ts::eval((x + y) * x), rs, ref_binary<T>(sum_xy, rs, av, as, ref::mul<T>)));
    EXPECT_TRUE(tensor_matches(
        ts::eval(ts::cast<double>(x) * 0.5), as,
        tessera_test::ref_unary<double>(av, [](T v) { return static_cast<double>(v) * 0.5; })));
  }
}

TYPED_TEST(TensorProperties, ReductionsMatchReference) {
  using T = typename TypeParam::value_type;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::mt19937_64 rng(2000 + trial);
    const ts::Shape shape = tessera_test::random_shape(rng);
    const auto a = random_tensor<T>(shape, rng, this->device());
    const auto v = a.view.to_vector();
    SCOPED_TRACE(testing::Message() << "seed " << 2000 + trial << ": " << shape << " " << a.name);
    std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t> total = 0;
    bool any = false, all = true;
    for (const T x : v) {
      total += x;
      any = any || x != T(0);
      all = all && x != T(0);
    }
    EXPECT_EQ(ts::sum(a.view), static_cast<ts::sum_t<T>>(total));
    EXPECT_EQ(ts::any(a.view), any);
    EXPECT_EQ(ts::all(a.view), all);
    if (v.empty()) {
      EXPECT_THROW((void)ts::min(a.view), ts::ValueError);
      EXPECT_THROW((void)ts::max(a.view * T(1)), ts::ValueError);
    } else {
      T lo = v[0], hi = v[0];
      for (const T x : v) {
        lo = ref::minimum(lo, x);
        hi = ref::maximum(hi, x);
      }
      EXPECT_EQ(ts::min(a.view), lo);
      EXPECT_EQ(ts::max(a.view * T(1)), hi);
    }
  }
}

TYPED_TEST(TensorProperties, AssignmentIntoRandomViewsWritesExactlyTheView) {
  using T = typename TypeParam::value_type;
  const T sentinel = tessera_test::sentinel_value<T>();
  for (int trial = 0; trial < kTrials; ++trial) {
    std::mt19937_64 rng(3000 + trial);
    const ts::Shape out = tessera_test::random_shape(rng, 4, /*min_extent=*/1);
    const ts::Shape as = tessera_test::random_broadcastable(out, rng);
    const auto dst = random_tensor<T>(out, rng, this->device());
    const auto a = random_tensor<T>(as, rng, this->device());
    const auto dv = dst.view.to_vector();
    const auto av = a.view.to_vector();
    SCOPED_TRACE(testing::Message() << "seed " << 3000 + trial << ": " << out << " " << dst.name
                                    << " <- " << as << " " << a.name);
    auto view = dst.view;
    view = ts::maximum(view, a.view);  // reads the destination itself
    const auto expected = ref_binary<T>(dv, out, av, as, ref::maximum<T>);
    EXPECT_TRUE(tensor_matches(view, out, expected));
    auto base = dst.base.to_vector();
    for (std::size_t k = 0; k < dst.positions.size(); ++k) {
      EXPECT_TRUE(tessera_test::same_value<T>(base[static_cast<std::size_t>(dst.positions[k])],
                                              expected[k]));
      base[static_cast<std::size_t>(dst.positions[k])] = sentinel;
    }
    EXPECT_TRUE(values_match(base, std::vector<T>(base.size(), sentinel)));
  }
}

TYPED_TEST(TensorProperties, ChainsOfViewsMatchReferenceIndexing) {
  using T = typename TypeParam::value_type;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::mt19937_64 rng(4000 + trial);
    const ts::Shape shape = tessera_test::random_shape(rng, 4, /*min_extent=*/1, /*max_extent=*/5);
    auto t = random_tensor<T>(shape, rng, this->device()).view;
    RefTensor<T> r{t.to_vector(), shape.vec()};
    SCOPED_TRACE(testing::Message() << "seed " << 4000 + trial << ": " << shape);
    for (int step = 0; step < 4 && !r.shape.empty(); ++step) {
      const auto nd = static_cast<std::int64_t>(r.shape.size());
      const auto d = std::uniform_int_distribution<std::int64_t>(0, nd - 1)(rng);
      const auto ext = r.shape[static_cast<std::size_t>(d)];
      int op = std::uniform_int_distribution<int>(0, 3)(rng);
      if (op == 1 && ext == 0) op = 2;  // nothing to select from
      if (op == 0) {                    // slice with bounds that may be negative or out of range
        const auto start = std::uniform_int_distribution<std::int64_t>(-ext - 2, ext + 2)(rng);
        const auto stop = std::uniform_int_distribution<std::int64_t>(-ext - 2, ext + 2)(rng);
        const auto by = std::uniform_int_distribution<std::int64_t>(1, 3)(rng);
        SCOPED_TRACE(testing::Message()
                     << "slice(" << d << ", " << start << ", " << stop << ", " << by << ")");
        auto norm = [ext](std::int64_t i) {
          return std::clamp<std::int64_t>(i < 0 ? i + ext : i, 0, ext);
        };
        const std::int64_t lo = norm(start), hi = norm(stop);
        auto out_shape = r.shape;
        out_shape[static_cast<std::size_t>(d)] = hi > lo ? (hi - lo + by - 1) / by : 0;
        r = r.gather(out_shape, [&](std::vector<std::int64_t> i) {
          i[static_cast<std::size_t>(d)] = lo + i[static_cast<std::size_t>(d)] * by;
          return i;
        });
        t = t.slice(d - (step % 2) * nd, start, stop, by);  // negative dims every other step
      } else if (op == 1) {
        const auto index = std::uniform_int_distribution<std::int64_t>(-ext, ext - 1)(rng);
        SCOPED_TRACE(testing::Message() << "select(" << d << ", " << index << ")");
        auto out_shape = r.shape;
        out_shape.erase(out_shape.begin() + d);
        r = r.gather(out_shape, [&](std::vector<std::int64_t> i) {
          i.insert(i.begin() + d, index < 0 ? index + ext : index);
          return i;
        });
        t = t.select(d, index);
      } else if (op == 2) {
        const auto e = std::uniform_int_distribution<std::int64_t>(0, nd - 1)(rng);
        SCOPED_TRACE(testing::Message() << "transpose(" << d << ", " << e << ")");
        auto out_shape = r.shape;
        std::swap(out_shape[static_cast<std::size_t>(d)], out_shape[static_cast<std::size_t>(e)]);
        r = r.gather(out_shape, [&](std::vector<std::int64_t> i) {
          std::swap(i[static_cast<std::size_t>(d)], i[static_cast<std::size_t>(e)]);
          return i;
        });
        t = t.transpose(d, e);
      } else {  // reshape: merge dim d with the next one, or flatten
        auto out_shape = r.shape;
        if (d + 1 < nd) {
          out_shape[static_cast<std::size_t>(d)] *= out_shape[static_cast<std::size_t>(d + 1)];
          out_shape.erase(out_shape.begin() + d + 1);
        } else {
          out_shape = {-1};
        }
        SCOPED_TRACE(testing::Message() << "reshape" << ts::Shape(out_shape));
        t = t.reshape(ts::Shape(out_shape));
        if (out_shape == std::vector<std::int64_t>{-1}) out_shape = {r.numel()};
        r.shape = out_shape;
      }
      ASSERT_TRUE(tensor_matches(t, ts::Shape(r.shape), r.values));
      EXPECT_EQ(t.device(), this->device());
    }
  }
}

// Mixed operand types: a fixed set of (T, U) pairs covering every promotion rule (same
// category, mixed sign bytes, bool with numbers, integer with floating, float with double).
// All 64 pairs x 5 expressions x 2 devices took over ten minutes to compile.
template <class T, class U>
void check_mixed_promotion(ts::Device device) {
  std::mt19937_64 rng(5000);
  using R = ts::promote_t<T, U>;
  for (int trial = 0; trial < 4; ++trial) {
    const ts::Shape out = tessera_test::random_shape(rng, 3);
    const ts::Shape as = tessera_test::random_broadcastable(out, rng);
    const ts::Shape bs = tessera_test::random_broadcastable(out, rng);
    const auto a = random_tensor<T>(as, rng, device);
    const auto b = random_tensor<U>(bs, rng, device);
    const auto av = a.view.to_vector();
    const auto bv = b.view.to_vector();
    const ts::Shape rs = tessera_test::ref_broadcast(as, bs);
    SCOPED_TRACE(testing::Message() << ts::dtype_name(ts::dtype_v<T>) << " " << as << " op "
                                    << ts::dtype_name(ts::dtype_v<U>) << " " << bs);
    static_assert(std::is_same_v<typename decltype(a.view + b.view)::value_type, R>);
    const auto in_r = [](auto f) {
      return [f](T p, U q) { return f(static_cast<R>(p), static_cast<R>(q)); };
    };
    EXPECT_TRUE(tensor_matches(ts::eval(a.view + b.view), rs,
                               ref_binary<R>(av, as, bv, bs, in_r(ref::add<R>))));
    EXPECT_TRUE(tensor_matches(ts::eval(b.view * a.view), rs,
                               ref_binary<R>(av, as, bv, bs, in_r(ref::mul<R>))));
    EXPECT_TRUE(tensor_matches(ts::eval(ts::maximum(a.view, b.view)), rs,
                               ref_binary<R>(av, as, bv, bs, in_r(ref::maximum<R>))));
    EXPECT_TRUE(
        tensor_matches(ts::eval(a.view <= b.view), rs,
                       ref_binary<bool>(av, as, bv, bs, in_r([](R p, R q) { return p <= q; }))));
    if constexpr (!std::is_same_v<R, bool>) {
      EXPECT_TRUE(tensor_matches(ts::eval(a.view - b.view), rs,
                                 ref_binary<R>(av, as, bv, bs, in_r(ref::sub<R>))));
    }
  }
}

template <class Pair>
class MixedPromotion : public ::testing::Test {};
template <class T, class U>
struct DTypePair {
  using first = T;
  using second = U;
};
using PromotionPairs =
    ::testing::Types<DTypePair<std::int32_t, float>, DTypePair<std::uint8_t, std::int8_t>,
                     DTypePair<bool, std::int64_t>, DTypePair<std::int16_t, double>,
                     DTypePair<float, double>, DTypePair<std::uint8_t, std::int32_t>,
                     DTypePair<bool, float>, DTypePair<std::int64_t, std::int8_t>>;
TYPED_TEST_SUITE(MixedPromotion, PromotionPairs);

TYPED_TEST(MixedPromotion, PromotesAndMatchesReferenceOnEachDevice) {
  for (const auto device : tessera_test::available_devices()) {
    SCOPED_TRACE(device.str());
    check_mixed_promotion<typename TypeParam::first, typename TypeParam::second>(device);
    check_mixed_promotion<typename TypeParam::second, typename TypeParam::first>(device);
  }
}
