// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file example_support.hpp
/// The command line and the timing every example shares: `--device cpu|cuda` picks where the
/// tensors live, and `Stopwatch` prints how long a step took (std::chrono, wall time).

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include "tessera/tessera.hpp"

namespace example {

/// The device named by `--device cpu|cuda` (CPU without the flag), or nothing after printing
/// why to stderr: an unknown flag, or CUDA asked for in a build without the CUDA backend or on
/// a machine without a GPU. The caller exits non-zero then; nothing falls back silently.
inline std::optional<tessera::Device> parse_device(int argc, char** argv) {
  std::string_view name = "cpu";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--device" && i + 1 < argc) {
      name = argv[++i];
    } else if (arg.starts_with("--device=")) {
      name = arg.substr(9);
    } else {
      std::cerr << argv[0] << ": unknown argument '" << arg << "'\nusage: " << argv[0]
                << " [--device cpu|cuda]\n";
      return std::nullopt;
    }
  }
  if (name == "cpu") return tessera::Device::cpu();
  if (name != "cuda") {
    std::cerr << argv[0] << ": --device must be cpu or cuda, not '" << name << "'\n";
    return std::nullopt;
  }
  if (!tessera::cuda_available()) {
    std::cerr << argv[0] << ": --device cuda: no usable CUDA device (tessera built "
              << (TESSERA_WITH_CUDA ? "with" : "without")
              << " the CUDA backend); run without --device to use the CPU\n";
    return std::nullopt;
  }
  return tessera::Device::cuda();
}

/// Waits for the work queued on `device` (nothing to wait for on the CPU), so a timing that
/// ends here covers the GPU's work, not just its launch.
inline void wait_for(tessera::Device device) { tessera::synchronize(device); }

/// Uniform floats in [0, 1) from splitmix64 with a fixed seed: cheap, and the same series on
/// every run and machine (the applications' synthetic sensor data).
class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : state_(seed) {}
  float operator()() {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<float>((z ^ (z >> 31)) >> 40) * 0x1.0p-24f;
  }

 private:
  std::uint64_t state_;
};

/// Prints "time <label> <ms> ms" when stopped. Callers wait_for() the device first.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double stop(std::string_view label) const {
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start_;
    std::printf("time %-28.*s %9.3f ms\n", static_cast<int>(label.size()), label.data(),
                ms.count());
    return ms.count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Everything an example's `main` does besides its body: picks the device from the command
/// line (exit status 2 when it cannot), then runs `body(device)` and reports a tessera error
/// as "<name>: <message>" (exit status 1) instead of letting it end the program.
template <class Body>
int run_example(int argc, char** argv, std::string_view name, Body body) {
  const auto device = parse_device(argc, argv);
  if (!device) return 2;
  try {
    return body(*device);
  } catch (const tessera::Error& e) {
    std::cerr << name << ": " << e.what() << '\n';
    return 1;
  }
}

/// Prints a list of tensors as Python prints a tuple of them: `(tensor([0, 1]),)`.
inline void print_tuple(std::ostream& os, const std::vector<tessera::Tensor<std::int64_t>>& ts) {
  os << '(';
  for (std::size_t i = 0; i < ts.size(); ++i) os << (i ? ", " : "") << ts[i];
  os << (ts.size() == 1 ? ",)" : ")") << '\n';
}

}  // namespace example
