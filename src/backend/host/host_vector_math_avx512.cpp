// SPDX-License-Identifier: BSD-3-Clause
// The vector loops for AVX-512 with DQ (whose int64-double conversions xsimd's double exp and
// log need; without them pow took twice as long). xsimd 8.1 builds its avx512dq on avx512cd,
// whose registers it only declares for avx512bw, so this unit is for AVX-512 F, CD, DQ and BW
// (every AVX-512 CPU since Skylake-SP) and is compiled with -mavx512f -mavx512cd -mavx512dq
// -mavx512bw -mfma.
#define TESSERA_VECTOR_ARCH xsimd::avx512bw
#define TESSERA_VECTOR_TABLE host_vector_math_avx512
#define TESSERA_VECTOR_RENAME(name) tessera_avx512_##name
#include "backend/host/host_vector_math_isa.inl"
