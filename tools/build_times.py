#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Where a build's time goes: reads a Ninja tree's .ninja_log, prints the slowest units and the
library / tests / examples / bench totals.

    python3 tools/build_times.py build            # the README's tree
    python3 tools/build_times.py build-dev -n 30  # thirty slowest units

Each unit's time is its last build's wall time in Ninja's log (start to end). With -j2 on two
cores that is close to its CPU time; totals are sums over units, not the build's wall time,
which the log cannot give when builds were incremental. Run it after a clean build to compare
figures with docs/architecture.md ("Build cost": the latest ones; every earlier run is in
docs/history.md, "Build cost").
"""
import argparse
import collections
import os
import signal
import sys


def read_log(path):
    """Latest entry per output: {output: milliseconds}."""
    latest = {}
    with open(path, encoding="utf-8") as log:
        header = log.readline()
        if not header.startswith("# ninja log"):
            sys.exit(f"{path}: not a Ninja log")
        for line in log:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5:
                continue
            start, end, _mtime, output = int(fields[0]), int(fields[1]), fields[2], fields[3]
            latest[output] = end - start
    return latest


def group_of(output):
    """The part of the tree an output belongs to."""
    parts = output.split("/")
    if "tessera.dir" in parts or "tessera_vector_math" in output:
        return "library"
    for name in ("tests", "examples", "bench"):
        if name in parts[:2]:
            return name
    return "other"


def kind_of(output):
    if output.endswith(".cu.o"):
        return "nvcc"
    if output.endswith(".o"):
        return "c++"
    return "link/other"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default="build", help="a Ninja build tree")
    parser.add_argument("-n", type=int, default=15, help="how many of the slowest units to list")
    args = parser.parse_args()
    path = os.path.join(args.tree, ".ninja_log")
    if not os.path.exists(path):
        sys.exit(f"{path}: no Ninja log (configure with -G Ninja and build first)")
    times = read_log(path)
    units = {o: t for o, t in times.items() if o.endswith(".o")}
    print(f"slowest {args.n} units in {args.tree} (seconds, last build of each):")
    for output, ms in sorted(units.items(), key=lambda item: -item[1])[: args.n]:
        print(f"  {ms / 1000:7.1f}  {output}")
    totals = collections.defaultdict(lambda: [0, 0])
    for output, ms in times.items():
        key = (group_of(output), kind_of(output))
        totals[key][0] += ms
        totals[key][1] += 1
    print("totals (sum of unit times, seconds):")
    for group in ("library", "tests", "examples", "bench", "other"):
        rows = [(k, totals[(group, k)]) for k in ("c++", "nvcc", "link/other") if (group, k) in totals]
        if not rows:
            continue
        total = sum(ms for _, (ms, _) in rows)
        detail = ", ".join(f"{k} {ms / 1000:.0f} s ({n})" for k, (ms, n) in rows)
        print(f"  {group:9s} {total / 1000:7.0f} s   {detail}")


if __name__ == "__main__":
    main()
