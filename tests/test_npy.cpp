// SPDX-License-Identifier: BSD-3-Clause
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
  // Cut inside the header.
  const TempFile cut("header_cut.npy");
  const std::string full = read_bytes(kDir + "float64_2x3.npy");
  std::ofstream(cut.path, std::ios::binary) << full.substr(0, 30);
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::load_npy<double>(cut.path); },
      {"load_npy", "header_cut.npy", "truncated inside its header", "30 bytes"}));
  // Cut inside the magic string.
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

// ---- Issue 37: the header is validated in full before anything is read ------------------------

namespace {

/// A .npy file of format version `major`.0 with header dict `dict` (padded with spaces and a
/// '\n' to a multiple of 64 bytes, as NumPy pads it, unless `pad` is false) and data `data`.
std::string npy_file(const std::string& dict, const std::string& data = "", int major = 1,
                     bool pad = true) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string header = dict;
  if (pad) {
    while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
  }
  std::string out = std::string("\x93NUMPY", 6) + char(major) + char(0);
  const std::size_t n = header.size();
  out += char(n & 0xff);
  out += char((n >> 8) & 0xff);
  if (major > 1) {
    out += char((n >> 16) & 0xff);
    out += char((n >> 24) & 0xff);
  }
  return out + header + data;
}

/// The bytes of `values` as stored in a little-endian file.
template <class T>
std::string le_bytes(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

/// Writes `bytes` to a TempFile and returns it.
struct NpyFile : TempFile {
  NpyFile(const std::string& name, const std::string& bytes) : TempFile(name + ".npy") {
    std::ofstream(path, std::ios::binary) << bytes;
  }
};

const std::vector<double> kSix = {1.5, -2, 3, 4.25, 5, -6};

}  // namespace

// The undefined behaviour of issue 37: xtensor's parser called std::string::back() on an empty
// string for a 'shape' key without its ':'. The header never reaches xtensor now.
TEST(Npy, ShapeKeyWithoutColonIsValueError) {
  const NpyFile f("no_colon", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape'2 (1,), }",
                                       "12345678"));
  EXPECT_TRUE(
      throws_with<ts::ValueError>([&] { ts::load_npy<double>(f.path); },
                                  {"load_npy", "no_colon.npy", "no ':' after the key 'shape'"}));
}

// xtensor read `(abc,)` into an uninitialised size_t and loaded a tensor of a made-up shape.
TEST(Npy, NonNumericExtentIsValueError) {
  for (const std::string shape : {"(abc,)", "(-1,)", "(2.5,)", "(2, x)", "(0x10,)", "(,)"}) {
    const NpyFile f("extent",
                    npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }",
                             le_bytes(kSix)));
    EXPECT_TRUE(throws_with<ts::ValueError>(
        [&] { ts::load_npy<double>(f.path); },
        {"load_npy", "extent.npy", "shape extent that is not a non-negative decimal integer"}))
        << shape;
  }
  const NpyFile not_tuple(
      "not_tuple",
      npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (6), }", le_bytes(kSix)));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(not_tuple.path); },
                                          {"not_tuple.npy", "not a tuple"}));
  const NpyFile list(
      "list", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': [6], }", le_bytes(kSix)));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(list.path); },
                                          {"list.npy", "'shape' that is not a tuple"}));
}

// The oversized shape was refused, but the message did not name the file.
TEST(Npy, OverflowingShapeNamesThePath) {
  const NpyFile f("oversized", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                        "(4294967296, 4294967296), }"));
  EXPECT_TRUE(throws_with<ts::ValueError>(
      [&] { ts::load_npy<double>(f.path); },
      {"load_npy", "path '", "oversized.npy", "(4294967296, 4294967296)", "do not fit int64"}));
}

// xtensor computed the strides of an overflowing shape with signed overflow before refusing it.
// Each extent and the products are checked with overflow-safe arithmetic now (this test runs
// under UBSan in CI's sanitize stage). As in NumPy, the nonzero extents of an empty shape must
// fit too (its strides are their products).
TEST(Npy, ElementCountOverflowIsValueErrorWithoutUB) {
  for (const std::string shape :
       {"(9223372036854775807, 2)", "(2, 9223372036854775807)", "(1152921504606846976,)",
        "(0, 4611686018427387904, 4)", "(3037000500, 3037000500)"}) {
    const NpyFile f("overflow",
                    npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }"));
    EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(f.path); },
                                            {"load_npy", "overflow.npy", "do not fit int64"}))
        << shape;
  }
  const NpyFile huge("huge", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                      "(99999999999999999999,), }"));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(huge.path); },
                                          {"load_npy", "huge.npy", "larger than 2^63 - 1"}));
  // A shape that fits but whose data is not in the file: refused before anything is allocated.
  const NpyFile big("big", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                    "(1000000000000,), }"));
  EXPECT_TRUE(
      throws_with<ts::ValueError>([&] { ts::load_npy<double>(big.path); },
                                  {"big.npy", "truncated", "8000000000000 bytes", "only 0"}));
  // An empty shape whose nonzero extents fit loads as an empty tensor.
  const NpyFile empty("empty", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                        "(0, 1000000000000000), }"));
  EXPECT_EQ(ts::load_npy<double>(empty.path).shape(), (ts::Shape{0, 1000000000000000}));
}

// The NPY format says readers must not depend on the keys' order; np.load reads any order.
TEST(Npy, KeysInAnyOrderLoad) {
  const std::vector<std::string> dicts = {
      "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f8'}",
      "{'fortran_order': False, 'descr': '<f8', 'shape': (2, 3),}",
      "{\"shape\": (2,3), \"descr\": \"<f8\", \"fortran_order\": False}",
      "  {  'descr' : '<f8' ,\n 'shape' : ( 2 , 3 , ) , 'fortran_order' : False , }  "};
  for (const auto& dict : dicts) {
    const NpyFile f("reordered", npy_file(dict, le_bytes(kSix)));
    const auto t = ts::load_npy<double>(f.path);
    EXPECT_EQ(t.shape(), (ts::Shape{2, 3})) << dict;
    EXPECT_EQ(t.to_vector(), kSix) << dict;
  }
  // Fortran order with the keys reordered: the data is column-major.
  const NpyFile fortran(
      "fortran",
      npy_file("{'shape': (2, 3), 'descr': '<f8', 'fortran_order': True}", le_bytes(kSix)));
  EXPECT_EQ(ts::load_npy<double>(fortran.path).to_vector(),
            (std::vector<double>{1.5, 3, 5, -2, 4.25, -6}));
}

// Format version 3.0 (a UTF-8 header, otherwise version 2.0's layout) and 2.0 load, from NumPy's
// own files (np.lib.format.write_array with version=(3, 0) / (2, 0)) and from byte strings.
TEST(Npy, Version3Loads) {
  EXPECT_TRUE(matches_numpy(ts::load_npy<double>(kDir + "float64_v3.npy"), "float64_v3"));
  EXPECT_TRUE(matches_numpy(ts::load_npy<std::int32_t>(kDir + "int32_v2.npy"), "int32_v2"));
  for (const int major : {2, 3}) {
    const NpyFile f("v" + std::to_string(major),
                    npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                             le_bytes(kSix), major));
    const auto t = ts::load_npy<double>(f.path, {2, 3});
    EXPECT_EQ(t.to_vector(), kSix) << major;
  }
}

// Fortran order of rank 3: NumPy's column-major bytes become tessera's row-major tensor.
TEST(Npy, FortranOrderRank3Loads) {
  std::vector<std::int16_t> column_major(24);
  for (int k = 0; k < 24; ++k) column_major[static_cast<std::size_t>(k)] = std::int16_t(k);
  const NpyFile f("fortran3",
                  npy_file("{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3, 4), }",
                           le_bytes(column_major)));
  const auto t = ts::load_npy<std::int16_t>(f.path, {2, 3, 4});
  EXPECT_TRUE(t.is_contiguous());
  for (std::int64_t i = 0; i < 2; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) {
      for (std::int64_t k = 0; k < 4; ++k) EXPECT_EQ(t.at({i, j, k}), i + 2 * j + 6 * k);
    }
  }
}

// Every other malformed preamble or header: a ValueError naming the path and the problem.
TEST(Npy, MalformedHeadersAreValueErrorsNamingThePath) {
  const std::string ok = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  struct Case {
    std::string bytes;
    std::string needle;
  };
  std::string v4 = npy_file(ok, le_bytes(kSix));
  v4[6] = 4;
  std::string v11 = npy_file(ok, le_bytes(kSix));
  v11[7] = 1;
  const std::vector<Case> cases = {
      {v4, "version 4.0"},
      {v11, "version 1.1"},
      {npy_file(ok + " x\n", le_bytes(kSix), 1, false), "bytes after its header dict"},
      {npy_file(ok + " ", le_bytes(kSix), 1, false), "does not end with '\\n'"},
      {npy_file("", le_bytes(kSix), 1, false), "does not end with '\\n'"},
      {npy_file("{'descr': '<f8', 'fortran_order': False}", le_bytes(kSix)), "no 'shape' key"},
      {npy_file("{'descr': '<f8', 'shape': (6,)}", le_bytes(kSix)), "no 'fortran_order' key"},
      {npy_file("{'fortran_order': False, 'shape': (6,)}", le_bytes(kSix)), "no 'descr' key"},
      {npy_file("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}",
                le_bytes(kSix)),
       "the key 'descr' twice"},
      {npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'x': 1}", le_bytes(kSix)),
       "unexpected key 'x'"},
      {npy_file("{'descr': '<f8', 'fortran_order': 0, 'shape': (6,)}", le_bytes(kSix)),
       "neither True nor False"},
      {npy_file("{'descr': '<f8', 'fortran_order': Falsey, 'shape': (6,)}", le_bytes(kSix)),
       "neither True nor False"},
      {npy_file("{'descr': <f8, 'fortran_order': False, 'shape': (6,)}", le_bytes(kSix)),
       "'descr' that is not a quoted dtype string"},
      {npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (6,) 'x'}", le_bytes(kSix)),
       "expected ',' or '}'"},
      {npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2 3)}", le_bytes(kSix)),
       "expected ',' or ')'"},
      {npy_file("'descr': '<f8'", le_bytes(kSix)), "not a Python dict literal"},
      {npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 6)}",
                le_bytes(kSix)),
       "at most 8"},
  };
  for (const auto& c : cases) {
    const NpyFile f("malformed", c.bytes);
    EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(f.path); },
                                            {"load_npy", "path '", "malformed.npy", c.needle}))
        << c.needle;
  }
  // A dtype NumPy spells otherwise (complex, big-endian, native '='): refused, naming both.
  const NpyFile complex(
      "complex",
      npy_file("{'descr': '<c16', 'fortran_order': False, 'shape': (3,)}", le_bytes(kSix)));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(complex.path); },
                                          {"complex.npy", "float64 ('<f8')", "'<c16'"}));
  // Cut inside the preamble, after the magic string.
  const NpyFile cut("cut", std::string("\x93NUMPY\x01", 7));
  EXPECT_TRUE(throws_with<ts::ValueError>([&] { ts::load_npy<double>(cut.path); },
                                          {"cut.npy", "truncated inside its preamble"}));
  // Bytes after the data are ignored, as np.load ignores them.
  const NpyFile extra("extra", npy_file(ok, le_bytes(kSix) + "trailing"));
  EXPECT_EQ(ts::load_npy<double>(extra.path).to_vector(), kSix);
  // Headers NumPy would pad differently (no padding, 16-byte alignment) are read.
  const NpyFile unpadded("unpadded", npy_file(ok + "\n", le_bytes(kSix), 1, false));
  EXPECT_EQ(ts::load_npy<double>(unpadded.path).to_vector(), kSix);
}

// save_npy takes any expression (issue 37): it is evaluated first.
TEST(Npy, SaveNpyTakesExpressions) {
  const auto x = ts::tensor<double>({{1, 2, 3}, {4, 5, 6}});
  const TempFile out("y.npy");
  ts::save_npy(out.path, x * 2.0);
  EXPECT_EQ(ts::load_npy<double>(out.path, {2, 3}).to_vector(),
            (std::vector<double>{2, 4, 6, 8, 10, 12}));
  ts::save_npy(out.path, x.transpose(0, 1) > 2.5);
  EXPECT_EQ(ts::load_npy<bool>(out.path, {3, 2}).to_vector(),
            (std::vector<bool>{false, true, false, true, true, true}));
}

// complex64 and complex128 ('<c8', '<c16') read as NumPy reads them, infinite and NaN parts
// included, and are written with NumPy's bytes, from a strided view too.
TEST(Npy, ComplexFilesReadAndWriteAsNumpys) {
  auto check = [](auto tag, const std::string& name, const char* descr) {
    using C = typename decltype(tag)::type;
    using F = typename C::value_type;
    const auto& entry = manifest().at(name);
    EXPECT_EQ(entry.at("descr").get<std::string>(), descr);
    const auto t = ts::load_npy<C>(kDir + name + ".npy");
    EXPECT_EQ(t.shape(), (ts::Shape{2, 3}));
    const auto got = t.to_vector();
    const auto& want = entry.at("values");
    ASSERT_EQ(got.size(), want.size());
    auto same = [](F g, F w) { return std::isnan(w) ? std::isnan(g) : g == w; };
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(same(got[i].real(), json_value<F>(want[i][0])) &&
                  same(got[i].imag(), json_value<F>(want[i][1])))
          << name << " element " << i << ": " << got[i];
    }
    const TempFile out(name + ".npy");
    ts::save_npy(out.path, t.transpose(0, 1).contiguous().transpose(0, 1));  // a strided view
    const std::string ours = read_bytes(out.path);
    const std::string numpy = read_bytes(kDir + name + ".npy");
    const std::size_t data = 6 * sizeof(C);
    EXPECT_EQ(ours.substr(ours.size() - data), numpy.substr(numpy.size() - data));
    // The other complex type is refused, naming both.
    using Other =
        std::conditional_t<std::is_same_v<C, ts::complex64>, ts::complex128, ts::complex64>;
    EXPECT_TRUE(throws_with<ts::ValueError>(
        [&] { (void)ts::load_npy<Other>(kDir + name + ".npy"); },
        {std::string("is not a .npy file of ") + std::string(ts::dtype_name(ts::dtype_v<Other>)),
         descr}));
  };
  check(std::type_identity<ts::complex64>{}, "complex64_2x3", "<c8");
  check(std::type_identity<ts::complex128>{}, "complex128_2x3", "<c16");
}
