// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file generator.hpp
/// `Generator`: the state of one counter-based random stream (a seed and an offset), shared by
/// every copy of the handle, as `torch.Generator`. docs/ops/random.md defines the stream.

#include <cstdint>
#include <memory>
#include <optional>

#include "tessera/core/device.hpp"

namespace tessera {

/// A random stream: Philox4x32-10 keyed by the seed, counted in 4-word blocks from the offset
/// (docs/ops/random.md). Copies share the state (a handle, like torch.Generator); calls on
/// one Generator from several threads each take a disjoint range of blocks (the offset is
/// advanced atomically before any number is drawn), so no two calls see the same numbers.
///
///     tessera::Generator gen(42);
///     auto u = tessera::rand<float>({3, 4}, gen);   // blocks 0..2; gen.offset() == 3
class Generator {
 public:
  /// The seed PyTorch's default CPU generator starts from.
  static constexpr std::uint64_t kDefaultSeed = 67280421310721ULL;
  /// A stream seeded with `seed`, at offset 0.
  explicit Generator(std::uint64_t seed = kDefaultSeed);
  /// Reseeds the stream (every handle of it) and sets its offset back to 0.
  void seed(std::uint64_t seed) const;
  /// The seed.
  std::uint64_t seed() const noexcept;
  /// The next unused 4-word block.
  std::uint64_t offset() const noexcept;
  /// Moves the stream to block `offset` (to replay or skip numbers).
  void set_offset(std::uint64_t offset) const;
  /// Takes `blocks` blocks for one call: {seed, first block}. Atomic with respect to seed(),
  /// set_offset() and other reservations.
  struct Reservation {
    std::uint64_t seed;   ///< the key of the call
    std::uint64_t block;  ///< its first block
  };
  /// Reserves `blocks` consecutive blocks and advances the offset past them.
  Reservation reserve(std::uint64_t blocks) const;
  /// True when both handles share one stream.
  friend bool operator==(const Generator& a, const Generator& b) noexcept {
    return a.state_ == b.state_;
  }

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// The generator random functions use when given none (seeded with Generator::kDefaultSeed).
const Generator& default_generator();
/// Reseeds the default generator (`torch.manual_seed`).
void manual_seed(std::uint64_t seed);

// [snippet:random-options]
/// Where a random function draws from and what device its result lives on.
struct RandomOptions {
  /// The stream; the default generator when empty.
  std::optional<Generator> generator = std::nullopt;
  /// The result's device.
  Device device = Device::cpu();
};
// [end-snippet]

}  // namespace tessera
