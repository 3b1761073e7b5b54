#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Where PyTorch's decompositions and solvers answer NaN for a matrix that holds one NaN.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_linalg_nan.py
Writes tests/data/linalg_nan_golden.json.

The rule under test: a NaN anywhere in a matrix never yields a finite result where torch's is
NaN. For every order 1 to 3, every position of the NaN and every op, the file records which
elements of each output torch leaves NaN (a 0/1 mask; the finite values themselves depend on
the LAPACK build and on the signs of Q, U, V and eigenvectors) and slogdet's sign, or that
torch raised (the error class). The matrix around the NaN is symmetric positive-definite, so that
without the NaN every op succeeds; B is ones.
"""
import json

import torch

from golden_common import DATA_DIR

L = torch.linalg
BASE = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], dtype=torch.float64)


def ones(n):
    return torch.ones(n, dtype=torch.float64)


OPS = {
    "inv": lambda a: [L.inv(a)],
    "solve": lambda a: [L.solve(a, ones(a.shape[-1]))],
    "det": lambda a: [L.det(a)],
    "slogdet": lambda a: list(L.slogdet(a)),
    "lstsq": lambda a: [L.lstsq(a, ones(a.shape[-1]), driver="gelsd").solution],
    "cholesky": lambda a: [L.cholesky(a)],
    "qr": lambda a: list(L.qr(a)),
    "eigh": lambda a: list(L.eigh(a)),
    "eigvalsh": lambda a: [L.eigvalsh(a)],
    "svd": lambda a: list(L.svd(a)),
    "svdvals": lambda a: [L.svdvals(a)],
}

CASES = []
for n in (1, 2, 3):
    for position in range(n * n):
        a = BASE[:n, :n].clone().reshape(-1)
        a[position] = float("nan")
        a = a.reshape(n, n)
        for op, fn in OPS.items():
            entry = {"op": op, "n": n, "position": position}
            try:
                outputs = fn(a)
            except Exception as e:  # noqa: BLE001 - the error is the answer
                entry["error"] = type(e).__name__.lstrip("_")
            else:
                entry["nan"] = [
                    {"shape": list(t.shape), "data": [int(v) for v in t.isnan().reshape(-1)]}
                    for t in outputs
                ]
                if op == "slogdet":  # the sign is 0, not NaN, where a pivot is NaN
                    entry["sign"] = outputs[0].item()
            CASES.append(entry)

out = DATA_DIR / "linalg_nan_golden.json"
out.write_text(json.dumps({"torch": torch.__version__, "cases": CASES}, indent=None) + "\n")
print(f"wrote {out} ({len(CASES)} cases)")
