// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file tessera.hpp
/// Umbrella header: the whole public API except interop/.

#include "tessera/config.hpp"
#include "tessera/core/device.hpp"
#include "tessera/core/dtype.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/storage.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/composite.hpp"
#include "tessera/expr/evaluate.hpp"
#include "tessera/expr/operators.hpp"
#include "tessera/expr/reduce.hpp"
#include "tessera/expr/reduce_dims.hpp"
#include "tessera/format.hpp"
#include "tessera/linalg/linalg.hpp"
#include "tessera/ops/nonzero.hpp"
#include "tessera/ops/scatter.hpp"
#include "tessera/ops/searchsorted.hpp"
#include "tessera/ops/segment.hpp"
#include "tessera/ops/shapes.hpp"
#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/ragged/range.hpp"
#include "tessera/ragged/reduce.hpp"
#include "tessera/random/random.hpp"
#include "tessera/tensor.hpp"
