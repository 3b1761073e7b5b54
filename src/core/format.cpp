// SPDX-License-Identifier: BSD-3-Clause
// Printing tensors exactly as PyTorch 1.13's repr() does with its default print options
// (torch/_tensor_str.py). Each helper names the Python function it mirrors, so that a difference
// in output can be traced to one place; tests/test_format.cpp holds the result to text that torch
// printed (tools/golden/gen_format.py).

#include "tessera/format.hpp"
#include "tessera/core/element_traits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera {
namespace {

// torch's PRINT_OPTS defaults.
constexpr int kPrecision = 4;
constexpr std::int64_t kThreshold = 1000;  // more elements than this → summarise
constexpr std::int64_t kEdgeItems = 3;     // elements kept at each end of a summarised dimension
constexpr int kLineWidth = 80;
constexpr std::int64_t kEllipsis = -1;  // marks the "..." position in a list of indices

// Python's format(value, f".{precision}{conv}") for a double. printf agrees with Python on
// every finite value (both round the exact binary value correctly), but glibc prints "-nan" for
// NaNs with the sign bit set where Python prints "nan".
std::string format_double(double value, char conv, int precision) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  const char spec[] = {'%', '.', '*', conv, '\0'};
  const int n = std::snprintf(nullptr, 0, spec, precision, value);
  std::string text(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(text.data(), text.size(), spec, precision, value);
  text.pop_back();
  return text;
}

// Python's str() of one element of an integral or bool tensor (`tolist()` yields int / bool).
template <class T>
std::string integral_text(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "True" : "False";
  } else {
    return std::to_string(static_cast<std::int64_t>(value));
  }
}

// torch's _Formatter: picks one notation and one width for all the elements shown, so that
// columns line up. It sees only the elements that are printed (get_summarized_data).
template <class T>
class Formatter {
 public:
  explicit Formatter(const std::vector<T>& shown) {
    if constexpr (!Floating<T>) {
      for (T v : shown) max_width_ = std::max(max_width_, text_width(integral_text(v)));
    } else {
      // Only nonzero finite values choose the notation and width; zeros, NaN and infinities are
      // padded to fit (or overflow) it, as in torch.
      std::vector<double> vals;
      for (T v : shown) {
        if (std::isfinite(v) && v != 0) vals.push_back(static_cast<double>(v));
      }
      if (vals.empty()) return;
      double lo = std::abs(vals.front()), hi = lo;
      for (double v : vals) {
        lo = std::min(lo, std::abs(v));
        hi = std::max(hi, std::abs(v));
        if (v != std::ceil(v)) int_mode_ = false;
      }
      // torch applies the small-value test (< 1e-4) only to tensors with fractions; it could not
      // fire for integer-valued ones anyway.
      sci_mode_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
      for (double v : vals) {
        const int w = sci_mode_   ? text_width(format_double(v, 'e', kPrecision))
                      : int_mode_ ? text_width(format_double(v, 'f', 0)) + 1  // for the "."
                                  : text_width(format_double(v, 'f', kPrecision));
        max_width_ = std::max(max_width_, w);
      }
    }
  }

  int width() const { return max_width_; }

  // _Formatter.format: the element right-aligned to the common width.
  std::string operator()(T value) const {
    std::string text;
    if constexpr (!Floating<T>) {
      text = integral_text(value);
    } else {
      const auto v = static_cast<double>(value);
      if (sci_mode_) {
        text = format_double(v, 'e', kPrecision);
      } else if (int_mode_) {
        text = format_double(v, 'f', 0);
        if (std::isfinite(v)) text += '.';
      } else {
        text = format_double(v, 'f', kPrecision);
      }
    }
    const int pad = max_width_ - text_width(text);
    return pad > 0 ? std::string(static_cast<std::size_t>(pad), ' ') + text : text;
  }

 private:
  static int text_width(const std::string& s) { return static_cast<int>(s.size()); }

  bool int_mode_ = true;
  bool sci_mode_ = false;
  int max_width_ = 1;
};

// The indices of a dimension of extent n that repr shows: all of them, or when summarising a
// dimension longer than 2 * edgeitems, the first and last edgeitems around kEllipsis.
std::vector<std::int64_t> shown_indices(std::int64_t n, bool summarize) {
  std::vector<std::int64_t> idx;
  if (summarize && n > 2 * kEdgeItems) {
    for (std::int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
    idx.push_back(kEllipsis);
    for (std::int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
  } else {
    for (std::int64_t i = 0; i < n; ++i) idx.push_back(i);
  }
  return idx;
}

// The parts of the shown elements of a complex tensor: torch formats `self.real` and
// `self.imag` with a formatter each.
template <class T>
std::vector<part_t<T>> parts(const std::vector<T>& shown, bool imag) {
  std::vector<part_t<T>> out;
  out.reserve(shown.size());
  for (const T& v : shown) out.push_back(imag ? v.imag() : v.real());
  return out;
}

// The text of one element: the formatter's, or for a complex element (torch's _val_formatter)
// the padded real part and the imaginary part unpadded, signed, with "j".
template <class T>
struct ElementText {
  explicit ElementText(const std::vector<T>& shown) : format(shown) {}
  std::string operator()(T value) const { return format(value); }
  int width() const { return format.width() + 2; }  // with ", "
  Formatter<T> format;
};
template <Complex T>
struct ElementText<T> {
  explicit ElementText(const std::vector<T>& shown)
      : real(parts(shown, false)), imag(parts(shown, true)) {}
  std::string operator()(T value) const {
    std::string im = imag(value.imag());
    im.erase(0, im.find_first_not_of(' '));
    return real(value.real()) + (im[0] == '-' || im[0] == '+' ? "" : "+") + im + "j";
  }
  int width() const { return real.width() + 2 + imag.width() + 1; }  // ", " and the "j"
  Formatter<part_t<T>> real;
  Formatter<part_t<T>> imag;
};

// The body of the repr ("[[1., 2.],\n        [3., 4.]]") of a host tensor. Elements are read in
// place through the tensor's strides: a summary of a huge strided view copies nothing.
template <class T>
class Printer {
 public:
  explicit Printer(const Tensor<T>& host)
      : data_(host.data()),
        shape_(host.shape()),
        strides_(host.strides()),
        summarize_(host.numel() > kThreshold),
        format_(shown_values()) {}

  // _tensor_str_with_formatter, entered with indent = len("tensor(").
  std::string str(int indent) const { return render(0, 0, indent); }

 private:
  // get_summarized_data, flattened: the elements printed, whose widths set the column width.
  // Called while constructing format_, after the members it reads.
  std::vector<T> shown_values() const {
    std::vector<T> shown;
    collect(0, 0, shown);
    return shown;
  }

  void collect(std::size_t d, std::int64_t base, std::vector<T>& out) const {
    if (d == shape_.size()) {
      out.push_back(data_[base]);
      return;
    }
    for (std::int64_t i : shown_indices(shape_[d], summarize_)) {
      if (i != kEllipsis) collect(d + 1, base + i * strides_[d], out);
    }
  }

  std::string render(std::size_t d, std::int64_t base, int indent) const {
    const std::size_t ndim = shape_.size();
    if (d == ndim) return format_(data_[base]);  // _scalar_str
    if (d + 1 == ndim) return vector_str(base, indent);
    // Sub-tensors of a k-d tensor are separated by k-1 newlines: blank lines between 2-d blocks.
    const std::string sep = "," + std::string(ndim - d - 1, '\n') + std::string(indent + 1, ' ');
    std::string out = "[";
    bool first = true;
    for (std::int64_t i : shown_indices(shape_[d], summarize_)) {
      if (!first) out += sep;
      first = false;
      out += i == kEllipsis ? "..." : render(d + 1, base + i * strides_[d], indent + 1);
    }
    return out + "]";
  }

  // _vector_str: as many elements per line as fit in the line width (the " ..." entry of a
  // summary counts as one), continuation lines aligned under the first element.
  std::string vector_str(std::int64_t base, int indent) const {
    const int per_line = std::max(1, (kLineWidth - indent) / format_.width());
    const std::string line_break = ",\n" + std::string(indent + 1, ' ');
    std::string out = "[";
    int on_line = 0;
    for (std::int64_t i : shown_indices(shape_.back(), summarize_)) {
      if (on_line == per_line) {
        out += line_break;
        on_line = 0;
      } else if (on_line > 0) {
        out += ", ";
      }
      ++on_line;
      out += i == kEllipsis ? " ..." : format_(data_[base + i * strides_.back()]);
    }
    return out + "]";
  }

  const T* data_;
  const Shape& shape_;
  const Shape& strides_;  // in elements
  bool summarize_;
  ElementText<T> format_;  // declared last: built by shown_values() from the members above
};

// _add_suffixes: ", suffix" on the last line while it stays within the line width, otherwise on
// a new line indented under the opening parenthesis.
std::string add_suffixes(std::string text, const std::vector<std::string>& suffixes, int indent) {
  // torch's len(s) - s.rfind("\n") + 1: the last line's length plus 2 (rfind gives -1 when there
  // is no newline). Kept, overcount included, so that suffixes wrap where torch wraps them.
  const std::size_t nl = text.rfind('\n');
  std::size_t last_line_len = nl == std::string::npos ? text.size() + 2 : text.size() - nl + 1;
  for (const std::string& suffix : suffixes) {
    if (last_line_len + suffix.size() + 2 > static_cast<std::size_t>(kLineWidth)) {
      text += ",\n" + std::string(indent, ' ') + suffix;
      last_line_len = indent + suffix.size();
    } else {
      text += ", " + suffix;
      last_line_len += suffix.size() + 2;
    }
  }
  return text + ")";
}

}  // namespace

namespace detail {

template <class T>
std::string repr_on(const Tensor<T>& t, Device shown) {
  const std::string prefix = "tensor(";
  const int indent = static_cast<int>(prefix.size());
  const std::string dtype = "dtype=torch." + std::string(dtype_name(dtype_v<T>));
  std::vector<std::string> suffixes;
  // _str_intern: device first (only when not the default CPU), then size, then dtype.
  if (!shown.is_cpu()) suffixes.push_back("device='" + shown.str() + "'");
  if (t.numel() == 0) {
    // NumPy-style: the shape when it is not (0,); the dtype unless it is the default float32,
    // since an empty tensor has no elements to suggest it.
    if (t.dim() != 1) suffixes.push_back("size=" + t.shape().str());
    if (!std::is_same_v<T, float>) suffixes.push_back(dtype);
    return add_suffixes(prefix + "[]", suffixes, indent);
  }
  // complex64 is torch's default complex dtype (that of the default float32).
  constexpr bool default_dtype = std::is_same_v<T, float> || std::is_same_v<T, std::int64_t> ||
                                 std::is_same_v<T, bool> || std::is_same_v<T, complex64>;
  if (!default_dtype) suffixes.push_back(dtype);
  // CUDA elements are read on the host; cpu() keeps a CPU tensor's memory (no copy).
  const Tensor<T> host = t.cpu();
  return add_suffixes(prefix + Printer<T>(host).str(indent), suffixes, indent);
}

}  // namespace detail

std::ostream& operator<<(std::ostream& os, DType dtype) { return os << dtype_name(dtype); }

template <class T>
std::string to_string(const Tensor<T>& t) {
  return detail::repr_on(t, t.device());
}

template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T>& t) {
  return os << to_string(t);
}

#define TESSERA_INSTANTIATE_FORMAT(T)                                \
  template std::string detail::repr_on<T>(const Tensor<T>&, Device); \
  template std::string to_string<T>(const Tensor<T>&);               \
  template std::ostream& operator<< <T>(std::ostream&, const Tensor<T>&);
TESSERA_FOR_EACH_ELEMENT_DTYPE(TESSERA_INSTANTIATE_FORMAT)
#undef TESSERA_INSTANTIATE_FORMAT

}  // namespace tessera
