// SPDX-License-Identifier: BSD-3-Clause
// Generator: one stream's seed and offset behind a mutex, shared by every handle.

#include "tessera/random/generator.hpp"

#include <mutex>

namespace tessera {

struct Generator::State {
  std::mutex mutex;
  std::uint64_t seed = kDefaultSeed;
  std::uint64_t offset = 0;
};

Generator::Generator(std::uint64_t seed) : state_(std::make_shared<State>()) {
  state_->seed = seed;
}

void Generator::seed(std::uint64_t seed) const {
  const std::lock_guard lock(state_->mutex);
  state_->seed = seed;
  state_->offset = 0;
}

std::uint64_t Generator::seed() const noexcept {
  const std::lock_guard lock(state_->mutex);
  return state_->seed;
}

std::uint64_t Generator::offset() const noexcept {
  const std::lock_guard lock(state_->mutex);
  return state_->offset;
}

void Generator::set_offset(std::uint64_t offset) const {
  const std::lock_guard lock(state_->mutex);
  state_->offset = offset;
}

Generator::Reservation Generator::reserve(std::uint64_t blocks) const {
  const std::lock_guard lock(state_->mutex);
  const Reservation r{state_->seed, state_->offset};
  state_->offset += blocks;
  return r;
}

const Generator& default_generator() {
  static const Generator generator;
  return generator;
}

void manual_seed(std::uint64_t seed) { default_generator().seed(seed); }

}  // namespace tessera
