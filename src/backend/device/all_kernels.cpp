// SPDX-License-Identifier: BSD-3-Clause
// The device kernels in one unit, for builds without a device (TESSERA_CUDA=OFF, or AUTO where
// no GPU is visible): there they are entry points no tensor reaches, compiled, unoptimised, only
// so that every build exports the same symbols. One unit parses Thrust and tessera's headers
// once instead of ten times (CMakeLists.txt). CUDA and emulated builds compile the files one by
// one, in parallel, as the device code they are.

#include "elementwise.cu"
#include "gather.cu"
#include "integer_gemm.cu"
#include "nonzero.cu"
#include "ordering.cu"
#include "ragged.cu"
#include "random.cu"
#include "reduce.cu"
#include "scatter.cu"
#include "searchsorted.cu"
