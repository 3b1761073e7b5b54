#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every installed header compiles on its own: each include/tessera/**/*.hpp is the only line of a
translation unit, parsed by the host compiler (-fsyntax-only) with the flags a user's unit gets
from the installed package (C++20, tessera's and Thrust's include directories, the Thrust
device-system define, OpenMP). A header that leans on something its includer happened to include
first fails here. The device headers (*.cuh) need nvcc and are left to the CUDA build; the
interop headers find the libraries they wrap (xtensor, DLPack) where Debian installs them.

    python3 tools/check_headers.py --build build    # build: a configured tree (its config.hpp)

Run by CI's docs stage. Python 3 stdlib only.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CCCL = "/usr/local/cuda/include/cccl"


def headers():
    found = []
    for base, _, files in os.walk(os.path.join(ROOT, "include", "tessera")):
        for name in files:
            if name.endswith(".hpp"):
                found.append(os.path.relpath(os.path.join(base, name), os.path.join(ROOT, "include")))
    return sorted(found)


def check(header, compiler, build):
    command = [compiler, "-std=c++20", "-fsyntax-only", "-fopenmp", "-x", "c++",
               "-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP",
               "-I", os.path.join(ROOT, "include"), "-I", os.path.join(build, "include"),
               "-isystem", CCCL, "-"]
    unit = f"#include <{header}>\n"
    result = subprocess.run(command, input=unit, capture_output=True, text=True)
    return header, result.returncode, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="a configured build tree (for include/tessera/config.hpp)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.build, "include", "tessera", "config.hpp")):
        sys.exit(f"check_headers: {args.build} is not a configured tessera build tree")
    compiler = os.environ.get("CXX", "c++")
    names = headers()
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for header, code, errors in pool.map(lambda h: check(h, compiler, args.build), names):
            if code != 0:
                failed += 1
                print(f"check_headers: <{header}> does not compile on its own:\n{errors}",
                      file=sys.stderr)
    if failed:
        sys.exit(f"check_headers: {failed} of {len(names)} headers do not compile on their own")
    print(f"check_headers: all {len(names)} installed headers compile on their own")


if __name__ == "__main__":
    main()
