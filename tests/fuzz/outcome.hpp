// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file outcome.hpp
/// What a fuzzed call may do: succeed, or throw one of the tessera exceptions the target
/// predicted from the arguments. Anything else (another exception, a missing one) is a finding.

#include <cstdio>
#include <exception>
#include <string>

#include "fuzz_input.hpp"

namespace tessera_fuzz {

/// The exception kinds a call may raise (a bit set; none = the call must succeed).
enum Expect : unsigned {
  kNone = 0,
  kShape = 1,
  kIndex = 2,
  kValue = 4,
  kDevice = 8,
  kAnyError = 16  ///< also accept the base tessera::Error (memory exhaustion)
};

/// Runs `call`. Returns true when it succeeded (and no error was predicted), false when it
/// threw a predicted exception whose message names `op`; aborts otherwise.
template <class F>
bool run_expecting(unsigned expected, const char* op, F&& call) {
  auto check_message = [&](const std::exception& e) {
    if (std::string(e.what()).find(op) == std::string::npos) {
      std::fprintf(stderr, "message does not name %s: %s\n", op, e.what());
      fail("error message does not name the op");
    }
  };
  try {
    call();
  } catch (const ts::ShapeError& e) {
    if (!(expected & kShape)) {
      std::fprintf(stderr, "unexpected ShapeError: %s\n", e.what());
      fail("unexpected ShapeError");
    }
    check_message(e);
    return false;
  } catch (const ts::IndexError& e) {
    if (!(expected & kIndex)) {
      std::fprintf(stderr, "unexpected IndexError: %s\n", e.what());
      fail("unexpected IndexError");
    }
    check_message(e);
    return false;
  } catch (const ts::ValueError& e) {
    if (!(expected & kValue)) {
      std::fprintf(stderr, "unexpected ValueError: %s\n", e.what());
      fail("unexpected ValueError");
    }
    check_message(e);
    return false;
  } catch (const ts::DeviceError& e) {
    if (!(expected & kDevice)) {
      std::fprintf(stderr, "unexpected DeviceError: %s\n", e.what());
      fail("unexpected DeviceError");
    }
    return false;
  } catch (const ts::Error& e) {
    if (!(expected & kAnyError)) {
      std::fprintf(stderr, "unexpected tessera::Error: %s\n", e.what());
      fail("unexpected tessera::Error");
    }
    return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "non-tessera exception: %s\n", e.what());
    fail("non-tessera exception");
  }
  if (expected != kNone && !(expected & kAnyError)) {
    std::fprintf(stderr, "%s: expected an error (mask %u), the call succeeded\n", op, expected);
    fail("missing error");
  }
  return true;
}

}  // namespace tessera_fuzz
