// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file ragged_golden.hpp
/// Reading tests/data/ragged_golden.json (tools/golden/gen_ragged.py, from TensorFlow): tensors
/// and scalars of its cases, and a run-time dispatch from the case's dtype names to types.

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "support/golden.hpp"
#include "tessera/tessera.hpp"

namespace tessera_test {

template <class T>
std::vector<T> golden_vector(const nlohmann::json& j) {
  std::vector<T> out;
  for (const auto& v : j) out.push_back(decode<T>(v));
  return out;
}

/// Calls f(std::type_identity<T>{}) for the dtype named `name` among `Ts`.
template <class... Ts, class F>
void with_dtype(const std::string& name, F&& f) {
  bool found = false;
  (
      [&] {
        if (!found && name == tessera::dtype_name(tessera::dtype_v<Ts>)) {
          found = true;
          f(std::type_identity<Ts>{});
        }
      }(),
      ...);
  if (!found) throw std::runtime_error("golden: unexpected dtype " + name);
}

/// Calls f(type_identity<T>, type_identity<S>) for a case's "dtype" and "splits_dtype".
template <class... Ts, class F>
void with_case_types(const nlohmann::json& c, F&& f) {
  with_dtype<Ts...>(c["dtype"].get<std::string>(), [&](auto t) {
    with_dtype<std::int32_t, std::int64_t>(c["splits_dtype"].get<std::string>(),
                                           [&](auto s) { f(t, s); });
  });
}

}  // namespace tessera_test
