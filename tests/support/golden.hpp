// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file golden.hpp
/// Reading golden files (tests/data/*.json, written by tools/golden/*.py from the reference
/// libraries): numbers are JSON numbers, non-finite floats and -0.0 are the strings "nan",
/// "inf", "-inf" and "-0".

#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/core/shape.hpp"
#include "tessera/tensor.hpp"

namespace tessera_test {

/// The parsed golden file `name` of TESSERA_TEST_DATA_DIR (read once per process).
/// The name is a string_view taken by value: with a `const std::string&`, every
/// `for (const auto& c : golden("x.json")["cases"])` bound its std::string temporary to a
/// reference parameter, which GCC 13's -Wdangling-reference reports (a false alarm: the
/// result lives in `files`), and the GPU machine's newer g++ built tests with -Werror.
inline const nlohmann::json& golden(std::string_view name) {
  static std::map<std::string, nlohmann::json, std::less<>> files;
  auto it = files.find(name);
  if (it == files.end()) {
    std::ifstream in(std::string(TESSERA_TEST_DATA_DIR) + "/" + std::string(name));
    it = files.emplace(std::string(name), nlohmann::json::parse(in)).first;
  }
  return it->second;
}

/// One golden value as T (a complex value is a pair [real, imaginary]).
template <class T>
T decode(const nlohmann::json& v) {
  if constexpr (tessera::Complex<T>) {
    using F = typename T::value_type;
    return T(decode<F>(v.at(0)), decode<F>(v.at(1)));
  }
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "nan") return static_cast<T>(std::numeric_limits<double>::quiet_NaN());
    if (s == "inf") return static_cast<T>(std::numeric_limits<double>::infinity());
    if (s == "-inf") return static_cast<T>(-std::numeric_limits<double>::infinity());
    if (s == "-0") return static_cast<T>(-0.0);
  }
  if (v.is_boolean()) return static_cast<T>(v.get<bool>());
  // int64 extremes are not doubles: integers are read as integers.
  if (v.is_number_integer()) return static_cast<T>(v.get<std::int64_t>());
  return static_cast<T>(v.get<double>());
}

/// The values of a packed golden tensor (`{"shape": [...], "data": [...]}`), in row-major order.
template <class T>
std::vector<T> decode_all(const nlohmann::json& packed) {
  std::vector<T> out;
  for (const auto& v : packed["data"]) out.push_back(decode<T>(v));
  return out;
}

/// The shape of a packed golden tensor.
inline tessera::Shape shape_of(const nlohmann::json& packed) {
  return tessera::Shape(packed["shape"].begin(), packed["shape"].end());
}

/// A packed golden tensor as a Tensor<T> on `device` (row-major, contiguous); without a
/// "shape" the values form a 1-D tensor.
template <class T>
tessera::Tensor<T> golden_tensor(const nlohmann::json& packed,
                                 tessera::Device device = tessera::Device::cpu()) {
  std::vector<T> values = decode_all<T>(packed);
  const tessera::Shape shape = packed.contains("shape")
                                   ? shape_of(packed)
                                   : tessera::Shape{static_cast<std::int64_t>(values.size())};
  return tessera::Tensor<T>::from_vector(values, shape, device);
}

}  // namespace tessera_test
