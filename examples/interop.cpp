// SPDX-License-Identifier: BSD-3-Clause
// Interop with data users already have: a buffer the program owns becomes a tensor without a
// copy, tessera computes on it, the result goes to PyTorch through DLPack (zero-copy, both
// ways) and comes back, and the result is saved as a .npy file NumPy can read.
//
// With libtorch (built with TESSERA_TORCH found) the consumer is PyTorch itself
// (at::fromDLPack / at::toDLPack). Without it, a plain C-style DLPack consumer stands in: it
// reads the DLTensor's fields and writes through its pointer, as a C library would. Both do
// the same thing, so the output is the same; stderr says which one ran.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <vector>

#include <tessera/interop/dlpack.hpp>
#include <tessera/interop/npy.hpp>
#include <tessera/tessera.hpp>

#include "example_support.hpp"

#if defined(TESSERA_EXAMPLE_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#endif

namespace ts = tessera;

namespace {

/// The other framework: takes a DLPack tensor of float32, adds 100 to every element in place
/// and hands the same memory back as a new DLPack tensor (releasing the one it was given).
DLManagedTensor* framework_add_100(DLManagedTensor* m) {
#if defined(TESSERA_EXAMPLE_WITH_TORCH)
  at::Tensor x = at::fromDLPack(m);  // owns m now: calls its deleter when done
  x.add_(100.0f);
  return at::toDLPack(x);
#else
  // A C consumer: walk the elements through shape, strides and byte_offset (tessera always
  // exports strides; DLPack allows null for compact row-major, which this reader omits).
  DLTensor& t = m->dl_tensor;
  auto* base = reinterpret_cast<float*>(static_cast<char*>(t.data) + t.byte_offset);
  std::int64_t n = 1;
  for (int d = 0; d < t.ndim; ++d) n *= t.shape[d];
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t offset = 0, rest = i;
    for (int d = t.ndim; d-- > 0;) {
      offset += (rest % t.shape[d]) * t.strides[d];
      rest /= t.shape[d];
    }
    base[offset] += 100.0f;
  }
  return m;  // the same capsule goes back, still owning the memory
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const auto device = example::parse_device(argc, argv);
  if (!device) return 2;
#if defined(TESSERA_EXAMPLE_WITH_TORCH)
  std::cerr << "DLPack consumer: PyTorch (libtorch's at::fromDLPack / at::toDLPack)\n";
#else
  std::cerr << "DLPack consumer: a plain C reader (tessera built without libtorch)\n";
#endif

  // [snippet:interop-from-blob]
  std::vector<float> readings{1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};  // memory the program owns
  auto x = ts::Tensor<float>::from_blob(readings.data(), {2, 3}, ts::Device::cpu());
  readings[0] = 1.0f;  // no copy: the tensor sees the change
  std::cout << "x = " << x << '\n';
  // [end-snippet]

  // [snippet:interop-op]
  auto xs = x.to(*device);  // the device the example runs on
  ts::Tensor<float> y = (xs - ts::sum(xs) / 6.0f) * 2.0f;
  y = y.cpu();  // the DLPack leg below is host memory
  std::cout << "y = " << y << '\n';
  // [end-snippet]

  // [snippet:interop-dlpack]
  float* before = y.data_ptr();
  DLManagedTensor* out = y.transpose(0, 1).to_dlpack();  // zero-copy export, a strided view
  DLManagedTensor* back = framework_add_100(out);        // the other framework writes in place
  ts::Tensor<float> z = ts::from_dlpack<float>(back);    // zero-copy import
  std::cout << "z = " << z << '\n';
  std::cout << "same memory: " << std::boolalpha << (z.data_ptr() == before) << '\n';
  std::cout << "y = " << y << '\n';  // y's memory holds the writes
  // [end-snippet]

  // [snippet:interop-span]
  const ts::Tensor<float> zc = z.contiguous();  // span() wants contiguous host memory
  std::span<const float> values = zc.span();
  std::cout << "sum over span = " << std::accumulate(values.begin(), values.end(), 0.0f) << '\n';
  // [end-snippet]

  // [snippet:interop-npy]
  const auto path = (std::filesystem::temp_directory_path() / "tessera_interop_z.npy").string();
  ts::save_npy(path, z);                            // np.load(path) reads it
  auto loaded = ts::load_npy<float>(path, {3, 2});  // ShapeError if it held another shape
  std::cout << "loaded == z: " << ts::all(loaded == z) << '\n';
  // [end-snippet]
  std::filesystem::remove(path);
  return 0;
}
