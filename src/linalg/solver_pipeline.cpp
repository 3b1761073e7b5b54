// SPDX-License-Identifier: BSD-3-Clause
// The solver pipeline's steps (solver_pipeline.hpp), once per floating dtype: the SolverCall and
// its run on a device, the copies into and out of column-major buffers (tiled and in parallel
// on the host, transposed views on a device), the non-finite screen, and the SVD that svd,
// svdvals and lstsq share.

#include "linalg/solver_pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backend/host/lapack_solver.hpp"
#include "tessera/core/device_runtime.hpp"

namespace tessera::detail::solver_pipeline {

using namespace solver_rules;  // NOLINT(google-build-using-namespace): this file's vocabulary
using lapack_batch::load_columns;
using lapack_batch::store_rows;

namespace {

/// The batch shape of `t` (all but its last two dims) and how many matrices it holds.
std::vector<std::int64_t> batch_of(const Shape& s, std::int64_t& count) {
  std::vector<std::int64_t> batch(s.begin(), s.end() - 2);
  count = 1;
  for (const std::int64_t d : batch) count *= d;
  return batch;
}

/// The element offset of matrix `i` of a tensor with these batch extents and strides.
std::int64_t matrix_offset(std::int64_t i, const std::vector<std::int64_t>& batch,
                           const Shape& strides) {
  std::int64_t offset = 0;
  for (std::size_t d = batch.size(); d-- > 0;) {
    offset += (i % batch[d]) * strides[d];
    i /= batch[d];
  }
  return offset;
}

}  // namespace

template <class T>
SolverCall call_for(SolverRoutine routine, std::int64_t count, std::int64_t rows,
                    std::int64_t cols) {
  SolverCall call;
  call.routine = routine;
  call.type = std::is_same_v<T, float> ? GemmType::Float32 : GemmType::Float64;
  call.count = count;
  call.m = rows;
  call.n = cols;
  return call;
}

std::vector<lapack_int> run(SolverCall& call, Device device) {
  std::vector<std::int32_t> info(static_cast<std::size_t>(call.count), 0);
  call.info = info.data();
  if (device.is_cpu()) {
    host_ops::lapack_solver(call);
  } else {
    device_runtime::lapack(call, device.index());
  }
  return {info.begin(), info.end()};
}

template <class T>
Tensor<T> columns_of(const Tensor<T>& a, std::vector<char>* nan_in) {
  if (!a.device().is_cpu()) {
    if (nan_in != nullptr) {
      const std::vector<lapack_int> flags = non_finite(a, false);
      nan_in->resize(flags.size());
      std::transform(flags.begin(), flags.end(), nan_in->begin(),
                     [](lapack_int f) { return static_cast<char>(f != 0 ? 1 : 0); });
    }
    return a.mT().clone();
  }
  const Shape& s = a.shape();
  std::int64_t count = 0;
  std::vector<std::int64_t> dims = batch_of(s, count);
  const std::int64_t rows = s[s.size() - 2];
  const std::int64_t cols = s[s.size() - 1];
  dims.push_back(cols);
  dims.push_back(rows);
  Tensor<T> buf = Tensor<T>::empty(Shape(dims));
  const Tensor<T> in = a.is_contiguous() ? a : a.contiguous();
  if (nan_in != nullptr) nan_in->assign(static_cast<std::size_t>(count), 0);
  const std::int64_t size = rows * cols;
  // In parallel even for 10000 4 x 4 matrices: 0.1 ms faster than one thread (2-core VM).
  lapack_batch::for_each_run(count, [&](std::int64_t first, std::int64_t end) {
    for (std::int64_t i = first; i < end; ++i) {
      const bool nan = load_columns(in.data() + i * size, rows, cols, buf.data() + i * size, rows);
      if (nan_in != nullptr) (*nan_in)[static_cast<std::size_t>(i)] = nan ? 1 : 0;
    }
  });
  return buf;
}

template <class T>
Tensor<T> rows_of(const Tensor<T>& columns, std::int64_t rows, Triangle part) {
  if (!columns.device().is_cpu()) {
    const Tensor<T> view = columns.narrow(-1, 0, rows).mT();
    return part == Triangle::Lower   ? view.tril()
           : part == Triangle::Upper ? view.triu()
                                     : view.contiguous();
  }
  const Shape& s = columns.shape();
  std::int64_t count = 0;
  std::vector<std::int64_t> dims = batch_of(s, count);
  const std::vector<std::int64_t> batch = dims;
  const std::int64_t cols = s[s.size() - 2];
  const std::int64_t ld = columns.strides()[s.size() - 2];
  dims.push_back(rows);
  dims.push_back(cols);
  Tensor<T> out = Tensor<T>::empty(Shape(dims));
  lapack_batch::for_each_run(count, [&](std::int64_t first, std::int64_t end) {
    for (std::int64_t i = first; i < end; ++i) {
      store_rows(columns.data() + matrix_offset(i, batch, columns.strides()), ld, rows, cols,
                 out.data() + i * rows * cols, part);
    }
  });
  return out;
}

template <class T>
std::vector<lapack_int> non_finite(const Tensor<T>& a, bool infinite) {
  // x · 0 is NaN exactly where x is NaN or infinite, so one reduction serves both tests.
  const T scale = infinite ? T(0) : T(1);
  const std::vector<bool> flags = tessera::any(tessera::isnan(a * scale), Dims{-2, -1}).to_vector();
  std::vector<lapack_int> info(flags.size(), 0);
  for (std::size_t i = 0; i < flags.size(); ++i) info[i] = flags[i] ? kNonFinite : 0;
  return info;
}

// The routine needs rows ≥ columns (cuSOLVER's gesvd does). A's row-major buffer is the
// column-major Aᵀ, so where A is square or wide, Aᵀ = U' S V'ᵀ is factored with no copy in:
// then A = V' S U'ᵀ, U = V' and Vh = U'ᵀ, which are the output buffers read row-major. A tall
// A is copied column-major, and its U and Vᵀ are read back transposed.
template <class T>
linalg::SVDResult<T> factor_svd(const Tensor<T>& a, const MatrixBatch& m, bool full_matrices,
                                bool compute_uv, std::vector<lapack_int>& info) {
  const Device device = a.device();
  const bool transposed = m.rows <= m.cols;
  const std::int64_t rows = transposed ? m.cols : m.rows;
  const std::int64_t k = transposed ? m.rows : m.cols;
  const std::int64_t ucols = full_matrices ? rows : k;
  Tensor<T> buf = !transposed ? columns_of(a) : a.is_contiguous() ? a.clone() : a.contiguous();
  linalg::SVDResult<T> out;
  out.S = Tensor<T>::empty(shape_with(m.batch, {k}), device);
  Tensor<T> u;
  Tensor<T> vt;
  SolverCall call = call_for<T>(SolverRoutine::Svd, m.count, rows, k);
  call.a = buf.data();
  call.values = out.S.data();
  call.job = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  if (compute_uv) {
    u = Tensor<T>::empty(shape_with(m.batch, {ucols, rows}), device);
    vt = Tensor<T>::empty(shape_with(m.batch, {k, k}), device);
    call.u = u.data();
    call.vt = vt.data();
  }
  info = run(call, device);
  if (compute_uv) {
    out.U = transposed ? vt : rows_of(u, rows);
    out.Vh = transposed ? u : rows_of(vt, k);
  }
  return out;
}

#define TESSERA_INSTANTIATE_SOLVER_PIPELINE(T)                                                  \
  template SolverCall call_for<T>(SolverRoutine, std::int64_t, std::int64_t, std::int64_t);     \
  template Tensor<T> columns_of<T>(const Tensor<T>&, std::vector<char>*);                       \
  template Tensor<T> rows_of<T>(const Tensor<T>&, std::int64_t, Triangle);                      \
  template std::vector<lapack_int> non_finite<T>(const Tensor<T>&, bool);                       \
  template linalg::SVDResult<T> factor_svd<T>(const Tensor<T>&, const MatrixBatch&, bool, bool, \
                                              std::vector<lapack_int>&);
TESSERA_INSTANTIATE_SOLVER_PIPELINE(float)
TESSERA_INSTANTIATE_SOLVER_PIPELINE(double)
#undef TESSERA_INSTANTIATE_SOLVER_PIPELINE

}  // namespace tessera::detail::solver_pipeline
