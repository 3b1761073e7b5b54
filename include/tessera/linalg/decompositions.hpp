// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file decompositions.hpp
/// Matrix decompositions and solvers (torch.linalg semantics), float and double, batched over
/// leading dimensions: `ts::linalg::solve(A, B)`, `inv`, `det`, `slogdet`, `cholesky`, `qr`,
/// `eigh`, `svd`, `svdvals`, `lstsq`.
///
/// Every function evaluates its operands once (a tensor of any layout is read as it is, an
/// expression is evaluated into a tensor) and calls LAPACK, precompiled in the library
/// (src/linalg/decompositions.cpp): each matrix is copied into a column-major workspace, and
/// the matrices of a batch of small ones are factored in parallel. Device inputs stay on their
/// device: cuSOLVER on a GPU, the host's LAPACK on the emulated device.
/// Results are tensors, 0-d for one matrix where the answer is a number (`det(A).item()`).
/// Integer inputs are refused at compile time, as PyTorch refuses them.

#include <type_traits>

#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/evaluate.hpp"

namespace tessera {

namespace linalg {

/// The sign and the natural logarithm of the absolute value of determinants
/// (`auto [sign, logabsdet] = ts::linalg::slogdet(A);`): sign is 1 or -1, or 0 (with logabsdet
/// -inf) for a singular matrix.
template <class T>
struct SlogdetResult {
  Tensor<T> sign;       ///< 1, -1, or 0 for a singular matrix; A's batch shape
  Tensor<T> logabsdet;  ///< log |det A|; -inf for a singular matrix
};

/// The reduced QR decomposition A = Q R (`auto [Q, R] = ts::linalg::qr(A);`).
template <class T>
struct QRResult {
  Tensor<T> Q;  ///< (..., m, k), orthonormal columns, k = min(m, n)
  Tensor<T> R;  ///< (..., k, n), upper triangular, with the signs LAPACK gives
};

/// The eigendecomposition of symmetric matrices (`auto [evals, evecs] = ts::linalg::eigh(A);`).
template <class T>
struct EighResult {
  Tensor<T> eigenvalues;   ///< (..., n), ascending
  Tensor<T> eigenvectors;  ///< (..., n, n), eigenvector j in column j (sign unspecified)
};

/// The singular value decomposition A = U diag(S) Vh (`auto [U, S, Vh] = ts::linalg::svd(A);`).
template <class T>
struct SVDResult {
  Tensor<T> U;   ///< (..., m, m) full, (..., m, k) reduced; k = min(m, n)
  Tensor<T> S;   ///< (..., k), descending, non-negative
  Tensor<T> Vh;  ///< (..., n, n) full, (..., k, n) reduced
};

}  // namespace linalg

namespace detail {

/// A float or double element type, or a compile-time error naming the fix (PyTorch refuses
/// integer and bool inputs in torch.linalg too).
template <class T>
constexpr void require_linalg_floating() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "tessera: ts::linalg decompositions, solvers and norms need a float or double "
                "input (PyTorch refuses integers too); cast first, e.g. "
                "ts::linalg::inv(a.cast<double>())");
}

/// The shape rules of the linear-algebra functions: batches of matrices (at least 2 dims),
/// of square matrices, and the A and B of solve and of lstsq.
enum class LinalgShapes { Matrices, Square, Solve, Lstsq };

/// Checks the operands' shapes under `rule` (ShapeError, ValueError naming `op` and the
/// extents) before the operands are evaluated; `b` only for Solve and Lstsq.
void linalg_check_shapes(const char* op, LinalgShapes rule, const Shape& a, const Shape& b = {});

/// @name The precompiled kernels (src/linalg/decompositions.cpp, float and double)
/// Each checks its arguments (ShapeError, ValueError), runs on the host and returns results on
/// the input's device; LinAlgError for a singular or non-positive-definite matrix.
/// @{

/// torch.linalg.solve: X with A X = B; B (..., n) or (..., n, k), batch dims broadcast.
template <class T>
Tensor<T> linalg_solve(const Tensor<T>& a, const Tensor<T>& b);
/// torch.linalg.inv.
template <class T>
Tensor<T> linalg_inv(const Tensor<T>& a);
/// torch.linalg.det.
template <class T>
Tensor<T> linalg_det(const Tensor<T>& a);
/// torch.linalg.slogdet.
template <class T>
linalg::SlogdetResult<T> linalg_slogdet(const Tensor<T>& a);
/// torch.linalg.cholesky (lower).
template <class T>
Tensor<T> linalg_cholesky(const Tensor<T>& a);
/// torch.linalg.qr (reduced).
template <class T>
linalg::QRResult<T> linalg_qr(const Tensor<T>& a);
/// torch.linalg.eigh (lower triangle read).
template <class T>
linalg::EighResult<T> linalg_eigh(const Tensor<T>& a);
/// torch.linalg.svd (`full_matrices`), or only the singular values (`compute_uv` false:
/// U and Vh are left empty; `op` names the public function in errors).
template <class T>
linalg::SVDResult<T> linalg_svd(const char* op, const Tensor<T>& a, bool full_matrices,
                                bool compute_uv);
/// torch.linalg.lstsq's solution: B (..., m) or (..., m, k), batch dims broadcast.
template <class T>
Tensor<T> linalg_lstsq(const Tensor<T>& a, const Tensor<T>& b);
/// @}

}  // namespace detail

namespace linalg {
inline namespace TESSERA_EVAL_NS {

/// @name Decompositions and solvers (torch.linalg): float and double, batched over leading dims
/// @{

/// The solution X of A X = B for square, invertible A (..., n, n). B is a vector (..., n) when
/// it is 1-D or has A's batch shape plus n (then X is (..., n)), else (..., n, k); the batch
/// dims of A and B broadcast. ShapeError for a non-square A or extents that do not fit;
/// LinAlgError for an exactly singular matrix.
///
///     auto x = ts::linalg::solve(A, b);
template <Expression EA, Expression EB>
auto solve(const EA& a, const EB& b) {
  using T = typename std::remove_cvref_t<EA>::value_type;
  static_assert(std::is_same_v<T, typename std::remove_cvref_t<EB>::value_type>,
                "tessera: ts::linalg::solve needs A and B of one dtype; cast one of them first");
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.solve");
  tessera::detail::linalg_check_shapes("linalg.solve", tessera::detail::LinalgShapes::Solve,
                                       tessera::detail::expr_shape(a),
                                       tessera::detail::expr_shape(b));
  return tessera::detail::linalg_solve(tessera::detail::tensor_of(a),
                                       tessera::detail::tensor_of(b));
}

/// The inverse of each square matrix of A (..., n, n). LinAlgError for an exactly singular one
/// (naming its batch element and the zero diagonal element of its LU factor).
template <Expression E>
auto inv(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.inv");
  tessera::detail::linalg_check_shapes("linalg.inv", tessera::detail::LinalgShapes::Square,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_inv(tessera::detail::tensor_of(a));
}

/// The determinant of each square matrix of A (..., n, n): A's batch shape (0-d for one
/// matrix: `det(A).item()`), from the LU factorisation; 0 for a singular matrix (no error).
template <Expression E>
auto det(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.det");
  tessera::detail::linalg_check_shapes("linalg.det", tessera::detail::LinalgShapes::Square,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_det(tessera::detail::tensor_of(a));
}

/// The sign and log |det| of each square matrix of A: `auto [sign, logabsdet] = slogdet(A);`
/// (sign 0 and logabsdet -inf for a singular matrix).
template <Expression E>
auto slogdet(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.slogdet");
  tessera::detail::linalg_check_shapes("linalg.slogdet", tessera::detail::LinalgShapes::Square,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_slogdet(tessera::detail::tensor_of(a));
}

/// The lower Cholesky factor L (A = L Lᵀ) of each symmetric positive-definite matrix of A; only
/// the lower triangle of A is read. LinAlgError when a matrix is not positive-definite (naming
/// its batch element and the order of the failing leading minor).
template <Expression E>
auto cholesky(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.cholesky");
  tessera::detail::linalg_check_shapes("linalg.cholesky", tessera::detail::LinalgShapes::Square,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_cholesky(tessera::detail::tensor_of(a));
}

/// The reduced QR decomposition of each matrix of A (..., m, n): `auto [Q, R] = qr(A);` with
/// Q (..., m, k) orthonormal, R (..., k, n) upper triangular, k = min(m, n); R's diagonal has
/// the signs LAPACK's Householder QR gives (as PyTorch).
template <Expression E>
auto qr(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.qr");
  tessera::detail::linalg_check_shapes("linalg.qr", tessera::detail::LinalgShapes::Matrices,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_qr(tessera::detail::tensor_of(a));
}

/// Eigenvalues (ascending) and eigenvectors (in columns) of each symmetric matrix of A; only
/// the lower triangle is read: `auto [evals, evecs] = eigh(A);`. An eigenvector's sign is
/// unspecified (compare `A v = λ v`).
template <Expression E>
auto eigh(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.eigh");
  tessera::detail::linalg_check_shapes("linalg.eigh", tessera::detail::LinalgShapes::Square,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_eigh(tessera::detail::tensor_of(a));
}

/// The singular value decomposition of each matrix of A (..., m, n):
/// `auto [U, S, Vh] = svd(A, false);` with S descending. `full_matrices` (the default, as
/// PyTorch) gives square U (m, m) and Vh (n, n); false the reduced ones (m, k) and (k, n).
/// Singular vectors are unique only up to sign.
template <Expression E>
auto svd(const E& a, bool full_matrices = true) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.svd");
  tessera::detail::linalg_check_shapes("linalg.svd", tessera::detail::LinalgShapes::Matrices,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_svd("linalg.svd", tessera::detail::tensor_of(a), full_matrices,
                                     true);
}

/// The singular values of each matrix of A (..., m, n), descending: (..., min(m, n)).
template <Expression E>
auto svdvals(const E& a) {
  using T = typename std::remove_cvref_t<E>::value_type;
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.svdvals");
  tessera::detail::linalg_check_shapes("linalg.svdvals", tessera::detail::LinalgShapes::Matrices,
                                       tessera::detail::expr_shape(a));
  return tessera::detail::linalg_svd("linalg.svdvals", tessera::detail::tensor_of(a), false, false)
      .S;
}

/// The least-squares solution X minimising ‖A X − B‖ for A (..., m, n) of full rank (the
/// minimum-norm one when m < n), computed by LAPACK's SVD-based gelsd. B is (..., m, k), or a
/// vector (m) (or A's batch shape plus m), giving X (..., n, k) or (..., n); batch dims
/// broadcast. Returns the solution tensor only (torch.linalg.lstsq(A, B).solution).
template <Expression EA, Expression EB>
auto lstsq(const EA& a, const EB& b) {
  using T = typename std::remove_cvref_t<EA>::value_type;
  static_assert(std::is_same_v<T, typename std::remove_cvref_t<EB>::value_type>,
                "tessera: ts::linalg::lstsq needs A and B of one dtype; cast one of them first");
  tessera::detail::require_linalg_floating<T>();
  const tessera::detail::OpScope scope("linalg.lstsq");
  tessera::detail::linalg_check_shapes("linalg.lstsq", tessera::detail::LinalgShapes::Lstsq,
                                       tessera::detail::expr_shape(a),
                                       tessera::detail::expr_shape(b));
  return tessera::detail::linalg_lstsq(tessera::detail::tensor_of(a),
                                       tessera::detail::tensor_of(b));
}
/// @}

}  // namespace TESSERA_EVAL_NS
}  // namespace linalg

}  // namespace tessera
