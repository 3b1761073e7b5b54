// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file tensor.hpp
/// `Tensor<T>` with everything it can do: the class (core/tensor_class.hpp), evaluation of
/// expressions into it, reductions, and the operations whose methods it declares (ops/).

#include "tessera/core/tensor_class.hpp"
#include "tessera/expr/composite.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/reduce.hpp"
#include "tessera/expr/reduce_dims.hpp"
#include "tessera/linalg/cdist.hpp"
#include "tessera/linalg/einsum.hpp"
#include "tessera/linalg/matmul.hpp"
#include "tessera/ops/activations.hpp"
#include "tessera/ops/indexing.hpp"
#include "tessera/ops/joining.hpp"
#include "tessera/ops/nonzero.hpp"
#include "tessera/ops/ordering.hpp"
#include "tessera/ops/scatter.hpp"
#include "tessera/ops/searchsorted.hpp"
#include "tessera/ops/sets.hpp"
#include "tessera/ops/shapes.hpp"
#include "tessera/ops/statistics.hpp"
#include "tessera/random/random.hpp"
