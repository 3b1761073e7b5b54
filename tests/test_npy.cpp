// .npy files: load_npy reads what NumPy's np.save wrote (tests/data/npy, written by
// tools/golden/gen_npy.py, with the values NumPy reads back in manifest.json), save_npy writes
// files in the same format, and every bad file is a ValueError / ShapeError naming the path.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/reference.hpp"
#include "support/typed.hpp"
#include "tessera/interop/npy.hpp"

namespace ts = tessera;
namespace fs = std::filesystem;
using tessera_test::throws_with;

namespace {

const std::string kDir = TESSERA_TEST_DATA_DIR "/npy/";

const nlohmann::json& manifest() {
  static const nlohmann::json m = [] {
    std::ifstream f(kDir + "manifest.json");
    return nlohmann::json::parse(f);
  }();
  return m.at("files");
}

template <class T>
T json_value(const nlohmann::json& v) {
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<T>::quiet_NaN();
    return s == "inf" ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  }
  return v.get<T>();
}

/// The shape and values NumPy reads from fixture `name`, checked against tessera's tensor.
template <class T>
::testing::AssertionResult matches_numpy(const ts::Tensor<T>& t, const std::string& name) {
  const auto& entry = manifest().at(name);
  if (entry.at("dtype").get<std::string>() != ts::dtype_name(ts::dtype_v<T>)) {
    return ::testing::AssertionFailure() << name << " is not a " << ts::dtype_name(ts::dtype_v<T>);
  }
  const ts::Shape shape(entry.at("shape").get<std::vector<std::int64_t>>());
  std::vector<T> values;
  for (const auto& v : entry.at("values")) values.push_back(json_value<T>(v));
  return tessera_test::tensor_matches(t, shape, values);
}

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// A scratch file under the system's temporary directory, removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name)
      : path((fs::temp_directory_path() /
              (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
               name))
                 .string()) {}
  ~TempFile() { fs::remove(path); }
};

}  // namespace

template <class C>
class Npy : public tessera_test::Typed<C> {};
TYPED_TEST_SUITE(Npy, tessera_test::AllCases, tessera_test::CaseName);

// Every dtype NumPy wrote (each type's extremes among the values) reads back as NumPy reads it,
// on the host and onto cuda:0.
TYPED_TEST(Npy, LoadsWhatNumpyWrote) {
  using T = typename TypeParam::value_type;
  const std::string name = std::string(ts::dtype_name(ts::dtype_v<T>)) + "_2x3";
  const auto t = ts::load_npy<T>(kDir + name + ".npy", this->device());
  EXPECT_EQ(t.device(), this->device());
  EXPECT_TRUE(matches_numpy(t, name));
}

// save_npy writes NumPy's format: the header dictionary and the data bytes equal those of the
// file np.save wrote for the same array (NumPy may pad its header differently), and the file
// reads back equal, from any layout and device.
TYPED_TEST(Npy, SavesTheBytesNumpyWrites) {
  using T = typename TypeParam::value_type;
  const std::string name = std::string(ts::dtype_name(ts::dtype_v<T>)) + "_2x3";
  const auto original = ts::load_npy<T>(kDir + name + ".npy", this->device());
  const TempFile out(name + ".npy");
  ts::save_npy(out.path, original);
  const std::string numpy = read_bytes(kDir + name + ".npy");
  const std::string ours = read_bytes(out.path);
  const std::size_t data = 6 * sizeof(T);
  ASSERT_GT(ours.size(), data);
  EXPECT_EQ(ours.substr(ours.size() - data), numpy.substr(numpy.size() - data));
  const auto dict = [](const std::string& s) { return s.substr(10, s.find('}') - 10 + 1); };
  EXPECT_EQ(dict(ours), dict(numpy));
  EXPECT_EQ((ours.size() - data) % 64, 0u) << "data starts 64-byte aligned, as NumPy aligns it";

  const TempFile transposed(name + "_t.npy");
  ts::save_npy(transposed.path, original.transpose(0, 1));  // a strided view: written row-major
  const auto back = ts::load_npy<T>(transposed.path, {3, 2});
  EXPECT_EQ(back.to_vector(), original.transpose(0, 1).contiguous().to_vector());
}

TEST(Npy, LoadsScalarEmptyRank3AndFortranOrder) {
  EXPECT_TRUE(matches_numpy(ts::load_npy<double>(kDir + "float64_scalar.npy"), "float64_scalar"));
  EXPECT_TRUE(
      matches_numpy(ts::load_npy<std::int32_t>(kDir + "int32_empty_0x4.npy"), "int32_empty_0x4"));
  EXPECT_TRUE(matches_numpy(ts::load_npy<std::int16_t>(kDir + "int16_rank3.npy"), "int16_rank3"));
  ASSERT_TRUE(manifest().at("float32_fortran").at("fortran_order").get<bool>());
  const auto f = ts::load_npy<float>(kDir + "float32_fortran.npy");
  EXPECT_TRUE(f.is_contiguous());  // column-major on disk, row-major in tessera
  EXPECT_TRUE(matches_numpy(f, "float32_fortran"));
}

TEST(Npy, ShapeIsCheckedWhenAsked) {
  EXPECT_EQ(ts::load_npy<float>(kDir + "float32_2x3.npy", {2, 3}).shape(), (ts::Shape{2, 3}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [] {
        ts::load_npy<float>(kDir + "float32_2x3.npy", {3, 2});
      },
      {"load_npy", "float32_2x3.npy", "holds shape (2, 3)", "expected (3, 2)"}));
  EXPECT_TRUE(throws_with<ts::ShapeError>(
      [] {
        ts::load_npy<std::int16_t>(kDir + "int16_rank3.npy", {6, 4});
      },
      {"load_npy", "(2, 3, 4)", "expected (6, 4)"}));
}

TEST(Npy, WrongDtypeIsValueErrorNamingBoth) {
  EXPECT_TRUE(
      throws_with<ts::ValueError>([] { ts::load_npy<float>(kDir + "float64_2x3.npy"); },
                                  {"load_npy", "float64_2x3.npy", "float32 ('<f4')", "<f8"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [] { ts::load_npy<std::int64_t>(kDir + "int32_2x3.npy"); }, {"int64 ('<i8')", "<i4"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([] { ts::load_npy<bool>(kDir + "uint8_2x3.npy"); },
                                          {"bool ('|b1')", "|u1"}));
  // Big-endian data would need a byte swap, which xtensor does not do: refused, not misread.
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [] { ts::load_npy<double>(kDir + "float64_bigendian.npy"); }, {"'<f8'", ">f8"}));
}

TEST(Npy, TruncatedFileIsValueError) {
  const auto& entry = manifest().at("float64_truncated");
  ASSERT_EQ(fs::file_size(kDir + "float64_truncated.npy"), entry.at("bytes").get<std::size_t>());
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [] { ts::load_npy<double>(kDir + "float64_truncated.npy"); },
      {"load_npy", "float64_truncated.npy", "truncated", "(2, 3)", "48 bytes", "only 43"}));
  // Cut inside the header (which xtensor would read past without noticing).
  const TempFile cut("header_cut.npy");
  const std::string full = read_bytes(kDir + "float64_2x3.npy");
  std::ofstream(cut.path, std::ios::binary) << full.substr(0, 30);
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::load_npy<double>(cut.path); },
      {"load_npy", "header_cut.npy", "truncated inside its header", "30 bytes"}));
  // Cut inside the magic string: xtensor's reader reports it.
  std::ofstream(cut.path, std::ios::binary) << full.substr(0, 4);
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(cut.path); },
                                          {"load_npy", "header_cut.npy", "not a .npy file"}));
}

TEST(Npy, MissingOrForeignFileIsValueError) {
  EXPECT_TRUE(
      throws_with<ts::ValueError>([] { ts::load_npy<float>(kDir + "no_such_file.npy"); },
                                  {"load_npy", "cannot open", "no_such_file.npy", "No such file"}));
  EXPECT_TRUE(throws_with<ts::ValueError>([] { ts::load_npy<float>(kDir + "manifest.json"); },
                                          {"load_npy", "manifest.json", "not a .npy file"}));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [] { ts::save_npy("/nonexistent-dir/x.npy", ts::tensor<float>({1})); },
      {"save_npy", "/nonexistent-dir/x.npy", "cannot open"}));
}

// A bool array whose bytes are not 0/1 cannot be read as C++ bools without undefined behaviour.
TEST(Npy, BoolBytesOtherThanZeroOrOneAreValueError) {
  std::string bytes = read_bytes(kDir + "bool_2x3.npy");
  bytes[bytes.size() - 2] = 2;  // element 4
  const TempFile bad("bad_bool.npy");
  std::ofstream(bad.path, std::ios::binary) << bytes;
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<bool>(bad.path); },
                                          {"load_npy", "byte value 2", "element 4"}));
}
