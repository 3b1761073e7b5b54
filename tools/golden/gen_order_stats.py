#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's order statistics and row functions, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_order_stats.py
Writes tests/data/order_stats_golden.json; the C++ tests read it, so CI needs no torch.

Each case: an input (dtype, shape, values with NaN, infinities and duplicates), an operation
(quantile, nanquantile, median, nanmedian, kthvalue, mode, softmax, log_softmax, diff, cov,
corrcoef) with its arguments, and what PyTorch returned, or the error it raised. PyTorch leaves
the position among equal values unspecified for median and kthvalue (its CPU selection is not
stable), so the tests compare their values and check that the indices select them; mode's
index (the last occurrence) is compared exactly.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

GEN = torch.Generator().manual_seed(49)
DTYPES = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
          "int32": torch.int32, "int64": torch.int64, "float32": torch.float32,
          "float64": torch.float64}
NAME = {v: k for k, v in DTYPES.items()}
NAN = float("nan")


def sample(shape, dtype, nan=0, spread=5):
    n = math.prod(shape)
    if dtype == torch.bool:
        return (torch.rand(n, generator=GEN) < 0.5).reshape(shape)
    if dtype.is_floating_point:
        v = torch.randn(n, generator=GEN, dtype=torch.float64) * spread
        v = torch.round(v * 4) / 4  # a few duplicates
        for p in torch.randperm(n, generator=GEN)[:nan].tolist():
            v[p] = NAN
        return v.to(dtype).reshape(shape)
    lo = 0 if dtype == torch.uint8 else -spread
    return torch.randint(lo, spread + 1, (n,), generator=GEN).to(dtype).reshape(shape)


def packed(t):
    return {"dtype": NAME[t.dtype], "shape": list(t.shape),
            "data": [encode(v) for v in t.flatten().tolist()]}


def run(op, x, a):
    if op in ("quantile", "nanquantile"):
        f = torch.quantile if op == "quantile" else torch.nanquantile
        q = torch.tensor(a["q"], dtype=x.dtype) if isinstance(a["q"], list) else a["q"]
        return f(x, q, dim=a.get("dim"), keepdim=a.get("keepdim", False),
                 interpolation=a.get("interpolation", "linear")), None
    if op in ("median", "nanmedian"):
        f = torch.median if op == "median" else torch.nanmedian
        if "dim" not in a:
            return f(x), None
        r = f(x, a["dim"], keepdim=a.get("keepdim", False))
        return r.values, r.indices
    if op == "kthvalue":
        r = torch.kthvalue(x, a["k"], a["dim"], keepdim=a.get("keepdim", False))
        return r.values, r.indices
    if op == "mode":
        r = torch.mode(x, a["dim"], keepdim=a.get("keepdim", False))
        return r.values, r.indices
    if op == "softmax":
        return torch.softmax(x, a["dim"]), None
    if op == "log_softmax":
        return torch.log_softmax(x, a["dim"]), None
    if op == "diff":
        return torch.diff(x, n=a["n"], dim=a["dim"]), None
    if op == "cov":
        return torch.cov(x, correction=a["correction"]), None
    return torch.corrcoef(x), None


def case(op, x, **a):
    c = {"op": op, "input": packed(x), **a}
    try:
        v, i = run(op, x, a)
        c["values"] = packed(v)
        if i is not None:
            c["indices"] = packed(i)
    except (RuntimeError, IndexError, ValueError, NotImplementedError) as e:
        c["error"] = type(e).__name__
        c["message"] = str(e).splitlines()[0]
    return c


def cases():
    out = []
    how = ["linear", "lower", "higher", "midpoint", "nearest"]
    # quantile / nanquantile: every interpolation, scalar and tensor q, dims, keepdim, NaN rows.
    for dtype in (torch.float32, torch.float64):
        x = sample((3, 8), dtype)
        xn = sample((3, 8), dtype, nan=4)
        xn[2] = NAN  # one row of NaN only
        for op in ("quantile", "nanquantile"):
            for h in how:
                for q in (0.0, 0.3, 0.5, 0.77, 1.0):
                    out.append(case(op, xn if op == "nanquantile" else x, q=q, dim=1,
                                    interpolation=h))
            for inp in (x, xn):
                out.append(case(op, inp, q=0.4))
                out.append(case(op, inp, q=[0.1, 0.5, 0.9], dim=0, keepdim=True))
                out.append(case(op, inp, q=[0.25, 0.75], dim=-1))
                out.append(case(op, inp, q=[0.6]))
                out.append(case(op, inp, q=0.5, keepdim=True))
        out.append(case("quantile", sample((2, 3, 4), dtype), q=0.35, dim=1, keepdim=True,
                        interpolation="nearest"))
        # rank exactly half-way: nearest rounds half to even
        out.append(case("quantile", torch.arange(5, dtype=dtype), q=0.125, interpolation="nearest"))
        out.append(case("quantile", torch.arange(5, dtype=dtype), q=0.375, interpolation="nearest"))
        out.append(case("quantile", torch.tensor(2.5, dtype=dtype), q=0.3, dim=0))
    # median / nanmedian / kthvalue / mode for every dtype (bool: PyTorch's errors)
    for dtype in DTYPES.values():
        x = sample((4, 7), dtype, spread=2)
        xe = sample((4, 6), dtype, spread=2)
        for d in (0, 1, -1):
            out.append(case("median", x, dim=d))
            out.append(case("kthvalue", x, k=2, dim=d))
            out.append(case("mode", x, dim=d))
        out.append(case("median", xe, dim=1, keepdim=True))
        out.append(case("mode", xe, dim=0, keepdim=True))
        out.append(case("kthvalue", xe, k=6, dim=1, keepdim=True))
        out.append(case("median", x))
    for dtype in (torch.float32, torch.float64):
        xn = sample((5, 6), dtype, nan=6)
        xn[4] = NAN
        for op in ("median", "nanmedian"):
            out.append(case(op, xn, dim=1))
            out.append(case(op, xn, dim=0))
            out.append(case(op, xn))
            out.append(case(op, sample((2, 5), dtype)))
        out.append(case("kthvalue", xn, k=5, dim=1))
    # softmax / log_softmax: large values (no overflow), -inf, NaN rows
    for dtype in (torch.float32, torch.float64):
        x = sample((3, 5), dtype)
        big = x * 300
        big[1, 2] = float("-inf")
        withnan = x.clone()
        withnan[0, 1] = NAN
        for op in ("softmax", "log_softmax"):
            for d in (0, 1, -1):
                out.append(case(op, x, dim=d))
            out.append(case(op, big, dim=1))
            out.append(case(op, withnan, dim=1))
            out.append(case(op, sample((2, 3, 4), dtype), dim=1))
            out.append(case(op, torch.tensor(3.0, dtype=dtype), dim=0))
    # diff: wrapping integers, bool xor, n beyond the length
    for dtype in DTYPES.values():
        x = sample((3, 6), dtype, spread=100 if dtype != torch.bool else 5)
        for n, d in ((1, -1), (2, 1), (1, 0), (3, 0), (7, 1), (0, 1)):
            out.append(case("diff", x, n=n, dim=d))
    # cov / corrcoef: integers give float32
    for dtype in (torch.int32, torch.float32, torch.float64):
        x = sample((3, 7), dtype)
        for corr in (0, 1, 2):
            out.append(case("cov", x, correction=corr))
        out.append(case("cov", sample((6,), dtype), correction=1))
        out.append(case("corrcoef", x))
    out.append(case("corrcoef", torch.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, 4.0]])))
    # one variable as one row: a 0-d result (torch squeezes); corrcoef is c / c (NaN when the
    # variance is 0)
    out.append(case("cov", sample((1, 5), torch.float64), correction=1))
    out.append(case("cov", sample((1, 5), torch.int32), correction=0))
    out.append(case("corrcoef", sample((1, 5), torch.float32)))
    out.append(case("corrcoef", torch.tensor([[2.0, 2.0, 2.0]])))
    # errors
    x = sample((3, 4), torch.float32)
    out.append(case("quantile", x, q=1.5))
    out.append(case("quantile", x, q=-0.1, dim=1))
    out.append(case("quantile", x, q=0.5, dim=2))
    out.append(case("quantile", torch.empty(0), q=0.5))
    out.append(case("kthvalue", x, k=5, dim=1))
    out.append(case("kthvalue", x, k=0, dim=1))
    out.append(case("median", torch.empty(2, 0), dim=1))
    out.append(case("mode", torch.empty(2, 0), dim=1))
    out.append(case("diff", x, n=-1, dim=1))
    out.append(case("diff", torch.tensor(1.0), n=1, dim=0))
    out.append(case("cov", torch.ones(2, 2, 2), correction=1))
    return out


def main():
    data = {"torch": torch.__version__, "cases": cases()}
    path = DATA_DIR / "order_stats_golden.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{path}: {len(data['cases'])} cases")


if __name__ == "__main__":
    main()
