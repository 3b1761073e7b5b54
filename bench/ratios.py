#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints tessera's time relative to each peer, per benchmark case, as a markdown table.

Reads Google Benchmark JSON (--benchmark_format=json or --benchmark_out=FILE) whose benchmark
names read "<case>/<peer>/<size>[/...]", e.g. "BM_FusedExpr/tessera/1000000/real_time".
A ratio is tessera time / peer time: below 1 tessera is faster, above 1 it is slower.
Each benchmark keeps its fastest time over all repetitions (--benchmark_repetitions) and all
files given (repeated runs): on a shared machine the fastest run is the one least disturbed by
other processes. --stat median keeps the median instead, for machines whose speed swings
between moments (a memory-bound case then has rare repetitions far faster than the rest).

    build/bench/bench_expr --benchmark_out=run1.json --benchmark_out_format=json
    python3 bench/ratios.py run1.json [run2.json ...] [--baseline tessera] [--time cpu]
"""

import argparse
import json
import statistics
import sys
from collections import defaultdict

# Seconds per unit of Google Benchmark's "time_unit".
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load_times(paths, field="real_time", stat="min"):
    """{(case, size): {peer: seconds}} over every file: the fastest time, or with stat="median"
    the median over all repetitions (steadier where the machine's speed swings between
    moments, and one lucky repetition of one peer would decide the fastest)."""
    samples = defaultdict(lambda: defaultdict(list))
    for path in paths:
        with open(path, encoding="utf-8") if path != "-" else sys.stdin as f:
            data = json.load(f)
        for bench in data["benchmarks"]:
            # Every repetition counts; aggregates (mean, median, stddev) are derived, skip them.
            if bench.get("error_occurred") or bench.get("run_type") == "aggregate":
                continue
            parts = bench.get("run_name", bench["name"]).split("/")
            if len(parts) < 3:
                continue
            case, peer, size = parts[0], parts[1], parts[2]
            seconds = bench[field] * UNITS[bench.get("time_unit", "ns")]
            key = (case, int(size) if size.isdigit() else size)
            samples[key][peer].append(seconds)
    pick = min if stat == "min" else statistics.median
    return {key: {peer: pick(values) for peer, values in row.items()}
            for key, row in samples.items()}


def human(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def table(times, baseline):
    peers = sorted({p for row in times.values() for p in row if p != baseline})
    header = ["case", "size", f"{baseline} time"] + [f"{baseline} / {p}" for p in peers]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for (case, size), row in sorted(times.items(), key=lambda kv: (kv[0][0], str(kv[0][1]).zfill(12))):
        base = row.get(baseline)
        cells = [case, f"{size:,}" if isinstance(size, int) else size,
                 human(base) if base is not None else "-"]
        for peer in peers:
            other = row.get(peer)
            if base is None or other is None or other == 0:
                cells.append("-")
            else:
                ratio = base / other
                # Bold marks the cases where tessera is more than 10% slower than the peer.
                cells.append(f"**{ratio:.3g}**" if ratio > 1.1 else f"{ratio:.3g}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="Google Benchmark JSON files ('-' for stdin)")
    parser.add_argument("--baseline", default="tessera", help="peer in the numerator")
    parser.add_argument("--time", choices=("real", "cpu"), default="real",
                        help="wall-clock time (default; right for multi-threaded peers) or the "
                             "main thread's CPU time (steadier for single-threaded runs on a "
                             "busy machine: time spent preempted is not counted)")
    parser.add_argument("--stat", choices=("min", "median"), default="min",
                        help="each benchmark's fastest repetition (default) or its median")
    args = parser.parse_args()
    times = load_times(args.json, f"{args.time}_time", args.stat)
    if not times:
        sys.exit("ratios.py: no benchmarks named <case>/<peer>/<size> in the input")
    print(table(times, args.baseline))


if __name__ == "__main__":
    main()
