// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file macros.hpp
/// Portability macros shared by host-compiled and device-compiled code.

#if defined(__CUDACC__)
/// Marks a function callable from host and device code (empty for the host compiler).
#define TESSERA_HD __host__ __device__
#else
/// Marks a function callable from host and device code (empty for the host compiler).
#define TESSERA_HD
#endif

// Unrolls the next loop 4 times where the compiler takes a hint (GCC and Clang host code). For
// the vectorised unit-stride loops of the host executor: one vector per iteration spends as
// much on the loop's own counter and branch as on the work once the data is in L1/L2 (measured
// with GCC 12: 10x1000 floats + a row, 1.55 -> 1.25 us). nvcc-compiled units get nothing.
#if defined(TESSERA_UNROLL_4)
// Defined by the user (e.g. empty, to compare against the compiler's own choice).
#elif defined(__CUDACC__)
/// Loop-unroll hint for the host executor's unit-stride loops (see above); empty under nvcc.
#define TESSERA_UNROLL_4
#elif defined(__clang__)
/// Loop-unroll hint for the host executor's unit-stride loops (see above): `unroll 4`.
#define TESSERA_UNROLL_4 _Pragma("unroll 4")
#elif defined(__GNUC__)
/// Loop-unroll hint for the host executor's unit-stride loops (see above): `GCC unroll 4`.
#define TESSERA_UNROLL_4 _Pragma("GCC unroll 4")
#else
/// Loop-unroll hint for the host executor's unit-stride loops (see above); empty here.
#define TESSERA_UNROLL_4
#endif

// Compiles the next function once per x86-64 vector extension and lets the loader pick the
// widest the CPU has (GCC's target_clones, an ifunc; Clang 14 refuses it on templates). For the
// reduction loops: their lanes fix the order of every combine, so wider vectors give the same bits,
// but the baseline x86-64 target has 2 doubles per vector and a float sum accumulated in double is
// bound by it (sum(a * b), 10^6 floats, one thread of an AMD EPYC: 197 us baseline, 94 us
// AVX2, 66 us AVX-512, identical results). No contraction: AVX-512F brings FMA, and GCC would
// fuse a double multiply into the add (seen: vfmadd in a double sum(a * b)), which changes
// results, hence fp-contract=off on the clones. GCC host code on x86-64 ELF only (nvcc and
// Clang get nothing).
#if defined(TESSERA_VECTOR_CLONES)
// Defined by the user (e.g. empty, to build for the baseline alone).
#elif defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__CUDACC__)
/// Builds the next function for AVX-512F, AVX2 and the baseline, picked at load time.
#define TESSERA_VECTOR_CLONES \
  [[gnu::target_clones("avx512f", "avx2", "default"), gnu::optimize("fp-contract=off")]]
#else
/// Builds the next function for the baseline alone (not GCC host code for x86-64 ELF).
#define TESSERA_VECTOR_CLONES
#endif

// Inlines every call in the next function (GCC and Clang host code). For the vector clones of
// the reduction loops: GCC does not inline a row loop compiled for the baseline into its AVX2
// clone by itself, and a clone that calls the baseline loop gains little (sum over the rows of
// a 4000 x 4000 float matrix, one thread: 3.5 ms calling, 2.8 ms inlined).
#if defined(__GNUC__) && !defined(__CUDACC__)
/// Inlines every call in the next function.
#define TESSERA_FLATTEN [[gnu::flatten]]
#else
/// Inlines every call in the next function (nothing under nvcc).
#define TESSERA_FLATTEN
#endif

// Keeps GCC from specialising the next function for constant arguments (interprocedural
// constant propagation clones it per call site's constants): for a schedule that takes its
// op-specific steps as function pointers, so that it is compiled once for every op.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
/// Compiles the next function once, whatever constants its callers pass.
#define TESSERA_NO_CLONE [[gnu::noclone]]
#else
/// Compiles the next function once (nothing to ask outside GCC host code).
#define TESSERA_NO_CLONE
#endif

// The same for the elementwise loops of the host executor (one output element per input
// element, so any vector width gives the same bits), with AVX2 as the widest: 512-bit vectors
// made these loops slower, not faster, on an Intel Xeon with AVX-512 (10^4 floats in L2, one
// thread, GCC 12: x + row 0.73 us with AVX2, 0.95 with AVX-512, 0.85 baseline; a float to double
// cast 1.49 / 1.58 / 2.16 us), where the reductions gain from them (see above).
#if defined(TESSERA_ELEMENTWISE_CLONES)
// Defined by the user (e.g. empty, to build for the baseline alone).
#elif defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__CUDACC__)
/// Builds the next function for AVX2 and the baseline, picked at load time.
#define TESSERA_ELEMENTWISE_CLONES \
  [[gnu::target_clones("avx2", "default"), gnu::optimize("fp-contract=off")]]
#else
/// Builds the next function for the baseline alone (not GCC host code for x86-64 ELF).
#define TESSERA_ELEMENTWISE_CLONES
#endif

/// 1 in translation units that compile device code: units compiled by nvcc, and in the
/// emulated-device build (`TESSERA_CUDA=EMULATED`) the units CMake compiles as device code
/// with the host compiler (`TESSERA_EMULATED_DEVICE_CODE`). Such units run expressions over
/// device tensors as one fused device algorithm; other units reach the device through the
/// library's precompiled entry points, node by node.
#if defined(__CUDACC__) || defined(TESSERA_EMULATED_DEVICE_CODE)
#define TESSERA_DEVICE_CODE 1
#else
/// 0 in host-compiled translation units (see above).
#define TESSERA_DEVICE_CODE 0
#endif

// Expression evaluation differs between host-compiled and device-compiled translation units
// (node by node through precompiled kernels vs one fused kernel). Templates that evaluate
// expressions live in this inline namespace so the two flavours never share a mangled name (ODR).
#if TESSERA_DEVICE_CODE
#define TESSERA_EVAL_NS eval_device
#else
#define TESSERA_EVAL_NS eval_host
#endif

/// Expands its argument, then spells it as a string literal.
#define TESSERA_STRINGIFY(x) TESSERA_STRINGIFY_TOKENS(x)
/// Spells its argument, unexpanded, as a string literal (TESSERA_STRINGIFY expands first).
#define TESSERA_STRINGIFY_TOKENS(x) #x

// A member function of Tensor (or of an operation mixin over Tensor) that evaluates an
// expression is one entity in both flavours, but its body differs; an ABI tag of the flavour
// gives it a mangled name of its flavour (`sum[abi:eval_host]`), as the inline namespace does
// for templates over expression nodes, without a parameter in the signature users read.
#if defined(TESSERA_DOXYGEN)
/// Tags the next function with the evaluation flavour of this translation unit (see above);
/// nothing in the API reference.
#define TESSERA_EVAL_TAG
#else
/// Tags the next function with the evaluation flavour of this translation unit (see above).
#define TESSERA_EVAL_TAG [[gnu::abi_tag(TESSERA_STRINGIFY(TESSERA_EVAL_NS))]]
#endif

// nvcc's front end re-reads the tag it emits for the host compiler and warns (#2648) that the
// second one supersedes the first; the two are the same tag, so the headers that tag functions
// open and close this quiet region around them.
#if defined(__NVCC__)
/// Opens a region of declarations that carry TESSERA_EVAL_TAG (quiet under nvcc, see above).
#define TESSERA_EVAL_TAGS_BEGIN _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 2648")
/// Closes the region TESSERA_EVAL_TAGS_BEGIN opened.
#define TESSERA_EVAL_TAGS_END _Pragma("nv_diagnostic pop")
#else
/// Opens a region of declarations that carry TESSERA_EVAL_TAG (quiet under nvcc, see above).
#define TESSERA_EVAL_TAGS_BEGIN
/// Closes the region TESSERA_EVAL_TAGS_BEGIN opened.
#define TESSERA_EVAL_TAGS_END
#endif
