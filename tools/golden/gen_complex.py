#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Golden cases for tessera's complex numbers (SPEC.md part 4), from PyTorch and mpmath.

Run with PyTorch 2.15 (its virtual environment has mpmath, a dependency of sympy):
    /tmp/venv-torch/bin/python tools/golden/gen_complex.py
Writes tests/data/complex_golden.json; the C++ tests read it, so CI needs neither.

- Pointwise functions of finite values: the exact value (mpmath, 60 digits) rounded to each
  type, which SPEC's accuracy rule (normwise, in units of the type's rounding) is stated against.
- Special values (signed zeros, infinities, NaN, points on the branch cuts): PyTorch's answer
  for each element alone (c10 → std:: → the C library), kept only where PyTorch's vectorised
  kernel over the whole tensor and NumPy (whose complex functions follow C99 Annex G) give the
  same classes of parts (SPEC: "inf/NaN as C99 Annex G where torch's CPU kernels agree"); the
  sign of a zero part is left free.
- Promotion of every pair of dtypes with a complex one, scalars included; printing (str()).
"""
import json
import math
import random

import mpmath
import numpy
import torch

from golden_common import DATA_DIR, encode

mpmath.mp.dps = 60
RNG = random.Random(62)

CTYPES = {"complex64": (torch.complex64, torch.float32), "complex128": (torch.complex128, torch.float64)}

# Function name -> (mpmath reference or None, SPEC tolerance in units of rounding; 0 = exact).
UNARY = {
    "neg": (lambda z: -z, 0),
    "conj": (lambda z: mpmath.conj(z), 0),
    "abs": (lambda z: abs(z), 2),
    "angle": (lambda z: mpmath.arg(z), 2),
    "sgn": (lambda z: z / abs(z) if z != 0 else mpmath.mpc(0), 4),
    "square": (lambda z: z * z, 4),
    "reciprocal": (lambda z: 1 / z, 4),
    "sqrt": (mpmath.sqrt, 32),
    "rsqrt": (lambda z: 1 / mpmath.sqrt(z), 32),
    "exp": (mpmath.exp, 32),
    "exp2": (lambda z: mpmath.power(2, z), 128),
    "expm1": (mpmath.expm1, 32),
    "log": (mpmath.log, 32),
    "log2": (lambda z: mpmath.log(z) / mpmath.log(2), 32),
    "log10": (lambda z: mpmath.log(z) / mpmath.log(10), 32),
    "log1p": (mpmath.log1p, 32),
    "sin": (mpmath.sin, 32),
    "cos": (mpmath.cos, 32),
    "tan": (mpmath.tan, 32),
    "asin": (mpmath.asin, 32),
    "acos": (mpmath.acos, 32),
    "atan": (mpmath.atan, 32),
    "sinh": (mpmath.sinh, 32),
    "cosh": (mpmath.cosh, 32),
    "tanh": (mpmath.tanh, 32),
    "asinh": (mpmath.asinh, 32),
    "acosh": (mpmath.acosh, 32),
    "atanh": (mpmath.atanh, 32),
    "sigmoid": (lambda z: 1 / (1 + mpmath.exp(-z)), 128),
}
TESTS = ["isnan", "isinf", "isfinite", "logical_not"]
BINARY = {
    "add": (lambda a, b: a + b, 0),
    "sub": (lambda a, b: a - b, 0),
    "mul": (lambda a, b: a * b, 4),
    "div": (lambda a, b: a / b, 4),
    "pow": (lambda a, b: mpmath.power(a, b), 32),
}
COMPARES = ["eq", "ne", "logical_and", "logical_or", "logical_xor"]


def finite_values(n=40):
    """Random points of the plane at several scales, and points near 0 and 1 where naive
    formulas cancel (expm1, log1p, log)."""
    out = []
    for _ in range(n):
        out.append(complex(RNG.uniform(-5, 5), RNG.uniform(-5, 5)))
    for scale in (1e-6, 1e-3, 30.0):
        for _ in range(4):
            out.append(complex(RNG.uniform(-1, 1) * scale, RNG.uniform(-1, 1) * scale))
    out += [complex(1 + 1e-5, 2e-5), complex(1e-7, -3e-7), complex(0.75, 0.5), complex(-0.3, 0.9)]
    # As float32 values, so that both dtypes read the same inputs.
    return [complex(float(torch.tensor(z.real, dtype=torch.float32)),
                    float(torch.tensor(z.imag, dtype=torch.float32))) for z in out]


PARTS = [0.0, -0.0, 1.0, -2.0, 0.5, math.inf, -math.inf, math.nan]
CUT_POINTS = [complex(-4, 0.0), complex(-4, -0.0), complex(-2, 0.0), complex(-2, -0.0),
              complex(2, 0.0), complex(2, -0.0), complex(0.5, 0.0), complex(0.5, -0.0),
              complex(0.0, 2), complex(-0.0, 2), complex(0.0, -2), complex(-0.0, -2)]


def special_values():
    return [complex(re, im) for re in PARTS for im in PARTS] + CUT_POINTS


def pack(z):
    return [encode(float(z.real)), encode(float(z.imag))]


def rounded(value, real_dtype):
    """An mpmath number rounded to real_dtype (inf past its range), as a Python complex."""
    def part(x):
        return float(torch.tensor(float(x), dtype=torch.float64).to(real_dtype))
    value = mpmath.mpc(value)
    return complex(part(value.real), part(value.imag))


def torch_fn(name):
    return {"neg": torch.neg, "conj": lambda t: torch.conj(t).resolve_conj()}.get(
        name, getattr(torch, name, None))


def classes(z):
    """The class of each part: nan, +inf, -inf, or finite."""
    def c(x):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return "finite"
    return (c(z.real), c(z.imag))


def elementwise_agree(vector, scalar):
    return classes(vector) == classes(scalar) and (
        classes(scalar) != ("finite", "finite")
        or abs(vector - scalar) <= 1e-5 * max(abs(scalar), 1e-300))


NUMPY = {"neg": numpy.negative, "conj": numpy.conj, "abs": numpy.abs, "angle": numpy.angle,
         "sgn": numpy.sign, "square": numpy.square, "reciprocal": numpy.reciprocal,
         "sqrt": numpy.sqrt, "rsqrt": lambda z: 1 / numpy.sqrt(z), "exp": numpy.exp,
         "exp2": numpy.exp2, "expm1": numpy.expm1, "log": numpy.log, "log2": numpy.log2,
         "log10": numpy.log10, "log1p": numpy.log1p, "sin": numpy.sin, "cos": numpy.cos,
         "tan": numpy.tan, "asin": numpy.arcsin, "acos": numpy.arccos, "atan": numpy.arctan,
         "sinh": numpy.sinh, "cosh": numpy.cosh, "tanh": numpy.tanh, "asinh": numpy.arcsinh,
         "acosh": numpy.arccosh, "atanh": numpy.arctanh,
         "sigmoid": lambda z: 1 / (1 + numpy.exp(-z)), "div": numpy.divide,
         "mul": numpy.multiply, "pow": numpy.power}


def numpy_value(name, *args):
    with numpy.errstate(all="ignore"):
        return complex(NUMPY[name](*[numpy.complex128(a) for a in args]))


def unary_cases():
    cases = []
    finite = finite_values()
    specials = special_values()
    for name, (ref, tol) in UNARY.items():
        fn = torch_fn(name)
        for dtype, (ctype, rtype) in CTYPES.items():
            # Finite values: the exact answer rounded to the type.
            ins, outs = [], []
            for z in finite:
                with mpmath.workdps(60):
                    try:
                        w = ref(mpmath.mpc(z.real, z.imag))
                    except (ZeroDivisionError, ValueError):
                        continue
                ins.append(z)
                outs.append(rounded(w, rtype))
            real_out = name in ("abs", "angle")
            cases.append({"fn": name, "dtype": dtype, "ref": "exact", "tol": tol,
                          "in": [pack(z) for z in ins],
                          "out": [encode(float(w.real)) if real_out else pack(w) for w in outs]})
            # Special values: torch element by element, where its vector kernel agrees.
            t = torch.tensor(specials, dtype=ctype)
            vec = fn(t)
            ins, outs = [], []
            for i, z in enumerate(specials):
                one = fn(t[i:i + 1]).item()
                many = vec[i].item()
                if real_out:
                    one, many = complex(one, 0), complex(many, 0)
                if elementwise_agree(complex(many), complex(one)) and (
                        classes(complex(one)) == classes(numpy_value(name, z))):
                    ins.append(z)
                    outs.append(complex(one))
            cases.append({"fn": name, "dtype": dtype, "ref": "torch", "tol": max(tol, 4),
                          "in": [pack(z) for z in ins],
                          "out": [encode(float(w.real)) if real_out else pack(w) for w in outs]})
    for name in TESTS:
        for dtype, (ctype, _) in CTYPES.items():
            values = specials + finite
            t = torch.tensor(values, dtype=ctype)
            cases.append({"fn": name, "dtype": dtype, "ref": "torch", "tol": 0,
                          "in": [pack(z) for z in values],
                          "out": [bool(v) for v in getattr(torch, name)(t).tolist()]})
    return cases


def binary_cases():
    cases = []
    finite = finite_values(24)
    pairs = [(a, b) for a in finite[:16] for b in finite[:16:3]]
    zero_pairs = [(complex(1, 0), 0j), (0j, 0j), (complex(1, 1), 0j), (1j, 0j),
                  (complex(-3, 2), complex(-0.0, 0.0)), (complex(math.inf, math.inf), complex(1, 0)),
                  (complex(math.inf, 1), complex(2, 3)), (complex(1, 2), complex(math.inf, 0))]
    # (z^0 = 1 for every z, NaN and 0 included, is torch's scalar-exponent rule: scalar_pow.)
    pow_specials = [(0j, complex(-1, 0)), (0j, 1j), (complex(2, 3), 0j),
                    (complex(-8, 0.0), complex(1 / 3, 0)), (complex(-8, -0.0), complex(1 / 3, 0))]
    for name, (ref, tol) in BINARY.items():
        for dtype, (ctype, rtype) in CTYPES.items():
            a_in, b_in, outs = [], [], []
            for a, b in pairs:
                with mpmath.workdps(60):
                    w = ref(mpmath.mpc(a.real, a.imag), mpmath.mpc(b.real, b.imag))
                a_in.append(a)
                b_in.append(b)
                outs.append(rounded(w, rtype))
            cases.append({"fn": name, "dtype": dtype, "ref": "exact", "tol": tol,
                          "a": [pack(z) for z in a_in], "b": [pack(z) for z in b_in],
                          "out": [pack(w) for w in outs]})
            extra = zero_pairs if name in ("div", "mul") else pow_specials if name == "pow" else []
            if extra:
                ta = torch.tensor([a for a, _ in extra], dtype=ctype)
                tb = torch.tensor([b for _, b in extra], dtype=ctype)
                got = getattr(torch, name)(ta, tb)
                one = [getattr(torch, name)(ta[i:i + 1], tb[i:i + 1])[0].item() for i in range(len(extra))]
                keep = [i for i in range(len(extra)) if elementwise_agree(complex(got[i].item()), complex(one[i]))]
                cases.append({"fn": name, "dtype": dtype, "ref": "torch", "tol": max(tol, 4),
                              "a": [pack(extra[i][0]) for i in keep], "b": [pack(extra[i][1]) for i in keep],
                              "out": [pack(complex(one[i])) for i in keep]})
    values = special_values()[:20] + finite[:6]
    for name in COMPARES:
        for dtype, (ctype, _) in CTYPES.items():
            a = torch.tensor(values, dtype=ctype)
            b = torch.tensor(values[::-1], dtype=ctype)
            b[::3] = a[::3]  # equal pairs too
            cases.append({"fn": name, "dtype": dtype, "ref": "torch", "tol": 0,
                          "a": [pack(z) for z in a.tolist()], "b": [pack(z) for z in b.tolist()],
                          "out": [bool(v) for v in getattr(torch, name)(a, b).tolist()]})
    return cases


def scalar_pow_cases():
    """torch.pow(z, scalar): its exact cases (0, 1, 2, 3, 0.5, -0.5, -1, -2) and a general one."""
    cases = []
    values = finite_values(12) + [0j, complex(math.nan, 1), complex(-0.0, 0.0)]
    for dtype, (ctype, _) in CTYPES.items():
        t = torch.tensor(values, dtype=ctype)
        for e in (0.0, 1.0, 2.0, 3.0, 0.5, -0.5, -1.0, -2.0, 2.5):
            cases.append({"dtype": dtype, "exponent": e, "in": [pack(z) for z in values],
                          "out": [pack(z) for z in torch.pow(t, e).tolist()]})
    return cases


DTYPES = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
          "int32": torch.int32, "int64": torch.int64, "float32": torch.float32,
          "float64": torch.float64, "complex64": torch.complex64, "complex128": torch.complex128}
NAME = {v: k for k, v in DTYPES.items()}


def promotion_cases():
    pairs = []
    for a, ta in DTYPES.items():
        for b, tb in DTYPES.items():
            if ta.is_complex or tb.is_complex:
                pairs.append({"a": a, "b": b, "out": NAME[torch.promote_types(ta, tb)]})
    scalars = []
    for a, ta in DTYPES.items():
        x = torch.ones(2, dtype=ta)
        for s_name, s in (("complex", complex(1, 2)), ("double", 2.5), ("int", 2)):
            scalars.append({"tensor": a, "scalar": s_name, "out": NAME[(x * s).dtype]})
    return pairs, scalars


def format_cases():
    c64, c128 = torch.complex64, torch.complex128
    tensors = [
        torch.tensor([[1 + 2j, 3 - 1j], [1j, -2]], dtype=c64),
        torch.tensor([1e10 + 1j, 2 + 3j], dtype=c64),
        torch.tensor([0.5 - 0.25j, -1.125 + 0j], dtype=c128),
        torch.tensor([complex(0.0, -0.0), complex(math.inf, 1), complex(1, math.nan)], dtype=c64),
        torch.tensor([1e-5 + 1j, 123.456 - 7e-3j], dtype=c64),
        torch.tensor([], dtype=c64),
        torch.tensor(2 - 3j, dtype=c128),
        torch.complex(torch.arange(12.0).reshape(3, 4), -torch.arange(12.0).reshape(3, 4)),
    ]
    out = []
    for t in tensors:
        out.append({"dtype": NAME[t.dtype], "shape": list(t.shape),
                    "data": [pack(z) for z in t.flatten().tolist()], "str": str(t)})
    return out


def reduction_cases():
    """sum, mean, prod, cumsum, cumprod over a dim (or all), each against the exact answer of
    the same float32 inputs (complex128 arithmetic in NumPy on values of at most 2^-24
    relative rounding: far inside the test's bound), and torch's answer for the dtype."""
    cases = []
    gen = torch.Generator().manual_seed(621)
    x = torch.complex(torch.randn(3, 5, 4, generator=gen), torch.randn(3, 5, 4, generator=gen))
    small = torch.complex(torch.rand(2, 6, generator=gen) + 0.5, torch.rand(2, 6, generator=gen) - 0.5)
    for dtype, (ctype, _) in CTYPES.items():
        for name, t in (("x", x), ("small", small)):
            t = t.to(ctype)
            exact = t.to(torch.complex128)
            for fn in ("sum", "mean", "prod", "cumsum", "cumprod"):
                if fn == "prod" and name == "x":
                    continue  # products of 60 normal values: a range test, not an accuracy one
                for dim in ([None] if fn in ("sum", "mean", "prod") else []) + [0, 1, -1]:
                    args = () if dim is None else (dim,)
                    got = getattr(torch, fn)(exact, *args)
                    cases.append({"fn": fn, "dtype": dtype, "dim": dim, "shape": list(t.shape),
                                  "in": [pack(z) for z in t.flatten().tolist()],
                                  "out_shape": list(got.shape),
                                  "out": [pack(z) for z in got.flatten().tolist()]})
    # Empty: sum 0, prod 1, mean nan+nanj (torch).
    e = torch.zeros(0, dtype=torch.complex64)
    cases.append({"fn": "empty", "sum": pack(torch.sum(e).item()), "prod": pack(torch.prod(e).item()),
                  "mean": pack(torch.mean(e).item())})
    return cases


def main():
    pairs, scalars = promotion_cases()
    data = {"unary": unary_cases(), "binary": binary_cases(), "scalar_pow": scalar_pow_cases(),
            "promotion": pairs, "scalar_promotion": scalars, "format": format_cases(),
            "reductions": reduction_cases()}
    with open(DATA_DIR / "complex_golden.json", "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
