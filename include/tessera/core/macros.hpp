#pragma once
/// @file macros.hpp
/// Portability macros shared by host-compiled and nvcc-compiled code.

#if defined(__CUDACC__)
/// Marks a function callable from host and device code (empty for the host compiler).
#define TESSERA_HD __host__ __device__
#else
#define TESSERA_HD
#endif

// Expression evaluation differs between host-compiled and nvcc-compiled translation units
// (node by node through precompiled kernels vs one fused kernel). Templates that evaluate
// expressions live in this inline namespace so the two flavours never share a mangled name (ODR).
#if defined(__CUDACC__)
#define TESSERA_EVAL_NS eval_nvcc
#else
#define TESSERA_EVAL_NS eval_host
#endif
