#!/usr/bin/env python3
"""Writes docs/support-matrix.md (operation x backend x dtype) from the instantiation lists in
the sources, so the page cannot drift from what the library compiles. Python 3 stdlib only.

Each cell comes from code: the CUDA column from the TESSERA_FOR_EACH_* list that the backend's
.cu file instantiates its kernels over; the host column from the list the host backend
instantiates (src/backend/host/*.cpp), or, for header-only host kernels, from the dtype list of
the public header together with the static_asserts that narrow it (recorded below with the
text they are checked against). The lists themselves are parsed from include/tessera.

    python3 tools/support_matrix.py           # rewrite docs/support-matrix.md
    python3 tools/support_matrix.py --check   # exit 1 when the page is out of date (CI)
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "support-matrix.md")
DTYPES = ["bool", "uint8_t", "int8_t", "int16_t", "int32_t", "int64_t", "float", "double"]
TORCH = {"bool": "bool", "uint8_t": "uint8", "int8_t": "int8", "int16_t": "int16",
         "int32_t": "int32", "int64_t": "int64", "float": "float32", "double": "float64"}


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def macro_body(rel, name):
    """The body of `#define name(...)`, continuation lines joined."""
    text = read(rel).replace("\\\n", " ")
    m = re.search(rf"#define {name}\([^)]*\)(.*)", text)
    if not m:
        sys.exit(f"support_matrix.py: no #define {name} in {rel}")
    return m[1]


def list_types(name):
    """Element types a TESSERA_FOR_EACH_* list expands to (first argument of each X(...))."""
    where = {"TESSERA_FOR_EACH_RAGGED_RANGE_TYPE": "include/tessera/ragged/range.hpp"}
    body = macro_body(where.get(name, "include/tessera/core/dtype.hpp"), name)
    types = []
    for args in re.findall(r"X\(([^)]*)\)", body):
        t = args.split(",")[1 if name.endswith("_WITH") else 0].strip().replace("std::", "")
        if t not in types:
            types.append(t)
    return types


def instantiated(rel, instantiation_macro):
    """Types of `TESSERA_FOR_EACH_<LIST>(instantiation_macro)` in a source file."""
    m = re.search(rf"(TESSERA_FOR_EACH_\w+)\(\s*{instantiation_macro}\s*(?:,[^)]*)?\)", read(rel))
    if not m:
        sys.exit(f"support_matrix.py: {rel} does not instantiate {instantiation_macro}")
    return list_types(m[1]), f"`{m[1]}` in `{rel}`"


def header_only(header, list_name, excluded=(), assert_text=None):
    """A header-only host kernel: the list minus types a static_assert in `header` refuses."""
    if assert_text and assert_text not in read(header):
        sys.exit(f"support_matrix.py: {header} no longer has the static_assert '{assert_text}'")
    types = [t for t in list_types(list_name) if t not in excluded]
    why = f"`{list_name}`" + (f" minus {', '.join(excluded)} (static_assert)" if excluded else "")
    return types, f"header template, {why}, `{header}`"


# (operation, docs page, host (types, source), cuda (types, source), note)
def rows():
    return [
        ("expressions: arithmetic, comparisons, `where`, math, casts, `sum`/`min`/`max`",
         "expressions.md",
         header_only("include/tessera/tensor.hpp", "TESSERA_FOR_EACH_DTYPE"),
         instantiated("src/backend/device/elementwise.cu", "TESSERA_INSTANTIATE_NODES"),
         "device-compiled callers fuse the whole expression into one device algorithm for any "
         "dtype; host-compiled callers use the precompiled per-dtype node kernels listed here"),
        ("`nonzero`, `argwhere`, `count_nonzero`, `nonzero_static`", "ops/nonzero.md",
         header_only("include/tessera/ops/nonzero.hpp", "TESSERA_FOR_EACH_DTYPE"),
         instantiated("src/backend/device/nonzero.cu", "TESSERA_INSTANTIATE_NONZERO"), ""),
        ("`searchsorted`, `bucketize`", "ops/searchsorted.md",
         header_only("include/tessera/ops/searchsorted.hpp", "TESSERA_FOR_EACH_DTYPE", ("bool",),
                     "!std::is_same_v<S, bool> && !std::is_same_v<V, bool>"),
         instantiated("src/backend/device/searchsorted.cu", "TESSERA_INSTANTIATE_SEARCHSORTED_CUDA"),
         "results int64 or int32"),
        ("`tensor_scatter_nd_{sub,add,update,min,max}` and `scatter_nd_*_`", "ops/scatter.md",
         instantiated("src/backend/host/scatter.cpp", "TESSERA_INSTANTIATE_SCATTER_HOST"),
         instantiated("src/backend/device/scatter.cu", "TESSERA_INSTANTIATE_SCATTER_CUDA"),
         "bool takes `update` only (static_assert); indices int32 or int64"),
        ("`ragged::range`", "ops/ragged.md",
         instantiated("src/backend/host/ragged_range.cpp", "TESSERA_INSTANTIATE_RANGE_HOST"),
         instantiated("src/backend/device/ragged.cu", "TESSERA_INSTANTIATE_RANGE_DEVICE"),
         "row splits int32 or int64"),
        ("`RaggedTensor::to_tensor`", "ops/ragged.md",
         header_only("include/tessera/ragged/ragged_tensor.hpp", "TESSERA_FOR_EACH_DTYPE"),
         instantiated("src/backend/device/ragged.cu", "TESSERA_INSTANTIATE_TO_TENSOR_DEVICE"),
         "row splits int32 or int64"),
    ]


def page():
    table = rows()
    out = ["# Support matrix: operation × backend × dtype", "",
           "Generated by `tools/support_matrix.py` from the instantiation lists in the sources "
           "(CI checks it is current with `--check`). **H** = host backend (Thrust's OpenMP "
           "system by default, or TBB / serial C++ with `TESSERA_HOST_SYSTEM`), **C** = CUDA "
           "device backend (`cuda:N` tensors), **–** = does not compile (a `static_assert` names "
           "the reason). The device backend's kernels are Thrust algorithms: CI compiles them "
           "with nvcc for sm_90 and runs every one of them on the emulated device "
           "(`TESSERA_CUDA=EMULATED`, Thrust's OpenMP system); they have not yet been run on a "
           "GPU ([gpu.md](gpu.md) is the one-command check for a GPU machine).", ""]
    header = ["operation"] + [f"{t} ({TORCH[t]})" for t in DTYPES] + ["notes"]
    out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for op, doc, (host, _), (cuda, _), note in table:
        cells = [f"[{op}]({doc})"]
        for t in DTYPES:
            marks = ("H" if t in host else "") + (" C" if t in cuda else "")
            cells.append(marks.strip() or "–")
        cells.append(note)
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "Where each cell comes from:", ""]
    for op, _, (_, host_src), (_, cuda_src), _ in table:
        out.append(f"- {op}: host {host_src}; CUDA {cuda_src}.")
    out += ["", "Every operation takes tensors of any layout (strided views, transposes) and, "
            "where it reads elements, lazy expressions; the dtype of an expression is its "
            "value type after PyTorch's promotion ([expressions.md](expressions.md)).", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="fail when docs/support-matrix.md differs from the sources")
    args = parser.parse_args()
    text = page()
    if args.check:
        current = open(PAGE, encoding="utf-8").read() if os.path.exists(PAGE) else ""
        if current != text:
            print("docs/support-matrix.md is out of date: run python3 tools/support_matrix.py",
                  file=sys.stderr)
            return 1
        print("support_matrix: docs/support-matrix.md is current")
        return 0
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(PAGE, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
