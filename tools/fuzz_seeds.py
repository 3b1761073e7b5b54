#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the seed corpora of the fuzz targets (tests/fuzz/seeds/<target>/) from the golden cases
in tests/data/*.json: each case is encoded in the byte format that tests/fuzz/fuzz_input.hpp and
the target decode, so the fuzzers start from the inputs PyTorch and TensorFlow were asked about.
Cases the decoders cannot express (dims above their limits, other dtype pairs) are skipped.
The npy target's seeds are whole .npy files written by NumPy's own writer (every dtype, C and
Fortran order, 0-d, empty, rank 3, format versions 1.0 / 2.0 / 3.0, big-endian), so this script
needs NumPy for them; without it, tests/fuzz/seeds/npy is left as it is.

    /usr/bin/python3 tools/fuzz_seeds.py          # rewrites tests/fuzz/seeds/
"""
import hashlib
import json
import math
import pathlib
import shutil
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SEEDS = ROOT / "tests" / "fuzz" / "seeds"
MAX_ELEMENTS = 512  # kMaxElements in fuzz_input.hpp
PACK = {"bool": "?", "uint8": "B", "int8": "b", "int16": "h", "int32": "i", "int64": "q",
        "float32": "f", "float64": "d", "float": "f", "double": "d"}


class Skip(Exception):
    pass


class Encoder:
    """The inverse of tessera_fuzz::Input: each method appends what the decoder reads."""

    def __init__(self):
        self.out = bytearray()

    def byte(self, b):
        self.out.append(b & 0xFF)

    def flag(self, on):
        self.byte(1 if on else 0)

    def pick(self, lo, hi, v):
        if not lo <= v <= hi:
            raise Skip(f"{v} outside [{lo}, {hi}]")
        self.byte(v - lo)

    def raw(self, dtype, x):
        if dtype == "bool":
            self.flag(x)
            return
        self.out += struct.pack("<" + PACK[dtype], x)

    def value(self, dtype, x):
        if dtype == "bool":
            self.flag(x)
        elif isinstance(x, float) and (math.isnan(x) or math.isinf(x)) or x != int(x) or not -4 <= x <= 11:
            self.byte(255)
            self.raw(dtype, x)
        else:
            self.byte(int(x) + 4)

    def shape(self, lo, hi, dims, max_dim=6):
        self.pick(lo, hi, len(dims))
        n = 1
        for d in dims:
            self.pick(0, max_dim, d)
            n *= max(d, 1)
        if n > MAX_ELEMENTS:
            raise Skip("too many elements")

    def contiguous(self, dims):
        if dims:
            self.pick(0, 2, 0)  # make_tensor's layout: contiguous


def numeric(x):
    if isinstance(x, str):
        return float(x)  # "nan", "inf", "-inf"
    return x


SEARCH_PAIRS = [("float32", "float32"), ("float64", "float64"), ("int64", "int64"),
                ("int32", "int32"), ("int16", "int16"), ("int8", "int8"), ("uint8", "uint8"),
                ("int64", "float32"), ("uint8", "int8"), ("float32", "float64")]
BUCKET_PAIRS = [("float32", "float32"), ("float64", "float64"), ("int64", "int64"),
                ("int32", "int32"), ("int8", "int8"), ("uint8", "uint8"), ("float32", "int64"),
                ("int16", "float64")]


def dtype_of(t):
    return {"float": "float32", "double": "float64"}.get(t["dtype"], t["dtype"])


def searchsorted_seed(c):
    if "values" not in c:
        raise Skip("scalar case")
    seq, vals = c["seq"], c["values"]
    pair = (dtype_of(seq), dtype_of(vals))
    if pair not in SEARCH_PAIRS:
        raise Skip(f"pair {pair}")
    e = Encoder()
    e.flag(c["out_int32"])
    e.pick(0, 9, SEARCH_PAIRS.index(pair))
    e.shape(0, 3, seq["shape"])
    if len(seq["shape"]) >= 2:
        e.pick(0, 3, 1)
        e.pick(0, 5, vals["shape"][-1])
    else:
        e.pick(0, 3, 0)
        e.shape(0, 3, vals["shape"])
    for x in seq["data"]:
        e.value(pair[0], numeric(x))
    sorter = c.get("sorter") is not None
    e.pick(0, 3, 1 if sorter else 0)
    if not sorter and seq["shape"] and seq["shape"][-1] > 0:
        e.flag(False)  # keep the golden order
    e.contiguous(seq["shape"])
    for x in vals["data"]:
        e.value(pair[1], numeric(x))
    e.contiguous(vals["shape"])
    e.flag(c["right"])
    e.pick(0, 2, {None: 0, "left": 1, "right": 2}[c["side"]])
    if sorter:
        e.contiguous(seq["shape"])
    e.pick(0, 3, 0)  # no out
    e.pick(0, 2, 0)  # method form
    return bytes(e.out)


def bucketize_seed(c):
    if "values" not in c or c.get("bucketize") is None or len(c["seq"]["shape"]) != 1:
        raise Skip("not a bucketize case")
    bounds, vals = c["seq"], c["values"]
    pair = (dtype_of(vals), dtype_of(bounds))
    if pair not in BUCKET_PAIRS:
        raise Skip(f"pair {pair}")
    e = Encoder()
    e.flag(c["out_int32"])
    e.pick(0, 7, BUCKET_PAIRS.index(pair))
    e.shape(0, 3, vals["shape"])
    e.pick(0, 3, 1)
    e.pick(0, 12, bounds["shape"][0])
    for x in vals["data"]:
        e.value(pair[0], numeric(x))
    for x in bounds["data"]:
        e.value(pair[1], numeric(x))
    e.flag(False)
    e.contiguous(vals["shape"])
    e.contiguous(bounds["shape"])
    e.flag(c["right"])
    e.pick(0, 3, 0)
    e.pick(0, 1, 0)
    return bytes(e.out)


NONZERO_TYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64"]


def nonzero_seeds(c, which):
    """One seed per case; the call form (nonzero, as_tuple, count, static, out, expression)
    rotates over the cases."""
    seeds = []
    for form in [which % 6]:
        e = Encoder()
        e.pick(0, 7, NONZERO_TYPES.index(dtype_of(c)))
        e.shape(0, 4, c["shape"], max_dim=5)
        for x in c["values"]:
            e.value(dtype_of(c), numeric(x))
        e.contiguous(c["shape"])
        e.pick(0, 5, form)
        if form == 3:
            e.pick(-2, 40, min(40, c["count"]))
            e.raw("int64", -1)
        elif form == 4:
            e.pick(0, 2, 1)
        elif form == 5:
            e.value(dtype_of(c), 0)
        seeds.append(bytes(e.out))
    return seeds


SCATTER_TYPES = ["float32", "float64", "int32", "int64", "int8", "uint8", "int16", "bool"]
SCATTER_OPS = ["sub", "add", "update", "min", "max"]


def scatter_seed(c):
    t, i, u = c["tensor"], c["indices"], c["updates"]
    dtype = dtype_of(t)
    if dtype not in SCATTER_TYPES:
        raise Skip(dtype)
    e = Encoder()
    e.pick(0, 7, SCATTER_TYPES.index(dtype))
    e.flag(dtype_of(i) == "int32")
    if dtype != "bool":
        e.pick(0, 4, SCATTER_OPS.index(c["op"]))
    e.shape(0, 3, t["shape"], max_dim=5)
    rank = len(t["shape"])
    k = i["shape"][-1] if i["shape"] else 0
    if not i["shape"] or not 1 <= k <= max(rank, 1):
        raise Skip("malformed")
    e.pick(0, 7, 1)
    e.pick(1, max(rank, 1), k)
    e.pick(0, 15, 1)
    e.shape(0, 2, i["shape"][:-1], max_dim=4)
    e.pick(0, 9, 1)  # updates of the right shape
    for j, v in enumerate(i["data"]):
        dim = t["shape"][j % k]
        if not 0 <= v < min(dim, 230):
            raise Skip("index outside the tensor")
        e.byte(v)
    for x in t["data"]:
        e.value(dtype, numeric(x))
    for x in u["data"]:
        e.value(dtype, numeric(x))
    for shape in (t["shape"], i["shape"], u["shape"]):
        e.contiguous(shape)
    e.flag(c.get("policy") == "IGNORE")
    e.flag(False)  # deterministic
    e.flag(False)  # in place
    e.flag(False)  # free function
    return bytes(e.out)


RANGE_TYPES = {("int32", "int64"): 0, ("int64", "int64"): 1, ("float32", "int64"): 2,
               ("float64", "int64"): 3, ("int32", "int32"): 4, ("int64", "int32"): 5,
               ("float64", "int32"): 6, ("float32", "int32"): 9}


def range_value(e, dtype, x):
    x = numeric(x)
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)) or x != int(x) or not -8 <= x <= 15:
        e.byte(255)
        e.raw(dtype, x)
    else:
        e.byte(int(x) + 8)


def ragged_seed(c):
    dtype = dtype_of(c)
    key = (dtype, c["splits_dtype"])
    if key not in RANGE_TYPES or not 1 <= len(c["args"]) <= 3:
        raise Skip(str(key))
    e = Encoder()
    e.pick(0, 9, RANGE_TYPES[key])
    lengths = [len(a["data"]) for a in c["args"] if "shape" in a and len(a["shape"]) == 1]
    n = lengths[0] if lengths else 0
    e.pick(0, 6, n)
    e.pick(1, 3, len(c["args"]))
    for a in c["args"]:
        if "scalar" in a:
            e.pick(0, 9, 0)
            range_value(e, dtype, a["scalar"])
            continue
        shape = a["shape"]
        if shape == []:
            e.pick(0, 9, 4)
        elif len(shape) == 1 and shape[0] == n:
            e.pick(0, 9, 7)
        elif len(shape) == 1:
            e.pick(0, 9, 5)
            e.pick(0, 4, shape[0])
        else:
            raise Skip("rank 2")
        for x in a["data"]:
            range_value(e, dtype, x)
        e.contiguous(shape)
    return bytes(e.out)


NPY_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64"]


def npy_seeds():
    """The npy target's seeds: files NumPy writes, each a few hundred bytes (max_len 1024)."""
    import io

    import numpy as np

    def save(a, version=None):
        f = io.BytesIO()
        if version is None:
            np.save(f, a)
        else:
            np.lib.format.write_array(f, a, version=version)
        return f.getvalue()

    seeds = []
    for d in NPY_DTYPES:
        if d == "bool":
            base = np.array([True, False, True, True, False, False, True, False, True, False, False, True])
        elif d.startswith("float"):
            info = np.finfo(d)
            base = np.array([info.min, -1.5, -0.0, 0.25, np.nan, np.inf, -np.inf, 1e-3, info.max,
                             info.tiny, 7.0, 2.0], dtype=d)
        else:
            info = np.iinfo(d)
            base = np.array([info.min, 0, 1, 2, info.max, -1 if info.min < 0 else 3, 5, 6, 7, 8, 9, 10],
                            dtype=d)
        seeds.append(save(base[:6].reshape(2, 3)))                     # C order
        seeds.append(save(np.asfortranarray(base.reshape(3, 4))))      # Fortran order
        seeds.append(save(base[:5]))                                   # 1-d
        seeds.append(save(base[0].copy()))                             # 0-d
        seeds.append(save(np.zeros((0, 3), dtype=d)))                  # empty
        seeds.append(save(base.reshape(2, 3, 2)[:, :, ::-1].copy(order="F")))  # rank 3, Fortran
    seeds.append(save(np.arange(6, dtype=np.float64).reshape(2, 3), version=(2, 0)))
    seeds.append(save(np.arange(6, dtype=np.float64).reshape(3, 2), version=(3, 0)))
    seeds.append(save(np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)), version=(3, 0)))
    seeds.append(save(np.arange(4, dtype=">f8")))                    # big-endian: refused
    seeds.append(save(np.zeros((1, 1, 1, 1, 1, 1, 1, 1, 2), dtype=np.int8)))  # rank 9: refused
    # Keys in another order (NumPy reads any order; tessera must too).
    header = b"{'shape': (2, 3), 'fortran_order': False, 'descr': '<f8'}"
    header += b" " * ((64 - (10 + len(header) + 1) % 64) % 64) + b"\n"
    seeds.append(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header +
                 np.arange(6, dtype=np.float64).tobytes())
    return seeds


def clear_generated(folder):
    """Empties a seed folder of what this script wrote, keeping the hand-added `regression-*`
    inputs (findings of earlier fuzz runs, committed beside the generated seeds)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in folder.iterdir():
        if path.is_file() and not path.name.startswith("regression-"):
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)


def main():
    try:
        npy = npy_seeds()
    except ImportError:
        print("npy: NumPy not found; tests/fuzz/seeds/npy left as it is")
    else:
        clear_generated(SEEDS / "npy")
        for s in npy:
            (SEEDS / "npy" / hashlib.sha1(s).hexdigest()).write_bytes(s)
        print(f"{'npy':13s} {len(npy):4d} seeds (files NumPy wrote)")
    golden = {name: json.loads((DATA / f"{name}_golden.json").read_text())
              for name in ("searchsorted", "nonzero", "scatter", "ragged")}
    targets = ("searchsorted", "bucketize", "nonzero", "scatter", "ragged")
    for target in targets:
        clear_generated(SEEDS / target)
    counts = {}
    for target, source in (("searchsorted", golden["searchsorted"]["cases"]),
                           ("bucketize", golden["searchsorted"]["cases"]),
                           ("nonzero", golden["nonzero"]["cases"]),
                           ("scatter", golden["scatter"]["cases"]),
                           ("ragged", golden["ragged"]["range"] + golden["ragged"]["range_errors"])):
        encode = {"searchsorted": lambda c: [searchsorted_seed(c)],
                  "bucketize": lambda c: [bucketize_seed(c)],
                  "nonzero": lambda c: nonzero_seeds(c, counter[0]),
                  "scatter": lambda c: [scatter_seed(c)], "ragged": lambda c: [ragged_seed(c)]}[target]
        written = skipped = 0
        counter = [0]
        for case in source:
            counter[0] += 1
            try:
                seeds = encode(case)
            except Skip:
                skipped += 1
                continue
            for s in seeds:
                (SEEDS / target / hashlib.sha1(s).hexdigest()).write_bytes(s)
                written += 1
        counts[target] = (written, skipped)
    for target, (written, skipped) in counts.items():
        print(f"{target:13s} {written:4d} seeds ({skipped} golden cases not expressible)")


if __name__ == "__main__":
    main()
