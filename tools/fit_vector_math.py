#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fits the float polynomials of the host's own vector kernels (src/backend/host/host_vector_float_kernels.inl)
and prints them as C++ hexadecimal float literals.

Run with NumPy and mpmath (python3 -m venv /tmp/venv-fit && /tmp/venv-fit/bin/pip install numpy
mpmath):  /tmp/venv-fit/bin/python tools/fit_vector_math.py

The tails are near-minimax in the error of the function they complete, relative to its value
(Lawson's iteration on weighted least squares over Chebyshev nodes, references in 40-digit
mpmath), then rounded to float:
- expm1_tail(r) ~ (expm1(r) - r) / r^2 for |r| <= ln2 / 2, degree 4 (exp and tanh);
- log1p_tail(r) ~ (log1p(r) - r) / r^2 for 1 + r in (2/3, 4/3), degree 7 (log);
- sin_tail(s) ~ (sin(r) - r) / r^3 in s = r^2 for |r| <= pi / 2, degree 3 (sin).
The printed error is the worst of the function rebuilt as r + r^k * tail, over the nodes, in
units of 2^-24 of its value (before the float evaluation's own roundings).
"""

import math

import numpy as np
from mpmath import expm1, log1p, mp, mpf, sin

mp.dps = 40
NODES = 3000
ITERATIONS = 200


def fit(function, lo, hi, degree, power=2, in_square=False):
    """Coefficients (lowest first) of tail ~ (f(r) - r) / r^power on [lo, hi], a polynomial in
    r (or in r^2 when in_square), and its error."""
    t = np.cos(np.pi * (np.arange(NODES) + 0.5) / NODES)
    r = (lo + hi) / 2 + (hi - lo) / 2 * t
    r = r[np.abs(r) > 1e-5]  # the tail's 0/0 at r = 0
    exact = [function(mpf(x)) for x in r]
    tail = np.array([float((f - mpf(x)) / mpf(x) ** power) for f, x in zip(exact, r)])
    # An error in the tail changes f by r^power times as much: weigh it relative to f.
    weight = np.abs(r**power / np.array([float(f) for f in exact]))
    powers = np.vander(r * r if in_square else r, degree + 1, increasing=True)
    lawson = np.ones_like(r) / len(r)
    for _ in range(ITERATIONS):
        root = np.sqrt(lawson) * weight
        c, *_ = np.linalg.lstsq(powers * root[:, None], tail * root, rcond=None)
        error = np.abs((powers @ c - tail) * weight)
        lawson = lawson * error
        lawson /= lawson.sum()
    c32 = c.astype(np.float32)
    worst = np.abs((powers @ c32.astype(np.float64) - tail) * weight).max() / 2**-24
    return c32, worst


def literal(x):
    mantissa, exponent = float(x).hex().split("p")
    return f"{mantissa.rstrip('0').rstrip('.')}p{exponent}f"


def main():
    for name, function, lo, hi, degree, power, in_square in (
        ("expm1_tail", expm1, -math.log(2) / 2, math.log(2) / 2, 4, 2, False),
        ("log1p_tail", log1p, 2 / 3 - 1, 4 / 3 - 1, 7, 2, False),
        ("sin_tail", sin, 0, math.pi / 2, 3, 3, True),  # odd: half the interval
    ):
        c, worst = fit(function, lo, hi, degree, power, in_square)
        print(f"{name} (highest first; error {worst:.2f} x 2^-24):")
        print("  " + ", ".join(literal(x) for x in c[::-1]))


if __name__ == "__main__":
    main()
