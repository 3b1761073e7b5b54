# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the golden generators: how values are written into tests/data/*.json."""
import math
import pathlib

DATA_DIR = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


def encode(x):
    """A JSON-safe value: non-finite floats and -0.0 as the strings the C++ tests decode."""
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x == 0.0 and math.copysign(1.0, x) < 0:
            return "-0"
    return x
