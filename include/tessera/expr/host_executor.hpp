// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// @file host_executor.hpp
/// Runs kernel functors on the host through the configured Thrust host system (OpenMP by
/// default), in blocks so that each thread walks a contiguous stretch of the output.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/tensor_view.hpp"
#include "tessera/expr/host_parallel.hpp"
#include "tessera/expr/host_stream_stores.hpp"
#include "tessera/expr/host_vector_eval.hpp"
#include "tessera/expr/row_walk.hpp"

namespace tessera::detail {

struct HostExecutor {
  /// Elements per block of a reduction: one partial per block, combined in block order, so
  /// that the summation order depends on the size alone (never on threads or timing).
  static constexpr std::int64_t kBlock = std::int64_t{1} << 15;

  /// Elementwise work below this many elements always runs on the calling thread: even a
  /// spinning pool's region (0.45 us on the machine of docs/benchmarks.md) would eat most of
  /// what a second thread saves.
  static constexpr std::int64_t kMinParallelElements = std::int64_t{1} << 13;

  /// How elementwise work over n elements is split (host_adaptive_for): the calling thread
  /// prices the rest on the first 1/64 of it (512 elements to one block); parts start at
  /// multiples of 64 elements, so no two threads write one cache line.
  static HostSplit elementwise_split(std::int64_t n) {
    return {kMinParallelElements, std::clamp<std::int64_t>(n / 64, 512, kBlock), 64};
  }

  /// Names one kind of elementwise work for host_adaptive_for (its cost per element).
  template <class Out, class K, int Walk>
  struct WriteWork {};
  /// Names one kind of reduction for host_adaptive_for (its cost per block).
  template <class Acc, class K>
  struct ReduceWork {};

  /// Reads element i of a kernel: `linear(i)` (every operand contiguous, of the output's shape)
  /// or, on a cursor sought to a row, `inner_unit(i)` (every operand at unit step there).
  struct ReadLinear {
    template <class K>
    static auto at(const K& k, std::int64_t i) {
      return k.linear(i);
    }
  };
  struct ReadUnitRow {
    template <class K>
    static auto at(const K& k, std::int64_t i) {
      return k.inner_unit(i);
    }
  };
  /// Reads element i of a row on a cursor with the leaves in Mask at unit step: one row segment
  /// by write_span<ReadMaskedRow<Mask>>, not inlined (inlined into the block walk, GCC spilled
  /// the loop's pointers: 1.07-1.17x the hand-written loop's time, docs/history.md).
  template <unsigned Mask>
  struct ReadMaskedRow {
    static constexpr unsigned kMask = Mask;
    template <class K>
    static auto at(const K& k, std::int64_t i) {
      return k.template inner_masked<Mask, 0>(i);
    }
  };

  /// out[j] = Read::at(k, first + j) for j in [0, count): one part of a contiguous output
  /// (ReadLinear), one unit-step row (ReadUnitRow), or a chunk of either into stream_span's
  /// buffer. Not inlined: inlined, GCC 12 moved half of every vector of loaded floats through
  /// the stack (1.15x xtensor's time against 0.79x on its own). Built per vector extension
  /// (TESSERA_ELEMENTWISE_CLONES). The measurements: docs/history.md.
  template <class Read, class Out, class K>
  [[gnu::noinline]] TESSERA_ELEMENTWISE_CLONES static void write_elements(Out* out, const K& k,
                                                                          std::int64_t first,
                                                                          std::int64_t count) {
    TESSERA_UNROLL_4
    for (std::int64_t j = 0; j < count; ++j) out[j] = static_cast<Out>(Read::at(k, first + j));
  }

  template <class Read>
  static constexpr bool kReadsMaskedRow = requires {
    Read::kMask;
  };

  /// out[j] = Read::at(k, first + j) for j in [0, count): write_elements, or for masked rows
  /// write_masked_rows over one row, so that one loop per mask serves single rows, runs of
  /// rows and stream_span's buffer (a write_elements per mask cost a fifth of quickstart's
  /// compile time). `k` is then the caller's (non-const) cursor; one row never moves it.
  template <class Read, class Out, class K>
  static void write_chunk(Out* out, const K& k, std::int64_t first, std::int64_t count) {
    if constexpr (kReadsMaskedRow<Read>) {
      write_masked_rows<Read::kMask>(out, 0, const_cast<K&>(k), 0, first, count, 1);
    } else {
      write_elements<Read>(out, k, first, count);
    }
  }

  /// data[i] = Read::at(k, i) for i in [begin, end) (write_chunk).
  template <class Read, class Out, class K>
  static void write_span(Out* data, const K& k, std::int64_t begin, std::int64_t end) {
    if (end > begin) write_chunk<Read>(data + begin, k, begin, end - begin);
  }

  /// Elements a streaming write computes into a buffer before storing them: 1 KiB, which
  /// stays in L1 between being written and being streamed out.
  template <class Out>
  static constexpr std::int64_t kStreamChunk = 1024 / sizeof(Out);

  /// write_span with streaming stores (host_stream_stores.hpp) for an output too large to stay
  /// in cache: elements up to the first line boundary and after the last whole line are stored
  /// plainly; the lines between are computed, a chunk at a time, into an aligned buffer by
  /// write_elements (the same loop, so the same bits) and streamed out from there. One loop per
  /// kernel serves both paths: a streaming copy of the loop per kernel and vector extension was
  /// 42 % of the code of examples/quickstart.cpp (GCC 12, -O3). The caller fences
  /// (stream_store_fence) once its part is written.
  template <class Read, class Out, class K>
  static void stream_span(Out* data, const K& k, std::int64_t begin, std::int64_t end) {
    constexpr auto line = static_cast<std::int64_t>(kStreamLineBytes);
    constexpr std::int64_t per_line = line / static_cast<std::int64_t>(sizeof(Out));
    constexpr std::int64_t chunk = kStreamChunk<Out>;
    const auto offset = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(data + begin) %
                                                  kStreamLineBytes);
    const std::int64_t to_line = (line - offset) % line;  // bytes to the next line boundary
    // Elements straddling lines (an address no multiple of sizeof(Out)) never reach a line
    // boundary: then everything is stored plainly, below.
    const bool aligns = to_line % static_cast<std::int64_t>(sizeof(Out)) == 0;
    const std::int64_t lines_end = aligns ? end : begin;
    const std::int64_t head =
        std::min(lines_end, begin + to_line / static_cast<std::int64_t>(sizeof(Out)));
    write_span<Read>(data, k, begin, head);
    std::int64_t i = head;
    alignas(kStreamLineBytes) Out buffer[chunk];
    while (i + per_line <= lines_end) {
      const std::int64_t count = std::min(chunk, (lines_end - i) / per_line * per_line);
      write_chunk<Read>(buffer, k, i, count);
      stream_store_lines(data + i, buffer, static_cast<std::size_t>(count) * sizeof(Out));
      i += count;
    }
    write_span<Read>(data, k, i, end);
  }

  /// data[i] = Out(k.linear(i)) for i in [0, n): the whole of `run` for a contiguous output
  /// whose operands read linearly, and all a caller that guarantees that compiles (the
  /// strided walk is most of an expression's code).
  template <class Out, class K>
  static void run_linear(Out* data, const K& k, std::int64_t n) {
    if constexpr (HostVectorRoot<Out, K>::value) {
      using Root = HostVectorRoot<Out, K>;
      const HostVectorMath* const math = host_vector_math();
      if (const typename Root::Loop loop = math != nullptr ? Root::loop(*math) : nullptr) {
        host_adaptive_for<WriteWork<Out, K, 3>>(
            n, elementwise_split(n), [data, &k, loop](std::int64_t begin, std::int64_t end) {
              Root::write(data, k, loop, begin, end);
            });
        return;
      }
    }
    const bool stream = host_streams_output<Out>(n * static_cast<std::int64_t>(sizeof(Out)));
    host_adaptive_for<WriteWork<Out, K, 0>>(
        n, elementwise_split(n), [data, &k, stream](std::int64_t begin, std::int64_t end) {
          if (stream) {
            stream_span<ReadLinear>(data, k, begin, end);
            stream_store_fence();
          } else {
            write_span<ReadLinear>(data, k, begin, end);
          }
        });
  }

  /// out[i] = Out(k(i)) for every element of out.
  template <class Out, class K>
  static void run(const TensorView<Out>& out, const K& k, bool linear) {
    const std::int64_t n = out.numel();
    if (linear) {
      run_linear(out.data, k, n);
      return;
    }
    const Extents extents = Extents::of_view(out);
    if constexpr (requires(K cursor, const std::int64_t* index) {
                    cursor.seek(index);
                    cursor.inner(std::int64_t{0});
                    cursor.inner_unit(std::int64_t{0});
                  }) {
      if (out.ndim == 0) {  // one element, no rows
        const std::int64_t index[1] = {0};
        *out.data = static_cast<Out>(k.at(index));
      } else {
        run_rows(out, k, extents);
      }
    } else {
      host_adaptive_for<WriteWork<Out, K, 2>>(
          n, elementwise_split(n), [&out, &k, &extents](std::int64_t begin, std::int64_t end) {
            std::int64_t index[kMaxDims];
            zero_dims(index);
            extents.unravel(begin, index);
            for (std::int64_t i = begin; i < end; ++i) {
              std::int64_t offset = 0;
              for (int d = 0; d < out.ndim; ++d) offset += index[d] * out.strides[d];
              out.data[offset] = static_cast<Out>(k.at(index));
              extents.increment(index);
            }
          });
    }
  }

  /// Rows per tile of the strided walk: one 64-byte line of 4-byte elements read down a column.
  static constexpr int kTileRows = 16;
  /// Columns per tile of the strided walk: the tile's lines (one per column of a transposed
  /// operand, 16 KiB) stay in L1 while its rows are walked. 3162x3162 a.T + b on 2 threads of
  /// an AMD EPYC (48 KiB L1d), fastest of 30 against the hand-written OpenMP loop: 128
  /// columns 1.10-1.12x its time, 256 0.96-0.98x, 512 1.00-1.02x, 1024 1.08x.
  static constexpr std::int64_t kTileColumns = 256;
  /// Rows shorter than this are walked whole: the lines a transposed operand needs for one row
  /// (one per element) then fit a 48 KiB L1 and serve the next rows from there. Longer rows
  /// are tiled: `a.T + b` in one process on the 2-core AMD EPYC VM (48 KiB L1d, 1 MiB L2),
  /// medians of 7, whole rows against tiles: 300x300 21-22 vs 24 us, 400x400 45 vs 50-52 us,
  /// 700x700 140-147 vs 147-167 us, 1000x1000 350 vs 264-340 us (in the benchmark binary, 2
  /// threads: 311 vs 191-219 us). (With 128-column tiles, an Intel Xeon with a 2 MiB L2 took
  /// 1.07-1.41x the hand-written loop's time at 1000x1000 tiled.)
  static constexpr std::int64_t kTileMinRow = 768;

  /// Kernels with at most this many leaves get one strided-row loop per pattern of contiguous
  /// leaves (2^leaves loops); more would multiply the code of every such expression.
  static constexpr int kMaskedLeaves = 2;

  /// Calls f(std::integral_constant<unsigned, mask>) for a runtime mask of `Leaves` bits and
  /// returns true, unless every bit is set: such rows are unit-step rows, written by the unit
  /// path, so no loop is instantiated for them (false then; the caller's generic loop serves).
  template <int Leaves, unsigned M = 0, class F>
  static bool with_unit_mask(unsigned mask, const F& f) {
    if constexpr (M + 1 < (1u << Leaves)) {
      if (mask == M) {
        f(std::integral_constant<unsigned, M>{});
        return true;
      }
      return with_unit_mask<Leaves, M + 1>(mask, f);
    } else {
      return false;
    }
  }

  /// out[j] = k(first + j) for j in [0, count) of `rows` rows, with the leaves in Mask read at
  /// unit step: rows that follow each other along dimension `dim`, `row_step` elements apart
  /// in the output; leaves `k` at the last of them. One call per run of whole rows instead of
  /// one per row.
  template <unsigned Mask, class Out, class K>
  [[gnu::noinline]] TESSERA_ELEMENTWISE_CLONES static void write_masked_rows(
      Out* out, std::int64_t row_step, K& k, int dim, std::int64_t first, std::int64_t count,
      std::int64_t rows) {
    for (std::int64_t r = 0;;) {
      TESSERA_UNROLL_4
      for (std::int64_t j = 0; j < count; ++j)
        out[j] = static_cast<Out>(k.template inner_masked<Mask, 0>(first + j));
      if (++r == rows) return;
      k.next_row(dim);
      out += row_step;
    }
  }

  /// Unit-step rows at least this long are written by write_span<ReadUnitRow>; shorter ones
  /// stay inlined: for a few elements a call through the clones' ifunc costs more than wider
  /// vectors save.
  static constexpr std::int64_t kUnitRowCall = 64;

  /// The strided/broadcast case, row by row: per row segment of a part, one `seek` and the
  /// output row's offset, then a loop along the innermost dimension with one multiply per
  /// operand (instead of a full offset per operand and element). Rows where the output and
  /// every operand have unit steps (e.g. a row vector broadcast over rows) get their own loop,
  /// which the compiler vectorises. Otherwise (a transposed operand or output, rows of at
  /// least kTileMinRow) a part's rows are walked in tiles of kTileRows rows by kTileColumns
  /// columns, so that each cache line a strided operand brings in serves the next rows too
  /// instead of being evicted first.
  template <class Out, class K>
  static void run_rows(const TensorView<Out>& out, const K& k, const Extents& extents) {
    const std::int64_t n = extents.numel();
    const int last = extents.ndim - 1;
    const std::int64_t out_step = out.strides[last];
    const bool unit = out_step == 1 && k.unit();
    const bool tiled = !unit && extents.ndim >= 2 && extents.shape[last] >= kTileMinRow;
    // Output rows at unit step are streamed out, where long enough, when the output is large.
    const bool stream =
        out_step == 1 && host_streams_output<Out>(n * static_cast<std::int64_t>(sizeof(Out)));
    // By reference: the caller waits for every part, and each part copies the kernel into
    // its cursor anyway (a second copy per evaluation stalled on store forwarding: the kernel
    // was just built field by field and was copied 16 bytes at a time).
    host_adaptive_for<WriteWork<Out, K, 1>>(
        n, elementwise_split(n),
        [&out, &k, &extents, last, out_step, unit, tiled, stream](std::int64_t begin,
                                                                  std::int64_t end) {
          K cursor = k;
          Out* row = nullptr;  // the output row of the stretch being written
          // Moves the cursor and `row` to the row at `index`; `next`: that row follows the
          // previous one along the second-innermost dimension, so both step there instead of
          // seeking (x + row at (100, 100): 10 % fewer instructions).
          auto position = [&](const std::int64_t* index, bool next) {
            if (next) {
              cursor.next_row(last - 1);
              row += out.strides[last - 1];
            } else {
              cursor.seek(index);
              std::int64_t offset = 0;
              for (int d = 0; d < last; ++d) offset += index[d] * out.strides[d];
              row = out.data + offset;
            }
          };
          // Writes stretch [first, stop) of the row the cursor and `row` are at.
          auto write_row = [&](std::int64_t first, std::int64_t stop) {
            if (unit && stop - first >= kUnitRowCall) {
              if (stream) {
                stream_span<ReadUnitRow>(row, cursor, first, stop);
              } else {
                write_span<ReadUnitRow>(row, cursor, first, stop);
              }
              return;
            }
            if (unit) {
              TESSERA_UNROLL_4
              for (std::int64_t j = first; j < stop; ++j)
                row[j] = static_cast<Out>(cursor.inner_unit(j));
              return;
            }
            if constexpr (K::kLeaves <= kMaskedLeaves) {
              if (out_step == 1) {
                // A contiguous output row and some strided operand (a.T + b): one loop per
                // pattern of contiguous operands, so that the compiler vectorises the stores and
                // the contiguous operands' loads, as in a hand-written loop.
                if (with_unit_mask<K::kLeaves>(cursor.template unit_mask<0>(), [&](auto mask) {
                      constexpr unsigned kMask = decltype(mask)::value;
                      if (stream && stop - first >= kUnitRowCall) {
                        stream_span<ReadMaskedRow<kMask>>(row, cursor, first, stop);
                      } else {
                        write_span<ReadMaskedRow<kMask>>(row, cursor, first, stop);
                      }
                    })) {
                  return;
                }
              }
            }
            for (std::int64_t j = first; j < stop; ++j)
              row[j * out_step] = static_cast<Out>(cursor.inner(j));
          };
          // Writes row segment [first, stop) of the row at `index` (`next` as for position).
          auto write = [&](const std::int64_t* index, std::int64_t first, std::int64_t stop,
                           bool next) {
            position(index, next);
            write_row(first, stop);
          };
          if (!tiled) {
            for_each_row_run(
                extents, begin, end,
                [&](const std::int64_t* index, std::int64_t first, std::int64_t stop, bool next,
                    std::int64_t rows) {
                  position(index, next);
                  if constexpr (K::kLeaves <= kMaskedLeaves) {
                    // A run of strided rows (a.T + b): one call for all of them.
                    if (rows > 1 && !unit && out_step == 1 &&
                        !(stream && stop - first >= kUnitRowCall) &&
                        with_unit_mask<K::kLeaves>(cursor.template unit_mask<0>(), [&](auto mask) {
                          write_masked_rows<decltype(mask)::value>(
                              row + first, out.strides[last - 1], cursor, last - 1, first,
                              stop - first, rows);
                        })) {
                      row += (rows - 1) * out.strides[last - 1];
                      return;
                    }
                  }
                  for (std::int64_t r = 0;;) {
                    write_row(first, stop);
                    if (++r == rows) return;
                    cursor.next_row(last - 1);
                    row += out.strides[last - 1];
                  }
                });
            if (stream) stream_store_fence();
            return;
          }
          struct Segment {
            std::int64_t index[kMaxDims];
            std::int64_t first;
            std::int64_t stop;
          };
          // Initialised: nvcc warns (#549) that flush() may read it first, which it cannot prove.
          Segment tile[kTileRows] = {};
          int rows = 0;
          auto flush = [&] {
            std::int64_t lo = tile[0].first;
            std::int64_t hi = tile[0].stop;
            for (int r = 1; r < rows; ++r) {
              lo = std::min(lo, tile[r].first);
              hi = std::max(hi, tile[r].stop);
            }
            for (std::int64_t c = lo; c < hi; c += kTileColumns) {
              for (int r = 0; r < rows; ++r) {
                const std::int64_t first = std::max(tile[r].first, c);
                const std::int64_t stop = std::min(tile[r].stop, c + kTileColumns);
                if (first < stop) write(tile[r].index, first, stop, false);
              }
            }
            rows = 0;
          };
          for_each_row_segment(extents, begin, end,
                               [&](const std::int64_t* index, std::int64_t first, std::int64_t stop,
                                   bool /*next: tiles seek every stretch*/) {
                                 Segment& segment = tile[rows++];
                                 std::copy(index, index + extents.ndim, segment.index);
                                 segment.first = first;
                                 segment.stop = stop;
                                 if (rows == kTileRows) flush();
                               });
          if (rows > 0) flush();
          if (stream) stream_store_fence();
        });
  }

  /// Independent partial results per block of a linear reduction: element i goes to lane
  /// i % kLanes, and the lanes combine in lane order at the end. A single accumulator chains
  /// every combine on the previous one, which no compiler may reorder for floating point; lanes
  /// make that reordering part of the algorithm, so the loop vectorises without any
  /// result-changing flag, and the order still depends on the size alone (never on threads
  /// nor on the vector width: one clone per vector extension, TESSERA_VECTOR_CLONES).
  static constexpr int kLanes = 16;

  template <class Acc, class K, class Combine>
  TESSERA_VECTOR_CLONES static Acc reduce_linear(const K& k, std::int64_t begin, std::int64_t end,
                                                 Acc init, Combine combine) {
    Acc lanes[kLanes];
    for (Acc& lane : lanes) lane = init;
    std::int64_t i = begin;
    for (; i + kLanes <= end; i += kLanes) {
      for (int j = 0; j < kLanes; ++j)
        lanes[j] = combine(lanes[j], static_cast<Acc>(k.linear(i + j)));
    }
    for (int j = 0; i < end; ++i, ++j) lanes[j] = combine(lanes[j], static_cast<Acc>(k.linear(i)));
    Acc acc = init;
    for (const Acc& lane : lanes) acc = combine(acc, lane);
    return acc;
  }

  /// Combines Acc(k(i)) over every element of `extents`, block by block (each block in order).
  template <class Acc, class K, class Combine>
  static Acc reduce(const Extents& extents, const K& k, bool linear, Acc init, Combine combine) {
    const std::int64_t n = extents.numel();
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    auto block_value = [k, n, extents, linear, init, combine](std::int64_t b) {
      const std::int64_t begin = b * kBlock;
      const std::int64_t end = std::min(n, begin + kBlock);
      Acc acc = init;
      if (linear) {
        acc = reduce_linear(k, begin, end, init, combine);
      } else if constexpr (requires(K cursor, const std::int64_t* index) {
                             cursor.seek(index);
                             cursor.inner(std::int64_t{0});
                           }) {
        // Row by row, as in run_rows: the same elements in the same order. A 0-d space is one
        // row of one element (shape [1]).
        Extents rows = extents;
        if (rows.ndim == 0) rows = Extents{1, {1}};
        K cursor = k;
        for_each_row_segment(
            rows, begin, end,
            [&](const std::int64_t* index, std::int64_t first, std::int64_t stop, bool next) {
              if (next) {
                cursor.next_row(rows.ndim - 2);
              } else {
                cursor.seek(index);
              }
              for (std::int64_t j = first; j < stop; ++j)
                acc = combine(acc, static_cast<Acc>(cursor.inner(j)));
            });
      } else {
        std::int64_t index[kMaxDims];
        zero_dims(index);
        extents.unravel(begin, index);
        for (std::int64_t i = begin; i < end; ++i) {
          acc = combine(acc, static_cast<Acc>(k.at(index)));
          extents.increment(index);
        }
      }
      return acc;
    };
    if (blocks <= 1) return blocks == 1 ? block_value(0) : init;
    // One partial per block, combined in block order: the result does not depend on the thread
    // count (thrust::transform_reduce's OMP backend splits by thread and binds a null policy
    // reference, which UBSan reports).
    const auto partials = std::make_unique<Acc[]>(static_cast<std::size_t>(blocks));
    Acc* const slots = partials.get();
    host_adaptive_blocks<ReduceWork<Acc, K>>(
        blocks, [slots, &block_value](std::int64_t b) { slots[b] = block_value(b); });
    Acc acc = init;
    for (std::int64_t b = 0; b < blocks; ++b) acc = combine(acc, slots[b]);
    return acc;
  }
};

}  // namespace tessera::detail
