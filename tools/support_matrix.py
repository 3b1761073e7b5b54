#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
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
CDTYPES = ["complex<float>", "complex<double>"]
COLUMNS = DTYPES + CDTYPES
TORCH = {"bool": "bool", "uint8_t": "uint8", "int8_t": "int8", "int16_t": "int16",
         "int32_t": "int32", "int64_t": "int64", "float": "float32", "double": "float64",
         "complex<float>": "complex64", "complex<double>": "complex128"}


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
    for inner in re.findall(r"TESSERA_FOR_EACH_\w+(?=\(X\))", body):  # a list of lists
        types += [t for t in list_types(inner) if t not in types]
    for args in re.findall(r"X\(([^)]*)\)", body):
        if not args.strip() or args.strip() == "X":
            continue
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


TABLE = "include/tessera/expr/pointwise_table.hpp"
# Which dtypes each kind of the pointwise table accepts (kind_types<...>::accepts) and what it
# returns; tests/test_pointwise_golden.cpp checks the same facts against the compiler.
KINDS = {
    "Same": (DTYPES, "T"),
    "Numeric": (DTYPES[1:], "T"),
    "Floating": (DTYPES, "T; float32 for bool and integers"),
    "Division": (DTYPES, "T; float32 for two bools"),
    "Squaring": (DTYPES, "T; int64 for bool"),
    "Test": (DTYPES, "bool"),
    "Integral": (DTYPES[:6], "T"),
    "Integer": (DTYPES[1:6], "T"),
    "Magnitude": (DTYPES, "T; the part type for complex (float32 for complex64)"),
    "Argument": (DTYPES, "float32 for bool and integers; the part type for complex"),
}


def complex_rows():
    """The rows with a complex form (TESSERA_COMPLEX_ROWS), by their functor's name."""
    return set(re.findall(r"X\((\w+)\)", macro_body(TABLE, "TESSERA_COMPLEX_ROWS")))


def pointwise_functions():
    """(table, name, kind, doc) for every row of the pointwise table, in order."""
    out = []
    for table in ("TESSERA_UNARY_FUNCTIONS", "TESSERA_BINARY_FUNCTIONS"):
        body = macro_body(TABLE, table)
        for op, name, kind, doc in re.findall(r'X\((\w+), (\w+), (\w+), "([^"]*)"', body):
            if kind not in KINDS:
                sys.exit(f"support_matrix.py: unknown kind {kind} of {name} in {TABLE}")
            accepted = KINDS[kind][0] + (CDTYPES if op in complex_rows() else [])
            out.append(("unary" if "UNARY" in table else "binary", name, kind, doc, accepted))
    return out


def pointwise_rows():
    """One support-matrix row per pointwise function (host and node kernels share the kind)."""
    nodes = instantiated("src/backend/device/elementwise.cu", "TESSERA_INSTANTIATE_NODES")[0]
    nodes += instantiated("src/backend/device/elementwise.cu",
                          "TESSERA_INSTANTIATE_COMPLEX_NODES")[0]
    out = []
    for arity, name, kind, _, accepted in pointwise_functions():
        src = f"`{TABLE}` row (kind {kind}" + (", complex form" if CDTYPES[0] in accepted else "") + ")"
        call = f"`ts::{name}(a)`" if arity == "unary" else f"`ts::{name}(a, b)`"
        out.append((call, "expressions.md#vocabulary", (accepted, src),
                    ([t for t in accepted if t in nodes], src), ""))
    return out


REDUCE_CU = "src/backend/device/reduce.cu"


def reduction_rows():
    """Reductions over dims and scans: which ops reduce.cu instantiates for floats only."""
    text = read(REDUCE_CU)
    floats_only = [n for n in re.findall(r"TESSERA_INSTANTIATE_REDUCE_FLOATS\((\w+)\)", text)
                   if n != "ID"]  # the macro's own definition
    numbers = [n for n in re.findall(r"TESSERA_INSTANTIATE_REDUCE_NUMBERS\((\w+)\)", text)
               if n != "ID"]
    logical = re.findall(r"TESSERA_INSTANTIATE_REDUCE\((\w+), bool\)", text)
    if not floats_only or not numbers or not logical:
        sys.exit(f"support_matrix.py: {REDUCE_CU} no longer has its instantiation lists")
    src = f"header template, `TESSERA_FOR_EACH_DTYPE`, `include/tessera/expr/reduce_dims.hpp`"
    cuda = (f"`{REDUCE_CU}`: {', '.join(numbers)} over int64 / float / double (bool and "
            f"integers converted to int64), {', '.join(logical)} over bool")
    cuda_f = f"`{REDUCE_CU}`: {', '.join(floats_only)} over float / double"
    return [
        ("reductions over dims and scans: `sum`, `nansum`, `prod`, `amax`, `amin`, `any`, "
         "`all`, `count_nonzero`, `argmax`, `argmin`, `max`, `min`, `cumsum`, `cumprod`, "
         "`cummax`, `cummin`", "reductions.md", (DTYPES, src), (DTYPES, cuda),
         "sum, nansum, prod, cumsum, cumprod of bool and integers give int64 (nansum of them "
         "is their sum)"),
        ("`mean`, `nanmean`, `nansum` of floats, `var`, `std`, `logsumexp`", "reductions.md",
         (["float", "double"], src + " (static_assert: floating input)"),
         (["float", "double"], cuda_f), ""),
        ("complex reductions and scans: `sum`, `mean`, `prod`, `cumsum`, `cumprod`",
         "complex.md#reductions-and-norms",
         (CDTYPES, "header template, `TESSERA_FOR_EACH_COMPLEX_DTYPE`, "
                   "`include/tessera/expr/reduce_dims.hpp`"),
         instantiated(REDUCE_CU, "TESSERA_INSTANTIATE_REDUCE_COMPLEX"),
         "complex128 accumulators; the ordering reductions do not compile for complex"),
    ]


def vocabulary():
    """The markdown vocabulary table of docs/expressions.md, from the pointwise table."""
    lines = ["| function | PyTorch | computes | dtypes | result |", "|---|---|---|---|---|"]
    for arity, name, kind, doc, accepted in pointwise_functions():
        call = f"`ts::{name}(a)`" if arity == "unary" else f"`ts::{name}(a, b)`"
        dtypes = ("all" if accepted == COLUMNS else "all real" if accepted == DTYPES
                  else ", ".join(TORCH[t] for t in accepted))
        doc = doc.replace("|", "\\|")  # a cell of a markdown table
        lines.append(f"| {call} | `torch.{name}` | {doc} | {dtypes} | {KINDS[kind][1]} |")
    return "\n".join(lines)


VOCAB_BEGIN = "<!-- pointwise-table:begin (generated by tools/support_matrix.py) -->"
VOCAB_END = "<!-- pointwise-table:end -->"
EXPRESSIONS = os.path.join(ROOT, "docs", "expressions.md")


def expressions_page(current):
    """docs/expressions.md with its generated vocabulary block replaced."""
    begin, end = current.find(VOCAB_BEGIN), current.find(VOCAB_END)
    if begin < 0 or end < begin:
        sys.exit("support_matrix.py: docs/expressions.md lacks the pointwise-table markers")
    return current[:begin + len(VOCAB_BEGIN)] + "\n" + vocabulary() + "\n" + current[end:]


# (operation, docs page, host (types, source), cuda (types, source), note)
def segment_rows():
    """Ragged and unsorted segment reductions: TESSERA_FOR_EACH_SEGMENT_REDUCTION's numbers and
    bool (include/tessera/expr/segment_ops.hpp), instantiated in the files named."""
    lists = "include/tessera/expr/segment_ops.hpp"
    for rel, macro in [("src/backend/host/ragged_reduce.cpp", "TESSERA_FOR_EACH_SEGMENT_REDUCTION"),
                       ("src/backend/device/ragged.cu", "TESSERA_FOR_EACH_SEGMENT_REDUCTION"),
                       ("src/backend/host/segment_scatter.cpp", "TESSERA_FOR_EACH_SEGMENT_COMBINE"),
                       ("src/backend/device/scatter.cu", "TESSERA_FOR_EACH_SEGMENT_COMBINE")]:
        if not re.search(rf"{macro}\(\w+\)", read(rel)):
            sys.exit(f"support_matrix.py: {rel} does not instantiate {macro}")
    body = macro_body(lists, "TESSERA_FOR_EACH_SEGMENT_REDUCTION")
    numbers = list_types("TESSERA_FOR_EACH_NUMERIC_DTYPE_WITH")
    logical = ["bool"] if "X(Any, bool)" in body else []
    where = (f"`TESSERA_FOR_EACH_SEGMENT_REDUCTION` (`{lists}`: "
             "`TESSERA_FOR_EACH_NUMERIC_DTYPE_WITH`)")
    combine = "`TESSERA_FOR_EACH_SEGMENT_COMBINE` (the same numbers)"
    select = header_only("include/tessera/ragged/ragged_tensor.hpp", "TESSERA_FOR_EACH_DTYPE")
    return [
        ("`ragged::reduce_sum`, `reduce_prod`, `reduce_max`, `reduce_min`, `reduce_mean`",
         "ops/ragged.md", (numbers, f"{where} in `src/backend/host/ragged_reduce.cpp`"),
         (numbers, f"{where} in `src/backend/device/ragged.cu`"),
         "sum and prod keep T; mean of int32/int64 gives float64, of smaller integers float32"),
        ("`ragged::reduce_any`, `reduce_all`", "ops/ragged.md",
         (logical, f"{where} in `src/backend/host/ragged_reduce.cpp`"),
         (logical, f"{where} in `src/backend/device/ragged.cu`"), ""),
        ("`unsorted_segment_{sum,prod,max,min,mean}`", "ops/ragged.md",
         (numbers, f"{combine} in `src/backend/host/segment_scatter.cpp`"),
         (numbers, f"{combine} in `src/backend/device/scatter.cu`"),
         "ids int32 or int64; mean as ragged::reduce_mean"),
        ("`RaggedTensor::gather`, `RaggedTensor::from_tensor`, `ragged::boolean_mask`",
         "ops/ragged.md", (select[0], "`TESSERA_FOR_EACH_DTYPE` in `src/core/ragged_select.cpp`"),
         (select[0], "`src/core/ragged_select.cpp` on the gather kernel"),
         "values gathered on the tensors' device; from_tensor(padding) finds the lengths on "
         "the host"),
    ]


LINALG_CPP = "src/linalg/decompositions.cpp"
LINALG_ASSERT = "tessera: ts::linalg decompositions, solvers and norms need a float or double"


def linalg_decomposition_rows():
    """Decompositions, solvers and norms: the dtypes src/linalg/decompositions.cpp instantiates
    (one TESSERA_INSTANTIATE_LINALG(T) line each); the norms are header templates that the
    static_assert of linalg/decompositions.hpp narrows to the same two."""
    text = read(LINALG_CPP)
    types = [t for t in re.findall(r"^TESSERA_INSTANTIATE_LINALG\((\w+)\)", text, re.M)]
    if not types:
        sys.exit(f"support_matrix.py: {LINALG_CPP} no longer instantiates TESSERA_INSTANTIATE_LINALG")
    solvers = "src/linalg/solvers.cpp"
    if "TESSERA_INSTANTIATE_LINALG_SOLVERS(float)" not in read(solvers):
        sys.exit(f"support_matrix.py: {solvers} no longer instantiates the solvers for float")
    pipeline = "src/linalg/solver_pipeline.cpp"
    pipeline_types = re.findall(r"^TESSERA_INSTANTIATE_SOLVER_PIPELINE\((\w+)\)", read(pipeline),
                                re.M)
    if pipeline_types != types:
        sys.exit(f"support_matrix.py: {pipeline} instantiates {pipeline_types}, the ops {types}")
    src = (f"`TESSERA_INSTANTIATE_LINALG` in `{LINALG_CPP}` and `{solvers}` on the solver "
           f"pipeline (`{pipeline}`): the host's LAPACK")
    device_src = (f"the same instantiations: the solver pipeline's `device_runtime::lapack` "
                  "(cuSOLVER; the host's LAPACK on the emulated device)")
    header = "include/tessera/linalg/decompositions.hpp"
    if LINALG_ASSERT not in read(header):
        sys.exit(f"support_matrix.py: {header} no longer has the static_assert '{LINALG_ASSERT}'")
    norms = (["float", "double"], "header template, `include/tessera/linalg/norms.hpp` "
             "(static_assert: float or double) on the reduction engine")
    trace = header_only("include/tessera/linalg/norms.hpp", "TESSERA_FOR_EACH_DTYPE")
    return [
        ("`linalg::solve`, `inv`, `det`, `slogdet`, `cholesky`, `qr`, `eigh`, `svd`, `svdvals`, "
         "`lstsq`", "ops/linalg.md#decompositions-and-norms", (types, src),
         (types, device_src),
         "integers refused at compile time (as PyTorch); on a device cuSOLVER (GPU: built, not "
         "yet run on one); lstsq from the SVD on every device"),
        ("`linalg::vector_norm`, `matrix_norm`, `norm`", "ops/linalg.md#decompositions-and-norms",
         norms, norms, "matrix_norm 2, -2 and nuc take svdvals"),
        ("`trace`", "ops/linalg.md#decompositions-and-norms", trace,
         (DTYPES, "`ts::sum` of the diagonal view (the reduction engine)"),
         "int64 for bool and integers, as `sum`"),
    ]


def matmul_rows():
    """Matrix products: every dtype through the product engine (src/linalg/product.cpp); the
    device runs float/double through the runtime's gemm (cuBLAS; OpenBLAS on the emulated device)
    and the rest through the library's own kernel (src/backend/device/integer_gemm.cu)."""
    engine = instantiated("src/linalg/product.cpp", "TESSERA_INSTANTIATE_BATCHED_MATMUL")
    device = (engine[0], engine[1] + "; float/double: `device_runtime::gemm` (cuBLAS), others: "
              "`TESSERA_FOR_EACH_INTEGER_GEMM_DTYPE` in `src/backend/device/integer_gemm.cu`")
    cdist = (["float", "double"], "`cdist_tensor` in `src/linalg/cdist.cpp` (integers converted "
             "to float)")
    return [
        ("`matmul`, `mm`, `bmm`, `mv`, `dot`, `outer`, `tensordot`, `einsum`",
         "ops/linalg.md#matrix-products", engine, device,
         "float/double on OpenBLAS (host) and cuBLAS (GPU: built, not yet run on one); integers "
         "wrap in T and bool is the logical product on both devices (PyTorch has neither on CUDA)"),
        ("`cdist`", "ops/linalg.md#matrix-products", cdist, cdist,
         "p = 2 beyond 25 rows through the product engine, as PyTorch"),
    ]


def rows():
    return [
        ("expressions: arithmetic, comparisons, `where`, math, casts, `sum`/`min`/`max`",
         "expressions.md",
         header_only("include/tessera/tensor.hpp", "TESSERA_FOR_EACH_DTYPE"),
         instantiated("src/backend/device/elementwise.cu", "TESSERA_INSTANTIATE_NODES"),
         "device-compiled callers fuse the whole expression into one device algorithm for any "
         "dtype; host-compiled callers use the precompiled per-dtype node kernels listed here"),
        ("complex tensors: factories, views (`real`, `imag`, `view_as_real`), copies, casts "
         "from real and complex types, printing, the pointwise rows with a complex form",
         "complex.md",
         (CDTYPES, "the complex part of `TESSERA_FOR_EACH_ELEMENT_DTYPE` in `src/core/tensor.cpp`, "
                   "`tensor_views.cpp`, `tensor_copies.cpp`, `format.cpp`"),
         instantiated("src/backend/device/elementwise.cu", "TESSERA_INSTANTIATE_COMPLEX_NODES"),
         "no reductions, matrix products or decompositions of complex tensors yet "
         "(complex.md#not-yet)"),
        ("`nonzero`, `argwhere`, `count_nonzero`, `nonzero_static`", "ops/nonzero.md",
         header_only("include/tessera/ops/nonzero.hpp", "TESSERA_FOR_EACH_DTYPE"),
         instantiated("src/backend/device/nonzero.cu", "TESSERA_INSTANTIATE_NONZERO"), ""),
        ("`searchsorted`, `bucketize`", "ops/searchsorted.md",
         header_only("include/tessera/ops/searchsorted.hpp", "TESSERA_FOR_EACH_DTYPE", ("bool",),
                     "!std::is_same_v<S, bool> && !std::is_same_v<V, bool>"),
         instantiated("src/backend/device/searchsorted.cu", "TESSERA_INSTANTIATE_SEARCHSORTED_CUDA"),
         "results int64 or int32"),
        ("`sort`, `argsort`, `topk`", "ops/ordering.md",
         instantiated("src/backend/host/ordering.cpp", "TESSERA_INSTANTIATE_ORDER_ROWS"),
         instantiated("src/backend/device/ordering.cu", "TESSERA_INSTANTIATE_ORDER_ROWS_CUDA"),
         "indices int64; stable; NaN the largest"),
        ("`index` (index tensors, nonzero's tuple, masks), `masked_select`, `index_select`, "
         "`gather`, `take`, `take_along_dim`, `gather_nd`, `cat`, `stack`, `index_put_`",
         "ops/indexing.md",
         instantiated("src/ops/indexing.cpp", "TESSERA_INSTANTIATE_INDEXING"),
         instantiated("src/ops/indexing.cpp", "TESSERA_INSTANTIATE_INDEXING"),
         "index tensors int32 or int64 (`index_put_`: `src/ops/index_put.cpp`, `cat`/`stack`: "
         "`src/ops/join.cpp`, the same type list); one gather kernel per element width "
         "(`src/backend/host/gather.cpp`, `src/backend/device/gather.cu`); `index_put_` on the "
         "scatter engine"),
        ("`masked_fill_`", "ops/indexing.md",
         header_only("include/tessera/ops/indexing.hpp", "TESSERA_FOR_EACH_DTYPE"),
         instantiated("src/backend/device/elementwise.cu", "TESSERA_INSTANTIATE_NODES"),
         "an elementwise `where` written into the tensor"),
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
        ("views: `view`, `reshape`, `permute`, `movedim`, `unsqueeze`, `squeeze`, `flatten`, "
         "`unflatten`, `expand`, `broadcast_to`, `narrow`, `t`, `mT`, `diagonal`, `unbind`, "
         "`split`, `chunk`, `unfold`, `meshgrid`", "ops/shapes.md",
         instantiated("src/core/tensor_views.cpp", "TESSERA_INSTANTIATE_VIEWS"),
         instantiated("src/core/tensor_views.cpp", "TESSERA_INSTANTIATE_VIEWS"),
         "shape arithmetic only, the same code for every device; expanded views are read-only"),
        ("copies and factories: `flip`, `roll`, `repeat`, `tile`, `tril`, `triu`, `diag`, "
         "`eye`, `linspace`, `logspace`, `*_like`", "ops/shapes.md",
         instantiated("src/core/tensor_copies.cpp", "TESSERA_INSTANTIATE_COPIES"),
         instantiated("src/backend/device/elementwise.cu", "TESSERA_INSTANTIATE_NODES"),
         "strided copies through the expression evaluator (the device's node kernels); "
         "linspace/logspace computed on the host, then copied"),
        ("random: `rand`, `randn`, `normal`, `rand_like`, `randn_like`, `bernoulli`, "
         "`multinomial`, `uniform_`, `normal_`", "ops/random.md",
         (["float", "double"], "`src/random/random.cpp` (float and double, static_assert)"),
         (["float", "double"], "`src/backend/device/random.cu` (TESSERA_FOR_EACH_RANDOM_DIST)"),
         "one Philox4x32-10 stream: the same numbers on every device and thread count"),
        ("random: `randint`", "ops/random.md",
         instantiated("src/random/random.cpp", "TESSERA_INSTANTIATE_RANDINT"),
         instantiated("src/random/random.cpp", "TESSERA_INSTANTIATE_RANDINT"),
         "bool: a static_assert (use bernoulli); `randperm` gives int64"),
        ("random: `bernoulli_`", "ops/random.md",
         instantiated("src/random/random.cpp", "TESSERA_INSTANTIATE_RANDOM_METHODS"),
         instantiated("src/random/random.cpp", "TESSERA_INSTANTIATE_RANDOM_METHODS"),
         "uniforms of T for float and double, of double otherwise"),
        ("`median`, `nanmedian`, `kthvalue`, `mode`, `diff`", "ops/statistics.md",
         instantiated("src/ops/statistics.cpp", "TESSERA_INSTANTIATE_ORDER_STATS"),
         instantiated("src/ops/statistics.cpp", "TESSERA_INSTANTIATE_ORDER_STATS"),
         "on the sort engine, reductions and gathers; bool accepted (PyTorch refuses median)"),
        ("`quantile`, `nanquantile`, `softmax`, `log_softmax`", "ops/statistics.md",
         (["float", "double"], "`src/ops/statistics.cpp` (float and double, static_assert)"),
         (["float", "double"], "`src/ops/statistics.cpp` (float and double, static_assert)"),
         "integers: a compile-time error (PyTorch raises)"),
        ("`cov`, `corrcoef`", "ops/statistics.md",
         instantiated("src/ops/statistics.cpp", "TESSERA_INSTANTIATE_COV"),
         instantiated("src/ops/statistics.cpp", "TESSERA_INSTANTIATE_COV"),
         "float32 result for integers; bool a static_assert (PyTorch raises)"),
        ("`unique`, `unique_consecutive`", "ops/statistics.md#sets-and-histograms",
         instantiated("src/ops/sets.cpp", "TESSERA_INSTANTIATE_UNIQUE"),
         instantiated("src/ops/sets.cpp", "TESSERA_INSTANTIATE_UNIQUE"),
         "sort engine + scan + index_put; inverse and counts int64; waits for the device"),
        ("`bincount` (weights' dtype), `histc`", "ops/statistics.md#sets-and-histograms",
         instantiated("src/ops/sets.cpp", "TESSERA_INSTANTIATE_BINNING"),
         instantiated("src/ops/sets.cpp", "TESSERA_INSTANTIATE_BINNING"),
         "bincount: indices of any integer dtype, counts int64; histc: float32 for integers; "
         "segment sums of the scatter engine"),
        ("`histogram`", "ops/statistics.md#sets-and-histograms",
         (["float", "double"], "`src/ops/sets.cpp` (float and double, static_assert)"),
         (["float", "double"], "`src/ops/sets.cpp` (float and double, static_assert)"),
         "searchsorted + segment sums"),
        ("`one_hot`", "ops/statistics.md#sets-and-histograms",
         (["int64_t"], "`src/ops/sets.cpp` (int64 labels, static_assert)"),
         (["int64_t"], "`src/ops/sets.cpp` (int64 labels, static_assert)"),
         "int64 result"),
    ] + segment_rows() + reduction_rows() + matmul_rows() + linalg_decomposition_rows() \
      + pointwise_rows()


def page():
    table = rows()
    out = ["# Support matrix: operation × backend × dtype", "",
           "Generated by `tools/support_matrix.py` from the instantiation lists in the sources "
           "(CI checks it is current with `--check`). **H** = host backend (Thrust's OpenMP "
           "system by default, or TBB / serial C++ with `TESSERA_HOST_SYSTEM`), **C** = CUDA "
           "device backend (`cuda:N` tensors), **–** = does not compile (a `static_assert` names "
           "the reason). The device backend's kernels are Thrust algorithms: CI compiles them "
           "with nvcc for sm_90 and runs every one of them on the emulated device "
           "(`TESSERA_CUDA=EMULATED`, Thrust's OpenMP system). The whole suite has run once on a "
           "GPU, an NVIDIA H200 (2026-12-04: 1819 of 1823 tests passed; [gpu.md](gpu.md#runs) "
           "says which failed and how they were fixed).", ""]
    header = ["operation"] + [f"{t} ({TORCH[t]})" for t in COLUMNS] + ["notes"]
    out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for op, doc, (host, _), (cuda, _), note in table:
        cells = [f"[{op}]({doc})"]
        for t in COLUMNS:
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
    expressions = open(EXPRESSIONS, encoding="utf-8").read()
    vocab = expressions_page(expressions)
    if args.check:
        current = open(PAGE, encoding="utf-8").read() if os.path.exists(PAGE) else ""
        if current != text or expressions != vocab:
            print("docs/support-matrix.md or the vocabulary of docs/expressions.md is out of "
                  "date: run python3 tools/support_matrix.py", file=sys.stderr)
            return 1
        print("support_matrix: docs/support-matrix.md and docs/expressions.md are current")
        return 0
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(text)
    with open(EXPRESSIONS, "w", encoding="utf-8") as f:
        f.write(vocab)
    print(f"wrote {os.path.relpath(PAGE, ROOT)} and the vocabulary of docs/expressions.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
