// SPDX-License-Identifier: BSD-3-Clause
// Printing ragged tensors exactly as TensorFlow's eager RaggedTensor.__repr__ does, without its
// "tf." prefix: `<RaggedTensor [[0, 1, 2], [], [8, 9, 10, 11]]>`. TensorFlow formats
// `rt.numpy()` (a 2+-d array when all rows have one length, otherwise a 1-d object array of
// rows) with NumPy's array2string, separator ", ", every element through str(). Each helper
// names the NumPy function it mirrors (numpy/_core/arrayprint.py, NumPy 2.x);
// tests/test_ragged.cpp holds the result to texts TensorFlow printed (tools/golden/gen_ragged.py).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/element_traits.hpp"
#include "tessera/format.hpp"

namespace tessera {
namespace {

constexpr std::int64_t kThreshold = 1000;  // np.get_printoptions()["threshold"]
constexpr std::int64_t kEdgeItems = 3;
constexpr std::size_t kLineWidth = 75;
const std::string kSeparator = ", ";

// str() of a NumPy float scalar: the shortest text that reads back as the same value,
// positional between 1e-4 and 1e16 (float64) or 1e6 (float32), scientific outside.
template <class F>
std::string float_str(F value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  const std::string sci(buf, res.ptr);
  const std::size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  const int exponent = std::stoi(sci.substr(e + 1));
  const bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits += c;
  }
  const double magnitude = std::fabs(static_cast<double>(value));
  const double upper = std::is_same_v<F, float> ? 1e6 : 1e16;
  std::string text;
  if (magnitude == 0 || (magnitude >= 1e-4 && magnitude < upper)) {
    // format_float_positional(trim="0"-style: at least one digit after the point)
    if (exponent >= 0) {
      std::string int_part = digits.substr(0, std::min<std::size_t>(digits.size(), exponent + 1));
      int_part.append(static_cast<std::size_t>(exponent + 1) - int_part.size(), '0');
      std::string frac = digits.size() > static_cast<std::size_t>(exponent + 1)
                             ? digits.substr(static_cast<std::size_t>(exponent + 1))
                             : "0";
      text = int_part;
      text += '.';
      text += frac;
    } else {
      text.assign("0.");
      text.append(static_cast<std::size_t>(-exponent - 1), '0');
      text.append(digits);
    }
  } else {
    // format_float_scientific(trim="-"): "1e+16", "1.5e-05"
    text = digits.substr(0, 1);
    if (digits.size() > 1) {
      text += '.';
      text.append(digits, 1);
    }
    const int a = std::abs(exponent);
    text += exponent < 0 ? "e-" : "e+";
    if (a < 10) text += '0';
    text += std::to_string(a);
  }
  if (negative) text.insert(text.begin(), '-');
  return text;
}

template <class T>
std::string element_str(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "True" : "False";
  } else if constexpr (Floating<T>) {
    return float_str(value);
  } else {
    return std::to_string(static_cast<std::int64_t>(value));
  }
}

// An n-d block of words to format: word(index) for a full multi-index.
using Index = std::vector<std::int64_t>;
using WordFn = std::function<std::string(const Index&)>;

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = s.find('\n', start);
    lines.push_back(s.substr(start, nl - start));
    if (nl == std::string::npos) return lines;
    start = nl + 1;
  }
}

std::string rstrip(const std::string& s) {
  const std::size_t end = s.find_last_not_of(' ');
  return end == std::string::npos ? std::string() : s.substr(0, end + 1);
}

// _extendLine
void extend_line(std::string& s, std::string& line, const std::string& word, std::size_t width,
                 const std::string& prefix) {
  bool wrap = line.size() + word.size() > width;
  if (line.size() <= prefix.size()) wrap = false;
  if (wrap) {
    s += rstrip(line) + "\n";
    line = prefix;
  }
  line += word;
}

// _extendLine_pretty: a multi-line word keeps its own line breaks, indented to where it starts.
void extend_line_pretty(std::string& s, std::string& line, const std::string& word,
                        std::size_t width, const std::string& prefix) {
  const auto words = split_lines(word);
  if (words.size() == 1) return extend_line(s, line, word, width, prefix);
  std::size_t longest = 0;
  for (const auto& w : words) longest = std::max(longest, w.size());
  std::string indent;
  if (line.size() + longest > width && line.size() > prefix.size()) {
    s += rstrip(line) + "\n";
    line = prefix + words[0];
    indent = prefix;
  } else {
    indent = std::string(line.size(), ' ');
    line += words[0];
  }
  for (std::size_t i = 1; i < words.size(); ++i) {
    s += rstrip(line) + "\n";
    line = indent + words[i];
  }
  line += std::string(longest - words.back().size(), ' ');
}

// _formatArray's recurser.
std::string format_array(const Shape& shape, const WordFn& word, bool summarize, Index& index,
                         const std::string& hanging, std::size_t width) {
  const std::size_t axis = index.size();
  const std::size_t left = shape.size() - axis;
  if (left == 0) return word(index);
  const std::string next_hanging = hanging + " ";
  const std::size_t next_width = width - 1;
  const std::int64_t n = shape[axis];
  const bool summary = summarize && 2 * kEdgeItems < n;
  const std::int64_t leading = summary ? kEdgeItems : 0;
  const std::int64_t trailing = summary ? kEdgeItems : n;
  auto sub = [&](std::int64_t i) {
    index.push_back(i);
    std::string text = format_array(shape, word, summarize, index, next_hanging, next_width);
    index.pop_back();
    return text;
  };
  std::string s;
  if (left == 1) {
    const std::size_t elem_width = width - std::max<std::size_t>(rstrip(kSeparator).size(), 1);
    std::string line = hanging;
    for (std::int64_t i = 0; i < leading; ++i) {
      extend_line_pretty(s, line, sub(i), elem_width, hanging);
      line += kSeparator;
    }
    if (summary) {
      extend_line(s, line, "...", elem_width, hanging);
      line += kSeparator;
    }
    for (std::int64_t i = trailing; i > 1; --i) {
      extend_line_pretty(s, line, sub(n - i), elem_width, hanging);
      line += kSeparator;
    }
    extend_line_pretty(s, line, sub(n - 1), elem_width, hanging);
    s += line;
  } else {
    const std::string line_sep = rstrip(kSeparator) + std::string(left - 1, '\n');
    for (std::int64_t i = 0; i < leading; ++i) s += hanging + sub(i) + line_sep;
    if (summary) s += hanging + "..." + line_sep;
    for (std::int64_t i = trailing; i > 1; --i) s += hanging + sub(n - i) + line_sep;
    s += hanging + sub(n - 1);
  }
  return "[" + s.substr(hanging.size()) + "]";
}

// repr(a.tolist()) of an array with no elements: nested "[]" down to the first empty dimension.
std::string empty_list(const Shape& shape, std::size_t d) {
  if (shape[d] == 0) return "[]";
  std::string s = "[";
  for (std::int64_t i = 0; i < shape[d]; ++i) s += (i ? ", " : "") + empty_list(shape, d + 1);
  return s + "]";
}

// TensorFlow's _formatter on an ndarray: array2string(x, separator=", "), or repr(tolist()) when
// x has no elements.
std::string formatter(const Shape& shape, const WordFn& word) {
  if (shape.numel() == 0) return empty_list(shape, 0);
  Index index;
  return format_array(shape, word, shape.numel() > kThreshold, index, " ", kLineWidth);
}

template <class T, class S>
std::string ragged_repr(const RaggedTensor<T, S>& r) {
  const auto host = r.cpu();
  const Tensor<T> values = host.values().contiguous();
  const std::vector<S> splits = host.row_splits().to_vector();
  const std::int64_t nrows = host.nrows();
  const T* data = values.data();
  std::vector<std::int64_t> inner_dims(values.shape().begin() + 1, values.shape().end());
  // 0 when any inner extent is (values of shape (m, 2^40, 2^40, 0) exist), without overflow.
  const std::int64_t inner =
      detail::extent_product(inner_dims.data(), static_cast<int>(inner_dims.size()));
  // Word of element `index` of the block of rows starting at value `first` (index[0] a row
  // offset inside it, the rest inner indices), with `dims` the block's shape.
  auto element_word = [&](std::int64_t first, const Shape& dims, std::size_t skip) {
    return [&, first, dims, skip](const Index& index) {
      std::int64_t offset = 0;
      for (std::size_t d = skip; d < dims.size(); ++d) offset = offset * dims[d] + index[d];
      return element_str(data[first * inner + offset]);
    };
  };
  bool uniform = true;
  for (std::int64_t i = 1; i < nrows && uniform; ++i) {
    uniform = splits[i + 1] - splits[i] == splits[1] - splits[0];
  }
  std::string text;
  if (nrows == 0 || uniform) {
    // np.array(rows): one (nrows, length, inner...) array.
    std::vector<std::int64_t> dims{nrows, nrows == 0 ? 0 : splits[1] - splits[0]};
    dims.insert(dims.end(), inner_dims.begin(), inner_dims.end());
    const Shape shape(dims.begin(), dims.end());
    text = formatter(shape, element_word(0, shape, 0));
  } else {
    // A 1-d object array whose elements are the rows, each formatted on its own.
    const Shape outer{nrows};
    text = formatter(outer, [&](const Index& index) {
      const std::int64_t i = index[0];
      std::vector<std::int64_t> dims{static_cast<std::int64_t>(splits[i + 1] - splits[i])};
      dims.insert(dims.end(), inner_dims.begin(), inner_dims.end());
      const Shape shape(dims.begin(), dims.end());
      return formatter(shape, element_word(splits[i], shape, 0));
    });
  }
  return "<RaggedTensor " + text + ">";
}

}  // namespace

template <class T, class S>
std::string to_string(const RaggedTensor<T, S>& r) {
  return ragged_repr(r);
}

template <class T, class S>
std::ostream& operator<<(std::ostream& os, const RaggedTensor<T, S>& r) {
  return os << ragged_repr(r);
}

#define TESSERA_INSTANTIATE_RAGGED_FORMAT(S, T)                    \
  template std::string to_string<T, S>(const RaggedTensor<T, S>&); \
  template std::ostream& operator<< <T, S>(std::ostream&, const RaggedTensor<T, S>&);
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED_FORMAT, int32_t)
TESSERA_FOR_EACH_DTYPE_WITH(TESSERA_INSTANTIATE_RAGGED_FORMAT, int64_t)
#undef TESSERA_INSTANTIATE_RAGGED_FORMAT

}  // namespace tessera
