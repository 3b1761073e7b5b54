// SPDX-License-Identifier: BSD-3-Clause
// The product engine: shapes, broadcasting and layouts of a batched matrix product, then one
// GemmCall to the backend of the dtype and device.

#include "tessera/linalg/product.hpp"
#include "tessera/core/element_traits.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include "backend/gemm_call.hpp"
#include "backend/host/gemm_blas.hpp"
#include "backend/integer_gemm_kernel.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"
#include "tessera/expr/broadcast.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

/// "2x3x4": a shape as PyTorch's product errors print it.
std::string dims_text(const Shape& shape) {
  std::ostringstream os;
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? "x" : "") << shape[i];
  return os.str();
}

Shape leading(const Shape& shape, std::size_t drop) {
  return Shape(shape.begin(), shape.end() - static_cast<std::ptrdiff_t>(drop));
}

Shape with_matrix(const Shape& batch, std::int64_t rows, std::int64_t cols) {
  std::vector<std::int64_t> dims = batch.vec();
  dims.push_back(rows);
  dims.push_back(cols);
  return Shape(dims);
}

// Every batch dimension of a tensor fits a GemmCall (a tensor has at most kMaxDims).
static_assert(kMaxDims - 2 <= kGemmMaxBatchDims);

/// Fills the batch part of `call` from the expanded operands (batch dims first, the same
/// extents): extent-1 dimensions dropped, neighbours merged where both operands step through
/// them as through one (fewer, longer batches: one strided-batched cuBLAS call).
template <class T>
void fill_batch(GemmCall& call, const Tensor<T>& a, const Tensor<T>& b, std::size_t nb) {
  call.batch_dims = 0;
  for (std::size_t d = 0; d < nb; ++d) {
    const std::int64_t extent = a.shape()[d];
    if (extent == 1) continue;
    const std::int64_t sa = a.strides()[d], sb = b.strides()[d];
    if (call.batch_dims > 0) {
      const int last = call.batch_dims - 1;
      if (call.a.batch_strides[last] == sa * extent && call.b.batch_strides[last] == sb * extent) {
        call.batch_shape[last] *= extent;
        call.a.batch_strides[last] = sa;
        call.b.batch_strides[last] = sb;
        continue;
      }
    }
    call.batch_shape[call.batch_dims] = extent;
    call.a.batch_strides[call.batch_dims] = sa;
    call.b.batch_strides[call.batch_dims] = sb;
    ++call.batch_dims;
  }
}

/// The matrix part of an operand: its first element and its last two strides.
template <class T>
void fill_matrix(GemmOperand& op, const Tensor<T>& x) {
  const auto& s = x.strides();
  op.data = x.data();
  op.row_stride = s[s.size() - 2];
  op.col_stride = s.back();
}

}  // namespace

template <class T>
Tensor<T> batched_matmul(const char* op, const Tensor<T>& a0, const Tensor<T>& b0) {
  const Device device = a0.device();
  if (b0.device() != device) {
    raise<DeviceError>(op, "expected both operands on the same device, but got ", a0.device(),
                       " and ", b0.device());
  }
  const std::size_t ra = a0.shape().size(), rb = b0.shape().size();
  const std::int64_t m = a0.shape()[ra - 2], k = a0.shape()[ra - 1];
  const std::int64_t n = b0.shape()[rb - 1];
  if (b0.shape()[rb - 2] != k) {
    raise<ShapeError>(op, "mat1 and mat2 shapes cannot be multiplied (", dims_text(a0.shape()),
                      " and ", dims_text(b0.shape()), ")");
  }
  const Shape batch = broadcast_shapes(op, leading(a0.shape(), 2), leading(b0.shape(), 2));
  const Shape out_shape = with_matrix(batch, m, n);
  if (out_shape.numel() == 0) return Tensor<T>::empty(out_shape, device);
  if (k == 0) return Tensor<T>::zeros(out_shape, device);

  Tensor<T> a = a0, b = b0;
  if constexpr (Floating<T>) {
    // A BLAS reads a matrix with one unit stride in place (transposed or not); others once
    // copied. The integer kernel reads any strides.
    const auto readable = [](const Tensor<T>& x, std::int64_t rows, std::int64_t cols) {
      const auto& s = x.strides();
      return blas_layout(rows, cols, s[s.size() - 2], s.back()).ok;
    };
    if (!readable(a, m, k)) a = a.contiguous();
    if (!readable(b, k, n)) b = b.contiguous();
  }
  a = a.expand(with_matrix(batch, m, k));
  b = b.expand(with_matrix(batch, k, n));
  GemmCall call;
  fill_batch(call, a, b, batch.size());
  fill_matrix(call.a, a);
  fill_matrix(call.b, b);
  call.m = m;
  call.n = n;
  call.k = k;
  Tensor<T> out = Tensor<T>::empty(out_shape, device);
  call.c = out.data();
  if constexpr (Floating<T>) {
    call.type = std::is_same_v<T, float> ? GemmType::Float32 : GemmType::Float64;
    if (device.is_cpu()) {
      host_ops::gemm_blas(call);
    } else {
      device_runtime::gemm(call, device.index());
    }
  } else {
    if (device.is_cpu()) {
      host_ops::integer_gemm<T>(call);
    } else {
      cuda_ops::integer_gemm<T>(device.index(), call);
    }
  }
  return out;
}

#define TESSERA_INSTANTIATE_BATCHED_MATMUL(T) \
  template Tensor<T> batched_matmul<T>(const char*, const Tensor<T>&, const Tensor<T>&);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_BATCHED_MATMUL)
#undef TESSERA_INSTANTIATE_BATCHED_MATMUL

}  // namespace tessera::detail
