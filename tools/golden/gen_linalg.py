#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's decompositions, solvers and norms, produced by PyTorch itself.

Run with PyTorch 2.15 (python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
numpy):  /tmp/venv-torch/bin/python tools/golden/gen_linalg.py
Writes tests/data/linalg_golden.json; the C++ tests read it, so CI needs no torch.

Only answers that are unique are recorded: solve, inv, det, slogdet, cholesky, eigenvalues,
singular values, lstsq's solution (full rank), the norms, the trace, and the texts of the
errors for singular and non-positive-definite inputs. Q, R, U, Vh and eigenvectors (unique up to
signs) are checked by their properties in the C++ test. Inputs are float32-representable
values (so the float32 tests read the same matrices), the answers are computed in float64.
Each case: op, inputs (packed tensors), args, and the outputs (a list of packed tensors), or
the error text PyTorch raised.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

torch.manual_seed(46)


def pack(t):
    t = t.detach().contiguous()
    return {"shape": list(t.shape), "data": [encode(v) for v in t.reshape(-1).tolist()]}


def rand(*shape):
    """Float32-representable values in float64."""
    return torch.randn(*shape, dtype=torch.float32).to(torch.float64)


def well_conditioned(*shape):
    """Square matrices with a dominant diagonal (invertible, far from singular)."""
    n = shape[-1]
    a = rand(*shape)
    return (a + 2 * n * torch.eye(n, dtype=torch.float64)).to(torch.float32).to(torch.float64)


def spd(*shape):
    """Symmetric positive-definite matrices, float32-representable."""
    n = shape[-1]
    a = rand(*shape)
    s = a @ a.mT + n * torch.eye(n, dtype=torch.float64)
    return s.to(torch.float32).to(torch.float64)


def symmetric(*shape):
    a = rand(*shape)
    return ((a + a.mT) / 2).to(torch.float32).to(torch.float64)


CASES = []


def case(op, inputs, fn, args=None):
    entry = {"op": op, "inputs": [pack(x) for x in inputs], "args": args or {}}
    try:
        out = fn(*inputs)
    except Exception as e:  # noqa: BLE001 - every error text is recorded
        entry["error"] = str(e)
        CASES.append(entry)
        return
    if not isinstance(out, (list, tuple)):
        out = [out]
    entry["outputs"] = [pack(t) for t in out]
    CASES.append(entry)


L = torch.linalg

# solve: B a matrix, a vector, batched A with a vector B, broadcast batches.
case("solve", [well_conditioned(3, 3), rand(3, 2)], L.solve)
case("solve", [well_conditioned(3, 3), rand(3)], L.solve)
case("solve", [well_conditioned(2, 3, 3), rand(3)], L.solve)
case("solve", [well_conditioned(2, 3, 3), rand(2, 3)], L.solve)
case("solve", [well_conditioned(2, 1, 3, 3), rand(4, 3, 2)], L.solve)
# inv, det, slogdet
case("inv", [well_conditioned(4, 4)], L.inv)
case("inv", [well_conditioned(2, 3, 3)], L.inv)
case("det", [rand(3, 3)], L.det)
case("det", [rand(2, 3, 4, 4)], L.det)
case("det", [torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)], L.det)
case("det", [torch.zeros(0, 0, dtype=torch.float64)], L.det)
case("slogdet", [rand(4, 4)], lambda a: tuple(L.slogdet(a)))
case("slogdet", [rand(3, 2, 2)], lambda a: tuple(L.slogdet(a)))
# cholesky (lower), eigenvalues, singular values
case("cholesky", [spd(4, 4)], L.cholesky)
case("cholesky", [spd(3, 3, 3)], L.cholesky)
case("eigvalsh", [symmetric(5, 5)], L.eigvalsh)
case("eigvalsh", [symmetric(2, 3, 3)], L.eigvalsh)
case("svdvals", [rand(3, 5)], L.svdvals)
case("svdvals", [rand(2, 4, 3)], L.svdvals)
case("svdvals", [rand(6, 6)], L.svdvals)
# lstsq's solution: overdetermined, a vector right-hand side, underdetermined (minimum norm),
# batched with broadcasting.
lstsq = lambda a, b: L.lstsq(a, b, driver="gelsd").solution  # noqa: E731
case("lstsq", [rand(5, 3), rand(5, 2)], lstsq)
case("lstsq", [rand(5, 3), rand(5)], lstsq)
case("lstsq", [rand(3, 5), rand(3, 2)], lstsq)
case("lstsq", [rand(2, 4, 3), rand(1, 4, 2)], lstsq)

# Norms.
INF = math.inf
x = rand(3, 4)
x[1, 2] = 0.0
for ord_ in [2.0, 1.0, 0.0, INF, -INF, 3.0, 0.5, -1.0]:
    case("vector_norm", [x], lambda a, o=ord_: L.vector_norm(a, o), {"ord": encode(ord_)})
    case("vector_norm", [x], lambda a, o=ord_: L.vector_norm(a, o, dim=1),
         {"ord": encode(ord_), "dim": [1]})
y = rand(2, 3, 4)
case("vector_norm", [y], lambda a: L.vector_norm(a, 2.0, dim=(0, 2), keepdim=True),
     {"ord": 2.0, "dim": [0, 2], "keepdim": True})
for ord_ in ["fro", "nuc", 1.0, -1.0, 2.0, -2.0, INF, -INF]:
    o = ord_ if isinstance(ord_, str) else encode(ord_)
    case("matrix_norm", [x], lambda a, o=ord_: L.matrix_norm(a, o), {"ord": o})
    case("matrix_norm", [y], lambda a, o=ord_: L.matrix_norm(a, o), {"ord": o})
    case("matrix_norm", [y], lambda a, o=ord_: L.matrix_norm(a, o, dim=(2, 0), keepdim=True),
         {"ord": o, "dim": [2, 0], "keepdim": True})
case("norm", [y], L.norm)
case("trace", [rand(3, 4)], torch.trace)

# Error texts (LinAlgError): singular matrices in inv and solve, non-positive-definite ones in
# cholesky; alone and as batch elements.
singular = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
eye2 = torch.eye(2, dtype=torch.float64)
batch = torch.stack([eye2, eye2, singular])
case("inv", [singular], L.inv)
case("inv", [batch], L.inv)
case("solve", [singular, torch.ones(2, dtype=torch.float64)], L.solve)
case("solve", [batch, torch.ones(3, 2, dtype=torch.float64)], L.solve)
case("cholesky", [torch.diag(torch.tensor([1.0, 1.0, -1.0], dtype=torch.float64))], L.cholesky)
case("cholesky", [torch.stack([eye2, -eye2])], L.cholesky)

# Non-finite inputs: NaN propagates through inv, det and slogdet (sign 0); the SVD refuses NaN
# (LinAlgError naming the batch element), as PyTorch.
nan_matrix = torch.tensor([[1.0, math.nan], [3.0, 4.0]], dtype=torch.float64)
case("inv", [nan_matrix], L.inv)
case("det", [nan_matrix], L.det)
case("slogdet", [nan_matrix], lambda a: tuple(L.slogdet(a)))
case("cholesky", [torch.tensor([[1.0, 2.0], [math.nan, 4.0]], dtype=torch.float64)], L.cholesky)
case("svd", [rand(3, 2)], lambda a: L.svd(a).S)
case("svd", [torch.stack([eye2, nan_matrix])], lambda a: L.svd(a).S)

out = DATA_DIR / "linalg_golden.json"
out.write_text(json.dumps({"torch": torch.__version__, "cases": CASES}, indent=None) + "\n")
print(f"wrote {out} ({len(CASES)} cases)")
