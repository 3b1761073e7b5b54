// SPDX-License-Identifier: BSD-3-Clause
// nonzero's device kernels for plain tensors of every dtype, for host-compiled callers
// (device-compiled callers instantiate them on their own expressions). Nonzero-ness is a test
// of bits: an element is nonzero exactly where its bits under a mask are (every bit for bool and
// integers, all but the sign bit for floats: -0.0 is zero, NaN is not), so the kernels are
// instantiated once per element width, not once per dtype (four instead of eight: the unit's
// nvcc time, most of it ptxas, is that of its instantiations).

#include <type_traits>

#include "backend/view_kernel.hpp"
#include "tessera/core/element_traits.hpp"
#include "tessera/detail/nonzero_device.cuh"
#include "tessera/ops/nonzero.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail::cuda_ops {

namespace {

/// The unsigned integer of `Bytes` bytes.
template <std::size_t Bytes>
using BitsOf = std::conditional_t<
    Bytes == 1, std::uint8_t,
    std::conditional_t<Bytes == 2, std::uint16_t,
                       std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

/// An element's bits under a mask: nonzero exactly where the element is.
template <class U>
struct MaskedBitsKernel {
  LeafKernel<U> leaf;
  U mask;
  TESSERA_HD U linear(std::int64_t i) const { return leaf.linear(i) & mask; }
  TESSERA_HD U at(const std::int64_t* index) const { return leaf.at(index) & mask; }
};

/// `x` read as the bits of its elements (the layout cub's radix sort also reads floats by).
template <class T>
auto masked_bits_of(const TensorView<T>& x) {
  using U = BitsOf<sizeof(T)>;
  static_assert(sizeof(U) == sizeof(T));
  TensorView<U> bits;
  bits.data = reinterpret_cast<U*>(x.data);
  bits.ndim = x.ndim;
  for (int d = 0; d < x.ndim; ++d) {
    bits.shape[d] = x.shape[d];
    bits.strides[d] = x.strides[d];
  }
  constexpr U kSignless = static_cast<U>(~(U{1} << (8 * sizeof(U) - 1)));
  return MaskedBitsKernel<U>{leaf_kernel_of(bits), Floating<T> ? kSignless : U(~U{0})};
}

}  // namespace

template <class T>
std::int64_t count_nonzero(int device, const TensorView<T>& x) {
  return nonzero_count_device(device, masked_bits_of(x), Extents::of_view(x), x.is_contiguous());
}

template <class T>
void nonzero_write(int device, const TensorView<T>& x, const TensorView<std::int64_t>& out,
                   std::int64_t row_limit) {
  nonzero_write_device(device, masked_bits_of(x), Extents::of_view(x), x.is_contiguous(), out,
                       row_limit);
}

#define TESSERA_INSTANTIATE_NONZERO(T)                                                       \
  template std::int64_t count_nonzero<T>(int, const TensorView<T>&);                         \
  template void nonzero_write<T>(int, const TensorView<T>&, const TensorView<std::int64_t>&, \
                                 std::int64_t);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_NONZERO)

}  // namespace tessera::detail::cuda_ops
