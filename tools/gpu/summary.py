#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One markdown summary of a GPU check: ctest counts, then tessera CUDA vs torch CUDA per case
(tessera's Google Benchmark JSON against tools/gpu/torch_peer.py's JSON)."""
import argparse
import json
import re

UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def tessera_times(paths):
    """{"BM_SearchsortedCuda/0": ms} from Google Benchmark JSON files whose names read
    "BM_SearchsortedCuda/tessera/0/real_time" (the fastest repetition of each)."""
    out = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        for bench in data.get("benchmarks", []):
            if bench.get("run_type") == "aggregate":
                continue
            parts = [p for p in bench.get("run_name", bench["name"]).split("/")
                     if p not in ("real_time", "process_time") and not p.startswith("min_time")]
            if len(parts) < 2 or parts[1] != "tessera":
                continue
            key = "/".join([parts[0]] + parts[2:])
            ms = bench["real_time"] * UNITS[bench.get("time_unit", "ns")]
            out[key] = min(ms, out.get(key, ms))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ctest", required=True)
    parser.add_argument("--tessera", required=True, nargs="+")
    parser.add_argument("--torch", required=True)
    args = parser.parse_args()
    with open(args.ctest, encoding="utf-8", errors="replace") as f:
        log = f.read()
    total = re.search(r"(\d+)% tests passed, (\d+) tests failed out of (\d+)", log)
    skipped = log.count("(Skipped)")
    print("## GPU check\n")
    if total:
        print(f"tests: {total.group(3)} run, {total.group(2)} failed, {skipped} skipped\n")
    else:
        print("tests: no ctest summary found (see ctest.log)\n")
    ours = tessera_times(args.tessera)
    try:
        with open(args.torch, encoding="utf-8") as f:
            theirs = json.load(f)
    except (OSError, ValueError):
        theirs = {"cases": {}}
    print(f"torch {theirs.get('torch', '?')} on {theirs.get('device', '?')}\n")
    print("| case | tessera CUDA | torch CUDA | tessera / torch |")
    print("|---|---|---|---|")
    for key in sorted(set(ours) | set(theirs["cases"])):
        a, b = ours.get(key), theirs["cases"].get(key)
        ratio = f"{a / b:.3g}" if a and b else "-"
        fa = f"{a:.3g} ms" if a else "-"
        fb = f"{b:.3g} ms" if b else "-"
        print(f"| {key} | {fa} | {fb} | {ratio} |")


if __name__ == "__main__":
    main()
