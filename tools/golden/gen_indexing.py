#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's indexing and gathering, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_indexing.py
Writes tests/data/indexing_golden.json; the C++ tests read it, so CI needs no torch.
(gather_nd is TensorFlow's: tools/golden/gen_gather_nd.py.)

Each case: an op (index with index tensors, index with the tuple nonzero returns, index with a
bool mask, masked_select, index_select, gather, take, take_along_dim, index_put_, masked_fill_,
cat, stack), its input
tensors and arguments, and what PyTorch returned, or the error it raised. A gather moves
elements without looking at them, so the dtypes are one per element width (bool, int16,
float32, int64, float64) plus int32 index tensors beside int64 ones; the rules under test are
shapes, broadcasting, negative entries, dims and errors. PyTorch's take and take_along_dim
take int64 indices only; tessera also takes int32 ones, checked against PyTorch's answer for
the same entries as int64.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

GEN = torch.Generator().manual_seed(35)
NAME = {torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
        torch.int32: "int32", torch.int64: "int64", torch.float32: "float32",
        torch.float64: "float64"}
DTYPES = [torch.bool, torch.int16, torch.float32, torch.int64, torch.float64]


def sample(shape, dtype):
    n = math.prod(shape)
    if dtype == torch.bool:
        return (torch.rand(n, generator=GEN) < 0.5).reshape(shape)
    v = torch.randint(-50, 50, (n,), generator=GEN).to(torch.float64)
    if dtype.is_floating_point:
        v = v * 0.25
        if n >= 3:
            v[0], v[n // 2] = float("nan"), -0.0
    return v.to(dtype).reshape(shape)


def idx(values, dtype=torch.int64):
    return torch.tensor(values, dtype=dtype)


def rand_idx(shape, lo, hi, dtype=torch.int64):
    return torch.randint(lo, hi, shape, generator=GEN).to(dtype)


def packed(t):
    return {"dtype": NAME[t.dtype], "shape": list(t.shape),
            "data": [encode(v) for v in t.flatten().tolist()]}


def case(op, fn, tensors, **args):
    c = {"op": op, "tensors": [packed(t) for t in tensors], **args}
    try:
        c["out"] = packed(fn())
    except (RuntimeError, IndexError, ValueError) as e:
        c["error"] = type(e).__name__
        c["message"] = str(e).splitlines()[0]
    return c


def cases():
    out = []
    for dtype in DTYPES:
        for it in (torch.int64, torch.int32):
            x = sample((4, 5), dtype)
            x3 = sample((3, 4, 2), dtype)
            # index with tensors: one, two broadcasting, negative, on a 3-D tensor
            for ids in ([idx([2, 0, -1, 3], it)],
                        [idx([[0], [3], [-4]], it), idx([1, -1, 4], it)],
                        [idx(3, it), idx([[0, 1], [2, -5]], it)],
                        [idx([], it)],
                        [idx([4], it)],
                        [idx([0, -5], it)],
                        [idx([0, 1], it), idx([0, 1, 2], it)]):
                out.append(case("index", lambda: x[tuple(ids)], [x, *ids]))
            for ids in ([idx([[2, 0], [1, 1]], it)], [idx([0, 2], it), idx([3, -1], it)],
                        [idx([1], it), idx([0], it), idx([1, 0], it)]):
                out.append(case("index", lambda: x3[tuple(ids)], [x3, *ids]))
            out.append(case("index", lambda: x[idx([0], it), idx([0], it), idx([0], it)],
                            [x, idx([0], it), idx([0], it), idx([0], it)]))
            # index_select, gather, take, take_along_dim
            for dim, ids in ((0, [3, 0, 3]), (1, [4, 0]), (-1, []), (0, [4]), (1, [-1]),
                             (2, [0])):
                i = idx(ids, it)
                out.append(case("index_select", lambda: torch.index_select(x, dim, i), [x, i],
                                dim=dim))
            i0 = idx([2], it)
            out.append(case("index_select", lambda: torch.index_select(x3, 1, i0), [x3, i0],
                            dim=1))
            i2 = rand_idx((2, 2), 0, 4, it)
            out.append(case("index_select", lambda: torch.index_select(x, 0, i2), [x, i2], dim=0))
            for dim, shape, hi in ((1, (4, 3), 5), (0, (2, 5), 4), (-1, (4, 5), 5),
                                   (1, (3, 4, 2), 4)):
                src = x3 if len(shape) == 3 else x
                i = rand_idx(shape, 0, hi, it)
                out.append(case("gather", lambda: torch.gather(src, dim, i), [src, i], dim=dim))
            for dim, i in ((1, idx([[0, 5]], it)), (0, idx([[-1]], it)), (0, idx([1, 2], it)),
                           (0, idx([[0], [0], [0], [0], [0]], it)), (2, idx([[0]], it))):
                out.append(case("gather", lambda: torch.gather(x, dim, i), [x, i], dim=dim))
            for i in (idx([[0, -1], [19, 7]], it), idx(5, it), idx([20], it), idx([-21], it),
                      idx([], it)):
                out.append(case("take", lambda: torch.take(x, i.long()), [x, i]))
            out.append(case("take", lambda: torch.take(x3.transpose(0, 2), idx([1, 5, -2])),
                            [x3.transpose(0, 2).contiguous(), idx([1, 5, -2], it)]))
            for dim, i in ((1, torch.argsort(x.to(torch.float64), 1).to(it)), (0, idx([[1], [0]], it)),
                           (1, idx([[3]], it)), (1, idx([[0, 1, 2, 3, 4, 0]], it)),
                           (0, idx([[0, 4]], it)), (1, idx([0], it)), (1, idx([[-1]], it))):
                out.append(case("take_along_dim", lambda: torch.take_along_dim(x, i.long(), dim), [x, i],
                                dim=dim))
            i = idx([[3, 0], [19, 1]], it)
            out.append(case("take_along_dim", lambda: torch.take_along_dim(x, i.long()), [x, i]))
        # masks: x[mask] over leading dims, x[nonzero(as_tuple)], masked_select (broadcast)
        x = sample((4, 5), dtype)
        x3 = sample((3, 4, 2), dtype)
        nz = x != 0 if dtype != torch.bool else x
        out.append(case("index_nonzero", lambda: x[nz.nonzero(as_tuple=True)], [x, nz]))
        for m in (torch.rand(4, generator=GEN) < 0.5, torch.rand(4, 5, generator=GEN) < 0.5,
                  torch.zeros(4, 5, dtype=torch.bool), torch.tensor(True), torch.tensor(False),
                  torch.ones(3, dtype=torch.bool), torch.ones(4, 4, dtype=torch.bool)):
            out.append(case("index_mask", lambda: x[m], [x, m]))
        for m in (torch.rand(3, 4, generator=GEN) < 0.5, torch.rand(3, generator=GEN) < 0.5):
            out.append(case("index_mask", lambda: x3[m], [x3, m]))
        for m in (torch.rand(4, 5, generator=GEN) < 0.5, torch.rand(5, generator=GEN) < 0.5,
                  torch.rand(4, 1, generator=GEN) < 0.5, torch.rand(2, 4, 5, generator=GEN) < 0.5,
                  torch.tensor(True), torch.rand(3, generator=GEN) < 0.5):
            out.append(case("masked_select", lambda: torch.masked_select(x, m), [x, m]))
        # index_put_ (accumulate or not) and masked_fill_: the tensor after the call
        for acc in (False, True):
            for ids, vals in (([idx([1, 3]), idx([0, -1])], sample((2,), dtype)),
                              ([idx([2, 0])], sample((2, 5), dtype)),
                              ([idx([[0], [3]]), idx([1, 2, 4])], sample((1, 3), dtype)),
                              ([idx([-4])], sample((), dtype)),
                              ([idx([1, 1, 2, 1])], sample((4, 5), dtype)),
                              ([idx([0, 4])], sample((2, 5), dtype)),
                              ([idx([0, 1])], sample((3, 5), dtype))):
                if not acc and len(ids) == 1 and ids[0].tolist() == [1, 1, 2, 1]:
                    continue  # duplicates without accumulate: PyTorch leaves the winner open
                x = sample((4, 5), dtype)
                out.append(case("index_put", lambda: x.clone().index_put_(tuple(ids), vals, acc),
                                [x, vals, *ids], accumulate=acc))
        for m in (torch.rand(4, 5, generator=GEN) < 0.5, torch.rand(5, generator=GEN) < 0.5,
                  torch.rand(4, 1, generator=GEN) < 0.5, torch.rand(2, 4, 5, generator=GEN) < 0.5):
            x = sample((4, 5), dtype)
            v = True if dtype == torch.bool else -7
            out.append(case("masked_fill", lambda: x.clone().masked_fill_(m, v), [x, m], value=v))
        # cat and stack
        a, b, c = sample((2, 3), dtype), sample((1, 3), dtype), sample((2, 2), dtype)
        e = torch.empty(0, dtype=dtype)
        for ts_, dim in (([a, b], 0), ([a, c], 1), ([a, c], -1), ([a, e, b], 0), ([e, e], 0),
                         ([a, b], 1), ([a, sample((2, 3, 1), dtype)], 0), ([a], 2),
                         ([sample((0, 3), dtype), b], 0)):
            out.append(case("cat", lambda: torch.cat(ts_, dim), ts_, dim=dim))
        for ts_, dim in (([a, a], 0), ([a, a * 1 if dtype != torch.bool else a], 1),
                         ([a, a, a], -1), ([a, a], 2), ([a, b], 0), ([a, a], 3), ([a, a], -4)):
            out.append(case("stack", lambda: torch.stack(ts_, dim), ts_, dim=dim))
    return out


def main():
    all_cases = cases()
    path = DATA_DIR / "indexing_golden.json"
    path.write_text(json.dumps({"generator": "tools/golden/gen_indexing.py",
                                "torch": torch.__version__, "cases": all_cases}))
    errors = sum("error" in c for c in all_cases)
    print(f"{path}: {len(all_cases)} cases ({errors} errors), torch {torch.__version__}")


if __name__ == "__main__":
    main()
