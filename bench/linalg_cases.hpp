#pragma once
/// @file linalg_cases.hpp
/// The cases of bench_linalg (issue "linear algebra"), shared by every peer. Names read
/// "<case>/<peer>":
/// - mm_f32_512, mm_f64_512: one 512 x 512 product (the BLAS's own speed);
/// - bmm_f32_4096x8: 4096 products of 8 x 8 (the per-call overhead of small products);
/// - matmul_f32_tn_1024x256: a transposed left operand (read in place with a flag);
/// - mm_i32_256: an integer product (the library's own kernel; libtorch's CPU kernel);
/// - einsum_bij_bjk_f32: "bij,bjk->bik", 64 x (64 x 64)(64 x 64);
/// - cdist_f32_2000x64: cdist of 2000 x 64 by 2000 x 64 (p = 2, the product form).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace bench::linalg {

/// Case names, in registration order.
inline const std::vector<std::string>& names() {
  static const std::vector<std::string> s = {
      "mm_f32_512", "mm_f64_512",         "bmm_f32_4096x8",   "matmul_f32_tn_1024x256",
      "mm_i32_256", "einsum_bij_bjk_f32", "cdist_f32_2000x64"};
  return s;
}

using bench::register_once;

}  // namespace bench::linalg
