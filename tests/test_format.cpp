// SPDX-License-Identifier: BSD-3-Clause
// Printing: tessera's `os << t` must be character-for-character PyTorch's repr(t). The expected
// texts were printed by torch 1.13 (tools/golden/gen_format.py → data/format_golden.json).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace ts = tessera;
using nlohmann::json;

namespace {

std::vector<json> load_golden() {
  std::ifstream in(TESSERA_TEST_DATA_DIR "/format_golden.json");
  if (!in) return {};  // Golden.FileHasCases reports it
  return json::parse(in).get<std::vector<json>>();
}

const std::vector<json>& golden() {
  static const std::vector<json> cases = load_golden();
  return cases;
}

// One element from JSON: a number, a boolean, or "nan" / "inf" / "-inf".
template <class T>
T element(const json& v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v.is_string()) {
      const auto s = v.get<std::string>();
      if (s == "nan") return std::numeric_limits<T>::quiet_NaN();
      return s == "-inf" ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    }
    return static_cast<T>(v.get<double>());
  } else if constexpr (std::is_same_v<T, bool>) {
    return v.is_boolean() ? v.get<bool>() : v.get<std::int64_t>() != 0;
  } else {
    return static_cast<T>(v.get<std::int64_t>());
  }
}

// The tensor a golden case describes: its values in row-major order, then the optional
// transpose (which makes it a strided view).
template <class T>
ts::Tensor<T> build(const json& c) {
  std::vector<T> values;
  for (const json& v : c.at("values")) values.push_back(element<T>(v));
  const ts::Shape shape(c.at("shape").get<std::vector<std::int64_t>>());
  auto t = ts::Tensor<T>::from_vector(values, shape);
  if (c.contains("transpose")) {
    t = t.transpose(c["transpose"][0].get<std::int64_t>(), c["transpose"][1].get<std::int64_t>());
  }
  return t;
}

// The case's tensor printed: by to_string, or by repr_on for a case labelled with a CUDA device.
template <class T>
std::string print(const json& c) {
  const ts::Tensor<T> t = build<T>(c);
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), ts::to_string(t)) << "operator<< and to_string disagree";
  if (!c.contains("device")) return ts::to_string(t);
  const auto device = c["device"].get<std::string>();  // "cuda:N"
  const int index = std::stoi(device.substr(device.find(':') + 1));
  return ts::detail::repr_on(t, ts::Device::cuda(index));
}

std::string print_case(const json& c) {
  const auto dtype = c.at("dtype").get<std::string>();
#define TESSERA_PRINT_IF_DTYPE(T) \
  if (dtype == ts::dtype_name(ts::dtype_v<T>)) return print<T>(c);
  TESSERA_FOR_EACH_DTYPE(TESSERA_PRINT_IF_DTYPE)
#undef TESSERA_PRINT_IF_DTYPE
  ADD_FAILURE() << "unknown dtype " << dtype;
  return {};
}

class FormatGolden : public ::testing::TestWithParam<json> {};

TEST_P(FormatGolden, MatchesTorchRepr) {
  const json& c = GetParam();
  EXPECT_EQ(print_case(c), c.at("expected").get<std::string>());
}

INSTANTIATE_TEST_SUITE_P(Torch113, FormatGolden, ::testing::ValuesIn(golden()),
                         [](const ::testing::TestParamInfo<json>& info) {
                           return info.param.at("name").get<std::string>();
                         });

TEST(Golden, FileHasCasesForEveryDtype) {
  ASSERT_FALSE(golden().empty()) << "cannot read " TESSERA_TEST_DATA_DIR "/format_golden.json";
  for (const char* dtype :
       {"bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64"}) {
    EXPECT_TRUE(std::any_of(golden().begin(), golden().end(), [&](const json& c) {
      return c.at("dtype") == dtype;
    })) << dtype;
  }
}

TEST(Format, TransposedTensorPrintsLogicalValues) {
  const auto t = ts::Tensor<float>::arange(0, 6).reshape({2, 3}).transpose(0, 1);
  ASSERT_FALSE(t.is_contiguous());
  EXPECT_EQ(ts::to_string(t),
            "tensor([[0., 3.],\n"
            "        [1., 4.],\n"
            "        [2., 5.]])");
  EXPECT_EQ(ts::to_string(t), ts::to_string(t.contiguous()));
}

TEST(Format, SlicedTensorWithOffsetPrintsLogicalValues) {
  const auto s = ts::Tensor<std::int32_t>::arange(0, 10).slice(0, 1, 10, 3);
  ASSERT_EQ(s.storage_offset(), 1);
  EXPECT_EQ(ts::to_string(s), "tensor([1, 4, 7], dtype=torch.int32)");
}

TEST(Format, SelectedRowOfTransposePrintsLogicalValues) {
  const auto m = ts::Tensor<std::int64_t>::arange(0, 12).reshape({3, 4}).transpose(0, 1);
  EXPECT_EQ(ts::to_string(m.select(0, 2)), "tensor([ 2,  6, 10])");
}

TEST(Format, DeviceSuffixPrecedesDtype) {
  const auto t = ts::tensor<std::int16_t>({1, 2});
  EXPECT_EQ(ts::detail::repr_on(t, ts::Device::cuda(0)),
            "tensor([1, 2], device='cuda:0', dtype=torch.int16)");
}

TEST(Format, CudaTensorIsCopiedToHostToPrint) {
  if (!ts::cuda_available()) GTEST_SKIP() << "no usable CUDA device";
  const auto host = ts::tensor<float>({{1.5f, 2}, {3, 4}});
  const auto t = host.to(ts::Device::cuda(0)).transpose(0, 1);
  EXPECT_EQ(ts::to_string(t),
            "tensor([[1.5000, 3.0000],\n"
            "        [2.0000, 4.0000]], device='cuda:0')");
  EXPECT_EQ(ts::to_string(ts::tensor<double>({}, ts::Device::cuda(0))),
            "tensor([], device='cuda:0', dtype=torch.float64)");
}

TEST(Format, DTypePrintsItsName) {
  std::ostringstream os;
  os << ts::DType::Float32 << ' ' << ts::DType::UInt8 << ' ' << ts::DType::Bool;
  EXPECT_EQ(os.str(), "float32 uint8 bool");
}

}  // namespace
