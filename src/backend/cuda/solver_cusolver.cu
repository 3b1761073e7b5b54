// SPDX-License-Identifier: BSD-3-Clause
// The device runtime's solver routines on cuSOLVER's dense API (CUDA builds only), queued on the
// legacy default stream that every tessera operation uses. A batch of several matrices takes one
// batched call where the library has one (queue_batched: cuSOLVER's potrfBatched and Jacobi
// syevjBatched, cuBLAS's getrfBatched and getrsBatched); otherwise one call per matrix, with one
// workspace sized for the batch's matrices (they share their extents). One status per matrix
// on the device, copied to the host once at the end (the only wait).

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "backend/cuda/library_handles.hpp"
#include "backend/solver_call.hpp"
#include "tessera/core/device_runtime.hpp"
#include "tessera/core/error.hpp"

namespace tessera::detail::device_runtime {

namespace {

void check_cusolver(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS) {
    raise<DeviceError>("linalg", what, " failed with cuSOLVER status ", static_cast<int>(status));
  }
}

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    raise<DeviceError>("linalg", what, " failed: ", cublasGetStatusString(status));
  }
}

int cusolver_int(std::int64_t v) {
  if (v > INT_MAX) {
    raise<ValueError>("linalg", "an extent of ", v, " exceeds cuSOLVER's 32-bit limit (", INT_MAX,
                      ")");
  }
  return static_cast<int>(v);
}

/// This thread's cuSOLVER handle for `device`.
cusolverDnHandle_t handle_for(int device) {
  return per_thread_handle<cusolverDnHandle_t>(device, "linalg", [] {
    cusolverDnHandle_t h = nullptr;
    check_cusolver(cusolverDnCreate(&h), "cusolverDnCreate");
    check_cusolver(cusolverDnSetStream(h, cudaStreamLegacy), "cusolverDnSetStream");
    return h;
  });
}

/// Device memory for the call's duration (stream-ordered, like every tessera allocation).
class DeviceBuffer {
 public:
  DeviceBuffer(std::size_t bytes, int device)
      : device_(device), ptr_(allocate(std::max<std::size_t>(bytes, 1), device)) {}
  ~DeviceBuffer() { deallocate(ptr_, device_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class U>
  U* as() const {
    return static_cast<U*>(ptr_);
  }

 private:
  int device_;
  void* ptr_;
};

// The library routine prefix + S|D + name in T's precision, its status checked by `check`.
#define TESSERA_TYPED_ROUTINE(check, prefix, name, T, ...)    \
  do {                                                        \
    if constexpr (std::is_same_v<T, float>) {                 \
      check(prefix##S##name(__VA_ARGS__), #prefix "S" #name); \
    } else {                                                  \
      check(prefix##D##name(__VA_ARGS__), #prefix "D" #name); \
    }                                                         \
  } while (false)
// cuSOLVER's cusolverDnS<name> or cusolverDnD<name>; cuBLAS's cublasS<name> or cublasD<name>.
#define TESSERA_CUSOLVER(name, T, ...) \
  TESSERA_TYPED_ROUTINE(check_cusolver, cusolverDn, name, T, __VA_ARGS__)
#define TESSERA_CUBLAS(name, T, ...) \
  TESSERA_TYPED_ROUTINE(check_cublas, cublas, name, T, __VA_ARGS__)

/// Writes the device addresses of `count` matrices in `base` (`stride` elements apart) into
/// `pointers`, as the batched routines take them: an array of pointers in device memory.
template <class T>
void store_matrix_pointers(const DeviceBuffer& pointers, T* base, std::int64_t stride,
                           std::int64_t count, int device) {
  std::vector<T*> host(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) host[static_cast<std::size_t>(i)] = base + i * stride;
  copy_from_host(pointers.as<void>(), host.data(), sizeof(T*) * host.size(), device);
}

/// Up to this order, a batch of several matrices takes the batched routines: cuSOLVER's Jacobi
/// eigensolver and cuBLAS's LU are for matrices of at most 32 x 32 (their documentation's
/// limit and advice); potrfBatched has no limit.
constexpr std::int64_t kBatchedUpTo = 32;

/// Queues the whole call as one batched routine, statuses into `info` (count of them), where one
/// applies: potrf (any order), syevd (Jacobi, order up to 32; eigenvalues ascending, as syevd's),
/// getrf and gesv (LU of order up to 32, pivots 1-based as LAPACK's). Returns false otherwise.
/// Not yet run on a GPU (docs/gpu.md).
template <class T>
bool queue_batched(const SolverCall& c, cusolverDnHandle_t h, int device, int* info) {
  if (c.count < 2) return false;
  const bool small = c.n <= kBatchedUpTo;
  const int n = cusolver_int(c.n);
  const int count = cusolver_int(c.count);
  T* a = static_cast<T*>(c.a);
  const std::size_t pointer_bytes = sizeof(T*) * static_cast<std::size_t>(c.count);
  switch (c.routine) {
    case SolverRoutine::Potrf: {
      const DeviceBuffer pointers(pointer_bytes, device);
      store_matrix_pointers(pointers, a, c.n * c.n, c.count, device);
      TESSERA_CUSOLVER(potrfBatched, T, h, CUBLAS_FILL_MODE_LOWER, n, pointers.as<T*>(), n, info,
                       count);
      return true;
    }
    case SolverRoutine::Syevd: {
      if (!small) return false;
      syevjInfo_t params = nullptr;
      check_cusolver(cusolverDnCreateSyevjInfo(&params), "cusolverDnCreateSyevjInfo");
      // Destroyed on every way out, a failed call's exception included.
      const std::unique_ptr<syevjInfo, cusolverStatus_t (*)(syevjInfo_t)> owned(
          params, &cusolverDnDestroySyevjInfo);
      T* w = static_cast<T*>(c.values);
      int lwork = 0;
      TESSERA_CUSOLVER(syevjBatched_bufferSize, T, h, CUSOLVER_EIG_MODE_VECTOR,
                       CUBLAS_FILL_MODE_LOWER, n, a, n, w, &lwork, params, count);
      const DeviceBuffer work(sizeof(T) * static_cast<std::size_t>(std::max(lwork, 1)), device);
      TESSERA_CUSOLVER(syevjBatched, T, h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a,
                       n, w, work.as<T>(), lwork, info, params, count);
      return true;
    }
    case SolverRoutine::Getrf:
    case SolverRoutine::Gesv: {
      if (!small) return false;
      cublasHandle_t blas = cublas_handle(device);
      const DeviceBuffer pointers(pointer_bytes, device);
      store_matrix_pointers(pointers, a, c.n * c.n, c.count, device);
      TESSERA_CUBLAS(getrfBatched, T, blas, n, pointers.as<T*>(), n, c.pivots, info, count);
      if (c.routine == SolverRoutine::Gesv) {
        // getrsBatched's status is an argument check, on the host; a singular factor's
        // solution is discarded, since the caller raises on getrf's status.
        const DeviceBuffer rhs(pointer_bytes, device);
        store_matrix_pointers(rhs, static_cast<T*>(c.b), c.n * c.k, c.count, device);
        int arguments = 0;
        TESSERA_CUBLAS(getrsBatched, T, blas, CUBLAS_OP_N, n, cusolver_int(c.k), pointers.as<T*>(),
                       n, c.pivots, rhs.as<T*>(), n, &arguments, count);
        if (arguments != 0) {
          raise<DeviceError>("linalg", "cublas getrsBatched refused argument ", -arguments);
        }
      }
      return true;
    }
    default:
      return false;
  }
}

/// The workspace size (elements) of the call's routine, the same for every matrix of the call.
template <class T>
int workspace_size(const SolverCall& c, cusolverDnHandle_t h, T* a, T* values) {
  const int m = cusolver_int(c.m), n = cusolver_int(c.n), k = cusolver_int(c.k);
  int size = 0;
  switch (c.routine) {
    case SolverRoutine::Potrf:
      TESSERA_CUSOLVER(potrf_bufferSize, T, h, CUBLAS_FILL_MODE_LOWER, n, a, n, &size);
      break;
    case SolverRoutine::Getrf:
    case SolverRoutine::Gesv:
      TESSERA_CUSOLVER(getrf_bufferSize, T, h, n, n, a, n, &size);
      break;
    case SolverRoutine::Geqrf:
      TESSERA_CUSOLVER(geqrf_bufferSize, T, h, m, n, a, m, &size);
      break;
    case SolverRoutine::Orgqr:
      TESSERA_CUSOLVER(orgqr_bufferSize, T, h, m, k, k, a, m, values, &size);
      break;
    case SolverRoutine::Syevd:
      TESSERA_CUSOLVER(syevd_bufferSize, T, h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                       a, n, values, &size);
      break;
    case SolverRoutine::Svd:
      TESSERA_CUSOLVER(gesvd_bufferSize, T, h, m, n, &size);
      break;
  }
  return std::max(size, 1);
}

/// Queues the call's routine for matrix i, its status into `info`.
template <class T>
void queue_one(const SolverCall& c, cusolverDnHandle_t h, std::int64_t i, T* work, int lwork,
               T* rwork, int* info) {
  const int m = cusolver_int(c.m), n = cusolver_int(c.n), k = cusolver_int(c.k);
  T* a = static_cast<T*>(c.a) + i * c.m * c.n;
  switch (c.routine) {
    case SolverRoutine::Potrf:
      TESSERA_CUSOLVER(potrf, T, h, CUBLAS_FILL_MODE_LOWER, n, a, n, work, lwork, info);
      break;
    case SolverRoutine::Getrf:
      TESSERA_CUSOLVER(getrf, T, h, n, n, a, n, work, c.pivots + i * c.n, info);
      break;
    case SolverRoutine::Gesv: {
      // getrs after a singular getrf divides by the zero pivot; its output is discarded, since
      // the caller raises on getrf's status.
      T* b = static_cast<T*>(c.b) + i * c.n * c.k;
      int* pivots = c.pivots + i * c.n;
      TESSERA_CUSOLVER(getrf, T, h, n, n, a, n, work, pivots, info);
      TESSERA_CUSOLVER(getrs, T, h, CUBLAS_OP_N, n, k, a, n, pivots, b, n, info + c.count);
      break;
    }
    case SolverRoutine::Geqrf: {
      T* tau = static_cast<T*>(c.values) + i * std::min(c.m, c.n);
      TESSERA_CUSOLVER(geqrf, T, h, m, n, a, m, tau, work, lwork, info);
      break;
    }
    case SolverRoutine::Orgqr: {
      const T* tau = static_cast<const T*>(c.values) + i * c.k;
      TESSERA_CUSOLVER(orgqr, T, h, m, k, k, a, m, tau, work, lwork, info);
      break;
    }
    case SolverRoutine::Syevd: {
      T* w = static_cast<T*>(c.values) + i * c.n;
      TESSERA_CUSOLVER(syevd, T, h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w,
                       work, lwork, info);
      break;
    }
    case SolverRoutine::Svd: {
      const bool vectors = c.job != 'N';
      const std::int64_t ucols = c.job == 'A' ? c.m : c.n;
      T* s = static_cast<T*>(c.values) + i * c.n;
      T* u = vectors ? static_cast<T*>(c.u) + i * c.m * ucols : nullptr;
      T* vt = vectors ? static_cast<T*>(c.vt) + i * c.n * c.n : nullptr;
      const auto job = static_cast<signed char>(c.job);
      TESSERA_CUSOLVER(gesvd, T, h, job, job, m, n, a, m, s, u, vectors ? m : 1, vt,
                       vectors ? n : 1, work, lwork, rwork, info);
      break;
    }
  }
}

template <class T>
void run_typed(const SolverCall& c, int device) {
  if (c.count == 0) return;
  cusolverDnHandle_t h = handle_for(device);
  // Statuses: one per matrix, and for Gesv getrs's after them (zero where the batched routines
  // ran: theirs is an argument check).
  const std::size_t statuses = static_cast<std::size_t>(c.count) * 2;
  const DeviceBuffer info(sizeof(int) * statuses, device);
  fill_bytes(info.as<void>(), 0, sizeof(int) * statuses, device);
  if (!queue_batched<T>(c, h, device, info.as<int>())) {
    T* first = static_cast<T*>(c.a);
    const int lwork = workspace_size<T>(c, h, first, static_cast<T*>(c.values));
    const DeviceBuffer work(sizeof(T) * static_cast<std::size_t>(lwork), device);
    // gesvd's rwork: the unconverged superdiagonal, min(m, n) - 1 values.
    const DeviceBuffer rwork(sizeof(T) * static_cast<std::size_t>(std::max<std::int64_t>(c.n, 1)),
                             device);
    for (std::int64_t i = 0; i < c.count; ++i) {
      queue_one<T>(c, h, i, work.as<T>(), lwork, rwork.as<T>(), info.as<int>() + i);
    }
  }
  // A getrs argument error (never expected) counts as the matrix's status if getrf had none.
  std::vector<int> host(statuses, 0);
  copy_to_host(host.data(), info.as<int>(), sizeof(int) * statuses, device);
  for (std::int64_t i = 0; i < c.count; ++i) {
    const int status = host[static_cast<std::size_t>(i)];
    const int second = host[static_cast<std::size_t>(c.count + i)];
    c.info[i] = status == 0 && c.routine == SolverRoutine::Gesv ? second : status;
  }
}

}  // namespace

void lapack(const SolverCall& call, int device) {
  const DeviceScope scope(device);
  if (call.type == GemmType::Float32) {
    run_typed<float>(call, device);
  } else {
    run_typed<double>(call, device);
  }
}

}  // namespace tessera::detail::device_runtime
