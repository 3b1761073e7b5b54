// SPDX-License-Identifier: BSD-3-Clause
// The unsorted segment reductions' one entry point (ops/segment.hpp), instantiated for every
// (reduction, number dtype): checks in TensorFlow's words, the initialised output, then the
// scatter engine's combine on the host or the device. The mean is a sum and a count.

#include <cstdint>
#include <limits>
#include <vector>

#include "backend/segment_combine.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/extent_product.hpp"
#include "tessera/expr/composite.hpp"
#include "tessera/expr/operators.hpp"
#include "tessera/expr/reduce.hpp"
#include "tessera/ops/segment.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::segment_scatter {

namespace {

/// The value an empty segment keeps (TensorFlow's identities; the mean's sum starts at 0).
template <SegmentId Id, class T>
T identity() {
  if constexpr (Id == SegmentId::Prod) return T(1);
  if constexpr (Id == SegmentId::Max) return std::numeric_limits<T>::lowest();
  if constexpr (Id == SegmentId::Min) return std::numeric_limits<T>::max();
  return T(0);
}

/// Runs the engine's combine Id of `data` into `out` at `ids` on their device; false when no
/// id can be out of range (the host saw none skipped).
template <SegmentId Id, class T>
bool combine(Tensor<T>& out, const Tensor<std::int64_t>& ids, const Tensor<T>& data,
             std::int64_t slice) {
  const std::int64_t segments = out.size(0);
  if (out.device().is_cpu()) {
    return combine_host<Id, T>(out.data(), segments, slice, ids.data(), ids.numel(), data.data()) <
           ids.numel();
  }
  combine_cuda<Id, T>(out.device().index(), out.data(), segments, slice, ids.data(), ids.numel(),
                      data.data());
  return true;
}

/// IndexError for the first id >= n (negative ids are dropped, not errors).
void check_ids(const char* op, const Tensor<std::int64_t>& ids, std::int64_t n) {
  // One parallel reduction (one wait on a device); the search for the first bad id runs only
  // when there is one.
  if (ids.numel() == 0 || tessera::max(ids) < n) return;
  const std::vector<std::int64_t> host = ids.to_vector();
  for (std::size_t k = 0; k < host.size(); ++k) {
    if (host[k] >= n) {
      raise<IndexError>(op, "segment_ids[", k, "] = ", host[k], " is out of range [0, ", n, ")");
    }
  }
}

}  // namespace

template <SegmentId Id, class T>
Tensor<out_t<Id, T>> reduce(const char* op, const Tensor<T>& data, const Tensor<std::int64_t>& ids,
                            std::int64_t num_segments) {
  const OpScope scope(op);
  if (num_segments < 0) {
    raise<ValueError>(op, "num_segments = ", num_segments, " must be >= 0");
  }
  if (ids.device() != data.device()) {
    raise<DeviceError>(op, "segment_ids are on ", ids.device(), ", data on ", data.device());
  }
  const Shape& shape = data.shape();
  const Shape& id_shape = ids.shape();
  bool prefix = id_shape.size() <= shape.size();
  for (std::size_t d = 0; prefix && d < id_shape.size(); ++d) prefix = id_shape[d] == shape[d];
  if (!prefix) {
    raise<ShapeError>(op, "segment_ids.shape ", id_shape, " must be a prefix of data.shape ",
                      shape);
  }
  const auto kept = static_cast<int>(id_shape.size());
  const std::int64_t slice =
      extent_product(shape.data() + kept, static_cast<int>(shape.size()) - kept);
  std::vector<std::int64_t> dims{num_segments};
  for (std::size_t d = id_shape.size(); d < shape.size(); ++d) dims.push_back(shape[d]);
  const Shape out_shape(dims.begin(), dims.end());
  const Device device = data.device();
  constexpr SegmentId combine_id = Id == SegmentId::Mean ? SegmentId::Sum : Id;
  Tensor<T> out = Tensor<T>::full(out_shape, identity<Id, T>(), device);
  // The output is new, so the ids may be checked after the combine, which skips ids outside
  // [0, n): on the host only when it skipped any (negative ids are common and legal), so the
  // usual call reads the ids once. On a device the check (one reduction) runs first.
  bool check = true;
  if (out.numel() > 0 && ids.numel() > 0) {
    if (!device.is_cpu()) check_ids(op, ids, num_segments);
    check = combine<combine_id, T>(out, ids, data, slice) && device.is_cpu();
  }
  if (check) check_ids(op, ids, num_segments);
  if constexpr (Id != SegmentId::Mean) {
    return out;
  } else {
    using R = out_t<Id, T>;
    // TensorFlow: the sum in T over max(count, 1), counted in T and divided in R.
    Tensor<std::int64_t> counts = Tensor<std::int64_t>::zeros({num_segments}, device);
    if (num_segments > 0 && ids.numel() > 0) {
      combine<SegmentId::Sum, std::int64_t>(counts, ids,
                                            Tensor<std::int64_t>::ones({ids.numel()}, device), 1);
    }
    std::vector<std::int64_t> count_dims(dims.size(), 1);
    count_dims[0] = num_segments;
    const Tensor<std::int64_t> per_segment =
        Tensor<std::int64_t>(clamp_min(counts, 1))
            .reshape(Shape(count_dims.begin(), count_dims.end()));
    Tensor<R> mean = out.template cast<R>() / per_segment.template cast<R>();
    return mean;
  }
}

#define TESSERA_INSTANTIATE_SEGMENT_REDUCE(ID, T)                    \
  template Tensor<out_t<SegmentId::ID, T>> reduce<SegmentId::ID, T>( \
      const char*, const Tensor<T>&, const Tensor<std::int64_t>&, std::int64_t);
TESSERA_FOR_EACH_UNSORTED_SEGMENT_REDUCTION(TESSERA_INSTANTIATE_SEGMENT_REDUCE)
#undef TESSERA_INSTANTIATE_SEGMENT_REDUCE

}  // namespace tessera::detail::segment_scatter
