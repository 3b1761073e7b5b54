#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints how each host benchmark scales with threads, as a markdown table.

Reads Google Benchmark JSON files named like host_<binary>_t<threads>.json (what
scripts/gpu-check.sh writes, one run per OMP_NUM_THREADS) and prints, per case, peer and size,
the fastest time at each thread count and the speedup of the most threads over one.

    OMP_NUM_THREADS=1 build/bench/bench_expr --benchmark_out=host_bench_expr_t1.json ...
    python3 bench/scaling.py host_*_t*.json
"""

import argparse
import re
import sys

from ratios import load_times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="host_<binary>_t<threads>.json files")
    args = parser.parse_args(argv)
    by_threads = {}
    for path in args.files:
        match = re.search(r"_t(\d+)\.json$", path)
        if not match:
            print(f"skipping {path}: no _t<threads>.json suffix", file=sys.stderr)
            continue
        by_threads.setdefault(int(match.group(1)), []).append(path)
    threads = sorted(by_threads)
    times = {t: load_times(by_threads[t]) for t in threads}
    keys = sorted({(case, size, peer) for t in threads for (case, size), peers in times[t].items()
                   for peer in peers}, key=str)
    print("| case | size | peer | " + " | ".join(f"{t} thr" for t in threads) +
          f" | speedup {threads[-1]}/{threads[0]} |")
    print("|---|---:|---|" + "---:|" * (len(threads) + 1))
    for case, size, peer in keys:
        row = [times[t].get((case, size), {}).get(peer) for t in threads]
        cells = [f"{v * 1e3:.3f} ms" if v is not None else "" for v in row]
        speedup = f"{row[0] / row[-1]:.2f}x" if row[0] and row[-1] else ""
        print(f"| {case} | {size} | {peer} | " + " | ".join(cells) + f" | {speedup} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
