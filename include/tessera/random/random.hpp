// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file random.hpp
/// Random numbers on one counter-based stream (docs/ops/random.md):
/// `ts::rand<float>({3, 4})`, `ts::randn<double>({1000}, {.generator = gen, .device = dev})`,
/// `ts::randint<int64_t>(0, 10, {5}, gen)`, `ts::normal<float>(0.0f, 2.0f, {100}, gen)`,
/// `ts::bernoulli(probs, gen)`, `ts::randperm(10, gen)`, `ts::multinomial(w, 3, false, gen)`,
/// `ts::rand_like(x)`, and in place `x.uniform_(-1, 1, gen)`, `x.normal_()`, `x.bernoulli_(0.3)`.
///
/// The same seed gives the same numbers on every device and at every thread count: element i
/// of a call is a function of (seed, the call's first block, i) alone. Every function takes,
/// last, nothing (the default generator, on the CPU), a Generator, or a RandomOptions.

#include <cstdint>
#include <type_traits>

#include "tessera/core/element_traits.hpp"
#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/random/generator.hpp"

namespace tessera {

namespace detail {
/// The generator a call draws from.
inline const Generator& generator_of(const RandomOptions& options) {
  return options.generator ? *options.generator : default_generator();
}
/// The precompiled entry points (src/random/random.cpp); each checks its arguments before it
/// draws anything.
template <class T>
Tensor<T> uniform_tensor(const Shape& shape, double lo, double hi, const Generator& generator,
                         Device device);
template <class T>
Tensor<T> normal_tensor(const Shape& shape, double mean, double std, const Generator& generator,
                        Device device);
template <class T>
Tensor<T> randint_tensor(std::int64_t low, std::int64_t high, const Shape& shape,
                         const Generator& generator, Device device);
Tensor<std::int64_t> randperm_tensor(std::int64_t n, const Generator& generator, Device device);
template <class T>
Tensor<T> bernoulli_tensor(const Tensor<T>& probs, const Generator& generator);
template <class T>
Tensor<std::int64_t> multinomial_tensor(const Tensor<T>& weights, std::int64_t num_samples,
                                        bool replacement, const Generator& generator);

template <class T>
constexpr void require_floating_random() {
  static_assert(Floating<T>,
                "tessera: rand, randn, normal, bernoulli and multinomial draw float or double "
                "(as PyTorch); use randint for integers");
}
}  // namespace detail

/// @name Random numbers (one stream per Generator; the same numbers on every device)
/// @{

/// Uniform in [0, 1) (never 1): `ts::rand<float>({3, 4})`. float or double.
template <class T>
Tensor<T> rand(const Shape& shape, const RandomOptions& options = {}) {
  detail::require_floating_random<T>();
  return detail::uniform_tensor<T>(shape, 0.0, 1.0, detail::generator_of(options), options.device);
}
/// rand on the CPU from `generator`.
template <class T>
Tensor<T> rand(const Shape& shape, const Generator& generator) {
  return rand<T>(shape, RandomOptions{generator, Device::cpu()});
}

/// Standard normal (Box-Muller over pairs of uniforms): `ts::randn<double>({1000})`.
template <class T>
Tensor<T> randn(const Shape& shape, const RandomOptions& options = {}) {
  detail::require_floating_random<T>();
  return detail::normal_tensor<T>(shape, 0.0, 1.0, detail::generator_of(options), options.device);
}
/// randn on the CPU from `generator`.
template <class T>
Tensor<T> randn(const Shape& shape, const Generator& generator) {
  return randn<T>(shape, RandomOptions{generator, Device::cpu()});
}

/// Normal with `mean` and standard deviation `std` (std < 0 → ValueError).
template <class T>
Tensor<T> normal(T mean, T std, const Shape& shape, const RandomOptions& options = {}) {
  detail::require_floating_random<T>();
  const detail::OpScope scope("normal");  // errors name normal, not the randn it runs
  return detail::normal_tensor<T>(shape, static_cast<double>(mean), static_cast<double>(std),
                                  detail::generator_of(options), options.device);
}
/// normal on the CPU from `generator`.
template <class T>
Tensor<T> normal(T mean, T std, const Shape& shape, const Generator& generator) {
  return normal<T>(mean, std, shape, RandomOptions{generator, Device::cpu()});
}

/// Integers uniform in [low, high) (high <= low, or a range T cannot hold → ValueError); any
/// numeric T: `ts::randint<int64_t>(0, 10, {5})`.
template <class T>
Tensor<T> randint(std::int64_t low, std::int64_t high, const Shape& shape,
                  const RandomOptions& options = {}) {
  static_assert(!std::is_same_v<T, bool>, "tessera: randint draws numbers; use bernoulli for bool");
  return detail::randint_tensor<T>(low, high, shape, detail::generator_of(options), options.device);
}
/// randint on the CPU from `generator`.
template <class T>
Tensor<T> randint(std::int64_t low, std::int64_t high, const Shape& shape,
                  const Generator& generator) {
  return randint<T>(low, high, shape, RandomOptions{generator, Device::cpu()});
}

/// A random permutation of 0 .. n-1 (the stable argsort of n random 64-bit keys).
inline Tensor<std::int64_t> randperm(std::int64_t n, const RandomOptions& options = {}) {
  return detail::randperm_tensor(n, detail::generator_of(options), options.device);
}
/// randperm on the CPU from `generator`.
inline Tensor<std::int64_t> randperm(std::int64_t n, const Generator& generator) {
  return randperm(n, RandomOptions{generator, Device::cpu()});
}

/// 1 where a uniform of p's dtype is below p, else 0, in p's dtype and on its device (p in
/// [0, 1], else ValueError). p may be an expression (evaluated once).
template <Expression E>
Tensor<typename E::value_type> bernoulli(const E& probs, const Generator& generator) {
  detail::require_floating_random<typename E::value_type>();
  return detail::bernoulli_tensor(detail::tensor_of(probs), generator);
}
/// bernoulli from the default generator.
template <Expression E>
Tensor<typename E::value_type> bernoulli(const E& probs) {
  return bernoulli(probs, default_generator());
}

/// `num_samples` category indices per row of `weights` (1-D (K) or 2-D (R, K), float or
/// double, non-negative, finite, positive sums; ValueError otherwise): with replacement by the
/// inverse CDF, without by the exponential race (n above the positive weights → ValueError).
template <Expression E>
Tensor<std::int64_t> multinomial(const E& weights, std::int64_t num_samples, bool replacement,
                                 const Generator& generator) {
  detail::require_floating_random<typename E::value_type>();
  return detail::multinomial_tensor(detail::tensor_of(weights), num_samples, replacement,
                                    generator);
}
/// multinomial from the default generator.
template <Expression E>
Tensor<std::int64_t> multinomial(const E& weights, std::int64_t num_samples,
                                 bool replacement = false) {
  return multinomial(weights, num_samples, replacement, default_generator());
}

/// rand in x's shape, dtype and device (x is not evaluated).
template <Expression E>
Tensor<typename E::value_type> rand_like(const E& x, const Generator& generator) {
  using T = typename E::value_type;
  detail::require_floating_random<T>();
  return detail::uniform_tensor<T>(detail::expr_shape(x), 0.0, 1.0, generator,
                                   detail::device_of(x));
}
/// rand_like from the default generator.
template <Expression E>
Tensor<typename E::value_type> rand_like(const E& x) {
  return rand_like(x, default_generator());
}
/// randn in x's shape, dtype and device (x is not evaluated).
template <Expression E>
Tensor<typename E::value_type> randn_like(const E& x, const Generator& generator) {
  using T = typename E::value_type;
  detail::require_floating_random<T>();
  return detail::normal_tensor<T>(detail::expr_shape(x), 0.0, 1.0, generator, detail::device_of(x));
}
/// randn_like from the default generator.
template <Expression E>
Tensor<typename E::value_type> randn_like(const E& x) {
  return randn_like(x, default_generator());
}
/// @}

}  // namespace tessera
