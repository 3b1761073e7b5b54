#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's matrix products (matmul, mm, bmm, mv, dot, outer, tensordot,
einsum, cdist), produced by PyTorch itself.

Run with PyTorch 2.15:  /tmp/venv-torch/bin/python tools/golden/gen_matmul.py
Writes tests/data/matmul_golden.json; the C++ tests read it, so CI needs no torch.

Inputs are small: integers for the integer dtypes (int8 values up to 100, so that products wrap
as PyTorch's CPU wraps them), multiples of 1/8 for floats (every product and sum is exact, so
the C++ test compares bit for bit whatever order the BLAS sums in). An input marked
"transpose" is stored as the contiguous transpose of its last two dimensions and transposed back
by the test, so strided operands go through the same cases. PyTorch has no bool matmul: bool
cases are computed as the integer product > 0 (NumPy's logical product).
"""
import json

import torch

from golden_common import DATA_DIR, encode

DTYPES = {"float32": torch.float32, "float64": torch.float64, "int8": torch.int8,
          "uint8": torch.uint8, "int16": torch.int16, "int32": torch.int32,
          "int64": torch.int64, "bool": torch.bool}

gen = torch.Generator().manual_seed(2026)


def make(shape, dtype):
    if dtype == "bool":
        return torch.randint(0, 2, shape, generator=gen).bool()
    if dtype in ("float32", "float64"):
        return (torch.randint(-32, 33, shape, generator=gen) / 8).to(DTYPES[dtype])
    hi = {"int8": 101, "uint8": 200, "int16": 300}.get(dtype, 50)
    lo = 0 if dtype == "uint8" else -hi + 1
    return torch.randint(lo, hi, shape, generator=gen).to(DTYPES[dtype])


def pack(t, transpose=False):
    t = t.detach()
    if transpose:
        t = t.transpose(-1, -2)
    t = t.contiguous()
    return {"shape": list(t.shape), "data": [encode(v) for v in t.reshape(-1).tolist()],
            "transpose": transpose}


def run(op, xs, args):
    if xs[0].dtype == torch.bool:  # the logical product, through int64
        r = run(op, [x.to(torch.int64) for x in xs], args)
        return r > 0
    if op == "matmul":
        return torch.matmul(*xs)
    if op == "mm":
        return torch.mm(*xs)
    if op == "bmm":
        return torch.bmm(*xs)
    if op == "mv":
        return torch.mv(*xs)
    if op == "dot":
        return torch.dot(*xs)
    if op == "outer":
        return torch.outer(*xs)
    if op == "tensordot":
        return torch.tensordot(*xs, dims=args["dims"])
    if op == "einsum":
        return torch.einsum(args["equation"], *xs)
    if op == "cdist":
        return torch.cdist(*xs, p=args["p"])
    raise ValueError(op)


cases = []


def case(op, shapes, dtype="float32", transpose=(), tol=0.0, **args):
    xs = [make(s, dtype) for s in shapes]
    out = run(op, xs, args)
    args = {k: encode(v) for k, v in args.items()}
    cases.append({"op": op, "dtype": dtype, "args": args, "tol": tol,
                  "inputs": [pack(x, i in transpose) for i, x in enumerate(xs)],
                  "out": pack(out)})


# matmul's dimension rules, float32, then a transposed operand of each kind.
for a, b in [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
             ((2, 1, 3, 4), (5, 4, 2)), ((4,), (2, 4, 3)), ((2, 3, 4), (4,)), ((2, 0), (0, 3)),
             ((0, 3), (3, 2)), ((3, 5, 7), (7, 6)), ((1, 1), (1, 1)), ((2, 2, 1, 3), (2, 1, 3, 2))]:
    case("matmul", [a, b])
case("matmul", [(4, 3), (3, 5)], transpose=(0,))
case("matmul", [(4, 3), (3, 5)], transpose=(1,))
case("matmul", [(2, 4, 3), (2, 3, 5)], transpose=(0, 1))
case("matmul", [(70, 65), (65, 33)], dtype="float64", transpose=(1,))
# Every dtype (integers wrap in T as on PyTorch's CPU; bool is the logical product).
for dtype in DTYPES:
    case("matmul", [(3, 4), (4, 5)], dtype=dtype)
    case("matmul", [(2, 3, 17), (17, 19)], dtype=dtype, transpose=(1,))
cases.append({"op": "matmul", "dtype": "int8", "args": {}, "tol": 0.0,
              "inputs": [pack(torch.full((2, 2), 100, dtype=torch.int8))] * 2,
              "out": pack(torch.matmul(torch.full((2, 2), 100, dtype=torch.int8),
                                       torch.full((2, 2), 100, dtype=torch.int8)))})
case("mm", [(3, 4), (4, 2)])
case("bmm", [(2, 3, 4), (2, 4, 5)], dtype="int32")
case("mv", [(3, 4), (4,)], dtype="float64")
case("dot", [(6,), (6,)], dtype="int64")
case("outer", [(3,), (4,)])
case("tensordot", [(2, 3, 4), (3, 4, 5)], dims=2)
case("tensordot", [(2, 3, 4), (4, 3, 5)], dims=[[1, 2], [1, 0]])
case("tensordot", [(2, 3), (4, 5)], dims=0)
for eq, shapes in [("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
                   ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("ij->", [(3, 5)]),
                   ("ij->ji", [(2, 3)]), ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
                   ("i,i->", [(5,), (5,)]), ("i,j->ij", [(3,), (4,)]), ("ij,j", [(3, 4), (4,)]),
                   ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]), ("ijk,jk", [(2, 3, 4), (3, 4)]),
                   ("Ab,bc->Ac", [(2, 3), (3, 2)]), ("...ii->...i", [(2, 3, 3)]),
                   ("i...->...", [(3, 2, 2)]), ("ij,ij->i", [(3, 4), (3, 4)]),
                   ("iij->j", [(3, 3, 2)]), ("ij,kj->ikj", [(2, 3), (4, 3)]),
                   ("ij,jk", [(1, 3), (1, 4)]), ("ba,ab->", [(3, 4), (4, 3)]),
                   ("bij,jk->bik", [(2, 3, 4), (4, 2)])]:
    case("einsum", shapes, equation=eq)
case("einsum", [(3, 4), (4, 5)], dtype="int8", equation="ij,jk->ik")
case("einsum", [(3, 4), (4, 5)], dtype="bool", equation="ij,jk->ik")
case("einsum", [(4, 4)], dtype="int16", equation="ii")
case("einsum", [(3, 4), (5, 4)], dtype="float64", transpose=(1,), equation="ij,kj->ik")

# cdist: exact differences up to 25 rows (compared within rounding of the root and the power),
# PyTorch's product form for p = 2 beyond (compared within the form's cancellation error).
for p in [0.0, 1.0, 2.0, 3.0, float("inf"), 0.5]:
    case("cdist", [(4, 3), (5, 3)], tol=1e-6, p=p)
case("cdist", [(2, 1, 3, 2), (4, 2)], dtype="float64", tol=1e-12, p=2.0)
case("cdist", [(3, 0), (2, 0)], p=2.0)
case("cdist", [(30, 5), (27, 5)], tol=1e-4, p=2.0)
case("cdist", [(2, 40, 8), (2, 30, 8)], dtype="float64", transpose=(1,), tol=1e-9, p=2.0)

out = DATA_DIR / "matmul_golden.json"
out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, separators=(",", ":")))
print(f"wrote {len(cases)} cases to {out}")
