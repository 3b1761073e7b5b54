// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file methods.hpp
/// The operation methods every expression has, one mixin per operation family. A method must
/// be declared before Tensor is complete (Tensor is an expression), while the operation's
/// header needs Tensor complete (its options hold tensors), so each family declares its
/// methods in `ops/<family>_methods.hpp` and defines them in `ops/<family>.hpp`; this list is
/// the one place that names them all.

#include "tessera/linalg/matmul_methods.hpp"
#include "tessera/ops/activations_methods.hpp"
#include "tessera/ops/indexing_methods.hpp"
#include "tessera/ops/nonzero_methods.hpp"
#include "tessera/ops/ordering_methods.hpp"
#include "tessera/ops/reduce_methods.hpp"
#include "tessera/ops/scatter_methods.hpp"
#include "tessera/ops/searchsorted_methods.hpp"
#include "tessera/ops/sets_methods.hpp"
#include "tessera/ops/shape_methods.hpp"
#include "tessera/ops/statistics_methods.hpp"

namespace tessera {

/// Every operation method of expression D (a base of Expr<D>).
template <class D>
struct OpMethods : NonzeroMethods<D>,
                   SearchSortedMethods<D>,
                   ScatterMethods<D>,
                   ReduceMethods<D>,
                   OrderingMethods<D>,
                   StatisticsMethods<D>,
                   ActivationMethods<D>,
                   IndexingMethods<D>,
                   ShapeMethods<D>,
                   MatmulMethods<D>,
                   SetsMethods<D> {};

}  // namespace tessera
