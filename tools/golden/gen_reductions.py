#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's reductions over dimensions and scans, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_reductions.py
Writes tests/data/reduce_golden.json; the C++ tests read it, so CI needs no torch.

Each case: an input (dtype, shape, values with NaN, infinities, ties and zeros), an operation
with its dims / keepdim / correction, and what PyTorch returned (values and, for argmax, max,
min and the cumulative extremes, int64 indices), or the error it raised.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

GEN = torch.Generator().manual_seed(36)
DTYPES = {"bool": torch.bool, "uint8": torch.uint8, "int32": torch.int32, "int64": torch.int64,
          "float32": torch.float32, "float64": torch.float64}
NAME = {v: k for k, v in DTYPES.items()}


def sample(shape, dtype, special=True):
    n = math.prod(shape)
    if dtype == torch.bool:
        return (torch.rand(n, generator=GEN) < 0.4).reshape(shape)
    if dtype.is_floating_point:
        v = torch.randint(-6, 7, (n,), generator=GEN).to(torch.float64) * 0.75  # ties
        v += torch.rand(n, generator=GEN, dtype=torch.float64) * (torch.rand(n, generator=GEN) < 0.5)
        if special and n >= 6:
            pick = torch.randperm(n, generator=GEN)
            v[pick[0]] = float("nan")
            v[pick[1]] = float("inf")
            v[pick[2]] = float("-inf")
        return v.to(dtype).reshape(shape)
    lo = 0 if dtype == torch.uint8 else -5
    return torch.randint(lo, 6, (n,), generator=GEN).to(dtype).reshape(shape)


def packed(t):
    return {"dtype": NAME[t.dtype], "shape": list(t.shape),
            "data": [encode(v) for v in t.flatten().tolist()]}


REDUCTIONS = ["sum", "nansum", "prod", "mean", "nanmean", "amax", "amin", "any", "all",
              "count_nonzero", "logsumexp", "var", "std"]
ONE_DIM = ["argmax", "argmin", "max", "min"]
SCANS = ["cumsum", "cumprod", "cummax", "cummin"]
FLOAT_ONLY = {"nansum", "mean", "nanmean", "logsumexp", "var", "std"}


def run(op, x, dims, keepdim, correction):
    f = getattr(torch, op)
    if op in SCANS:
        return f(x, dims)
    if op in ONE_DIM:
        return f(x, dims, keepdim) if dims is not None else f(x)
    if op == "count_nonzero":
        return f(x, dims)
    if op in ("var", "std"):
        return f(x, dims, correction=correction, keepdim=keepdim)
    if op == "prod":
        return f(x, dims, keepdim)
    return f(x, dims, keepdim)


def case(op, x, dims, keepdim=False, correction=1, special=""):
    c = {"op": op, "input": packed(x), "dims": dims, "keepdim": keepdim, "correction": correction}
    try:
        r = run(op, x, dims, keepdim, correction)
    except (RuntimeError, IndexError, ValueError) as e:
        c["error"] = type(e).__name__
        c["message"] = str(e).splitlines()[0]
        return c
    if not isinstance(r, torch.Tensor):  # a (values, indices) named tuple
        c["values"], c["indices"] = packed(r[0]), packed(r[1])
    elif r.dtype == torch.int64 and op in ("argmax", "argmin"):
        c["indices"] = packed(r)
    else:
        c["values"] = packed(r)
    return c


def cases():
    out = []
    shapes = [(7,), (4, 5), (3, 4, 5), (2, 3, 2, 4), (0, 3), (3, 0)]
    for dtype in DTYPES.values():
        for shape in shapes:
            x = sample(shape, dtype)
            nd = len(shape)
            dim_sets = [[d] for d in range(nd)] + [[-1]]
            if nd >= 2:
                dim_sets += [[0, nd - 1], list(range(nd))]
            if nd >= 3:
                dim_sets += [[0, 2], [1, -1]]
            for op in REDUCTIONS:
                if op in FLOAT_ONLY and not dtype.is_floating_point:
                    continue
                for dims in dim_sets:
                    if op == "prod" and len(dims) != 1:
                        continue
                    pd = dims[0] if op == "prod" else dims
                    out.append(case(op, x, pd, keepdim=len(dims) % 2 == 1))
                    if op in ("var", "std"):
                        out.append(case(op, x, pd, correction=0))
                        out.append(case(op, x, pd, correction=5))
            for op in ONE_DIM + SCANS:
                if dtype == torch.bool and op in ("cumprod",):
                    pass
                for d in range(nd):
                    out.append(case(op, x, d, keepdim=d == 0))
            out.append(case("argmax", x, None))
            out.append(case("argmin", x, None))
    # 0-d inputs, ties and NaN order, errors.
    s = torch.tensor(2.5)
    for op in ["sum", "mean", "amax", "var"]:
        out.append(case(op, s, [0]))
    out.append(case("argmax", s, 0))
    out.append(case("cumsum", s, 0))
    ties = torch.tensor([[1.0, 3.0, 3.0, float("nan"), 2.0, float("nan")],
                         [5.0, 5.0, 1.0, 5.0, 0.0, 1.0]])
    for op in ["argmax", "argmin", "max", "min", "cummax", "cummin"]:
        out.append(case(op, ties, 1))
    out.append(case("sum", sample((3, 4), torch.float32), [2]))       # dim out of range
    out.append(case("sum", sample((3, 4), torch.float32), [1, -1]))   # repeated dim
    out.append(case("amax", sample((3, 0), torch.float32), [1]))      # empty reduced dim
    out.append(case("argmax", sample((0, 3), torch.float32), 0))
    out.append(case("logsumexp", torch.tensor([[float("-inf")] * 3, [float("inf"), 1.0, 2.0],
                                               [1e30, 1e30, -1e30]], dtype=torch.float32), [1]))
    return out


def main():
    data = {"torch": torch.__version__, "cases": cases()}
    path = DATA_DIR / "reduce_golden.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{path}: {len(data['cases'])} cases")


if __name__ == "__main__":
    main()
