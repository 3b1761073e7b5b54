#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes tests/data/format_golden.json: PyTorch's repr() of tensors, the reference that
tests/test_format.cpp holds tessera's printing to.

Run with a Python that has torch (Debian's python3-torch 1.13: /usr/bin/python3):

    /usr/bin/python3 tools/golden/gen_format.py

Each case records the dtype, the shape, the row-major values (JSON numbers, or the strings "nan",
"inf", "-inf"), optionally a transpose to apply before printing (to print a strided view) and a
device label, and the exact text torch prints.
"""

import json
import math
import os
import sys

import torch
import torch._tensor_str as tstr

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "format_golden.json")
NAN, INF = float("nan"), float("inf")

DTYPES = {
    "bool": torch.bool,
    "uint8": torch.uint8,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "float32": torch.float32,
    "float64": torch.float64,
}


def cuda_repr(t, device):
    """repr(t) as torch prints it for a tensor on `device`.

    This torch has no CUDA, so the suffix logic of _str_intern (device first, then size and
    dtype, wrapped by _add_suffixes) is spelled out here around torch's own _tensor_str and
    _add_suffixes.
    """
    suffixes = ["device='" + device + "'"]
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != torch.get_default_dtype():
            suffixes.append("dtype=" + str(t.dtype))
        body = "[]"
    else:
        if t.dtype not in (torch.float32, torch.int64, torch.bool):
            suffixes.append("dtype=" + str(t.dtype))
        body = tstr._tensor_str(t, len("tensor("))
    return tstr._add_suffixes("tensor(" + body, suffixes, len("tensor("), force_newline=False)


def encode(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def case(name, dtype, data, shape=None, transpose=None, device=None):
    """data: a nested list / scalar for torch.tensor, or a tensor (cast to dtype)."""
    if isinstance(data, torch.Tensor):
        t = data.to(DTYPES[dtype])
    else:
        t = torch.tensor(data, dtype=DTYPES[dtype])
    if shape is not None:
        t = t.reshape(shape)
    shown = t.transpose(*transpose) if transpose else t
    entry = {
        "name": name,
        "dtype": dtype,
        "shape": list(t.shape),
        "values": [encode(v) for v in t.reshape(-1).tolist()],
    }
    if transpose:
        entry["transpose"] = list(transpose)
    if device:
        entry["device"] = device
        entry["expected"] = cuda_repr(shown, device)
    else:
        entry["expected"] = repr(shown)
    return entry


def cases():
    ar = torch.arange
    yield case("Scalar_Float_IntValued", "float32", 5.0)
    yield case("Scalar_Float_Fraction", "float32", 3.14159)
    yield case("Scalar_Double_Negative", "float64", -2.5)
    yield case("Scalar_Int64", "int64", 7)
    yield case("Scalar_Int32", "int32", -3)
    yield case("Scalar_Bool", "bool", True)
    yield case("Scalar_Float_NegativeNan", "float32", -NAN)
    yield case("Scalar_Float_NegativeZero", "float32", -0.0)
    yield case("Empty_Float", "float32", [])
    yield case("Empty_Int64", "int64", [])
    yield case("Empty_Bool", "bool", [])
    yield case("Empty_Float_0x3", "float32", torch.zeros(0, 3))
    yield case("Empty_Int32_0x3", "int32", torch.zeros(0, 3))
    yield case("Empty_Double_2x0x4", "float64", torch.zeros(2, 0, 4))
    yield case("Vector_Float_IntValued", "float32", [1, 2, 3, 4, 5])
    yield case("Vector_Float_Fractions", "float32", [1.5, -2.25, 3, 0, 100.125])
    yield case("Vector_Float_Rounding", "float32", [0.1, 2.00005, -1 / 3, 9.99995, 0.5])
    yield case("Vector_Float_SciLarge", "float32", [1.5e8, 2, 3, 4, 5])
    yield case("Vector_Float_SciSmall", "float32", [1e-5, 0.5, 0.25, -0.125, 1])
    yield case("Vector_Float_SciRatio", "float32", [1.5, 2000.5, 3, 4, 5])
    yield case("Vector_Float_IntValuedSci", "float32", [1, 1e9, -3, 0, 5])
    yield case("Vector_Float_IntValuedExactly1e8", "float32", [1e8, 5e7, 0, -1e7, 2e7])
    yield case("Vector_Float_NanInf", "float32", [1.5, NAN, INF, -INF, -2])
    yield case("Vector_Float_IntValuedNanInf", "float32", [1, NAN, INF, -INF, -20])
    yield case("Vector_Float_SciNanInf", "float32", [1e-7, NAN, INF, -INF, 3])
    yield case("Vector_Float_OnlyNonFinite", "float32", [NAN, INF, -INF, 0, -0.0])
    yield case("Vector_Float_NegativeZero", "float32", [-0.0, 1.5, 0, -0.0, 2])
    yield case("Vector_Float_NegativeZeroIntValued", "float32", [-0.0, 1, 0, -0.0, 20])
    yield case("Vector_Float_Extremes", "float32", [3.4e38, -1e-38, 1, 0, 2])
    yield case("Vector_Double_Fractions", "float64", [1.5, -2.25, 3, 0, 100.125])
    yield case("Vector_Double_Extremes", "float64", [1e300, -1e-300, 5e-324, 0, 1])
    yield case("Vector_Bool", "bool", [True, False, True, True, False])
    yield case("Vector_Uint8", "uint8", [0, 7, 255, 16, 1])
    yield case("Vector_Int8", "int8", [-128, 5, 127, 0, -1])
    yield case("Vector_Int16", "int16", [-32768, 5, 32767, 0, -1])
    yield case("Vector_Int32", "int32", [-2147483648, 5, 2147483647, 0, -1])
    yield case("Vector_Int64", "int64", [-9223372036854775808, 5, 9223372036854775807, 0, -1])
    yield case("Matrix_Float_2x2", "float32", [[1, 3], [2, 4]])
    yield case("Matrix_Float_2x3", "float32", [[1.5, -2, 3], [4, 5.25, -6]])
    yield case("Matrix_Double_2x3", "float64", [[1, 2, 3], [4, 5, 6]])
    yield case("Matrix_Int64_2x3", "int64", [[1, -20, 300], [4, 5, 6]])
    yield case("Matrix_Bool_2x3", "bool", [[True, False, True], [False, False, True]])
    yield case("Cube_Float_2x2x2", "float32", ar(8) * 0.5 - 2, (2, 2, 2))
    yield case("Cube_Int8_2x2x2", "int8", ar(8) - 4, (2, 2, 2))
    yield case("Cube_Int16_2x3x4", "int16", ar(24) * 37 - 400, (2, 3, 4))
    yield case("Cube_Uint8_2x3x4", "uint8", ar(24) * 11, (2, 3, 4))
    yield case("Cube_Bool_2x3x4", "bool", ar(24) % 3 == 0, (2, 3, 4))
    yield case("Cube_Float_2x3x4", "float32", ar(24) / 8 - 1, (2, 3, 4))
    yield case("Block4d_Int32_2x2x2x2", "int32", ar(16), (2, 2, 2, 2))
    yield case("Wrap_Double_30", "float64", ar(30) * 1.5)
    yield case("Wrap_Int32_50", "int32", ar(50) * 1001 - 20000)
    yield case("Wrap_Float_4x30", "float32", ar(120) * 0.25, (4, 30))
    yield case("Wrap_Bool_40", "bool", ar(40) % 2 == 0)
    yield case("Summary_Int64_3000", "int64", ar(3000))
    yield case("Summary_Float_1200", "float32", ar(1200) % 64 * 0.25 - 3)
    yield case("Summary_Uint8_1001", "uint8", ar(1001) % 256)
    yield case("NoSummary_Int16_1000", "int16", ar(1000) % 100 - 50)
    yield case("Summary_Float_40x40", "float32", ar(1600) / 4 - 200, (40, 40))
    yield case("Summary_Int64_40x40", "int64", ar(1600), (40, 40))
    yield case("Summary_Double_10x10x11", "float64", ar(1100) * 1e3, (10, 10, 11))
    yield case("Summary_Int32_2x501", "int32", ar(1002), (2, 501))
    yield case("Strided_Float_3x2Transposed", "float32", ar(6) * 1.5, (3, 2), transpose=(0, 1))
    yield case("Strided_Int8_2x3x4Transposed", "int8", ar(24), (2, 3, 4), transpose=(0, 2))
    yield case("Cuda_Float_2x3", "float32", ar(6) * 0.5, (2, 3), device="cuda:0")
    yield case("Cuda_Int32_3", "int32", [1, 2, 3], device="cuda:0")
    yield case("Cuda_Int64_Empty_0x3", "int64", torch.zeros(0, 3), device="cuda:0")
    yield case("Cuda_Double_Wrap_30", "float64", ar(30) * 1.5, device="cuda:1")


def main():
    out = list(cases())
    names = [c["name"] for c in out]
    assert len(names) == len(set(names)), "duplicate case names"
    # One case per line keeps the file small and its diffs readable.
    text = "[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in out) + "\n]\n"
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {len(out)} cases, {len(text)} bytes to {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
