#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's nonzero family, produced by PyTorch itself.

Run with Debian's interpreter (python3-torch):  /usr/bin/python3 tools/golden/gen_nonzero.py
Writes tests/data/nonzero_golden.json; the C++ tests read it, so CI needs no torch.
"""
import json
import math

import torch

from golden_common import DATA_DIR, encode

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float32": torch.float32,
    "float64": torch.float64,
}
SHAPES = [(), (12,), (6, 2), (3, 2, 2), (5, 5, 5), (5, 0, 5)]
DENSITIES = [0.0, 0.3, 1.0]


def sample(gen, shape, dtype, density):
    n = math.prod(shape)
    keep = torch.rand(n, generator=gen) < density
    if dtype == torch.bool:
        values = keep.clone()
    elif dtype.is_floating_point:
        values = (torch.rand(n, generator=gen, dtype=torch.float64) * 20 - 10).to(dtype)
        values[values == 0] = 1.5
        special = torch.rand(n, generator=gen)
        # NaN must count as nonzero and -0.0 as zero: plant both among kept / dropped slots.
        values[(special < 0.15) & keep] = float("nan")
        values[(special > 0.9) & keep] = float("inf")
        values = torch.where(keep, values, torch.zeros_like(values))
        values[(special < 0.3) & ~keep] = -0.0
    else:
        low = 1 if dtype == torch.uint8 else -9
        values = torch.randint(low, 10, (n,), generator=gen, dtype=torch.int64)
        values[values == 0] = 7
        values = torch.where(keep, values, torch.zeros_like(values)).to(dtype)
    return values.reshape(shape)


def main():
    gen = torch.Generator().manual_seed(20261130)
    cases = []
    for name, dtype in DTYPES.items():
        for shape in SHAPES:
            for density in DENSITIES:
                x = sample(gen, shape, dtype, density)
                nz = torch.nonzero(x)
                tup = torch.nonzero(x, as_tuple=True)
                cases.append({
                    "dtype": name,
                    "shape": list(shape),
                    "density": density,
                    "values": [encode(v) for v in x.reshape(-1).tolist()],
                    "expected_shape": list(nz.shape),
                    "expected": nz.reshape(-1).tolist(),
                    "tuple_count": len(tup),
                    "tuple": [t.tolist() for t in tup],
                    "count": int(torch.count_nonzero(x)),
                })
    out = DATA_DIR / "nonzero_golden.json"
    out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, separators=(",", ":")))
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
