// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file npy_header.hpp
/// The `.npy` header validator behind tessera::load_npy (tessera/interop/npy.hpp): checks the
/// preamble (magic string, version 1.0 / 2.0 / 3.0, header length) and parses the header's
/// Python dict literal (`{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }`, keys in
/// any order) without trusting a byte of it. Every check reports what is wrong as a string, so
/// the caller can name the file. Host compiler only, header-only, no dependencies.

#if defined(__CUDACC__)
#error \
    "tessera/interop/npy_header.hpp is for the host compiler only; do not include it in .cu files"
#endif

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::detail::npy {

/// The 6-byte magic string every `.npy` file starts with.
inline constexpr std::string_view kMagic{"\x93NUMPY", 6};

/// What the preamble (magic string, version, header length) says.
struct Preamble {
  int major = 0;                  ///< format version, major (1, 2 or 3)
  int minor = 0;                  ///< format version, minor (0)
  std::size_t preamble_size = 0;  ///< 10 (version 1) or 12 (versions 2 and 3)
  std::size_t header_end = 0;     ///< byte offset of the data: preamble_size + header length
};

/// What the header's dict says (descr unchecked against any dtype: the caller compares it).
struct Header {
  std::string descr;                ///< the dtype string, e.g. "<f8"
  bool fortran_order = false;       ///< column-major data
  std::vector<std::int64_t> shape;  ///< the extents, each in [0, INT64_MAX]
};

/// Reads the preamble from the first `n` bytes of a file (n >= 12 unless the file is shorter).
/// Returns "" and fills `out`, or says what is wrong. `not_npy` is set when the bytes do not
/// start with the magic string (the file is not a `.npy` file at all).
inline std::string parse_preamble(const unsigned char* bytes, std::size_t n, Preamble& out,
                                  bool& not_npy) {
  not_npy = n < kMagic.size() ||
            std::string_view(reinterpret_cast<const char*>(bytes), kMagic.size()) != kMagic;
  if (not_npy) return "does not start with the .npy magic string \"\\x93NUMPY\"";
  if (n < 8) return "is truncated inside its preamble (" + std::to_string(n) + " bytes)";
  out.major = bytes[6];
  out.minor = bytes[7];
  if (out.major < 1 || out.major > 3 || out.minor != 0) {
    return "has .npy format version " + std::to_string(out.major) + "." +
           std::to_string(out.minor) + " (load_npy reads versions 1.0, 2.0 and 3.0)";
  }
  out.preamble_size = out.major == 1 ? 10 : 12;
  if (n < out.preamble_size) {
    return "is truncated inside its header (" + std::to_string(n) + " bytes; the preamble alone " +
           "is " + std::to_string(out.preamble_size) + ")";
  }
  std::size_t length = std::size_t{bytes[8]} | std::size_t{bytes[9]} << 8;
  if (out.major > 1) length |= std::size_t{bytes[10]} << 16 | std::size_t{bytes[11]} << 24;
  out.header_end = out.preamble_size + length;  // at most 12 + 2^32 - 1: no overflow
  return "";
}

/// Parses the header text (the bytes between the preamble and the data) as NumPy writes it.
/// Returns "" and fills `out`, or says what is wrong.
///
/// Accepted: optional whitespace (space, tab, CR, LF), a dict literal `{...}` with exactly the
/// keys 'descr', 'fortran_order' and 'shape' (single- or double-quoted, any order, each once,
/// a trailing comma allowed), optional whitespace, and a final '\n'. descr is a quoted string of
/// printable ASCII without backslashes, fortran_order is True or False, shape is a tuple of
/// decimal integers: `()`, `(3,)`, `(2, 3)` or `(2, 3,)` (`(3)` is not a tuple).
inline std::string parse_header(std::string_view text, Header& out) {
  if (text.empty() || text.back() != '\n') return "has a header that does not end with '\\n'";
  std::size_t at = 0;
  const auto where = [&] { return " at header byte " + std::to_string(at); };
  const auto skip_space = [&] {
    while (at < text.size() &&
           (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) {
      ++at;
    }
  };
  const auto eat = [&](char c) {
    skip_space();
    if (at < text.size() && text[at] == c) {
      ++at;
      return true;
    }
    return false;
  };
  // A quoted string of printable ASCII, no escapes; "" is not a valid key or descr anyway.
  const auto string_literal = [&](std::string& s) {
    skip_space();
    if (at >= text.size() || (text[at] != '\'' && text[at] != '"')) return false;
    const char quote = text[at++];
    const std::size_t begin = at;
    while (at < text.size() && text[at] != quote) {
      const auto c = static_cast<unsigned char>(text[at]);
      if (c < 0x20 || c > 0x7e || c == '\\') return false;
      ++at;
    }
    if (at >= text.size()) return false;
    s.assign(text.substr(begin, at - begin));
    ++at;  // the closing quote
    return true;
  };
  const auto word = [&](std::string_view w) {
    skip_space();
    if (text.substr(at, w.size()) != w) return false;
    const std::size_t next = at + w.size();
    if (next < text.size()) {
      const char c = text[next];
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
        return false;  // `Falsey` is not False
      }
    }
    at = next;
    return true;
  };
  // A non-negative decimal integer that fits int64 (checked before each multiply-add).
  const auto integer = [&](std::int64_t& v, std::string& error) {
    skip_space();
    if (at >= text.size() || text[at] < '0' || text[at] > '9') {
      error = "has a shape extent that is not a non-negative decimal integer" + where();
      return false;
    }
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    v = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      const int digit = text[at] - '0';
      if (v > (kMax - digit) / 10) {
        error = "has a shape extent larger than 2^63 - 1" + where();
        return false;
      }
      v = v * 10 + digit;
      ++at;
    }
    if (at < text.size() && std::string_view("._xXeEjL").find(text[at]) != std::string_view::npos) {
      error = "has a shape extent that is not a non-negative decimal integer" + where();
      return false;  // 2.5, 1_000, 0x10, 1e3, 1j, 10L
    }
    return true;
  };
  const auto shape_tuple = [&](std::string& error) {
    if (!eat('(')) {
      error = "has a 'shape' that is not a tuple" + where();
      return false;
    }
    out.shape.clear();
    if (eat(')')) return true;  // ()
    for (;;) {
      std::int64_t v = 0;
      if (!integer(v, error)) return false;
      out.shape.push_back(v);
      const bool comma = eat(',');
      if (eat(')')) {
        if (out.shape.size() == 1 && !comma) {
          error = "has a 'shape' that is not a tuple (a 1-tuple needs a comma: (n,))";
          return false;
        }
        return true;
      }
      if (!comma) {
        error = "has a malformed 'shape' tuple (expected ',' or ')')" + where();
        return false;
      }
    }
  };

  if (!eat('{')) return "has a header that is not a Python dict literal (no '{')";
  bool seen_descr = false, seen_order = false, seen_shape = false;
  for (;;) {
    if (eat('}')) break;
    std::string key;
    if (!string_literal(key))
      return "has a malformed header dict (expected a quoted key)" + where();
    if (!eat(':')) return "has no ':' after the key '" + key + "'" + where();
    std::string error;
    if (key == "descr") {
      if (seen_descr) return "has the key 'descr' twice";
      seen_descr = true;
      if (!string_literal(out.descr)) {
        return "has a 'descr' that is not a quoted dtype string" + where();
      }
    } else if (key == "fortran_order") {
      if (seen_order) return "has the key 'fortran_order' twice";
      seen_order = true;
      if (word("True")) {
        out.fortran_order = true;
      } else if (word("False")) {
        out.fortran_order = false;
      } else {
        return "has a 'fortran_order' that is neither True nor False" + where();
      }
    } else if (key == "shape") {
      if (seen_shape) return "has the key 'shape' twice";
      seen_shape = true;
      if (!shape_tuple(error)) return error;
    } else {
      return "has the unexpected key '" + key + "' in its header (a .npy header holds " +
             "'descr', 'fortran_order' and 'shape')";
    }
    if (eat('}')) break;
    if (!eat(',')) return "has a malformed header dict (expected ',' or '}')" + where();
  }
  if (!seen_descr) return "has no 'descr' key in its header";
  if (!seen_order) return "has no 'fortran_order' key in its header";
  if (!seen_shape) return "has no 'shape' key in its header";
  skip_space();  // NumPy pads with spaces up to the final '\n'
  if (at != text.size()) return "has bytes after its header dict" + where();
  return "";
}

/// The number of elements of `shape` when they and their bytes (`itemsize` each) fit int64, as
/// NumPy requires: the product of the nonzero extents times itemsize must fit (so the strides
/// of a zero-element shape fit too). Returns -1 when it does not.
inline std::int64_t checked_numel(const std::vector<std::int64_t>& shape, std::int64_t itemsize) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t nonzero_bytes = itemsize;
  bool empty = false;
  for (const std::int64_t e : shape) {
    if (e == 0) {
      empty = true;
      continue;
    }
    if (nonzero_bytes > kMax / e) return -1;
    nonzero_bytes *= e;
  }
  return empty ? 0 : nonzero_bytes / itemsize;
}

}  // namespace tessera::detail::npy
