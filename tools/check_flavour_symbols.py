#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every member of Tensor that evaluates an expression has a mangled name of its evaluation
flavour. Host-compiled and device-compiled units give such a member different bodies (node
kernels vs one fused device algorithm); the ABI tag TESSERA_EVAL_TAG (core/macros.hpp) keeps
the two apart at link time. This reads the symbols a linked program defines and fails on an
operation method of a tensor (`ReduceMethods<Tensor<float>>::sum`, ...) or a Tensor member
template over an expression (`Tensor<float>::operator=<E>`, `Tensor<float>::Tensor<E>`) that
carries no flavour tag, and unless at least one carries the tag of `--expect` (so the check
cannot pass on a program that has none).

    python3 tools/check_flavour_symbols.py --nm nm --expect eval_device build/tests/test_cuda_fused

Run by ctest (tests/CMakeLists.txt). Python 3 stdlib only.
"""
import argparse
import re
import subprocess
import sys

# An operation method of a plain tensor: the mixins of ops/methods.hpp over Tensor<T>.
MIXIN_METHOD = re.compile(r"tessera::\w+Methods<tessera::Tensor<[^>]*> >::(\w+)")
# A member template of Tensor<T> named Tensor or operator=, with its template arguments.
TENSOR_TEMPLATE = re.compile(r"tessera::Tensor<[^>]*>::(Tensor|operator=)(\[abi:\w+\])?<")
TAG = re.compile(r"\[abi:(eval_host|eval_device)\]")
# Members that read no expression: the same in both flavours.
UNTAGGED = {"self"}


def evaluating_symbols(names):
    for name in names:
        method = MIXIN_METHOD.search(name)
        if method and method.group(1) not in UNTAGGED:
            yield name
        elif TENSOR_TEMPLATE.search(name):
            yield name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--expect", required=True, choices=["eval_host", "eval_device"])
    parser.add_argument("program")
    args = parser.parse_args()
    listing = subprocess.run([args.nm, "-C", "--defined-only", args.program], check=True,
                             capture_output=True, text=True).stdout
    names = sorted({line.split(" ", 2)[2] for line in listing.splitlines() if line.count(" ") >= 2})
    found = list(evaluating_symbols(names))
    untagged = [name for name in found if not TAG.search(name)]
    expected = [name for name in found if f"[abi:{args.expect}]" in name]
    for name in untagged:
        print(f"no flavour tag: {name}")
    if not expected:
        print(f"{args.program}: no evaluating member of Tensor tagged {args.expect}")
    print(f"{args.program}: {len(found)} evaluating members, {len(expected)} tagged "
          f"{args.expect}, {len(untagged)} untagged")
    return 1 if untagged or not expected else 0


if __name__ == "__main__":
    sys.exit(main())
