#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's searchsorted and bucketize, produced by PyTorch itself.

Run with Debian's interpreter (python3-torch):  /usr/bin/python3 tools/golden/gen_searchsorted.py
Writes tests/data/searchsorted_golden.json; the C++ tests read it, so CI needs no torch.
Each case holds a sequence, values (a tensor or a scalar), the options and PyTorch's answer.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

DTYPES = {
    "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
    "int64": torch.int64, "float32": torch.float32, "float64": torch.float64,
}


def pack(t):
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
            "data": [encode(v) for v in t.reshape(-1).tolist()]}


def draw(gen, n, dtype, specials):
    """n values of dtype with many duplicates; floats get NaN/±inf when `specials`."""
    if dtype.is_floating_point:
        x = torch.randint(-6, 7, (n,), generator=gen).to(torch.float64) * 0.5
        if specials:
            s = torch.rand(n, generator=gen)
            x[s < 0.08] = float("nan")
            x[(s >= 0.08) & (s < 0.14)] = float("inf")
            x[(s >= 0.14) & (s < 0.2)] = float("-inf")
        return x.to(dtype)
    low = 0 if dtype == torch.uint8 else -6
    return torch.randint(low, 7, (n,), generator=gen).to(dtype)


def sorted_rows(gen, shape, dtype, specials):
    x = draw(gen, math.prod(shape), dtype, specials).reshape(shape)
    return torch.sort(x, dim=-1).values  # NaN sorts last, as in PyTorch's own pipelines


def case(name, seq, values, right=False, side=None, sorter=None, out_int32=False):
    kwargs = {"right": right, "out_int32": out_int32}
    if side is not None:
        kwargs["side"] = side
    if sorter is not None:
        kwargs["sorter"] = sorter
    result = torch.searchsorted(seq, values, **kwargs)
    entry = {"name": name, "seq": pack(seq), "right": right, "side": side,
             "out_int32": out_int32, "expected": pack(result)}
    if isinstance(values, torch.Tensor):
        entry["values"] = pack(values)
    else:
        entry["scalar"] = encode(values)
    if sorter is not None:
        entry["sorter"] = pack(sorter)
    if seq.dim() == 1 and isinstance(values, torch.Tensor) and sorter is None and side is None:
        bucket = torch.bucketize(values, seq, right=right, out_int32=out_int32)
        entry["bucketize"] = pack(bucket)
    return entry


def main():
    gen = torch.Generator().manual_seed(20261130)
    cases = []
    # The examples of torch.searchsorted's reference page, verbatim.
    seq2 = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    vals = torch.tensor([[3, 6, 9], [3, 6, 9]])
    cases.append(case("doc_left", seq2, vals))
    cases.append(case("doc_side_right", seq2, vals, side="right"))
    cases.append(case("doc_1d", torch.tensor([1, 3, 5, 7, 9]), vals))
    cases.append(case("doc_bucketize_right", torch.tensor([1, 3, 5, 7, 9]), vals, right=True))
    # Rows that end in NaN: PyTorch's probe order decides.
    nan = float("nan")
    for right in (False, True):
        for seq in ([1.0, 2.0, nan], [1.0, nan, nan, nan, nan], [nan], [nan, nan],
                    [-1.0, 0.0, 0.5, nan, nan, nan], [float("-inf"), 1.0, float("inf"), nan]):
            s = torch.tensor(seq)
            v = torch.tensor([0.5, -2.0, 1.0, 2.0, 3.0, nan, float("inf"), float("-inf")])
            cases.append(case(f"nan_end_{len(seq)}_{right}", s, v, right=right))
    # Random sweeps: dtypes, 1-d and n-d, both sides, both result types.
    shapes = [((7,), (11,)), ((1,), (5,)), ((16,), (3, 4)), ((3, 6), (3, 5)), ((2, 3, 4), (2, 3, 7)),
              ((4, 9), (4, 1)), ((33,), (40,))]
    for dname, dtype in DTYPES.items():
        for seq_shape, val_shape in shapes:
            for right in (False, True):
                specials = dtype.is_floating_point
                seq = sorted_rows(gen, seq_shape, dtype, specials)
                values = draw(gen, math.prod(val_shape), dtype, specials).reshape(val_shape)
                cases.append(case(f"{dname}_{seq_shape}_{val_shape}_{right}", seq, values,
                                  right=right, out_int32=right))
        # Scalars against 1-d sequences.
        seq = sorted_rows(gen, (9,), dtype, dtype.is_floating_point)
        for right in (False, True):
            cases.append(case(f"{dname}_scalar_{right}", seq, 2 if not dtype.is_floating_point
                              else 0.5, right=right))
        # Sorters: an unsorted sequence and its argsort.
        for seq_shape, val_shape in (((10,), (12,)), ((3, 8), (3, 6))):
            raw = draw(gen, math.prod(seq_shape), dtype, False).reshape(seq_shape)
            order = torch.argsort(raw, dim=-1)
            values = draw(gen, math.prod(val_shape), dtype, False).reshape(val_shape)
            for side in ("left", "right"):
                cases.append(case(f"{dname}_sorter_{seq_shape}_{side}", raw, values, side=side,
                                  sorter=order))
    # Mixed element types compare in the common type.
    for sd, vd in (("int32", "float32"), ("int64", "float64"), ("uint8", "int8"),
                   ("float32", "int64"), ("int16", "int32"), ("float32", "float64")):
        seq = torch.sort(torch.randint(-5, 6, (12,), generator=gen).to(DTYPES[sd])).values
        if sd == "uint8":
            seq = torch.sort(torch.randint(0, 9, (12,), generator=gen).to(DTYPES[sd])).values
        values = (torch.randint(-12, 13, (15,), generator=gen).to(torch.float64) * 0.5)
        if not DTYPES[vd].is_floating_point:
            values = values.round()
        values = values.to(DTYPES[vd])
        for right in (False, True):
            cases.append(case(f"mixed_{sd}_{vd}_{right}", seq, values, right=right))
    # Empty sequence / values, infinities.
    cases.append(case("empty_seq", torch.tensor([], dtype=torch.float32),
                      torch.tensor([1.0, -1.0, nan])))
    cases.append(case("empty_values", torch.tensor([1.0, 2.0]), torch.tensor([])))
    cases.append(case("empty_rows", torch.zeros((3, 0)), torch.tensor([[1.0], [2.0], [3.0]])))
    cases.append(case("inf_values", torch.tensor([1.0, 2.0, 3.0]),
                      torch.tensor([float("inf"), float("-inf")]), right=True))
    cases.append(case("inf_in_row", torch.tensor([float("-inf"), 0.0, float("inf")]),
                      torch.tensor([float("inf"), float("-inf"), 0.0])))
    out = DATA_DIR / "searchsorted_golden.json"
    out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, separators=(",", ":")))
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
