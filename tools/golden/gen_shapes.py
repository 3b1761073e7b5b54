#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's shapes and views, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_shapes.py
Writes tests/data/shapes_golden.json; the C++ tests read it, so CI needs no torch.

Each case: an op with its arguments, applied to arange(n).reshape(shape) (transposed first when
"layout" is "T", so that views of strided inputs are checked too), and what PyTorch returned:
the result's shape and values (a list of them for ops returning several tensors), whether it is
a view of the input (torch's `_base`/storage test), or that PyTorch raised. Views move
elements without looking at them: the input is float32, which holds every value exactly. The
factories (linspace, logspace) are checked per dtype, where rounding and truncation matter.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

NAME = {torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
        torch.int32: "int32", torch.int64: "int64", torch.float32: "float32",
        torch.float64: "float64"}


def pack(t):
    t = t.detach().contiguous()
    return {"shape": list(t.shape), "data": [encode(v) for v in t.reshape(-1).tolist()]}


def base(shape, layout):
    x = torch.arange(math.prod(shape), dtype=torch.float32).reshape(shape)
    if layout == "T":
        x = x.transpose(0, 1)
    return x


def shares(x, y):
    return y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


CASES = []


def case(op, shape, args, fn, layout="C"):
    x = base(shape, layout)
    entry = {"op": op, "shape": list(shape), "layout": layout, "args": args}
    try:
        y = fn(x)
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        entry["error"] = type(e).__name__
        CASES.append(entry)
        return
    if isinstance(y, (list, tuple)):
        entry["outputs"] = [pack(t) for t in y]
        entry["view"] = all(shares(x, t) for t in y) if len(y) else True
    else:
        entry["output"] = pack(y)
        entry["view"] = shares(x, y)
    CASES.append(entry)


# ---- views ----------------------------------------------------------------------------------
for shape, dims, layout in [((2, 3, 4), [2, 0, 1], "C"), ((2, 3, 4), [-1, 1, 0], "T"),
                            ((5,), [0], "C"), ((), [], "C"), ((2, 3), [0, 0], "C"),
                            ((2, 3), [0], "C"), ((2, 3), [0, 2], "C")]:
    case("permute", shape, {"dims": dims}, lambda x, d=dims: x.permute(d), layout)
for shape, s, d in [((2, 3, 4), 0, -1), ((2, 3, 4), 2, 0), ((2, 3, 4), -1, 1), ((2, 3), 0, 2)]:
    case("movedim", shape, {"source": s, "destination": d}, lambda x, s=s, d=d: x.movedim(s, d))
for shape, src, dst in [((2, 3, 4, 5), [0, 1], [2, 0]), ((2, 3, 4), [0, 2], [-1, 0]),
                        ((2, 3, 4), [0, 0], [1, 2])]:
    case("movedim_list", shape, {"source": src, "destination": dst},
         lambda x, s=src, d=dst: x.movedim(s, d))
for shape, d, layout in [((2, 3), 0, "C"), ((2, 3), 2, "C"), ((2, 3), -1, "T"), ((2, 3), -3, "C"),
                         ((), 0, "C"), ((), -1, "C"), ((2, 3), 3, "C"), ((2, 3), -4, "C")]:
    case("unsqueeze", shape, {"dim": d}, lambda x, d=d: x.unsqueeze(d), layout)
for shape in [(1, 2, 1, 3, 1), (1,), (), (2, 3), (0, 1)]:
    case("squeeze", shape, {}, lambda x: x.squeeze())
for shape, d in [((1, 2, 1, 3), 0), ((1, 2, 1, 3), 1), ((1, 2, 1, 3), -2), ((), 0), ((2, 3), 2)]:
    case("squeeze_dim", shape, {"dim": d}, lambda x, d=d: x.squeeze(d))
for shape, dims in [((1, 2, 1, 3), [0, 2]), ((1, 2, 1, 3), [1, -1, 0])]:
    case("squeeze_dims", shape, {"dims": dims}, lambda x, d=dims: x.squeeze(tuple(d)))
for shape, a, b, layout in [((2, 3, 4), 0, -1, "C"), ((2, 3, 4), 1, 2, "C"), ((2, 3, 4), 0, 1, "T"),
                            ((2, 3, 4), 1, 2, "T"), ((), 0, -1, "C"), ((2, 3), 1, 0, "C"),
                            ((2, 3, 4), 2, 2, "C"), ((0, 3), 0, 1, "C")]:
    case("flatten", shape, {"start": a, "end": b}, lambda x, a=a, b=b: x.flatten(a, b), layout)
for shape, d, sizes, layout in [((2, 6), 1, [2, 3], "C"), ((6, 4), 0, [3, -1], "T"),
                                ((2, 6), -1, [2, 2, 1, 3], "C"), ((2, 6), 1, [4, -1], "C"),
                                ((2, 6), 1, [-1, -1], "C")]:
    case("unflatten", shape, {"dim": d, "sizes": sizes},
         lambda x, d=d, s=sizes: x.unflatten(d, s), layout)
for shape, target, layout in [((4, 6), [6, 4], "C"), ((4, 6), [2, -1, 3], "C"),
                              ((4, 6), [24], "T"), ((4, 6), [2, 3, 4], "T"), ((4, 6), [5, -1], "C"),
                              ((2, 3, 4), [2, 12], "C"), ((0, 3), [3, 0], "C"), ((0, 3), [-1], "C")]:
    case("view", shape, {"shape": target}, lambda x, t=target: x.view(t), layout)
    case("reshape", shape, {"shape": target}, lambda x, t=target: x.reshape(t), layout)
for shape, target, layout in [((3, 1), [3, 4], "C"), ((1, 3), [2, 4, 3], "C"), ((3, 1), [-1, 5], "C"),
                              ((3, 2), [3, 4], "C"), ((3, 1), [2, -1, 2], "C"), ((), [2, 3], "C"),
                              ((3, 1), [-1, 0], "C"), ((1, 3), [3, 3], "T"), ((3,), [3, 1], "C"),
                              ((2, 3), [3], "C")]:
    case("expand", shape, {"shape": target}, lambda x, t=target: x.expand(*t), layout)
for shape, d, start, length in [((5, 4), 0, 1, 3), ((5, 4), 1, -3, 2), ((5, 4), 0, 5, 0),
                                ((5, 4), 0, 4, 2), ((5, 4), 0, 6, 0), ((5, 4), 0, -6, 1),
                                ((5, 4), 2, 0, 1)]:
    case("narrow", shape, {"dim": d, "start": start, "length": length},
         lambda x, d=d, s=start, n=length: x.narrow(d, s, n))
for shape, layout in [((2, 3), "C"), ((3, 2), "T"), ((4,), "C"), ((), "C"), ((2, 3, 4), "C")]:
    case("t", shape, {}, lambda x: x.t(), layout)
for shape, layout in [((2, 3), "C"), ((2, 3, 4), "T"), ((4,), "C")]:
    case("mT", shape, {}, lambda x: x.mT, layout)
for shape, off, a, b, layout in [((3, 4), 0, 0, 1, "C"), ((3, 4), 1, 0, 1, "C"), ((3, 4), -2, 0, 1, "C"),
                                 ((3, 4), 5, 0, 1, "C"), ((3, 4), -3, 0, 1, "C"),
                                 ((2, 3, 4), 1, 1, 2, "C"), ((2, 3, 4), -1, 2, 0, "T"),
                                 ((2, 3, 4), 0, -1, -2, "C"), ((3, 4), 0, 1, 1, "C"),
                                 ((3, 4), 0, 0, 2, "C"), ((4,), 0, 0, 1, "C")]:
    case("diagonal", shape, {"offset": off, "dim1": a, "dim2": b},
         lambda x, o=off, a=a, b=b: x.diagonal(o, a, b), layout)
for shape, d, layout in [((3, 4), 0, "C"), ((3, 4), -1, "T"), ((0, 2), 0, "C"), ((), 0, "C")]:
    case("unbind", shape, {"dim": d}, lambda x, d=d: x.unbind(d), layout)
for shape, size, d in [((7, 2), 3, 0), ((2, 6), 2, 1), ((5,), 5, 0), ((5,), 7, 0), ((0,), 0, 0),
                       ((0,), 2, 0), ((5,), 0, 0), ((5,), -1, 0), ((), 1, 0)]:
    case("split", shape, {"size": size, "dim": d}, lambda x, s=size, d=d: x.split(s, d))
for shape, sizes, d in [((7, 2), [2, 5], 0), ((2, 6), [1, 0, 5], 1), ((5,), [2, 2], 0),
                        ((5,), [6, -1], 0)]:
    case("split_sizes", shape, {"sizes": sizes, "dim": d},
         lambda x, s=sizes, d=d: x.split(s, d))
for shape, chunks, d in [((7, 2), 3, 0), ((6,), 4, 0), ((5,), 5, 0), ((2, 5), 2, 1), ((3,), 5, 0),
                         ((0,), 3, 0), ((5,), 0, 0)]:
    case("chunk", shape, {"chunks": chunks, "dim": d}, lambda x, c=chunks, d=d: x.chunk(c, d))
for shape, d, size, step, layout in [((8,), 0, 3, 1, "C"), ((8,), 0, 3, 2, "C"), ((3, 7), 1, 2, 3, "C"),
                                     ((4, 6), 0, 2, 1, "T"), ((5,), 0, 5, 1, "C"), ((5,), 0, 0, 2, "C"),
                                     ((5,), 0, 6, 1, "C"), ((5,), 0, 2, 0, "C"), ((), 0, 1, 1, "C")]:
    case("unfold", shape, {"dim": d, "size": size, "step": step},
         lambda x, d=d, s=size, st=step: x.unfold(d, s, st), layout)

# ---- copies ---------------------------------------------------------------------------------
for shape, dims, layout in [((3, 4), [0], "C"), ((3, 4), [0, 1], "C"), ((2, 3, 4), [-1], "T"),
                            ((2, 3, 4), [0, 2], "C"), ((5,), [0], "C"), ((), [], "C"),
                            ((3, 4), [0, 0], "C"), ((3, 4), [2], "C"), ((0, 3), [0, 1], "C")]:
    case("flip", shape, {"dims": dims}, lambda x, d=dims: x.flip(d), layout)
for shape, shifts, dims, layout in [((3, 4), [1], [0], "C"), ((3, 4), [1, -2], [0, 1], "C"),
                                    ((3, 4), [7, 5], [1, 0], "T"), ((2, 3, 4), [1, 1], [2, 2], "C"),
                                    ((3, 4), [1, 2], [0], "C"), ((3, 4), [1], [2], "C"),
                                    ((0, 3), [1], [0], "C")]:
    case("roll", shape, {"shifts": shifts, "dims": dims},
         lambda x, s=shifts, d=dims: x.roll(s, d), layout)
for shape, shift, layout in [((3, 4), 3, "C"), ((3, 4), -5, "T"), ((), 2, "C"), ((7,), 100, "C")]:
    case("roll_flat", shape, {"shift": shift}, lambda x, s=shift: x.roll(s), layout)
for shape, reps, layout in [((2, 3), [2, 1], "C"), ((2, 3), [2, 2], "T"), ((3,), [2, 2, 1], "C"),
                            ((2, 3), [1, 0], "C"), ((), [3], "C"), ((2, 3), [2], "C"),
                            ((1, 2, 1, 2), [2, 1, 3, 2, 2], "C")]:
    case("repeat", shape, {"repeats": reps}, lambda x, r=reps: x.repeat(*r), layout)
for shape, reps in [((2, 3), [2, 2]), ((2, 3), [3]), ((3,), [2, 2]), ((), [2])]:
    case("tile", shape, {"reps": reps}, lambda x, r=reps: torch.tile(x, r))
for op in ["tril", "triu"]:
    for shape, k, layout in [((4, 5), 0, "C"), ((4, 5), 1, "C"), ((4, 5), -2, "T"),
                             ((2, 3, 4), 0, "C"), ((5, 3), 10, "C"), ((5, 3), -10, "C"),
                             ((4,), 0, "C"), ((0, 3), 0, "C")]:
        case(op, shape, {"k": k}, lambda x, k=k, op=op: getattr(x, op)(k), layout)
for shape, k, layout in [((4,), 0, "C"), ((3,), 2, "C"), ((3,), -1, "C"), ((3, 4), 0, "C"),
                         ((3, 4), 1, "T"), ((3, 4), -2, "C"), ((3, 4), 9, "C"), ((2, 2, 2), 0, "C"),
                         ((0,), 1, "C")]:
    case("diag", shape, {"k": k}, lambda x, k=k: torch.diag(x, k), layout)

# ---- meshgrid (inputs arange(a), arange(b) + 10, ...) -----------------------------------------
MESH = []
for sizes in [[2, 3], [3, 2, 4], [4], [2, 0]]:
    for indexing in ["ij", "xy"]:
        ins = [torch.arange(n, dtype=torch.float32) + 10 * i for i, n in enumerate(sizes)]
        out = torch.meshgrid(*ins, indexing=indexing)
        MESH.append({"sizes": sizes, "indexing": indexing, "outputs": [pack(t) for t in out]})

# ---- factories, per dtype ---------------------------------------------------------------------
FACTORIES = []
SPACES = [(0, 1, 5), (-3, 7, 4), (0, 10, 7), (1, -1, 9), (2, 2, 3), (0, 1, 1), (0, 1, 0),
          (-5.5, 2.25, 11), (0.1, 0.9, 25)]
for dtype in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32,
              torch.float64]:
    for start, end, steps in SPACES:
        if not dtype.is_floating_point and (start != int(start) or end != int(end)):
            continue
        if dtype == torch.uint8 and (start < 0 or end < 0):
            continue
        t = torch.linspace(start, end, steps, dtype=dtype)
        FACTORIES.append({"op": "linspace", "dtype": NAME[dtype], "start": start, "end": end,
                          "steps": steps, "output": pack(t)})
    for start, end, steps, b in [(0, 3, 4, 10.0), (0, 3, 4, 2.0), (-2, 2, 5, 10.0),
                                 (0.5, 1.5, 3, 2.0), (1, 1, 1, 3.0), (0, 6, 7, 2.0)]:
        if not dtype.is_floating_point and (start != int(start) or end != int(end) or start < 0):
            continue
        t = torch.logspace(start, end, steps, base=b, dtype=dtype)
        FACTORIES.append({"op": "logspace", "dtype": NAME[dtype], "start": start, "end": end,
                          "steps": steps, "base": b, "output": pack(t)})
for n, m in [(3, 3), (2, 4), (4, 2), (0, 3), (1, 1)]:
    FACTORIES.append({"op": "eye", "dtype": "float32", "n": n, "m": m,
                      "output": pack(torch.eye(n, m))})

with open(DATA_DIR / "shapes_golden.json", "w") as f:
    json.dump({"torch": torch.__version__, "cases": CASES, "meshgrid": MESH,
               "factories": FACTORIES}, f, separators=(",", ":"))
print(f"{len(CASES)} cases, {len(MESH)} meshgrids, {len(FACTORIES)} factories")
