// SPDX-License-Identifier: BSD-3-Clause
// Compiled by nvcc: in this file expressions over CUDA tensors fuse into one GPU kernel (and CPU
// tensors run on the host executor), while main.cpp, compiled by the host compiler, evaluates
// the same kind of expression its own way. Linking both checks that the two flavours coexist.
#include <tessera/tessera.hpp>

namespace ts = tessera;

/// sum(a * 2 + 1) on a's device, evaluated by the nvcc flavour.
double fused_sum(const ts::Tensor<float>& a) {
  ts::Tensor<float> b = a * 2.0f + 1.0f;
  return ts::sum(b);
}
