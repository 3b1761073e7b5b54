// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file npy.hpp
/// NumPy's `.npy` files: `load_npy<T>(path)` reads one into a Tensor, validating its whole
/// header first (tessera/interop/npy_header.hpp; xtensor's parser never sees an untrusted
/// file), and `save_npy(path, t)` writes one through xtensor's writer (`xt::dump_npy`). Not part of
/// the umbrella header, so tessera never requires xtensor; include it explicitly and link the
/// `xtensor` CMake target. Host compiler only, as tessera/interop/xtensor.hpp.

#if defined(__CUDACC__)
#error "tessera/interop/npy.hpp is for the host compiler only; do not include it in .cu files"
#endif

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <ios>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xnpy.hpp>

#include "tessera/interop/npy_header.hpp"
#include "tessera/interop/xtensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace detail::npy {
/// NumPy's dtype string (`np.dtype(...).str`) of T, as `np.save` writes it in a header.
template <class T>
constexpr const char* descr_of() {
  if constexpr (std::is_same_v<T, bool>) return "|b1";
  if constexpr (std::is_same_v<T, std::uint8_t>) return "|u1";
  if constexpr (std::is_same_v<T, std::int8_t>) return "|i1";
  if constexpr (std::is_same_v<T, std::int16_t>) return "<i2";
  if constexpr (std::is_same_v<T, std::int32_t>) return "<i4";
  if constexpr (std::is_same_v<T, std::int64_t>) return "<i8";
  if constexpr (std::is_same_v<T, float>) return "<f4";
  if constexpr (std::is_same_v<T, double>) return "<f8";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "<c8";
  if constexpr (std::is_same_v<T, std::complex<double>>) return "<c16";
}
}  // namespace detail::npy

/// Reads a `.npy` file that holds T elements (NumPy's dtype of the same name, little-endian,
/// C or Fortran order; format version 1.0, 2.0 or 3.0) into a new row-major Tensor on
/// `device`. The whole header is validated before any of it is used (docs/interop.md lists the
/// rules): ValueError naming the path and the problem when the file cannot be opened, is not a
/// `.npy` file, has a malformed header or a shape whose bytes do not fit int64, holds another
/// dtype, is truncated, or (for bool) holds bytes other than 0 and 1. The elements are copied:
/// the file is not mapped.
///
///     auto x = tessera::load_npy<double>("x.npy");            // np.save("x.npy", x) in Python
///     auto g = tessera::load_npy<float>("w.npy", tessera::Device::cuda());
template <class T>
Tensor<T> load_npy(const std::string& path, Device device = Device::cpu()) {
  static_assert(is_dtype_v<T>, "tessera::load_npy<T>: T must be one of tessera's ten dtypes");
  constexpr const char* op = "load_npy";
  const detail::OpScope scope(op);  // errors of the transfer name load_npy
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    detail::raise<ValueError>(op, "cannot open path '", path, "': ", std::strerror(errno));
  }
  // The file's size bounds every read below: nothing is allocated for bytes the file lacks.
  stream.seekg(0, std::ios::end);
  const std::streamoff end = stream.tellg();
  stream.seekg(0);
  if (!stream || end < 0) {
    detail::raise<ValueError>(op, "cannot read path '", path, "' (not a regular file?)");
  }
  const auto file_bytes = static_cast<std::size_t>(end);
  unsigned char preamble_bytes[12] = {};
  stream.read(reinterpret_cast<char*>(preamble_bytes), sizeof preamble_bytes);
  const auto got = static_cast<std::size_t>(stream.gcount());
  stream.clear();
  detail::npy::Preamble preamble;
  bool not_npy = false;
  if (auto error = detail::npy::parse_preamble(preamble_bytes, got, preamble, not_npy);
      !error.empty()) {
    if (not_npy) {
      detail::raise<ValueError>(op, "path '", path, "' is not a .npy file: it ", error);
    }
    detail::raise<ValueError>(op, "path '", path, "' ", error);
  }
  if (file_bytes < preamble.header_end) {
    detail::raise<ValueError>(op, "path '", path, "' is truncated inside its header (", file_bytes,
                              " bytes; the header ends at byte ", preamble.header_end, ")");
  }
  std::string text(preamble.header_end - preamble.preamble_size, '\0');
  stream.seekg(static_cast<std::streamoff>(preamble.preamble_size));
  stream.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (static_cast<std::size_t>(stream.gcount()) != text.size()) {
    detail::raise<ValueError>(op, "reading the header of path '", path, "' failed");
  }
  detail::npy::Header header;
  if (auto error = detail::npy::parse_header(text, header); !error.empty()) {
    detail::raise<ValueError>(op, "path '", path, "' ", error);
  }
  constexpr const char* wanted = detail::npy::descr_of<T>();
  if (header.descr != wanted) {
    detail::raise<ValueError>(
        op, "path '", path, "' is not a .npy file of ", dtype_name(dtype_v<T>), " ('", wanted,
        "') elements: it holds '", header.descr, "'",
        header.descr.size() > 1 && header.descr[0] == '>' ? " (big-endian data is not read)" : "");
  }
  const Shape shape(header.shape.begin(), header.shape.end());
  if (header.shape.size() > static_cast<std::size_t>(kMaxDims)) {
    detail::raise<ValueError>(op, "path '", path, "' holds shape ", shape, " of ",
                              header.shape.size(), " dimensions; tessera tensors have at most ",
                              kMaxDims);
  }
  const std::int64_t numel =
      detail::npy::checked_numel(header.shape, static_cast<std::int64_t>(sizeof(T)));
  if (numel < 0) {
    detail::raise<ValueError>(op, "path '", path, "' holds shape ", shape, " of ",
                              dtype_name(dtype_v<T>), ", whose elements or bytes do not fit int64",
                              " (a corrupt file?)");
  }
  const auto data_bytes = static_cast<std::size_t>(numel) * sizeof(T);  // fits: checked above
  const std::size_t follow = file_bytes - preamble.header_end;
  if (follow < data_bytes) {
    detail::raise<ValueError>(op, "path '", path, "' is truncated: its header promises shape ",
                              shape, " of ", dtype_name(dtype_v<T>), " (", data_bytes,
                              " bytes of data) but only ", follow, " bytes follow");
  }
  // Fortran order: the data is the row-major array of the reversed shape, transposed. (The
  // shape is reversed in place: a Shape made from a vector here trips GCC 12's -Warray-bounds
  // at -O3 on the never-taken path of shapes longer than kMaxDims.)
  Shape stored = shape;
  const std::size_t nd = stored.size();
  if (header.fortran_order) {
    for (std::size_t d = 0; d < nd / 2; ++d) std::swap(stored[d], stored[nd - 1 - d]);
  }
  Tensor<T> host;
  try {
    host = Tensor<T>::empty(stored, Device::cpu());
  } catch (const std::bad_alloc&) {
    detail::raise<ValueError>(op, "path '", path, "': its shape ", shape, " (", data_bytes,
                              " bytes) needs more memory than is available");
  }
  stream.read(reinterpret_cast<char*>(host.data()), static_cast<std::streamsize>(data_bytes));
  if (static_cast<std::size_t>(stream.gcount()) != data_bytes) {
    detail::raise<ValueError>(op, "path '", path, "' is truncated: its header promises shape ",
                              shape, " of ", dtype_name(dtype_v<T>), " (", data_bytes,
                              " bytes of data) but only ", stream.gcount(), " bytes could be read");
  }
  if constexpr (std::is_same_v<T, bool>) {
    // A bool other than 0 or 1 is undefined behaviour to read; NumPy never writes one. The
    // bytes are looked at as unsigned char, never as bool, until they pass.
    const auto* bytes = reinterpret_cast<const unsigned char*>(host.data());
    for (std::size_t i = 0; i < data_bytes; ++i) {
      if (bytes[i] > 1) {
        detail::raise<ValueError>(op, "path '", path, "' holds byte value ", int(bytes[i]),
                                  " at element ", i, " of a bool array (only 0 and 1 are bools)");
      }
    }
  }
  if (header.fortran_order && nd > 1) {
    const auto n = static_cast<std::int64_t>(nd);
    for (std::int64_t d = 0; d < n / 2; ++d) host = host.transpose(d, n - 1 - d);
    host = host.contiguous();
  }
  return device.is_cpu() ? host : host.to(device);
}

/// load_npy that also requires the array's shape to be `shape` (ShapeError naming both
/// otherwise), for callers that know what the file must hold.
///
///     auto w = tessera::load_npy<float>("w.npy", {784, 10});
template <class T>
Tensor<T> load_npy(const std::string& path, const Shape& shape, Device device = Device::cpu()) {
  auto t = load_npy<T>(path, device);
  if (t.shape() != shape) {
    detail::raise<ShapeError>("load_npy", "path '", path, "' holds shape ", t.shape(),
                              ", expected ", shape);
  }
  return t;
}

/// Writes `t` (any layout, any device; CUDA tensors are copied to the host first) as a
/// row-major `.npy` file NumPy reads with `np.load`. ValueError naming the path when it cannot
/// be written.
///
///     tessera::save_npy("y.npy", tessera::tensor<float>({{1, 2}, {3, 4}}));
template <class T>
void save_npy(const std::string& path, const Tensor<T>& t) {
  constexpr const char* op = "save_npy";
  const detail::OpScope scope(op);
  // The in-memory form of xt::dump_npy, so that a failed write (a full disk) is reported; the
  // file form does not check the stream after writing.
  const std::string bytes = xt::dump_npy(to_xtensor(t));
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  if (!stream) {
    detail::raise<ValueError>(op, "cannot open path '", path,
                              "' for writing: ", std::strerror(errno));
  }
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  stream.close();
  if (!stream) {
    detail::raise<ValueError>(op, "writing ", bytes.size(), " bytes to path '", path, "' failed");
  }
}

/// save_npy of any tessera expression: evaluates it (tessera::eval), then writes the result.
///
///     tessera::save_npy("y.npy", x * 2.0);
template <Expression E>
void save_npy(const std::string& path, const E& e) {
  const detail::OpScope scope("save_npy");
  save_npy(path, eval(e));
}

}  // namespace tessera
