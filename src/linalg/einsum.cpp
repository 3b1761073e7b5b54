// SPDX-License-Identifier: BSD-3-Clause
// einsum: the equation parsed into labels per operand (PyTorch's rules), then diagonals as
// views, single-operand sums as products with a column of ones, and each pairwise contraction as
// one call of the product engine on permuted, reshaped operands (batch labels x kept labels x
// summed labels).

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/core/error.hpp"
#include "tessera/linalg/einsum.hpp"
#include "tessera/linalg/matmul.hpp"
#include "tessera/linalg/product.hpp"
#include "tessera/tensor.hpp"

namespace tessera::detail {

namespace {

// Labels: 0-25 'A'-'Z', 26-51 'a'-'z' (character-code order, PyTorch's implicit output order),
// 52 + i the i-th dimension of the broadcast ellipsis (counted from its first dimension).
constexpr int kLetters = 52;

int label_of(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + 26; }
char letter_of(int label) {
  return static_cast<char>(label < 26 ? 'A' + label : 'a' + (label - 26));
}
bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/// One side of the equation as written: letters, and where "..." stood (-1: absent).
struct Term {
  std::vector<int> letters;
  int ellipsis_at = -1;
};

/// The equation parsed and checked against the operands' ranks.
struct Plan {
  std::vector<std::vector<int>> inputs;  ///< each operand's labels, one per dimension
  std::vector<int> output;               ///< the result's labels
};

[[noreturn]] void bad(std::string_view equation, const auto&... parts) {
  raise<ValueError>("einsum", "equation '", equation, "': ", parts...);
}

Term parse_term(std::string_view equation, std::string_view text) {
  Term term;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (text.substr(i, 3) != "..." || term.ellipsis_at >= 0) {
        bad(equation, "'.' must be part of one '...' per operand");
      }
      term.ellipsis_at = static_cast<int>(term.letters.size());
      i += 2;
      continue;
    }
    if (!is_letter(c)) bad(equation, "invalid subscript '", c, "': only a-z, A-Z and ... are");
    term.letters.push_back(label_of(c));
  }
  return term;
}

Plan make_plan(std::string_view equation, const std::vector<Shape>& shapes) {
  const std::size_t arrow = equation.find("->");
  const std::string_view lhs = equation.substr(0, arrow);
  std::vector<Term> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(equation, lhs.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (terms.size() != shapes.size()) {
    bad(equation, "it names ", terms.size(), " operand(s) but ", shapes.size(), " were given");
  }
  // The ellipsis spans the dimensions no letter names; the broadcast ellipsis is the longest.
  std::int64_t ellipsis_dims = 0;
  Plan plan;
  std::array<int, kLetters> count{};
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const Term& term = terms[t];
    const auto rank = static_cast<std::int64_t>(shapes[t].size());
    const auto named = static_cast<std::int64_t>(term.letters.size());
    if (term.ellipsis_at < 0 ? named != rank : named > rank) {
      bad(equation, "operand ", t, " has ", rank, " dimension(s) but the equation names ", named,
          term.ellipsis_at < 0 ? " and no ellipsis was given" : " besides its ellipsis");
    }
    ellipsis_dims = std::max(ellipsis_dims, rank - named);
    for (const int l : term.letters) ++count[static_cast<std::size_t>(l)];
  }
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const Term& term = terms[t];
    const auto rank = static_cast<std::int64_t>(shapes[t].size());
    const std::int64_t spanned = rank - static_cast<std::int64_t>(term.letters.size());
    std::vector<int> labels;
    for (std::size_t i = 0; i <= term.letters.size(); ++i) {
      if (static_cast<int>(i) == term.ellipsis_at) {
        for (std::int64_t j = 0; j < spanned; ++j) {
          labels.push_back(kLetters + static_cast<int>(ellipsis_dims - spanned + j));
        }
      }
      if (i < term.letters.size()) labels.push_back(term.letters[i]);
    }
    plan.inputs.push_back(std::move(labels));
  }
  if (arrow == std::string_view::npos) {
    // Implicit output: the ellipsis, then the letters used once, in character-code order.
    for (std::int64_t j = 0; j < ellipsis_dims; ++j)
      plan.output.push_back(kLetters + static_cast<int>(j));
    for (int l = 0; l < kLetters; ++l) {
      if (count[static_cast<std::size_t>(l)] == 1) plan.output.push_back(l);
    }
    return plan;
  }
  const Term out = parse_term(equation, equation.substr(arrow + 2));
  std::array<bool, kLetters> seen{};
  for (std::size_t i = 0; i <= out.letters.size(); ++i) {
    if (static_cast<int>(i) == out.ellipsis_at) {
      for (std::int64_t j = 0; j < ellipsis_dims; ++j)
        plan.output.push_back(kLetters + static_cast<int>(j));
    }
    if (i == out.letters.size()) break;
    const int l = out.letters[i];
    if (count[static_cast<std::size_t>(l)] == 0) {
      bad(equation, "output subscript '", letter_of(l), "' does not appear in any input");
    }
    if (seen[static_cast<std::size_t>(l)]) {
      bad(equation, "output subscript '", letter_of(l), "' appears more than once");
    }
    seen[static_cast<std::size_t>(l)] = true;
    plan.output.push_back(l);
  }
  return plan;
}

std::string label_text(int label) {
  if (label < kLetters) return std::string(1, letter_of(label));
  return "... dimension " + std::to_string(label - kLetters);
}

/// An operand while the contraction runs: a tensor and one label per dimension.
template <class T>
struct Labelled {
  Tensor<T> x;
  std::vector<int> labels;
};

/// The dimension of `labels` holding `label` (-1: none).
std::int64_t position(const std::vector<int>& labels, int label) {
  const auto it = std::find(labels.begin(), labels.end(), label);
  return it == labels.end() ? -1 : it - labels.begin();
}

/// Sums `op` over the labels not in `keep` (they appear in no other operand and not in the
/// output): those dimensions moved last, flattened into one, summed; T kept (integers wrap).
template <class T>
void sum_out(Labelled<T>& op, const std::vector<bool>& keep) {
  std::vector<std::int64_t> perm, kept_extents;
  std::vector<int> kept_labels;
  std::int64_t summed = 1;
  for (std::size_t d = 0; d < op.labels.size(); ++d) {
    if (keep[static_cast<std::size_t>(op.labels[d])]) {
      perm.push_back(static_cast<std::int64_t>(d));
      kept_extents.push_back(op.x.shape()[d]);
      kept_labels.push_back(op.labels[d]);
    }
  }
  if (kept_labels.size() == op.labels.size()) return;
  for (std::size_t d = 0; d < op.labels.size(); ++d) {
    if (!keep[static_cast<std::size_t>(op.labels[d])]) {
      perm.push_back(static_cast<std::int64_t>(d));
      summed *= op.x.shape()[d];
    }
  }
  std::int64_t rows = 1;
  for (const std::int64_t e : kept_extents) rows *= e;
  // The sum is a product with a column of ones, on the product engine: its kernels are compiled
  // for the contractions already, where a reduction compiled the reduction engine once more per
  // dtype. Integers wrap in T and bool is the logical or, as a sum cast back to T.
  const Tensor<T> grouped = op.x.permute(perm).reshape({rows, summed});
  const Tensor<T> ones = Tensor<T>::ones({summed, 1}, op.x.device());
  op.x = batched_matmul("einsum", grouped, ones).reshape(Shape(kept_extents));
  op.labels = std::move(kept_labels);
}

/// Contracts two operands: labels in both that are still needed become the batch, labels in
/// both that are not are summed by the product, the others are kept (left's, then right's).
template <class T>
Labelled<T> contract(const Labelled<T>& left, const Labelled<T>& right,
                     const std::vector<bool>& needed) {
  std::vector<int> batch, summed, left_only, right_only;
  for (const int l : left.labels) {
    if (position(right.labels, l) < 0) {
      left_only.push_back(l);
    } else if (needed[static_cast<std::size_t>(l)]) {
      batch.push_back(l);
    } else {
      summed.push_back(l);
    }
  }
  for (const int l : right.labels) {
    if (position(left.labels, l) < 0) right_only.push_back(l);
  }
  const auto arrange = [](const Labelled<T>& op, const std::vector<std::vector<int>*>& groups,
                          std::vector<std::int64_t>& matrix_dims) {
    std::vector<std::int64_t> perm;
    for (const auto* group : groups) {
      std::int64_t extent = 1;
      for (const int l : *group) {
        const std::int64_t d = position(op.labels, l);
        perm.push_back(d);
        extent *= op.x.shape()[static_cast<std::size_t>(d)];
      }
      matrix_dims.push_back(extent);
    }
    return op.x.permute(perm).reshape(Shape(matrix_dims));
  };
  std::vector<std::int64_t> left_dims, right_dims;
  const Tensor<T> a = arrange(left, {&batch, &left_only, &summed}, left_dims);
  const Tensor<T> b = arrange(right, {&batch, &summed, &right_only}, right_dims);
  Labelled<T> out;
  std::vector<std::int64_t> extents;
  for (const auto* group : {&batch, &left_only, &right_only}) {
    for (const int l : *group) {
      const Labelled<T>& from = position(left.labels, l) >= 0 ? left : right;
      extents.push_back(from.x.shape()[static_cast<std::size_t>(position(from.labels, l))]);
      out.labels.push_back(l);
    }
  }
  out.x = batched_matmul("einsum", a, b).reshape(Shape(extents));
  return out;
}

}  // namespace

template <class T>
Tensor<T> einsum_tensor(std::string_view equation, const std::vector<Tensor<T>>& operands) {
  if (operands.empty()) raise<ValueError>("einsum", "must provide at least one operand");
  const Device device = operands.front().device();
  std::vector<Shape> shapes;
  for (const auto& x : operands) {
    if (x.device() != device) {
      raise<DeviceError>("einsum", "expected every operand on ", device, ", but one is on ",
                         x.device());
    }
    shapes.push_back(x.shape());
  }
  const Plan plan = make_plan(equation, shapes);
  // Every label's extent: equal wherever it appears, or 1 (which broadcasts).
  const int labels = kLetters + 8;
  std::vector<std::int64_t> extent(static_cast<std::size_t>(labels), 1);
  std::vector<int> uses(static_cast<std::size_t>(labels), 0);
  for (std::size_t t = 0; t < operands.size(); ++t) {
    for (std::size_t d = 0; d < plan.inputs[t].size(); ++d) {
      const auto l = static_cast<std::size_t>(plan.inputs[t][d]);
      const std::int64_t e = shapes[t][d];
      if (e != 1 && extent[l] != 1 && e != extent[l]) {
        bad(equation, "subscript ", label_text(plan.inputs[t][d]), " has extent ", extent[l],
            " in one place and ", e, " in operand ", t, " (shape ", shapes[t], ")");
      }
      if (e != 1) extent[l] = e;
    }
  }
  std::vector<Labelled<T>> ops;
  for (std::size_t t = 0; t < operands.size(); ++t) {
    Labelled<T> op{operands[t], plan.inputs[t]};
    // A repeated label takes the diagonal (the dimensions must agree exactly).
    for (std::size_t i = 0; i < op.labels.size(); ++i) {
      for (std::size_t j = i + 1; j < op.labels.size();) {
        if (op.labels[j] != op.labels[i]) {
          ++j;
          continue;
        }
        if (op.x.shape()[i] != op.x.shape()[j]) {
          bad(equation, "subscript ", label_text(op.labels[i]), " is repeated for operand ", t,
              " but the sizes don't match, ", op.x.shape()[i], " != ", op.x.shape()[j]);
        }
        op.x = op.x.diagonal(0, static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
        const int l = op.labels[i];
        op.labels.erase(op.labels.begin() + static_cast<std::ptrdiff_t>(j));
        op.labels.erase(op.labels.begin() + static_cast<std::ptrdiff_t>(i));
        op.labels.push_back(l);
        j = i + 1;
      }
    }
    // Size-1 dimensions of a label that is longer elsewhere broadcast (a stride-0 view).
    std::vector<std::int64_t> full;
    for (std::size_t d = 0; d < op.labels.size(); ++d) {
      full.push_back(extent[static_cast<std::size_t>(op.labels[d])]);
    }
    if (!full.empty() && Shape(full) != op.x.shape()) op.x = op.x.expand(Shape(full));
    for (const int l : op.labels) ++uses[static_cast<std::size_t>(l)];
    ops.push_back(std::move(op));
  }
  std::vector<bool> in_output(static_cast<std::size_t>(labels), false);
  for (const int l : plan.output) in_output[static_cast<std::size_t>(l)] = true;
  // Labels of one operand only, absent from the output, are summed before any product.
  for (auto& op : ops) {
    std::vector<bool> keep = in_output;
    for (const int l : op.labels) {
      if (uses[static_cast<std::size_t>(l)] > 1) keep[static_cast<std::size_t>(l)] = true;
    }
    sum_out(op, keep);
  }
  Labelled<T> acc = ops.front();
  for (std::size_t t = 1; t < ops.size(); ++t) {
    std::vector<bool> needed = in_output;
    for (std::size_t u = t + 1; u < ops.size(); ++u) {
      for (const int l : ops[u].labels) needed[static_cast<std::size_t>(l)] = true;
    }
    acc = contract(acc, ops[t], needed);
  }
  std::vector<std::int64_t> perm;
  for (const int l : plan.output) perm.push_back(position(acc.labels, l));
  return perm.empty() ? acc.x.reshape(Shape{}) : acc.x.permute(perm);
}

#define TESSERA_INSTANTIATE_EINSUM(T) \
  template Tensor<T> einsum_tensor<T>(std::string_view, const std::vector<Tensor<T>>&);
TESSERA_FOR_EACH_DTYPE(TESSERA_INSTANTIATE_EINSUM)
#undef TESSERA_INSTANTIATE_EINSUM

}  // namespace tessera::detail
