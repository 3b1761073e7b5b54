#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's sort, argsort and topk, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_ordering.py
Writes tests/data/ordering_golden.json; the C++ tests read it, so CI needs no torch.

Each case: an input (dtype, shape, values with NaN, infinities, -0.0 beside +0.0 and many
duplicates), an operation (sort, argsort, topk, or searchsorted with an argsort sorter) with its
arguments, and what PyTorch returned, or the error it raised. sort and argsort run with
stable=True (tessera is always stable). topk's choice among tied positions is unspecified, so
the tests compare its values and check that its indices select them.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

GEN = torch.Generator().manual_seed(35)
DTYPES = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
          "int32": torch.int32, "int64": torch.int64, "float32": torch.float32,
          "float64": torch.float64}
NAME = {v: k for k, v in DTYPES.items()}


def sample(shape, dtype):
    n = math.prod(shape)
    if dtype == torch.bool:
        return (torch.rand(n, generator=GEN) < 0.5).reshape(shape)
    if dtype.is_floating_point:
        v = torch.randint(-4, 5, (n,), generator=GEN).to(torch.float64) * 0.5  # duplicates
        specials = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, float("nan"), -0.0]
        if n >= 6:
            pick = torch.randperm(n, generator=GEN)
            for p, s in zip(pick.tolist(), specials[: max(1, n // 3)]):
                v[p] = s
        return v.to(dtype).reshape(shape)
    if dtype == torch.int64:
        v = torch.randint(-3, 4, (n,), generator=GEN)
        if n >= 4:
            v[0], v[n // 2] = -(2**63), 2**63 - 1
        return v.reshape(shape)
    lo = 0 if dtype == torch.uint8 else -4
    v = torch.randint(lo, 5, (n,), generator=GEN).to(dtype)
    if n >= 4 and dtype != torch.uint8:
        info = torch.iinfo(dtype)
        v[1], v[n - 1] = info.min, info.max
    return v.reshape(shape)


def packed(t):
    return {"dtype": NAME[t.dtype], "shape": list(t.shape),
            "data": [encode(v) for v in t.flatten().tolist()]}


def case(op, x, **args):
    c = {"op": op, "input": packed(x), **args}
    try:
        if op == "sort":
            r = torch.sort(x, dim=args["dim"], descending=args["descending"], stable=True)
            c["values"], c["indices"] = packed(r.values), packed(r.indices)
        elif op == "argsort":
            r = torch.argsort(x, dim=args["dim"], descending=args["descending"], stable=True)
            c["indices"] = packed(r)
        else:
            r = torch.topk(x, args["k"], dim=args["dim"], largest=args["largest"], sorted=True)
            c["values"], c["indices"] = packed(r.values), packed(r.indices)
    except (RuntimeError, IndexError, ValueError) as e:
        c["error"] = type(e).__name__
        c["message"] = str(e).splitlines()[0]
    return c


def cases():
    out = []
    shapes = [(9,), (3, 7), (2, 3, 4), (0,), (4, 0)]
    for dtype in DTYPES.values():
        for shape in shapes:
            x = sample(shape, dtype)
            nd = len(shape)
            for d in list(range(nd)) + [-1]:
                for descending in (False, True):
                    out.append(case("sort", x, dim=d, descending=descending))
                out.append(case("argsort", x, dim=d, descending=d == 0))
                n = shape[d]
                for k in sorted({0, min(3, n), n}) if dtype != torch.bool else [min(1, n)]:
                    out.append(case("topk", x, k=k, dim=d, largest=k % 2 == 1))
        # A longer row with many ties, 0-d, and the errors.
        long = sample((2, 60), dtype)
        for descending in (False, True):
            out.append(case("sort", long, dim=-1, descending=descending))
        out.append(case("topk", long, k=5, dim=1, largest=True))
        out.append(case("topk", long, k=7, dim=1, largest=False))
        s = sample((), dtype)
        out.append(case("sort", s, dim=0, descending=False))
        out.append(case("argsort", s, dim=-1, descending=True))
        out.append(case("topk", s, k=1, dim=0, largest=True))
        x = sample((3, 4), dtype)
        out.append(case("sort", x, dim=2, descending=False))
        out.append(case("argsort", x, dim=-3, descending=False))
        out.append(case("topk", x, k=5, dim=1, largest=True))
        out.append(case("topk", x, k=-1, dim=1, largest=True))
        out.append(case("topk", x, k=1, dim=2, largest=True))
    # -0.0 and +0.0 tie (stable between them); NaN last ascending, first descending.
    zeros = torch.tensor([0.0, -0.0, 1.0, -0.0, 0.0, float("nan"), -1.0, float("nan"), 0.0])
    for dtype in (torch.float32, torch.float64):
        for descending in (False, True):
            out.append(case("sort", zeros.to(dtype), dim=0, descending=descending))
        out.append(case("topk", zeros.to(dtype), k=4, dim=0, largest=False))
    # searchsorted through an argsort sorter.
    for dtype in (torch.int32, torch.float32):
        seq = sample((2, 10), dtype)
        v = sample((2, 5), dtype)
        sorter = torch.argsort(seq, dim=-1, stable=True)
        for right in (False, True):
            i = torch.searchsorted(seq, v, right=right, sorter=sorter)
            out.append({"op": "searchsorted", "input": packed(seq), "v": packed(v), "right": right,
                        "indices": packed(i)})
    return out


def main():
    data = {"torch": torch.__version__, "cases": cases()}
    path = DATA_DIR / "ordering_golden.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{path}: {len(data['cases'])} cases")


if __name__ == "__main__":
    main()
