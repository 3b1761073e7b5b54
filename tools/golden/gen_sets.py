#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's sets and histograms, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_sets.py
Writes tests/data/sets_golden.json; the C++ tests read it, so CI needs no torch.

Each case: an op, its input (dtype, shape, values in row-major order), its arguments and what
PyTorch returned (a list of packed tensors), or the exception's type when PyTorch raised.
Inputs are small, so PyTorch's CPU kernels run on one thread and float sums are sequential.
"""
import json

import torch
import torch.nn.functional as F

from golden_common import DATA_DIR, encode

NAME = {torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
        torch.int32: "int32", torch.int64: "int64", torch.float32: "float32",
        torch.float64: "float64"}
NAN = float("nan")
INF = float("inf")


def pack(t):
    t = t.detach().contiguous()
    return {"dtype": NAME[t.dtype], "shape": list(t.shape),
            "data": [encode(v) for v in t.reshape(-1).tolist()]}


CASES = []


def case(op, x, args, fn, extra=None):
    entry = {"op": op, "input": pack(x), "args": args}
    if extra is not None:  # further tensor arguments: weights, bin edges
        entry["extras"] = [pack(t) for t in (extra if isinstance(extra, list) else [extra])]
    try:
        y = fn(x)
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        entry["error"] = type(e).__name__
        CASES.append(entry)
        return
    if not isinstance(y, (list, tuple)):
        y = [y]
    entry["outputs"] = [pack(t) for t in y]
    CASES.append(entry)


# ---- unique ---------------------------------------------------------------------------------
flat_inputs = [
    torch.tensor([3, 1, 2, 3, 1, 5, 0, 3], dtype=torch.int64),
    torch.tensor([[2, -1, 2], [7, -1, 0]], dtype=torch.int32),
    torch.tensor([True, False, True, True]),
    torch.tensor([200, 3, 200, 7], dtype=torch.uint8),
    torch.tensor([1.5, NAN, -2.0, 1.5, NAN, INF, -INF, -2.0], dtype=torch.float32),
    torch.tensor([0.25, 0.25, -0.0, 0.0, 1e300], dtype=torch.float64),
    torch.tensor([], dtype=torch.int64),
    torch.tensor(4, dtype=torch.int16),
]
for x in flat_inputs:
    case("unique", x, {"return_inverse": True, "return_counts": True},
         lambda x: torch.unique(x, sorted=True, return_inverse=True, return_counts=True))
    case("unique_consecutive", x, {"return_inverse": True, "return_counts": True},
         lambda x: torch.unique_consecutive(x, return_inverse=True, return_counts=True))
consecutive = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2], dtype=torch.int64)
case("unique_consecutive", consecutive, {"return_inverse": True, "return_counts": True},
     lambda x: torch.unique_consecutive(x, return_inverse=True, return_counts=True))
m = torch.tensor([[1, 2, 3], [0, 5, 1], [1, 2, 3], [0, 5, 0], [1, 2, 3]], dtype=torch.int64)
for d in [0, 1, -1]:
    case("unique", m, {"dim": d, "return_inverse": True, "return_counts": True},
         lambda x, d=d: torch.unique(x, dim=d, return_inverse=True, return_counts=True))
    case("unique_consecutive", m, {"dim": d, "return_inverse": True, "return_counts": True},
         lambda x, d=d: torch.unique_consecutive(x, dim=d, return_inverse=True,
                                                 return_counts=True))
m3 = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.5, 2.0], [3.0, 4.0]],
                   [[1.0, 2.0], [3.0, 4.0]]], dtype=torch.float32)
for d in [0, 2]:
    case("unique", m3, {"dim": d, "return_inverse": True, "return_counts": True},
         lambda x, d=d: torch.unique(x, dim=d, return_inverse=True, return_counts=True))
case("unique", torch.zeros(0, 3, dtype=torch.int64),
     {"dim": 0, "return_inverse": True, "return_counts": True},
     lambda x: torch.unique(x, dim=0, return_inverse=True, return_counts=True))
case("unique", m, {"dim": 2, "return_inverse": True, "return_counts": True},
     lambda x: torch.unique(x, dim=2, return_inverse=True, return_counts=True))

# ---- bincount -------------------------------------------------------------------------------
idx = torch.tensor([1, 3, 3, 0, 7, 3, 1], dtype=torch.int64)
w32 = torch.tensor([0.1, 0.2, 0.3, 1e8, 0.5, 1e-8, 0.7], dtype=torch.float32)
w64 = w32.double()
for minlength in [0, 4, 12]:
    case("bincount", idx, {"minlength": minlength},
         lambda x, m=minlength: torch.bincount(x, minlength=m))
    case("bincount_weights", idx, {"minlength": minlength},
         lambda x, m=minlength: torch.bincount(x, w32, minlength=m), extra=w32)
case("bincount_weights", idx, {"minlength": 0}, lambda x: torch.bincount(x, w64), extra=w64)
case("bincount", torch.tensor([], dtype=torch.int64), {"minlength": 0}, torch.bincount)
case("bincount", torch.tensor([], dtype=torch.int64), {"minlength": 5},
     lambda x: torch.bincount(x, minlength=5))
case("bincount", torch.tensor([2, 0, 2], dtype=torch.uint8), {"minlength": 0}, torch.bincount)
case("bincount", torch.tensor([2, -1, 2], dtype=torch.int64), {"minlength": 0}, torch.bincount)
case("bincount", torch.tensor([[1, 2]], dtype=torch.int64), {"minlength": 0}, torch.bincount)
case("bincount", idx, {"minlength": -1}, lambda x: torch.bincount(x, minlength=-1))

# ---- histc ----------------------------------------------------------------------------------
hx = torch.tensor([0.0, 0.1, 0.2, 0.30000001, 0.5, 0.7, 0.9, 1.0, 1.5, -0.1, NAN, 0.3],
                  dtype=torch.float32)
for bins, lo, hi in [(10, 0.0, 1.0), (4, 0.0, 0.0), (3, -1.0, 2.0), (1, 0.0, 1.0), (7, 0.1, 0.9)]:
    case("histc", hx, {"bins": bins, "min": lo, "max": hi},
         lambda x, b=bins, lo=lo, hi=hi: torch.histc(x, b, lo, hi))
hd = torch.tensor([1.0, 2.0, 2.0, 3.5, 10.0, -4.0], dtype=torch.float64)
for bins, lo, hi in [(5, 0.0, 0.0), (6, -4.0, 10.0), (3, 2.0, 2.0)]:
    case("histc", hd, {"bins": bins, "min": lo, "max": hi},
         lambda x, b=bins, lo=lo, hi=hi: torch.histc(x, b, lo, hi))
case("histc", torch.tensor([5.0, 5.0], dtype=torch.float32), {"bins": 4, "min": 0.0, "max": 0.0},
     lambda x: torch.histc(x, 4, 0, 0))
case("histc", torch.tensor([], dtype=torch.float32), {"bins": 3, "min": 0.0, "max": 0.0},
     lambda x: torch.histc(x, 3, 0, 0))
case("histc", hx, {"bins": 0, "min": 0.0, "max": 1.0}, lambda x: torch.histc(x, 0, 0, 1))
case("histc", hx, {"bins": 3, "min": 2.0, "max": 1.0}, lambda x: torch.histc(x, 3, 2, 1))
case("histc", hx, {"bins": 3, "min": 0.0, "max": 0.0}, lambda x: torch.histc(x, 3, 0, 0))
# Integer input: PyTorch's CPU histc refuses it; tessera bins it as float64 values and returns
# float32 counts, the same as histc of the values cast to float64.
hi_in = torch.tensor([0, 3, 9, 9, 4, 12, -2], dtype=torch.int32)
case("histc_int", hi_in, {"bins": 5, "min": 0.0, "max": 10.0},
     lambda x: torch.histc(x.double(), 5, 0, 10).float())

# ---- histogram ------------------------------------------------------------------------------
gx = torch.tensor([0.0, 0.1, 0.25, 0.5, 0.75, 0.8, 1.0, 2.0, -1.0, 0.33], dtype=torch.float32)
gw = torch.tensor([1.0, 2.0, 0.5, 0.25, 1.0, 3.0, 1.0, 9.0, 9.0, 0.125], dtype=torch.float32)
case("histogram", gx, {"bins": 4}, lambda x: torch.histogram(x, 4))
case("histogram", gx, {"bins": 5, "range": [0.0, 1.0]},
     lambda x: torch.histogram(x, 5, range=(0.0, 1.0)))
case("histogram", gx, {"bins": 3, "range": [0.0, 1.0], "density": True, "weight": True},
     lambda x: torch.histogram(x, 3, range=(0.0, 1.0), weight=gw, density=True), extra=gw)
case("histogram", gx, {"bins": 4, "weight": True},
     lambda x: torch.histogram(x, 4, weight=gw), extra=gw)
case("histogram", torch.tensor([2.0, 2.0], dtype=torch.float64), {"bins": 2},
     lambda x: torch.histogram(x, 2))
case("histogram", torch.tensor([0.1, 0.2, 0.7], dtype=torch.float64), {"bins": 3, "density": True},
     lambda x: torch.histogram(x, 3, density=True))
case("histogram", torch.tensor([], dtype=torch.float32), {"bins": 2},
     lambda x: torch.histogram(x, 2))
case("histogram", torch.tensor([1.0, 3.0], dtype=torch.float32), {"bins": 2, "range": [2.0, 2.0]},
     lambda x: torch.histogram(x, 2, range=(2.0, 2.0)))
edges = torch.tensor([0.0, 0.3, 0.5, 1.0], dtype=torch.float32)
case("histogram_edges", gx, {"density": False}, lambda x: torch.histogram(x, edges), extra=edges)
case("histogram_edges", gx, {"density": True, "weight": True},
     lambda x: torch.histogram(x, edges, weight=gw, density=True), extra=[edges, gw])

# ---- one_hot --------------------------------------------------------------------------------
lab = torch.tensor([[0, 2], [1, 4]], dtype=torch.int64)
case("one_hot", lab, {"num_classes": 5}, lambda x: F.one_hot(x, 5))
case("one_hot", lab, {"num_classes": -1}, lambda x: F.one_hot(x, -1))
case("one_hot", lab, {"num_classes": 3}, lambda x: F.one_hot(x, 3))
case("one_hot", torch.tensor([1, -1], dtype=torch.int64), {"num_classes": 3},
     lambda x: F.one_hot(x, 3))
case("one_hot", torch.tensor(2, dtype=torch.int64), {"num_classes": 4}, lambda x: F.one_hot(x, 4))

with open(DATA_DIR / "sets_golden.json", "w") as f:
    json.dump({"torch": torch.__version__, "cases": CASES}, f, separators=(",", ":"))
print(f"{len(CASES)} cases")
