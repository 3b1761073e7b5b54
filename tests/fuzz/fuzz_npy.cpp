// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: load_npy of untrusted bytes (issue 37). The input is the whole file: it is
// written to a per-process temporary path and loaded as each of the eight dtypes. Every load
// either throws tessera::ValueError naming load_npy (or, for memory exhaustion, another
// tessera::Error) or returns a tensor that holds the file's data: at most one dtype loads (the
// header names exactly one), its bytes fit in what follows the header, and its elements are the
// file's data bytes in C order or, for a Fortran-order file, in column-major order. A loaded
// tensor saved with save_npy and loaded again is identical, and load_npy with its shape accepts
// it. The seeds (tests/fuzz/seeds/npy, tools/fuzz_seeds.py) are files NumPy wrote.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "outcome.hpp"
#include "tessera/interop/npy.hpp"

namespace {

using namespace tessera_fuzz;
using ts::Shape;
using ts::Tensor;

/// Two scratch files under the temporary directory, unique to this process (parallel fuzzing
/// jobs do not share them), removed at exit.
struct Scratch {
  std::string input, round_trip;
  Scratch() {
    const auto base =
        std::filesystem::temp_directory_path() / ("tessera_fuzz_npy_" + std::to_string(::getpid()));
    input = base.string() + ".npy";
    round_trip = base.string() + "_rt.npy";
  }
  ~Scratch() {
    std::remove(input.c_str());
    std::remove(round_trip.c_str());
  }
};

const Scratch& scratch() {
  static const Scratch s;
  return s;
}

/// The byte offset of the data, as the preamble states it (only called after a load succeeded,
/// so the preamble is there).
std::size_t header_end(const std::uint8_t* data) {
  std::size_t n = std::size_t{data[8]} | std::size_t{data[9]} << 8;
  if (data[6] == 1) return 10 + n;
  n |= std::size_t{data[10]} << 16 | std::size_t{data[11]} << 24;
  return 12 + n;
}

/// True when `t`'s elements (row-major) are the file's `raw` bytes read in C order
/// (`fortran` false) or in column-major order (`fortran` true).
template <class T>
bool holds(const Tensor<T>& t, const std::uint8_t* raw, bool fortran) {
  const Shape& shape = t.shape();
  const auto host = t.cpu().contiguous();
  const auto* got = reinterpret_cast<const std::uint8_t*>(host.data());
  const auto n = static_cast<std::size_t>(t.numel());
  std::vector<std::int64_t> idx(shape.size(), 0);
  for (std::size_t k = 0; k < n; ++k) {
    // Offset of row-major element k in the file.
    std::size_t offset = k;
    if (fortran) {
      offset = 0;
      std::size_t stride = 1;
      for (std::size_t d = 0; d < shape.size(); ++d) {
        offset += static_cast<std::size_t>(idx[d]) * stride;
        stride *= static_cast<std::size_t>(shape[d]);
      }
      for (std::size_t d = shape.size(); d-- > 0;) {  // next row-major index
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    if (std::memcmp(got + k * sizeof(T), raw + offset * sizeof(T), sizeof(T)) != 0) return false;
  }
  return true;
}

/// Loads the input as T; returns whether it loaded (and checks what it loaded).
template <class T>
bool load_as(const std::uint8_t* data, std::size_t size) {
  const std::string& path = scratch().input;
  Tensor<T> t;
  if (!run_expecting(kValue | kAnyError, "load_npy", [&] { t = ts::load_npy<T>(path); })) {
    return false;
  }
  // It loaded: the preamble and header are in the file, and so is the data.
  require(size >= 10, "load_npy: loaded a file shorter than the shortest preamble");
  const std::size_t start = header_end(data);
  require(start <= size, "load_npy: loaded a file shorter than its header");
  const auto bytes = static_cast<std::size_t>(t.numel()) * sizeof(T);
  require(t.numel() >= 0 && bytes / sizeof(T) == static_cast<std::size_t>(t.numel()),
          "load_npy: element count overflows");
  require(bytes <= size - start, "load_npy: the tensor holds more bytes than the file's data");
  require(t.is_contiguous() && t.device().is_cpu(), "load_npy: not a contiguous host tensor");
  require(holds(t, data + start, false) || holds(t, data + start, true),
          "load_npy: the elements are not the file's data in C or Fortran order");
  if constexpr (std::is_same_v<T, bool>) {
    const auto* b = reinterpret_cast<const std::uint8_t*>(t.data());
    for (std::int64_t i = 0; i < t.numel(); ++i) require(b[i] <= 1, "load_npy: a bool not 0/1");
  }

  // save_npy, then load_npy again (with the shape it must have): identical.
  const std::string& rt = scratch().round_trip;
  ts::save_npy(rt, t);
  const auto back = ts::load_npy<T>(rt, t.shape());
  require(back.shape() == t.shape(), "save_npy round trip: shape differs");
  require(std::memcmp(back.data(), t.data(), bytes) == 0, "save_npy round trip: bytes differ");
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(scratch().input, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    require(static_cast<bool>(out), "could not write the scratch file");
  }
  int loaded = 0;
  loaded += load_as<bool>(data, size);
  loaded += load_as<std::uint8_t>(data, size);
  loaded += load_as<std::int8_t>(data, size);
  loaded += load_as<std::int16_t>(data, size);
  loaded += load_as<std::int32_t>(data, size);
  loaded += load_as<std::int64_t>(data, size);
  loaded += load_as<float>(data, size);
  loaded += load_as<double>(data, size);
  require(loaded <= 1, "load_npy: one file loaded as two dtypes");
  return 0;
}
