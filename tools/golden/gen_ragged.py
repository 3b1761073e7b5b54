#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's ragged::range and RaggedTensor, produced by TensorFlow itself.

Run with a Python that has TensorFlow (python3 -m venv /tmp/venv-tf && /tmp/venv-tf/bin/pip
install tensorflow-cpu):  /tmp/venv-tf/bin/python tools/golden/gen_ragged.py
Writes tests/data/ragged_golden.json; the C++ tests read it, so CI needs no TensorFlow.

- "range": tf.ragged.range's answers (values, row_splits) for the examples of its reference page
  (TensorFlow's documentation), the cases of TensorFlow's ragged_range_op_test.py (limits only,
  starts+limits, deltas, negative and mixed deltas, broadcasting, float ranges, empty rows,
  range(0, 0, 1)) and int32 cases.
- "range_errors": calls tf.ragged.range rejects, with TensorFlow's message.
- "factories": from_row_splits / from_row_lengths / from_value_rowids, valid (to_list) or not.
- "repr": repr() of eager RaggedTensors, "<tf.RaggedTensor " shortened to "<RaggedTensor ".
"""
import json
import os
import re

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from golden_common import DATA_DIR, encode  # noqa: E402

DTYPES = {"int32": tf.int32, "int64": tf.int64, "float32": tf.float32, "float64": tf.float64,
          "bool": tf.bool}


def pack_arg(x):
    if np.ndim(x) == 0 and not isinstance(x, (list, np.ndarray)):
        return {"scalar": encode(x.item() if isinstance(x, np.generic) else x)}
    a = np.asarray(x)
    return {"shape": list(a.shape), "data": [encode(v) for v in a.reshape(-1).tolist()]}


def tf_message(e):
    text = str(e).splitlines()[0]
    m = re.search(r"\}\} (.*?) \[Op:", text)
    return m.group(1) if m else text


def shorten(text):
    assert text.startswith("<tf.RaggedTensor ")
    return "<RaggedTensor " + text[len("<tf.RaggedTensor "):]


def range_case(cases, errors, name, args, dtype="int64", splits="int64"):
    tensors = [tf.constant(a, dtype=DTYPES[dtype]) for a in args]
    entry = {"name": name, "dtype": dtype, "splits_dtype": splits,
             "args": [pack_arg(a) for a in args]}
    try:
        r = tf.ragged.range(*tensors, row_splits_dtype=DTYPES[splits])
    except (tf.errors.InvalidArgumentError, ValueError) as e:
        entry["tf_error"] = type(e).__name__
        entry["message"] = tf_message(e)
        errors.append(entry)
        return
    entry["values"] = [encode(v) for v in r.flat_values.numpy().tolist()]
    entry["row_splits"] = r.row_splits.numpy().tolist()
    cases.append(entry)


def ranges():
    cases, errors = [], []
    # tf.ragged.range's reference page (TensorFlow's documentation).
    range_case(cases, errors, "doc_limits_only", [[3, 5, 2]])
    range_case(cases, errors, "doc_starts_limits", [[0, 5, 8], [3, 3, 12]])
    range_case(cases, errors, "doc_delta_2", [[0, 5, 8], [3, 3, 12], 2])
    # TensorFlow's ragged_range_op_test.py.
    range_case(cases, errors, "basic_limits", [[0, 3, 5]])
    range_case(cases, errors, "basic_starts_limits", [[0, 3, 5], [2, 3, 10]])
    range_case(cases, errors, "basic_deltas", [[0, 3, 5], [4, 4, 15], [2, 3, 4]])
    range_case(cases, errors, "float_ranges", [[0, 3, 5], [4.0, 4.4, 15.0], [0.4, 1.5, 2.2]],
               "float32")
    range_case(cases, errors, "float64_ranges", [[0, 3, 5], [4.0, 4.4, 15.0], [0.4, 1.5, 2.2]],
               "float64")
    range_case(cases, errors, "negative_deltas", [[0, 3, 5], [-1, -4, -10], [-1, -1, -3]])
    range_case(cases, errors, "negative_deltas_2", [[0, 0, 0], [-1, -5, -10], [-1, -2, -4]])
    range_case(cases, errors, "mixed_deltas", [[0, 5, 8, 3], [5, 0, 2, 10], [1, -1, -3, 2]])
    range_case(cases, errors, "broadcast_delta", [[0, 3, 5], [4, 4, 15], 3])
    range_case(cases, errors, "broadcast_start_limit", [0, 5, [1, 2, 3]])
    range_case(cases, errors, "broadcast_start", [2, [3, 5, 10]])
    range_case(cases, errors, "broadcast_limit", [[0, 1, 2], 6, [1, 2, 3]])
    range_case(cases, errors, "empty_rows", [[0, 5, 3], [0, 3, 5]])
    range_case(cases, errors, "empty_rows_negative_delta", [[0, 5, 5], [0, 3, 5], -1])
    range_case(cases, errors, "zero_zero_one", [0, 0, 1])
    range_case(cases, errors, "all_scalars", [2, 9, 3])
    range_case(cases, errors, "empty_vectors", [np.zeros([0], np.int64)])
    range_case(cases, errors, "scalar_tensor_and_vector", [np.int64(1), [4, 6]])
    range_case(cases, errors, "int32_overflow_free_size", [1136033460, -2110457150, -1849827689],
               "int32")
    range_case(cases, errors, "int32_extremes", [-2147483648, 2147483647, 1073741824], "int32")
    range_case(cases, errors, "int64_extremes",
               [-9223372036854775808, 9223372036854775807, 4611686018427387904])
    range_case(cases, errors, "int32_splits", [[3, 5, 2]], "int64", "int32")
    range_case(cases, errors, "float32_int32_splits", [[0.5, 1.0], [2.0, 0.0], [0.25, -0.5]],
               "float32", "int32")
    range_case(cases, errors, "float_fraction", [0.1, 1.0, 0.1], "float32")
    range_case(cases, errors, "float64_fraction", [0.1, 1.0, 0.1], "float64")
    range_case(cases, errors, "float_inf_delta", [0.0, 5.0, float("inf")], "float32")
    # Errors.
    range_case(cases, errors, "zero_delta_scalar", [0, 5, 0])
    range_case(cases, errors, "zero_delta_row_1", [[0, 1, 2], [5, 5, 5], [1, 0, 0]])
    range_case(cases, errors, "zero_delta_float", [[0.0], [1.0], [0.0]], "float32")
    range_case(cases, errors, "shape_mismatch", [[0, 1], [5, 5, 5]])
    range_case(cases, errors, "shape_mismatch_deltas", [[0, 1], [5, 5], [1, 1, 1]])
    range_case(cases, errors, "rank2_starts", [[[0, 1]], 5])
    range_case(cases, errors, "rank2_limits", [[[0, 1]]])
    range_case(cases, errors, "rank2_deltas", [0, 5, [[1]]])
    range_case(cases, errors, "float_inf_limit", [0.0, float("inf"), 1.0], "float32")
    range_case(cases, errors, "float_nan_limit", [0.0, float("nan"), 1.0], "float64")
    range_case(cases, errors, "float_nan_start", [[0.0, float("nan")], 1.0, 1.0], "float32")
    range_case(cases, errors, "float_huge_size", [0.0, 1e30, 1e-10], "float64")
    range_case(cases, errors, "int32_splits_overflow", [[2 ** 30, 2 ** 30, 2 ** 30]], "int64",
               "int32")
    return cases, errors


def factories():
    out = []

    def add(kind, values, arg, nrows=None, dtype="int64", splits="int64"):
        entry = {"kind": kind, "dtype": dtype, "splits_dtype": splits,
                 "values": pack_arg(np.asarray(values, np.int64)), "arg": list(arg)}
        v = tf.constant(values, DTYPES[dtype])
        a = tf.constant(arg, DTYPES[splits])
        try:
            if kind == "row_splits":
                r = tf.RaggedTensor.from_row_splits(v, a, validate=True)
            elif kind == "row_lengths":
                r = tf.RaggedTensor.from_row_lengths(v, a, validate=True)
            else:
                entry["nrows"] = nrows
                r = tf.RaggedTensor.from_value_rowids(v, a, nrows, validate=True)
            entry["row_splits"] = r.row_splits.numpy().tolist()
            entry["row_lengths"] = r.row_lengths().numpy().tolist()
            entry["value_rowids"] = r.value_rowids().numpy().tolist()
            dense = r.to_tensor(default_value=-1).numpy()
            entry["to_tensor"] = {"shape": list(dense.shape), "data": dense.reshape(-1).tolist()}
        except (tf.errors.InvalidArgumentError, ValueError) as e:
            entry["tf_error"] = type(e).__name__
            entry["message"] = str(e).splitlines()[0][:200]
        out.append(entry)

    vals = [0, 1, 2, 8, 9, 10, 11]
    add("row_splits", vals, [0, 3, 3, 7])
    add("row_splits", vals, [0, 3, 3, 7], splits="int32")
    add("row_splits", [], [0])
    add("row_splits", [], [0, 0, 0])
    add("row_splits", vals, [1, 3, 3, 7])
    add("row_splits", vals, [0, 4, 3, 7])
    add("row_splits", vals, [0, 3, 3, 6])
    add("row_splits", vals, [0, 3, 3, 8])
    add("row_lengths", vals, [3, 0, 4])
    add("row_lengths", vals, [0, 0, 7, 0], splits="int32")
    add("row_lengths", [], [])
    add("row_lengths", vals, [3, -1, 5])
    add("row_lengths", vals, [3, 0, 3])
    add("row_lengths", vals, [3, 0, 5])
    add("value_rowids", vals, [0, 0, 0, 2, 2, 2, 2], 3)
    add("value_rowids", vals, [0, 0, 0, 2, 2, 2, 2], 5)
    add("value_rowids", vals, [1, 1, 1, 1, 3, 3, 3], 4, splits="int32")
    add("value_rowids", [], [], 2)
    add("value_rowids", vals, [0, 0, 2, 1, 2, 2, 2], 3)
    add("value_rowids", vals, [0, 0, 0, 2, 2, 2, 3], 3)
    add("value_rowids", vals, [-1, 0, 0, 2, 2, 2, 2], 3)
    add("value_rowids", vals, [0, 0, 0, 2, 2, 2], 3)
    add("row_lengths", [[1, 2], [3, 4], [5, 6]], [2, 0, 1])
    add("row_splits", [[1, 2, 3], [4, 5, 6]], [0, 0, 2, 2])
    return out


def reprs():
    out = []

    def add(name, values, splits, dtype="int64", splits_dtype="int64"):
        v = np.asarray(values, dtype=DTYPES[dtype].as_numpy_dtype)
        r = tf.RaggedTensor.from_row_splits(tf.constant(v), tf.constant(splits,
                                                                         DTYPES[splits_dtype]))
        out.append({"name": name, "dtype": dtype, "splits_dtype": splits_dtype,
                    "values": pack_arg(v), "row_splits": list(splits),
                    "repr": shorten(repr(r))})

    rng = np.random.default_rng(6)
    add("seed", [0, 1, 2, 8, 9, 10, 11], [0, 3, 3, 7])
    add("int32_splits", [0, 1, 2, 8, 9, 10, 11], [0, 3, 3, 7], "int32", "int32")
    add("no_rows", np.zeros([0], np.int64), [0])
    add("one_empty_row", np.zeros([0], np.int64), [0, 0])
    add("three_empty_rows", np.zeros([0], np.float32), [0, 0, 0, 0], "float32")
    add("uniform_rows", list(range(6)), [0, 2, 4, 6])
    add("floats_halves", [0.0, 0.5, 1.0, 1.5, 8.0, 8.5], [0, 4, 4, 6], "float32")
    add("float32_tenths", (np.arange(10, dtype=np.float32) * np.float32(0.1)).tolist() +
        [8.0, 8.1, 8.2], [0, 10, 10, 13], "float32")
    add("float64_tenths", (np.arange(10) * 0.1).tolist(), [0, 3, 10], "float64")
    add("float32_magnitudes", [1e5, 999999.0, 1e6, 1.5e7, 1e-4, 1.5e-4, 9.9e-5, 123456.7, -0.0,
                               0.0, 3e38, -2.5], [0, 4, 8, 12], "float32")
    add("float64_magnitudes", [1e15, 9.99e15, 1e16, 1.5e-5, 1e-4, 0.1, -0.0, 1e300, 123.456,
                               -7.0], [0, 5, 5, 10], "float64")
    add("float_specials", [float("nan"), float("inf"), float("-inf"), 1.0], [0, 1, 4], "float32")
    add("bool_values", [True, False, True], [0, 2, 3], "bool")
    add("values_2d", np.arange(12).reshape(6, 2), [0, 2, 2, 6])
    add("values_2d_uniform", np.arange(8).reshape(4, 2), [0, 2, 4])
    add("values_3d", np.arange(24).reshape(6, 2, 2), [0, 1, 6])
    add("values_2d_empty_inner", np.zeros([3, 0], np.int64), [0, 1, 3])
    add("wrapping_rows", [j for i in range(12) for j in range(i)],
        np.cumsum([0] + list(range(12))).tolist())
    add("long_row_wraps", list(range(40)), [0, 1, 40])
    add("big_numbers", [10 ** 12 + i for i in range(30)], [0, 10, 12, 30])
    add("summarised_rows", rng.integers(0, 100, 2000 * 2 + 7).tolist(),
        list(range(0, 4000, 2)) + [4000, 4007])
    add("summarised_row", list(range(1500)), [0, 2, 1500])
    add("uniform_summarised", list(range(3000)), [0, 1000, 2000, 3000])
    add("float_long_rows", (np.arange(30, dtype=np.float32) / np.float32(7)).tolist(),
        [0, 11, 11, 30], "float32")
    return out


def main():
    cases, errors = ranges()
    data = {"range": cases, "range_errors": errors, "factories": factories(), "repr": reprs()}
    path = DATA_DIR / "ragged_golden.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{path}: {len(cases)} range cases, {len(errors)} range errors, "
          f"{len(data['factories'])} factory cases, {len(data['repr'])} repr cases")


if __name__ == "__main__":
    main()
