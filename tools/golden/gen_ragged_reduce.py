#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's ragged reductions and unsorted segment reductions, from TensorFlow.

Run with a TensorFlow 2.21 venv:  /tmp/venv-tf/bin/python tools/golden/gen_ragged_reduce.py
Writes tests/data/ragged_reduce_golden.json; the C++ tests read it, so CI needs no TensorFlow.

- "ragged": tf.reduce_{sum,prod,max,min,mean} (and reduce_any/all on bool) of
  tf.RaggedTensor.from_row_splits(values, splits) over axis 1 and 0: every number dtype, empty
  rows, no rows, all rows empty, NaN/inf, wrapping integers, values with an inner dimension.
- "segment": tf.math.unsorted_segment_{sum,prod,max,min,mean}: negative ids dropped, empty
  segments, N-D data and ids, int32 and int64 ids, num_segments 0.
- "segment_errors": an id >= num_segments, with TensorFlow's message.
Where max/min meet a NaN, tessera propagates it (as its other max/min do) and TensorFlow's CPU
fold keeps it only when it comes last: those cases carry NumPy's propagating answer in "out" and
TensorFlow's in "tf".
"""
import json
import os
import re

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from golden_common import DATA_DIR, encode  # noqa: E402

NUMBERS = ["uint8", "int8", "int16", "int32", "int64", "float32", "float64"]
RNG = np.random.default_rng(36)


def pack(a):
    a = np.asarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape),
            "data": [encode(v) for v in a.reshape(-1).tolist()]}


def propagating(fn, values, splits, axis):
    """NumPy's max/min with NaN propagating, per row (axis 1) or column position (axis 0)."""
    rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
    inner = values.shape[1:]
    lowest = np.finfo(values.dtype).min if fn == "reduce_max" else np.finfo(values.dtype).max
    if axis == 1:
        groups = rows
    else:
        width = max([len(r) for r in rows], default=0)
        groups = [np.array([r[j] for r in rows if len(r) > j], dtype=values.dtype).reshape(
            (-1,) + inner) for j in range(width)]
    out = []
    for g in groups:
        if len(g) == 0:
            out.append(np.full(inner, lowest, dtype=values.dtype))
        else:
            # TensorFlow's fold starts from the identity: a row of -inf gives lowest.
            out.append(np.maximum(lowest, np.max(g, axis=0)) if fn == "reduce_max"
                       else np.minimum(lowest, np.min(g, axis=0)))
    return np.array(out, dtype=values.dtype).reshape((len(groups),) + inner)


def ragged_case(cases, name, values, splits, fns, axes=(1, 0), splits_dtype="int64"):
    values = np.asarray(values)
    splits = np.asarray(splits, dtype=np.int64)
    rt = tf.RaggedTensor.from_row_splits(tf.constant(values),
                                         tf.constant(splits, dtype=splits_dtype))
    for fn in fns:
        for axis in axes:
            entry = {"name": name, "fn": fn, "axis": axis, "values": pack(values),
                     "row_splits": splits.tolist(), "splits_dtype": splits_dtype}
            try:
                out = getattr(tf, fn)(rt, axis=axis).numpy()
            except (tf.errors.InvalidArgumentError, TypeError, ValueError) as e:
                print("skipped", name, fn, values.dtype, type(e).__name__)
                continue
            entry["out"] = pack(out)
            if fn in ("reduce_max", "reduce_min") and values.dtype.kind == "f" and np.isnan(
                    values).any():
                entry["tf"] = entry["out"]
                entry["out"] = pack(propagating(fn, values, splits, axis))
            cases.append(entry)


def segment_case(cases, name, data, ids, n, fns, id_dtype="int32"):
    data = np.asarray(data)
    ids = np.asarray(ids, dtype=id_dtype)
    for fn in fns:
        out = getattr(tf.math, fn)(tf.constant(data), tf.constant(ids), n).numpy()
        entry = {"name": name, "fn": fn, "data": pack(data), "ids": pack(ids), "n": n,
                 "out": pack(out)}
        if fn in ("unsorted_segment_max", "unsorted_segment_min") and data.dtype.kind == "f" \
                and np.isnan(data).any():
            entry["tf"] = entry["out"]
            inner = data.shape[ids.ndim:]
            flat = data.reshape((-1,) + inner)
            big = np.finfo(data.dtype).max
            res = np.full((n,) + inner, -big if fn.endswith("max") else big, dtype=data.dtype)
            for k, s in enumerate(ids.reshape(-1)):
                if s >= 0:
                    res[s] = np.maximum(res[s], flat[k]) if fn.endswith("max") else np.minimum(
                        res[s], flat[k])
            entry["out"] = pack(res)
        cases.append(entry)


def main():
    ragged, segment, errors = [], [], []
    all_fns = ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_mean"]
    splits = [0, 2, 2, 5, 6, 10]
    for dt in NUMBERS:
        if dt == "uint8":
            v = RNG.integers(0, 9, 10)
        else:
            v = RNG.integers(-9, 9, 10)
        ragged_case(ragged, "small_" + dt, v.astype(dt), splits, all_fns)
    ragged_case(ragged, "int32_splits", np.arange(1.0, 7.0, dtype=np.float32), [0, 3, 3, 6],
                all_fns, splits_dtype="int32")
    special = np.array([1, 2, -np.inf, np.nan, 1, 1, np.nan, np.inf, -0.0, 0.0], dtype=np.float32)
    ragged_case(ragged, "special_float32", special, [0, 2, 2, 3, 5, 7, 8, 10], all_fns)
    ragged_case(ragged, "all_empty", np.zeros(0, np.float32), [0, 0, 0, 0], all_fns)
    ragged_case(ragged, "no_rows", np.zeros(0, np.float64), [0], all_fns)
    ragged_case(ragged, "empty_int32", np.zeros(0, np.int32), [0, 0, 0], all_fns)
    big = np.array([2**31 - 1, 1, -2**31, -1, 3], dtype=np.int32)
    ragged_case(ragged, "wrap_int32", big, [0, 2, 4, 5], all_fns)
    ragged_case(ragged, "wrap_uint8", np.array([200, 100, 255, 2, 7], np.uint8), [0, 2, 4, 5],
                all_fns)
    inner = RNG.normal(size=(7, 3)).astype(np.float32)
    ragged_case(ragged, "inner_dim_float32", inner, [0, 3, 3, 4, 7], all_fns)
    long_row = RNG.normal(size=300).astype(np.float64)
    ragged_case(ragged, "long_rows_float64", long_row, [0, 1, 120, 120, 300], all_fns)
    b = np.array([True, False, False, False, True, True])
    ragged_case(ragged, "bool", b, [0, 2, 2, 3, 6], ["reduce_any", "reduce_all"])
    ragged_case(ragged, "bool_empty", np.zeros(0, bool), [0, 0, 0], ["reduce_any", "reduce_all"])

    seg_fns = ["unsorted_segment_sum", "unsorted_segment_prod", "unsorted_segment_max",
               "unsorted_segment_min", "unsorted_segment_mean"]
    for dt in NUMBERS:
        v = RNG.integers(0 if dt == "uint8" else -5, 6, 9).astype(dt)
        segment_case(segment, "small_" + dt, v, [0, 2, 2, -1, 0, 4, 2, -3, 0], 6, seg_fns)
    segment_case(segment, "int64_ids", np.arange(1.0, 6.0, dtype=np.float32), [1, 1, 0, 3, -1], 5,
                 seg_fns, id_dtype="int64")
    segment_case(segment, "special_float32",
                 np.array([1, np.nan, -np.inf, 2, np.nan, 3, 0.5], np.float32),
                 [0, 0, 1, 1, 2, 2, 3], 5, seg_fns)
    segment_case(segment, "slices_float64", RNG.normal(size=(5, 2, 3)), [2, 0, 2, -1, 1], 4,
                 seg_fns)
    segment_case(segment, "nd_ids_int32", RNG.integers(-9, 9, (2, 3, 2)).astype(np.int32),
                 [[0, 1, 0], [2, -1, 1]], 3, seg_fns)
    segment_case(segment, "zero_segments", np.array([1.0, 2.0], np.float32), [-1, -2], 0, seg_fns)
    segment_case(segment, "no_data", np.zeros((0, 2), np.float32), np.zeros(0, np.int32), 3,
                 seg_fns)
    segment_case(segment, "wrap_int16", np.array([30000, 30000, -7], np.int16), [0, 0, 1], 2,
                 seg_fns)
    sums = RNG.normal(size=1024).astype(np.float32) * 1e3
    segment_case(segment, "many_float32", sums, RNG.integers(-1, 7, 1024), 7,
                 ["unsorted_segment_sum", "unsorted_segment_mean"])

    for data, ids, n in [([1.0, 2.0, 3.0], [0, 7, 1], 5), ([1.0], [5], 5)]:
        try:
            tf.math.unsorted_segment_sum(tf.constant(data), tf.constant(ids), n)
        except tf.errors.InvalidArgumentError as e:
            text = str(e).splitlines()[0]
            m = re.search(r"\}\} (.*?) \[Op:", text)
            errors.append({"data": pack(np.array(data)), "ids": pack(np.array(ids, np.int32)),
                           "n": n, "message": m.group(1) if m else text})

    # Row selection: tf.gather, tf.ragged.boolean_mask, tf.RaggedTensor.from_tensor.
    select = []
    rt_values = np.arange(1.0, 8.0, dtype=np.float32)
    rt_splits = [0, 2, 2, 5, 7]
    rt = tf.RaggedTensor.from_row_splits(rt_values, rt_splits)
    for rows in ([2, 0, 0, 3], [], [1, 1]):
        out = tf.gather(rt, tf.constant(rows, dtype=tf.int64))
        select.append({"op": "gather", "values": pack(rt_values), "row_splits": rt_splits,
                       "rows": rows, "out_values": pack(out.flat_values.numpy()),
                       "out_splits": out.row_splits.numpy().tolist()})
    for x, m in [(np.arange(12).reshape(3, 4).astype(np.int32),
                  [[True, False, True, False], [False] * 4, [True] * 4]),
                 (RNG.normal(size=(2, 3, 2)).astype(np.float32),
                  [[False, True, True], [True, False, False]])]:
        out = tf.ragged.boolean_mask(tf.constant(x), tf.constant(m))
        select.append({"op": "boolean_mask", "x": pack(x), "mask": pack(np.array(m)),
                       "out_values": pack(out.flat_values.numpy()),
                       "out_splits": out.row_splits.numpy().tolist()})
    dense = np.array([[1, 2, 0], [0, 0, 0], [3, 0, 4], [0, 5, 0]], dtype=np.float32)
    for lengths in ([1, 0, 3, 2], [3, 3, 3, 3], [0, 0, 0, 0]):
        out = tf.RaggedTensor.from_tensor(dense, lengths=lengths)
        select.append({"op": "from_tensor_lengths", "dense": pack(dense), "lengths": lengths,
                       "out_values": pack(out.flat_values.numpy()),
                       "out_splits": out.row_splits.numpy().tolist()})
    for d, pad in [(dense, 0.0), (dense, 3.0),
                   (np.array([[[1, 0], [0, 0]], [[0, 0], [0, 1]]], np.float32), 0.0)]:
        # TensorFlow's padding has the inner dims' shape; tessera's scalar pads every element.
        out = tf.RaggedTensor.from_tensor(d, padding=np.full(d.shape[2:], pad, d.dtype))
        select.append({"op": "from_tensor_padding", "dense": pack(d), "padding": pad,
                       "out_values": pack(out.flat_values.numpy()),
                       "out_splits": out.row_splits.numpy().tolist()})

    path = DATA_DIR / "ragged_reduce_golden.json"
    with open(path, "w") as f:
        json.dump({"generator": "tools/golden/gen_ragged_reduce.py",
                   "tensorflow": tf.__version__, "ragged": ragged, "segment": segment,
                   "segment_errors": errors,
                   "select": select}, f, separators=(",", ":"))
        f.write("\n")
    print(path, len(ragged), "ragged,", len(segment), "segment,", len(errors), "error cases")


if __name__ == "__main__":
    main()
