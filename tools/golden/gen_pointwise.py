#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's pointwise functions, produced by PyTorch itself.

Run with PyTorch 2.15 (a virtual environment: python3 -m venv /tmp/venv-torch &&
/tmp/venv-torch/bin/pip install torch numpy):  /tmp/venv-torch/bin/python tools/golden/gen_pointwise.py
Writes tests/data/pointwise_golden.json; the C++ tests read it, so CI needs no torch.

Every unary and binary function of the pointwise table and the composite functions, over
special values (NaN, +-inf, +-0.0, half-way points, integer extremes) and random values, for the
dtypes each accepts in PyTorch. Integer division-like functions by zero raise in PyTorch on the
CPU; tessera documents 0 there, so those pairs are left out here and tested in C++.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

GEN = torch.Generator().manual_seed(34)

FLOAT_SPECIALS = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5,
                  1.0, -1.0, 3.0, 1e-30, -1e30, 0.9999, -0.9999, 7.25, -7.25, 100.0]


def float_values(dtype, n=24):
    rand = (torch.rand(n, generator=GEN, dtype=torch.float64) * 20 - 10).tolist()
    return [float(v) for v in torch.tensor(FLOAT_SPECIALS + rand, dtype=dtype).tolist()]


def int_values(dtype, n=24):
    info = torch.iinfo(dtype)
    special = [0, 1, -1, 2, -2, 7, -7, 3, info.min, info.max, info.min + 1, info.max - 1]
    special = [v for v in special if info.min <= v <= info.max]
    rand = torch.randint(max(info.min, -100), min(info.max, 100) + 1, (n,), generator=GEN).tolist()
    return special + rand


def values_of(dtype):
    if dtype == torch.bool:
        return [False, True, True, False]
    if dtype.is_floating_point:
        return float_values(dtype)
    return int_values(dtype)


DTYPES = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
          "int32": torch.int32, "int64": torch.int64, "float32": torch.float32,
          "float64": torch.float64}
NAME = {v: k for k, v in DTYPES.items()}

UNARY = ["neg", "abs", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
         "atanh", "erf", "erfc", "lgamma", "sigmoid", "reciprocal", "sign", "square", "floor",
         "ceil", "round", "trunc", "frac", "isnan", "isinf", "isfinite", "isposinf", "isneginf",
         "signbit", "logical_not", "bitwise_not"]
BINARY = ["add", "sub", "mul", "minimum", "maximum", "fmin", "fmax", "pow", "atan2", "hypot",
          "copysign", "fmod", "remainder", "floor_divide", "bitwise_and", "bitwise_or",
          "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "logical_and", "logical_or",
          "logical_xor", "lt", "le", "gt", "ge", "eq", "ne"]
UNARY_DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float32", "float64"]
BINARY_PAIRS = [("float32", "float32"), ("float64", "float64"), ("int32", "int32"),
                ("int8", "int8"), ("uint8", "uint8"), ("int64", "int64"), ("bool", "bool"),
                ("int32", "float32"), ("uint8", "int8"), ("float32", "float64")]
# Functions whose integer forms divide: PyTorch raises on a zero divisor (tessera gives 0).
DIVIDING = {"fmod", "remainder", "floor_divide"}


def packed(t):
    return {"dtype": NAME[t.dtype], "data": [encode(v) for v in t.flatten().tolist()]}


def case(fn, inputs, result):
    return {"fn": fn, "inputs": [packed(x) for x in inputs], "out": packed(result)}


def unary_cases(functions=UNARY):
    out = []
    for fn in functions:
        for name in UNARY_DTYPES:
            x = torch.tensor(values_of(DTYPES[name]), dtype=DTYPES[name])
            try:
                y = getattr(torch, fn)(x)
            except (RuntimeError, TypeError):
                continue  # PyTorch refuses this dtype
            out.append(case(fn, [x], y))
    return out


def binary_cases():
    out = []
    for fn in BINARY:
        for an, bn in BINARY_PAIRS:
            a_vals, b_vals = values_of(DTYPES[an]), values_of(DTYPES[bn])
            n = min(len(a_vals), len(b_vals))
            # Pair every value with several partners: a column against a shuffled row.
            a = torch.tensor(a_vals[:n], dtype=DTYPES[an])
            b = torch.tensor(b_vals[:n], dtype=DTYPES[bn])
            b = b[torch.randperm(n, generator=GEN)]
            a = a.repeat_interleave(3)
            b = torch.cat([b, b.roll(1), b.roll(5)])
            if fn in DIVIDING and not (a.dtype.is_floating_point or b.dtype.is_floating_point):
                b = torch.where(b == 0, torch.ones_like(b), b)
            if "shift" in fn and not b.dtype.is_floating_point and b.dtype != torch.bool:
                # Shifts by 0..width+1 and negative amounts, as integers of b's type.
                width = torch.iinfo(b.dtype).bits
                lo = -2 if b.dtype != torch.uint8 else 0
                b = torch.randint(lo, width + 2, (len(b),), generator=GEN).to(b.dtype)
            try:
                y = getattr(torch, fn)(a, b)
            except (RuntimeError, TypeError):
                continue
            out.append(case(fn, [a, b], y))
    # Scalars on either side, weak: int tensor with a float scalar is float32.
    i = torch.tensor([1, 2, -3, 4], dtype=torch.int32)
    f = torch.tensor([0.5, -2.0, 3.0, float("nan")], dtype=torch.float32)
    out.append({"fn": "pow", "scalar_first": 2, "inputs": [packed(f)],
                "out": packed(torch.pow(2, f))})
    out.append({"fn": "remainder", "scalar_first": 5, "inputs": [packed(i)],
                "out": packed(torch.remainder(5, i))})
    out.append({"fn": "atan2", "scalar_second": 1.0, "inputs": [packed(f)],
                "out": packed(torch.atan2(f, torch.tensor(1.0)))})
    out.append({"fn": "pow", "scalar_second": 2.5, "inputs": [packed(i)],
                "out": packed(torch.pow(i, 2.5))})
    out.append({"fn": "mul", "scalar_second": 2.5, "inputs": [packed(i)],
                "out": packed(i * 2.5)})
    return out


def composite_cases():
    x = torch.tensor(float_values(torch.float32), dtype=torch.float32)
    y = x[torch.randperm(len(x), generator=GEN)]
    i = torch.tensor(int_values(torch.int32), dtype=torch.int32)
    w = torch.rand(len(x), generator=GEN, dtype=torch.float32) * 1.5 - 0.25
    near = x * (1 + torch.randn(len(x), generator=GEN) * 1e-6)
    return [
        {"fn": "clamp", "args": [-1.0, 2.0], "inputs": [packed(x)],
         "out": packed(torch.clamp(x, -1.0, 2.0))},
        {"fn": "clamp", "args": [3.0, 2.0], "inputs": [packed(x)],
         "out": packed(torch.clamp(x, 3.0, 2.0))},
        {"fn": "clamp", "args": [-5, 5], "inputs": [packed(i)], "out": packed(torch.clamp(i, -5, 5))},
        {"fn": "clamp_min", "args": [0.0], "inputs": [packed(x)],
         "out": packed(torch.clamp_min(x, 0.0))},
        {"fn": "clamp_max", "args": [0.5], "inputs": [packed(x)],
         "out": packed(torch.clamp_max(x, 0.5))},
        {"fn": "lerp", "inputs": [packed(x), packed(y), packed(w)],
         "out": packed(torch.lerp(x, y, w))},
        {"fn": "nan_to_num", "args": [], "inputs": [packed(x)], "out": packed(torch.nan_to_num(x))},
        {"fn": "nan_to_num", "args": [1.0, 1e30, -1e30], "inputs": [packed(x)],
         "out": packed(torch.nan_to_num(x, 1.0, 1e30, -1e30))},
        {"fn": "isclose", "args": [1e-5, 1e-8, False], "inputs": [packed(x), packed(near)],
         "out": packed(torch.isclose(x, near))},
        {"fn": "isclose", "args": [1e-5, 1e-8, True], "inputs": [packed(x), packed(near)],
         "out": packed(torch.isclose(x, near, equal_nan=True))},
        {"fn": "isclose", "args": [0.1, 0.5, False], "inputs": [packed(x), packed(y)],
         "out": packed(torch.isclose(x, y, 0.1, 0.5))},
    ]


# Rows added with complex numbers (issue 62), here over the real dtypes. They draw from a
# generator of their own, after the others, so that the cases above keep their values.
LATER_UNARY = ["conj", "sgn", "angle"]


def later_unary_cases():
    global GEN
    GEN = torch.Generator().manual_seed(62)
    return unary_cases(LATER_UNARY)


def main():
    cases = {"torch": torch.__version__, "unary": unary_cases(), "binary": binary_cases(),
             "composite": composite_cases()}
    cases["unary"] += later_unary_cases()
    path = DATA_DIR / "pointwise_golden.json"
    path.write_text(json.dumps(cases, separators=(",", ":")) + "\n")
    print(f"{path}: {len(cases['unary'])} unary, {len(cases['binary'])} binary, "
          f"{len(cases['composite'])} composite cases")


if __name__ == "__main__":
    main()
