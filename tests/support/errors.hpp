// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file errors.hpp
/// Checks that a call throws one exact tessera exception type and hands back its message, so a
/// test can then assert what the message names (op, argument, values).

#include <gtest/gtest.h>

#include <exception>
#include <string>

namespace tessera_test {

/// Runs `f`; records a failure unless it throws `E`. Returns the message ("" on failure).
template <class E, class F>
std::string expect_throw(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no exception";
  return {};
}

}  // namespace tessera_test
