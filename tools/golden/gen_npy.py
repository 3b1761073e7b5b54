#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the .npy fixtures of tests/test_npy.cpp into tests/data/npy/, with NumPy's own
np.save, plus manifest.json: for each file, the dtype, shape and row-major values NumPy holds
(read back with np.load), so the test compares tessera's load_npy with NumPy, not with itself.

Run with any Python that has NumPy (e.g. `python3 -m venv /tmp/np && /tmp/np/bin/pip install
numpy`):

    python3 tools/golden/gen_npy.py

The files are a few hundred bytes each: one 2x3 array per dtype (extremes of the type among the
values), a 0-d array, an empty one, a rank-3 one, a Fortran-ordered (column-major) one, a
big-endian one, a float64 file of format version 3.0 and an int32 one of version 2.0 (written
with np.lib.format.write_array, since np.save picks the oldest version that fits), and a float64
file cut short (truncated) for the error tests.
"""

import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "npy")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64"]


def values_2x3(dtype):
    if dtype == "bool":
        return np.array([[True, False, True], [False, False, True]])
    info = np.finfo(dtype) if dtype.startswith("float") else np.iinfo(dtype)
    if dtype.startswith("float"):
        data = [[info.min, -1.5, 0.0], [0.25, 1e-3, info.max]]
    else:
        data = [[info.min, 0, 1], [2, int(info.max) // 3, info.max]]
    return np.array(data, dtype=dtype)


def json_value(x):
    if isinstance(x, complex):
        return [json_value(x.real), json_value(x.imag)]
    if isinstance(x, float) and not np.isfinite(x):
        return "nan" if np.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


def main():
    os.makedirs(OUT, exist_ok=True)
    arrays = {f"{d}_2x3": values_2x3(d) for d in DTYPES}
    # Complex: '<c8' / '<c16', real part first; infinite and NaN parts.
    arrays["complex64_2x3"] = np.array([[1 + 2j, -0.5j, np.inf], [complex(0, np.nan), 3e38 - 1j, 0]],
                                       dtype=np.complex64)
    arrays["complex128_2x3"] = np.array([[1e300 + 2j, -0.5j, 0.1 + 0.2j], [complex(-np.inf, 1), 7, -1j]],
                                        dtype=np.complex128)
    arrays["float64_scalar"] = np.array(2.5)
    arrays["int32_empty_0x4"] = np.zeros((0, 4), dtype=np.int32)
    arrays["int16_rank3"] = np.arange(24, dtype=np.int16).reshape(2, 3, 4) - 7
    arrays["float32_fortran"] = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    arrays["float64_bigendian"] = np.arange(4, dtype=">f8")
    # Written with an explicit format version (np.save uses 1.0 whenever the header fits).
    versions = {"float64_v3": (3, 0), "int32_v2": (2, 0)}
    arrays["float64_v3"] = np.array([[1.5, -2.0, np.inf], [0.0, -0.0, 1e300]])
    arrays["int32_v2"] = np.asfortranarray(np.arange(12, dtype=np.int32).reshape(3, 4) - 5)
    manifest = {}
    for name, a in arrays.items():
        path = os.path.join(OUT, name + ".npy")
        if name in versions:
            with open(path, "wb") as f:
                np.lib.format.write_array(f, a, version=versions[name])
        else:
            np.save(path, a)
        back = np.load(path)  # what NumPy reads from the file it wrote
        manifest[name] = {
            "dtype": back.dtype.name,
            "descr": back.dtype.str,
            "shape": list(back.shape),
            "fortran_order": bool(back.flags.f_contiguous and not back.flags.c_contiguous),
            "values": [json_value(v) for v in back.ravel(order="C").tolist()],
        }
    # A float64 file with the last 5 bytes of its data missing.
    full = os.path.join(OUT, "float64_2x3.npy")
    with open(full, "rb") as f:
        data = f.read()
    with open(os.path.join(OUT, "float64_truncated.npy"), "wb") as f:
        f.write(data[:-5])
    manifest["float64_truncated"] = {"truncated_from": "float64_2x3", "bytes": len(data) - 5}
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"numpy": np.__version__, "files": manifest}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
