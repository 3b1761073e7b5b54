#pragma once
/// @file npy.hpp
/// NumPy's `.npy` files: `load_npy<T>(path)` reads one into a Tensor, `save_npy(path, t)` writes
/// one, through xtensor's reader and writer (`xt::load_npy`, `xt::dump_npy`). Not part of the
/// umbrella header, so tessera never requires xtensor; include it explicitly and link the
/// `xtensor` CMake target. Host compiler only, as tessera/interop/xtensor.hpp.

#if defined(__CUDACC__)
#error "tessera/interop/npy.hpp is for the host compiler only; do not include it in .cu files"
#endif

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <ios>
#include <new>
#include <stdexcept>
#include <string>

#include <xtensor/xnpy.hpp>

#include "tessera/interop/xtensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

/// Reads a `.npy` file that holds T elements (NumPy's dtype of the same name, little-endian,
/// C or Fortran order) into a new row-major Tensor on `device`. ValueError naming the path when
/// the file cannot be opened, is not a `.npy` file, holds another dtype, is truncated, or (for
/// bool) holds bytes other than 0 and 1. The elements are copied: the file is not mapped.
///
///     auto x = tessera::load_npy<double>("x.npy");            // np.save("x.npy", x) in Python
///     auto g = tessera::load_npy<float>("w.npy", tessera::Device::cuda());
template <class T>
Tensor<T> load_npy(const std::string& path, Device device = Device::cpu()) {
  static_assert(is_dtype_v<T>, "tessera::load_npy<T>: T must be one of tessera's eight dtypes");
  constexpr const char* op = "load_npy";
  const detail::OpScope scope(op);  // errors of the conversion and the transfer name load_npy
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    detail::raise<ValueError>(op, "cannot open path '", path, "': ", std::strerror(errno));
  }
  const std::string wanted = xt::detail::build_typestring<T>();
  {
    // xtensor reads the header with an unchecked istream::read too, and would parse whatever
    // the buffer held past a short read, so a file cut inside its header is refused first:
    // the header's length is the 2-byte (version 1) or 4-byte (versions 2, 3) little-endian
    // number after the 6-byte magic string and the 2 version bytes.
    unsigned char preamble[12] = {};
    stream.read(reinterpret_cast<char*>(preamble), sizeof preamble);
    const auto got = static_cast<std::size_t>(stream.gcount());
    stream.clear();
    stream.seekg(0, std::ios::end);
    const auto file_bytes = static_cast<std::size_t>(stream.tellg());
    stream.seekg(0);
    const bool v1 = preamble[6] == 1;
    const std::size_t header_end =
        v1 ? 10 + (std::size_t{preamble[8]} | std::size_t{preamble[9]} << 8)
           : 12 + (std::size_t{preamble[8]} | std::size_t{preamble[9]} << 8 |
                   std::size_t{preamble[10]} << 16 | std::size_t{preamble[11]} << 24);
    if (got >= 10 && std::memcmp(preamble, "\x93NUMPY", 6) == 0 && file_bytes < header_end) {
      detail::raise<ValueError>(op, "path '", path, "' is truncated inside its header (",
                                file_bytes, " bytes; the header ends at byte ", header_end, ")");
    }
  }
  try {
    auto array = xt::load_npy<T>(stream);
    // xtensor reads the data with one istream::read and does not check it: a short read
    // leaves the stream failed (and the rest of the buffer unset), so it is checked here.
    if (stream.fail()) {
      const Shape shape(array.shape().begin(), array.shape().end());
      detail::raise<ValueError>(op, "path '", path, "' is truncated: its header promises shape ",
                                shape, " of ", dtype_name(dtype_v<T>), " (",
                                shape.numel() * static_cast<std::int64_t>(sizeof(T)),
                                " bytes of data) but only ", stream.gcount(), " bytes follow");
    }
    if constexpr (std::is_same_v<T, bool>) {
      // A bool other than 0 or 1 is undefined behaviour to read; NumPy never writes one.
      const auto* bytes = reinterpret_cast<const unsigned char*>(array.data());
      for (std::size_t i = 0; i < array.size(); ++i) {
        if (bytes[i] > 1) {
          detail::raise<ValueError>(op, "path '", path, "' holds byte value ", int(bytes[i]),
                                    " at element ", i, " of a bool array (only 0 and 1 are bools)");
        }
      }
    }
    return from_xtensor(array, device);
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    detail::raise<ValueError>(op, "path '", path,
                              "': the shape in its header needs more memory than is available "
                              "(a corrupt file?)");
  } catch (const std::runtime_error& e) {
    // xtensor's messages: "Cast error: formats not matching <f8 vs <f4", "invalid header", ...
    detail::raise<ValueError>(op, "path '", path, "' is not a .npy file of ",
                              dtype_name(dtype_v<T>), " ('", wanted, "') elements: ", e.what());
  }
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

}  // namespace tessera
