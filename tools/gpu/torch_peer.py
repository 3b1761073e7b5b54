#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The torch CUDA peer of the GPU check: the same cases as bench/search_cases.hpp and
bench/nonzero_cases.hpp, timed with CUDA events (median of 20 after 3 warm-ups).
Writes {"cases": {name: milliseconds}} to --out."""
import argparse
import json

import torch


def time_ms(fn, reps=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(21)
    cases = {}
    # (name, rows, length, values per row, sorted values): bench/search_cases.hpp, same order.
    search = [("0", 1, 1_000, 10_000_000, False), ("1", 1, 1_000_000, 10_000_000, False),
              ("2", 1, 1_000_000, 10_000_000, True), ("3", 1_000, 1_000, 10_000, False)]
    for name, rows, length, per_row, sorted_values in search:
        shape_s = (length,) if rows == 1 else (rows, length)
        shape_v = (per_row,) if rows == 1 else (rows, per_row)
        seq = torch.sort(torch.rand(shape_s, device=dev, generator=gen), dim=-1).values
        values = torch.rand(shape_v, device=dev, generator=gen)
        if sorted_values:
            values = torch.sort(values, dim=-1).values
        cases[f"BM_SearchsortedCuda/{name}"] = time_ms(lambda: torch.searchsorted(seq, values))
    side = 4000
    for name, density in (("0", 0.5), ("1", 0.99), ("2", 0.001)):
        mask = torch.rand((side, side), device=dev, generator=gen) < density
        cases[f"BM_NonzeroCuda/{name}"] = time_ms(lambda: torch.nonzero(mask))
        size = int(mask.count_nonzero())
        cases[f"BM_NonzeroStaticCuda/{name}"] = time_ms(
            lambda: torch.nonzero_static(mask, size=size))
    x = torch.rand((side, side), device=dev, generator=gen)
    cases["BM_NonzeroFloatGtCuda"] = time_ms(lambda: torch.nonzero(x > 0.5))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(),
                   "cases": cases}, f, indent=1)


if __name__ == "__main__":
    main()
