// SPDX-License-Identifier: BSD-3-Clause
// The vector loops for AVX2 with FMA (this unit is compiled with -mavx2 -mfma).
#define TESSERA_VECTOR_ARCH xsimd::fma3<xsimd::avx2>
#define TESSERA_VECTOR_TABLE host_vector_math_avx2
#define TESSERA_VECTOR_RENAME(name) tessera_avx2_##name
#include "backend/host/host_vector_math_isa.inl"
