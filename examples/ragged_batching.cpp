// SPDX-License-Identifier: BSD-3-Clause
// A realistic use of RaggedTensor, ragged::range, nonzero and scatter: a batch of
// variable-length token sequences (one flat buffer plus lengths, as a tokenizer emits them)
// becomes a RaggedTensor without a copy; ragged::range gives every token its position; a
// position-weighted score goes back into a vocabulary table and into per-sequence totals with
// scatter-add, and the batch is padded for a dense consumer. Then the ragged vocabulary: the
// per-sequence mean score (ragged::reduce_mean), the same totals by ragged::reduce_sum and the
// table by unsorted_segment_sum, the rows of the model window (boolean_mask of the padded
// batch) and the batch recovered from its padded form (from_tensor with padding).
#include <cmath>
#include <cstdint>
#include <iostream>
#include <vector>

#include "example_support.hpp"

namespace ts = tessera;

namespace {

constexpr std::int64_t kSequences = 50'000;
constexpr std::int64_t kMaxLength = 64;
constexpr std::int64_t kVocabulary = 30'000;

struct Batch {
  std::vector<int64_t> tokens;   // all sequences back to back
  std::vector<int64_t> lengths;  // one per sequence, 1 .. kMaxLength
};

/// A reproducible batch (fixed-seed linear congruential generator).
Batch make_batch() {
  Batch b;
  std::uint64_t state = 7;
  auto next = [&state](std::uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 33) % n);
  };
  for (std::int64_t s = 0; s < kSequences; ++s) {
    const int64_t length = 1 + next(kMaxLength);
    b.lengths.push_back(length);
    for (int64_t i = 0; i < length; ++i) b.tokens.push_back(next(kVocabulary));
  }
  return b;
}

int run(const ts::Device dev) {
  const Batch host = make_batch();
  const auto n_tokens = static_cast<int64_t>(host.tokens.size());
  example::Stopwatch upload;
  auto tokens = ts::Tensor<int64_t>::from_vector(host.tokens, dev);
  auto lengths = ts::Tensor<int64_t>::from_vector(host.lengths, dev);
  example::wait_for(dev);
  upload.stop("upload batch");

  // [snippet:app-ragged]
  example::Stopwatch build;
  auto batch = ts::RaggedTensor<int64_t>::from_row_lengths(tokens, lengths);  // no copy of tokens
  auto position = ts::ragged::range<int64_t>(lengths);  // [[0, 1, ..], [0, ..], ..]
  example::wait_for(dev);
  build.stop("from_row_lengths + ragged::range");

  example::Stopwatch score;
  // Later positions count less: weight 1 / (position + 1), one fused pass over the values.
  ts::RaggedTensor<float> weight = 1.0f / (position + 1);  // float: the scalar's kind wins
  auto frequency = ts::Tensor<float>::zeros({kVocabulary}, dev);
  frequency.scatter_nd_add_(batch.values().reshape({n_tokens, 1}), weight.values());
  auto per_sequence = ts::Tensor<float>::zeros({kSequences}, dev);
  per_sequence.scatter_nd_add_(batch.value_rowids().reshape({n_tokens, 1}), weight.values());
  example::wait_for(dev);
  score.stop("weights + 2x scatter_nd_add_");

  example::Stopwatch select;
  // Flat positions of the tokens a 16-token model window keeps, and the padded batch.
  ts::Tensor<int64_t> kept = (position.values() < 16).nonzero();
  ts::Tensor<int64_t> padded = batch.to_tensor(-1);  // (kSequences, kMaxLength)
  example::wait_for(dev);
  select.stop("nonzero + to_tensor");
  // [end-snippet]

  // [snippet:app-ragged-reduce]
  example::Stopwatch reduce;
  ts::Tensor<float> mean_score = ts::ragged::reduce_mean(weight);  // one per sequence
  ts::Tensor<float> total = ts::ragged::reduce_sum(weight);        // = per_sequence, same bits
  ts::Tensor<float> table = ts::unsorted_segment_sum(weight.values(), batch.values(), kVocabulary);
  auto window = ts::ragged::boolean_mask(
      padded, (padded >= 0) & (ts::Tensor<int64_t>::arange(kMaxLength, dev) < 16));
  auto unpadded = ts::RaggedTensor<int64_t>::from_tensor(padded, ts::padding(int64_t{-1}));
  example::wait_for(dev);
  reduce.stop("reduce_mean + reduce_sum + unsorted_segment_sum + boolean_mask + from_tensor");
  // [end-snippet]

  std::cout << "tokens " << n_tokens << " in " << batch.nrows() << " sequences\n";
  // The first three sequences and their positions: views of the same values and splits.
  const int64_t end = batch.row_splits().at({3});
  const auto splits = batch.row_splits().slice(0, 0, 4);
  std::cout << "first sequences "
            << ts::RaggedTensor<int64_t>::from_row_splits(batch.values().slice(0, 0, end), splits)
            << "\npositions "
            << ts::RaggedTensor<int64_t>::from_row_splits(position.values().slice(0, 0, end),
                                                          splits)
            << '\n';
  std::cout << "padded " << padded.slice(0, 0, 2).slice(1, 0, 8) << '\n';
  std::cout << "kept " << kept.size(0) << " of " << n_tokens << " tokens\n";

  // Self-checks against the host data: each sequence's total is the harmonic number of its
  // length; the table sums to the same total; the positions partition like the tokens.
  std::vector<float> harmonic(kMaxLength + 1, 0.0f);
  for (std::int64_t l = 1; l <= kMaxLength; ++l) harmonic[l] = harmonic[l - 1] + 1.0f / l;
  const std::vector<float> totals = per_sequence.to_vector();
  double expected_sum = 0;
  for (std::int64_t s = 0; s < kSequences; ++s) {
    const float want = harmonic[static_cast<std::size_t>(host.lengths[s])];
    expected_sum += want;
    if (std::abs(totals[s] - want) > 1e-4f * want) {
      std::cerr << "sequence " << s << ": total " << totals[s] << ", expected " << want << '\n';
      return 1;
    }
  }
  const double table_sum = ts::sum(frequency);
  const bool same_rows = ts::count_nonzero(position.row_splits() != batch.row_splits()) == 0;
  std::cout << "vocabulary table sum " << table_sum << " (expected " << expected_sum << "), "
            << "positions share the row splits: " << std::boolalpha << same_rows << '\n';
  // The ragged reductions agree with the scatters and the host data; the window keeps what
  // nonzero counted; from_tensor gives the batch back.
  const std::vector<float> means = mean_score.to_vector();
  for (std::int64_t s = 0; s < kSequences; ++s) {
    const float want =
        harmonic[static_cast<std::size_t>(host.lengths[s])] / static_cast<float>(host.lengths[s]);
    if (std::abs(means[s] - want) > 1e-4f * want) {
      std::cerr << "sequence " << s << ": mean " << means[s] << ", expected " << want << '\n';
      return 1;
    }
  }
  const bool totals_agree = ts::allclose(total, per_sequence, 1e-5, 1e-6);
  const bool table_agrees = ts::allclose(table, frequency, 1e-4, 1e-4);
  const bool window_agrees = window.values().numel() == kept.size(0);
  const bool round_trip = ts::count_nonzero(unpadded.row_splits() != batch.row_splits()) == 0 &&
                          ts::count_nonzero(unpadded.values() != batch.values()) == 0;
  std::cout << "mean score of sequence 0 " << means[0] << ", window keeps "
            << window.values().numel() << " tokens, reductions agree: "
            << (totals_agree && table_agrees && window_agrees && round_trip) << '\n';
  if (!totals_agree || !table_agrees || !window_agrees || !round_trip) return 1;
  return same_rows && std::abs(table_sum - expected_sum) < 1e-3 * expected_sum ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return example::run_example(argc, argv, "ragged_batching", run); }
