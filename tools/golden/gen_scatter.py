#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's tensor_scatter_nd_* family.

Two sources, both written to tests/data/scatter_golden.json (CI needs neither):
- "tf": TensorFlow itself (run with a Python that has TensorFlow, e.g. a virtual environment
  made by python3 -m venv /tmp/venv-tf && /tmp/venv-tf/bin/pip install tensorflow-cpu): the
  examples of tf.tensor_scatter_nd_sub's reference page, TensorFlow's own test shapes (rank
  sweeps, out-of-bounds rows, empty inputs, a long run of duplicates), every op, both index
  types, the IGNORE policy.
- "numpy": ufunc.at (np.subtract.at, np.add.at, np.minimum.at, np.maximum.at) over every
  numeric dtype, ranks 1-4, K = 1..rank, duplicate indices. ufunc.at applies updates one by one
  in index order, as TensorFlow's CPU loop does; negative indices (which NumPy would wrap) are
  never drawn here, the tf set covers them.
Each case holds tensor, indices, updates, op, policy and either the expected tensor or the
expected error (class and message without TensorFlow's prefix).
"""
import json
import re

import numpy as np
import tensorflow as tf

from golden_common import DATA_DIR, encode

OPS = {
    "sub": tf.raw_ops.TensorScatterSub, "add": tf.raw_ops.TensorScatterAdd,
    "update": tf.raw_ops.TensorScatterUpdate, "min": tf.raw_ops.TensorScatterMin,
    "max": tf.raw_ops.TensorScatterMax,
}
NP_OPS = {"sub": np.subtract, "add": np.add, "min": np.minimum, "max": np.maximum}
DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float32", "float64"]


def pack(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "data": [encode(v) for v in a.reshape(-1).tolist()]}


def tf_case(name, op, tensor, indices, updates, policy=""):
    entry = {"name": name, "source": "tf", "op": op, "policy": policy or "ERROR",
             "tensor": pack(tensor), "indices": pack(indices), "updates": pack(updates)}
    try:
        with tf.device("/CPU:0"):
            out = OPS[op](tensor=tf.constant(tensor), indices=tf.constant(indices),
                          updates=tf.constant(updates), bad_indices_policy=policy)
        entry["expected"] = pack(out.numpy())
    except tf.errors.InvalidArgumentError as e:
        message = re.sub(r"^\{\{[^}]*\}\}\s*", "", e.message.splitlines()[0])
        message = re.sub(r"\s*\[Op:[^\]]*\].*$", "", message)
        entry["error"] = {"kind": "index" if "does not index into" in message else "shape",
                          "message": message}
    return entry


def values(rng, n, dtype):
    if dtype.startswith("float"):
        return rng.standard_normal(n).astype(dtype)  # full mantissas: order shows in the bits
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dtype)


def random_indices(rng, shape, k, batch, index_dtype):
    cols = [rng.integers(0, shape[d], batch) for d in range(k)]
    return np.stack(cols, axis=-1).astype(index_dtype) if batch else np.zeros((0, k), index_dtype)


def tf_cases(rng):
    cases = []
    # The two examples of tf.tensor_scatter_nd_sub's reference page, verbatim.
    cases.append(tf_case("seed_elements", "sub", np.ones([8], np.int32),
                         np.array([[4], [3], [1], [7]], np.int32),
                         np.array([9, 10, 11, 12], np.int32)))
    slab = np.array([[5] * 4, [6] * 4, [7] * 4, [8] * 4], np.int32)
    cases.append(tf_case("seed_slices", "sub", np.ones([4, 4, 4], np.int32),
                         np.array([[0], [2]], np.int32), np.stack([slab, slab])))
    # Every op on the reference page's shapes, both index types, float and int.
    for op in OPS:
        for index_dtype in ("int32", "int64"):
            for dtype in ("float32", "int64"):
                t = values(rng, 8, dtype)
                i = np.array([[4], [3], [1], [7], [3]], index_dtype)
                cases.append(tf_case(f"ops_{op}_{dtype}_{index_dtype}", op, t, i,
                                     values(rng, 5, dtype)))
    # NaN in min/max: TensorFlow keeps a NaN already there and ignores a NaN update.
    for op in ("min", "max"):
        cases.append(tf_case(f"nan_{op}", op, np.array([1, np.nan, 3], np.float32),
                             np.array([[0], [1], [2]], np.int64),
                             np.array([np.nan, 0, 1], np.float32)))
    # TensorFlow's rank sweep shapes (scatter_nd_ops_test.testVariableRank*).
    sweeps = [((3, 6), (2, 1)), ((3, 6), (2, 2)), ((3, 6, 9), (2, 1)), ((3, 6, 9), (2, 2)),
              ((3, 6, 9), (2, 3)), ((3, 6, 9), (2, 3, 3))]
    for shape, ishape in sweeps:
        k = ishape[-1]
        for n, op in enumerate(OPS):
            for dtype in ("float32", "float64", "int32"):
                for index_dtype in (("int32", "int64")[(n + len(shape)) % 2],):
                    batch = int(np.prod(ishape[:-1]))
                    i = random_indices(rng, shape, k, batch, index_dtype).reshape(ishape)
                    ushape = tuple(ishape[:-1]) + tuple(shape[k:])
                    cases.append(tf_case(
                        f"rank_{'x'.join(map(str, shape))}_{'x'.join(map(str, ishape))}_{op}_"
                        f"{dtype}_{index_dtype}", op, values(rng, int(np.prod(shape)), dtype)
                        .reshape(shape), i, values(rng, int(np.prod(ushape)), dtype)
                        .reshape(ushape)))
    # Out of bounds (TensorFlow's testOutOfRange): negative and past the end, with both policies.
    base = np.arange(1, 7, dtype=np.float32)
    for name, rows in (("negative", [[-1], [0], [5]]), ("past_end", [[2], [0], [6]])):
        for op in OPS:
            for policy in ("", "IGNORE"):
                cases.append(tf_case(f"oob_{name}_{op}_{policy or 'ERROR'}", op, base,
                                     np.array(rows, np.int32), np.ones(3, np.float32), policy))
    cases.append(tf_case("oob_batched", "sub", base, np.array([[[0], [1]], [[7], [2]]], np.int64),
                         np.ones([2, 2], np.float32)))
    cases.append(tf_case("oob_slice", "sub", np.ones([4, 4, 4], np.float32),
                         np.array([[0, 1], [1, 4]], np.int64), np.ones([2, 4], np.float32)))
    cases.append(tf_case("oob_slice_k1", "add", np.ones([4, 4, 4], np.float32),
                         np.array([[0], [4]], np.int32), np.ones([2, 4, 4], np.float32)))
    # Empty inputs.
    cases.append(tf_case("empty_updates", "sub", np.ones([3], np.float32),
                         np.zeros([0, 1], np.int32), np.zeros([0], np.float32)))
    cases.append(tf_case("empty_updates_slices", "sub", np.ones([3, 2], np.float32),
                         np.zeros([0, 1], np.int64), np.zeros([0, 2], np.float32)))
    cases.append(tf_case("empty_tensor_empty_updates", "sub", np.ones([0], np.float32),
                         np.zeros([0, 1], np.int32), np.zeros([0], np.float32)))
    cases.append(tf_case("empty_tensor_with_updates", "sub", np.ones([0], np.float32),
                         np.zeros([1, 1], np.int32), np.ones([1], np.float32)))
    cases.append(tf_case("empty_slices_with_rows", "sub", np.ones([3, 0], np.float32),
                         np.zeros([2, 1], np.int32), np.ones([2, 0], np.float32)))
    # Shape errors.
    cases.append(tf_case("bad_updates_outer", "sub", np.ones([6], np.float32),
                         np.array([[0], [1]], np.int32), np.ones([3], np.float32)))
    cases.append(tf_case("bad_updates_inner", "sub", np.ones([6], np.float32),
                         np.array([[0, 1]], np.int32), np.ones([1], np.float32)))
    return cases


def duplicates_case():
    """100000 updates into one element: TensorFlow's float32 sum, in index order. The updates
    are ((i * 7919) % 1000) / 1024 (exact in float32), regenerated by the C++ test."""
    n = 100000
    u = (((np.arange(n) * 7919) % 1000) / 1024).astype(np.float32)
    with tf.device("/CPU:0"):
        out = tf.tensor_scatter_nd_sub(tf.zeros([4], tf.float32),
                                       tf.constant(np.full((n, 1), 2, np.int64)), tf.constant(u))
        add = tf.tensor_scatter_nd_add(tf.zeros([4], tf.float32),
                                       tf.constant(np.full((n, 1), 2, np.int64)), tf.constant(u))
    return {"count": n, "index": 2, "size": 4, "sub": pack(out.numpy()),
            "add": pack(add.numpy())}


def numpy_cases(rng):
    cases = []
    for dtype in DTYPES:
        for rank in range(1, 5):
            shape = tuple(int(x) for x in rng.integers(1, 5, rank))
            for k in range(1, rank + 1):
                ops = list(NP_OPS)
                for op in (ops[(rank + k) % 4], ops[(rank + k + 1 + DTYPES.index(dtype)) % 4]):
                    index_dtype = ("int32", "int64")[(rank + k) % 2]
                    batch_shape = (int(rng.integers(1, 4)),) if rank % 2 else \
                        (int(rng.integers(1, 3)), 2)
                    batch = int(np.prod(batch_shape))
                    i = random_indices(rng, shape, k, batch, index_dtype)
                    ushape = batch_shape + shape[k:]
                    t = values(rng, int(np.prod(shape)), dtype).reshape(shape)
                    u = values(rng, int(np.prod(ushape)), dtype).reshape(ushape)
                    expected = t.copy()
                    NP_OPS[op].at(expected, tuple(i.reshape(-1, k).T),
                                  u.reshape((batch,) + shape[k:]))
                    cases.append({"name": f"np_{dtype}_r{rank}_k{k}_{op}", "source": "numpy",
                                  "op": op, "policy": "ERROR", "tensor": pack(t),
                                  "indices": pack(i.reshape(batch_shape + (k,))),
                                  "updates": pack(u), "expected": pack(expected)})
    return cases


def main():
    rng = np.random.default_rng(20261130)
    out = {"cases": tf_cases(rng) + numpy_cases(rng), "duplicates": duplicates_case()}
    path = DATA_DIR / "scatter_golden.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
