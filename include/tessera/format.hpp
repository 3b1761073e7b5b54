// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file format.hpp
/// Printing like PyTorch: `tensor([[1., 3.], [2., 4.]])`, with the device when not the CPU,
/// the dtype when not the default one, and `...` summaries of large tensors.

#include <iosfwd>
#include <string>

#include "tessera/ragged/ragged_tensor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

/// Writes `t` exactly as PyTorch 1.13's `repr` does with default print options: 4 decimals or
/// scientific notation chosen per tensor, aligned columns, lines of at most 80 characters,
/// `...` summaries beyond 1000 elements (3 items kept at each end of every dimension), and
/// `device=` / `dtype=` suffixes when not the CPU / not a default dtype (float32, int64, bool).
/// Copies CUDA tensors to the host to print them.
///
///     std::cout << tessera::tensor<float>({{1, 3}, {2, 4}});
///     // tensor([[1., 3.],
///     //         [2., 4.]])
template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T>& t);

/// The text `os << t` writes.
template <class T>
std::string to_string(const Tensor<T>& t);

/// Writes `r` as TensorFlow's eager repr does, without the "tf." prefix:
/// `<RaggedTensor [[0, 1, 2], [], [8, 9, 10, 11]]>` (NumPy's layout: lines of at most 75
/// characters, `...` summaries beyond 1000 rows or 1000 elements of a row, floats as the
/// shortest text that reads back, e.g. `0.70000005`). Copies CUDA data to the host.
template <class T, class S>
std::ostream& operator<<(std::ostream& os, const RaggedTensor<T, S>& r);

/// The text `os << r` writes.
template <class T, class S>
std::string to_string(const RaggedTensor<T, S>& r);

/// Prints the dtype name, e.g. "float32".
std::ostream& operator<<(std::ostream& os, DType dtype);

namespace detail {
/// The repr of `t` as if it lived on `shown` (`to_string(t)` is `repr_on(t, t.device())`).
/// Lets tests check the `device='cuda:0'` suffix on machines without a GPU:
///
///     repr_on(tensor<float>({1, 2}), Device::cuda(0))  // "tensor([1., 2.], device='cuda:0')"
template <class T>
std::string repr_on(const Tensor<T>& t, Device shown);
}  // namespace detail

}  // namespace tessera
