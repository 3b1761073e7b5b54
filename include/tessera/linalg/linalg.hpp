// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file linalg.hpp
/// Linear algebra (torch.linalg semantics): matrix products (linalg/matmul.hpp), einsum
/// (linalg/einsum.hpp), distances (linalg/cdist.hpp), decompositions and solvers
/// (linalg/decompositions.hpp), norms and the trace (linalg/norms.hpp).

#include "tessera/linalg/cdist.hpp"
#include "tessera/linalg/decompositions.hpp"
#include "tessera/linalg/einsum.hpp"
#include "tessera/linalg/matmul.hpp"
#include "tessera/linalg/norms.hpp"
