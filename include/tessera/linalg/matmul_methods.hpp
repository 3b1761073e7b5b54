// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file matmul_methods.hpp
/// The matrix products as methods of every tensor and expression (`a.matmul(b)`, `v.dot(w)`,
/// `(a * 2).mm(b)`), declared before Tensor is complete; tessera/linalg/matmul.hpp defines them
/// as their free functions.

#include "tessera/core/macros.hpp"

TESSERA_EVAL_TAGS_BEGIN

namespace tessera {

/// The matrix products as methods; each is the free function of the same name with this
/// expression as its first operand (tessera/linalg/matmul.hpp documents them).
template <class D>
struct MatmulMethods {
  /// ts::matmul(*this, other).
  template <class B>
  TESSERA_EVAL_TAG auto matmul(const B& other) const;
  /// ts::mm(*this, other).
  template <class B>
  TESSERA_EVAL_TAG auto mm(const B& other) const;
  /// ts::bmm(*this, other).
  template <class B>
  TESSERA_EVAL_TAG auto bmm(const B& other) const;
  /// ts::mv(*this, vec).
  template <class B>
  TESSERA_EVAL_TAG auto mv(const B& vec) const;
  /// ts::dot(*this, other).
  template <class B>
  TESSERA_EVAL_TAG auto dot(const B& other) const;
  /// ts::outer(*this, other).
  template <class B>
  TESSERA_EVAL_TAG auto outer(const B& other) const;

 private:
  const D& self() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace tessera

TESSERA_EVAL_TAGS_END
