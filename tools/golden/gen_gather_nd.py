#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's gather_nd, produced by TensorFlow itself (CPU).

Run with TensorFlow 2.21 (python3 -m venv /tmp/venv-tf && /tmp/venv-tf/bin/pip install
tensorflow-cpu):  /tmp/venv-tf/bin/python tools/golden/gen_gather_nd.py
Writes tests/data/gather_nd_golden.json; the C++ tests read it, so CI needs no TensorFlow.

Each case: params, int32 or int64 indices, batch_dims, and what tf.gather_nd returned, or the
error it raised with its message (TF's CPU kernel refuses an out-of-range row; the message
names the row and the params shape). Also the round trip
gather_nd(tensor_scatter_nd_update(t, i, u), i) == u for unique rows.
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from golden_common import DATA_DIR, encode  # noqa: E402

RNG = np.random.default_rng(35)
NAMES = {np.dtype(bool): "bool", np.dtype(np.int16): "int16", np.dtype(np.int32): "int32",
         np.dtype(np.int64): "int64", np.dtype(np.float32): "float32",
         np.dtype(np.float64): "float64"}
DTYPES = [bool, np.int16, np.float32, np.int64, np.float64]


def sample(shape, dtype):
    if dtype is bool:
        return RNG.random(shape) < 0.5
    return (RNG.integers(-50, 50, shape) * (0.25 if dtype in (np.float32, np.float64) else 1)
            ).astype(dtype)


def packed(a):
    a = np.asarray(a)
    return {"dtype": NAMES[a.dtype], "shape": list(a.shape),
            "data": [encode(v) for v in a.flatten().tolist()]}


def case(params, indices, batch_dims=0):
    c = {"op": "gather_nd", "tensors": [packed(params), packed(indices)],
         "batch_dims": batch_dims}
    try:
        c["out"] = packed(tf.gather_nd(params, indices, batch_dims=batch_dims).numpy())
    except (tf.errors.InvalidArgumentError, ValueError) as e:
        c["error"] = type(e).__name__
        c["message"] = str(e).strip().splitlines()[0]
    return c


def cases():
    out = []
    for dtype in DTYPES:
        for it in (np.int64, np.int32):
            p = sample((3, 2), dtype)
            p3 = sample((2, 3, 4), dtype)
            for i in ([[0, 0], [2, 1]], [[1], [0]], [[[0, 1]], [[2, 0]]], [[4, 0]],
                      [[0, 0], [4, 0]], [[-1, 0]], [[0, 2]], np.zeros((0, 2)), [[1, 0, 0]]):
                out.append(case(p, np.asarray(i, dtype=it)))
            for i in ([[1, 2, 3], [0, 0, 0]], [[1, 2]], [[1]], [[[1, 0], [0, 2]]], [[2, 0]]):
                out.append(case(p3, np.asarray(i, dtype=it)))
            for i, b in (([[1], [2]], 1), ([[1, 3], [0, 0]], 1), ([[[0], [2]], [[1], [1]]], 1),
                         ([[0], [5]], 1), ([[1], [2], [0]], 1), ([[1], [0]], 2),
                         ([[0, 1]], 2)):
                out.append(case(p3, np.asarray(i, dtype=it), b))
    # The round trip with tensor_scatter_nd_update (unique rows), float32.
    t = sample((5, 4), np.float32)
    i = np.asarray([[3], [0], [4]], dtype=np.int64)
    u = sample((3, 4), np.float32)
    written = tf.tensor_scatter_nd_update(t, i, u)
    out.append({"op": "round_trip", "tensors": [packed(t), packed(i), packed(u)],
                "out": packed(tf.gather_nd(written, i).numpy())})
    return out


def main():
    all_cases = cases()
    path = DATA_DIR / "gather_nd_golden.json"
    path.write_text(json.dumps({"generator": "tools/golden/gen_gather_nd.py",
                                "tensorflow": tf.__version__, "cases": all_cases}))
    errors = sum("error" in c for c in all_cases)
    print(f"{path}: {len(all_cases)} cases ({errors} errors), tensorflow {tf.__version__}")


if __name__ == "__main__":
    main()
