#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs the benchmark binaries (Google Benchmark JSON) and writes docs/benchmarks.md: for each
operation the tessera/peer ratio table (bench/ratios.py) and, where a benchmark family sweeps
sizes, a PNG of throughput (elements per second) against size for every peer (docs/img/).

Timings are not CI material: run this by hand on a quiet machine, e.g.

    python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install --no-deps torch
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_BENCH=ON \
          -DTESSERA_TORCH_ROOT=/tmp/venv-torch/lib/python3.11/site-packages/torch
    cmake --build build --target bench_expr bench_nonzero bench_searchsorted bench_scatter bench_ragged \
        bench_ordering bench_ragged_reduce bench_indexing bench_linalg bench_order_stats
    OMP_WAIT_POLICY=passive /usr/bin/python3 tools/bench_report.py --build build

Without TESSERA_TORCH_ROOT the libtorch peer is Debian's libtorch-dev (1.13) when installed.
The PNGs need matplotlib (Debian: python3-matplotlib); without it the page is written with the
tables only. --from-json DIR rewrites the page from the JSON files of an earlier run.
"""

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import ratios  # noqa: E402  (bench/ratios.py: load_times, table, human)

# (binary, title, docs page, filter, what the third name component is)
BINARIES = [
    ("bench_expr", "Fused expressions", "expressions.md", "", "elements"),
    ("bench_nonzero", "nonzero", "ops/nonzero.md", "-.*Cuda.*", "case"),
    ("bench_searchsorted", "searchsorted / bucketize", "ops/searchsorted.md", "-.*Cuda.*", "case"),
    ("bench_scatter", "tensor_scatter_nd_*", "ops/scatter.md", "-.*Cuda.*", "case"),
    ("bench_ragged", "ragged::range", "ops/ragged.md", "-.*Cuda.*", "case"),
    ("bench_ordering", "sort / argsort / topk", "ops/ordering.md", "", "case"),
    ("bench_ragged_reduce", "ragged and segment reductions", "ops/ragged.md", "-.*Cuda.*",
     "case"),
    ("bench_indexing", "indexing and gathering", "ops/indexing.md", "", "case"),
    ("bench_linalg", "matrix products", "ops/linalg.md", "", "case"),
    ("bench_order_stats", "quantile / median / softmax", "ops/statistics.md", "", "case"),
    ("bench_stats", "unique / bincount / histc", "ops/statistics.md", "", "elements"),
]
# Families whose third name component is an element count (the others index a case list).
SIZE_FAMILIES = {"BM_FusedExpr", "BM_Broadcast", "BM_Transposed", "BM_SumProduct", "BM_Cast",
                 "BM_NonzeroSweep", "BM_BucketizeSweep"}
SIZE_FAMILIES |= {"unique", "bincount", "histc"}  # bench_stats (sets and histograms)
# What the case indices mean (bench/*_cases.hpp, bench/bench_ragged.cpp).
CASES = {
    "BM_NonzeroBool": ["4000x4000 bool, 50 % true", "99 % true", "0.1 % true"],
    "BM_CountNonzero": ["4000x4000 bool, 50 % true", "99 % true", "0.1 % true"],
    "BM_Searchsorted": ["N=1e3, 1e7 values", "N=1e6, 1e7 values", "N=1e6, 1e7 sorted values",
                        "1000 rows x 1e3, 1e4 values per row"],
    "BM_Bucketize": ["1e3 boundaries, 1e7 values"],
    "BM_NonzeroFloatGt": ["4000x4000 float, (x > 0.5).nonzero()"],
    "BM_Scatter": ["1e7 element updates into 1e6", "1e5 slice updates (64 wide), random",
                   "1e5 slice updates (64 wide), unique sorted"],
    "BM_ScatterReuse": ["zeros(2^24) float32 + 1e6 element updates; `tessera`: on the "
                        "temporary (its memory reused)"],
    "BM_RaggedRange": ["1e6 rows of 0-20 values", "10 rows of 1e6 values"],
    "rr_sum": ["ragged::reduce_sum, 1e6 rows of 0-20 float32"],
    "rr_max": ["ragged::reduce_max, 1e6 rows of 0-20 float32"],
    "seg_sum": ["unsorted_segment_sum, 1e7 float32 into 1e5 segments"],
}
PEER_NOTES = {
    "torch": "libtorch (ATen, 2 threads)", "libtorch": "libtorch (ATen, 2 threads)",
    "torch_copy_index_add": "clone() + index_add_ (libtorch's copying form for row slices)",
    "torch_copy_index_put": "clone() + index_put_(accumulate=True) (libtorch's copying form)",
    "tessera_copy": "tessera's copying form (tensor_scatter_nd_*; the in-place form is `tessera`)", "loop_serial": "hand-written serial loop",
    "loop_omp": "hand-written OpenMP loop", "xtensor": "xtensor (xsimd)",
    "serial": "serial loop", "memcpy": "memcpy of the updates (a floor)",
    "fill": "std::fill of the same bytes, 1 thread", "fill_omp": "std::fill, all threads",
    "cblas": "cblas_?gemm on the same OpenBLAS into a preallocated buffer",
}


def machine_header(meta):
    """The page's header lines from the run's metadata (meta.json beside the JSON files)."""
    load_before, load_after = meta["load_before"], meta["load_after"]
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    cores = os.cpu_count() or 1
    # The run itself keeps up to `cores` threads busy, so the load after it is judged against
    # the core count and the load before it against half of that.
    busy = load_before[0] > 0.5 * cores or load_after[0] > cores
    lines = [
        f"- Machine: {cpu}, {cores} cores, {platform.system()} {platform.release()}",
        f"- Date: {meta['date']}",
        f"- Threads: {meta['threads']} (OMP_NUM_THREADS={meta['omp_num_threads']}, "
        f"OMP_WAIT_POLICY={meta['omp_wait_policy']}); libtorch peers use 2",
        f"- Load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in load_before)} before, "
        f"{', '.join(f'{x:.2f}' for x in load_after)} after",
        f"- Settings: `--benchmark_min_time={meta['min_time']} "
        f"--benchmark_repetitions={meta['repetitions']}"
        + (" --benchmark_enable_random_interleaving=true`" if meta.get("interleave") else "`")
        + ", fastest repetition kept"
        + (" (repetitions of all cases interleaved in random order)" if meta.get("interleave")
           else "")
        + f"; tessera and every peer built as `{meta['build_type']}`",
    ]
    if busy:
        lines.append("- **These numbers were taken under load** (load average before the run "
                     "above half the core count, or after it above the core count: other "
                     "builds shared the machine). Ratios between peers run "
                     "in the same process are more trustworthy than absolute times, but both "
                     "move by tens of percent between runs; rerun on a quiet machine before "
                     "quoting them.")
    return lines


def cmake_build_type(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            return next(l.split("=", 1)[1].strip() for l in f
                        if l.startswith("CMAKE_BUILD_TYPE:"))
    except (OSError, StopIteration):
        return "unknown"


def run_binary(build, name, bench_filter, args, out_dir):
    exe = os.path.join(build, "bench", name)
    path = os.path.join(out_dir, f"{name}.json")
    if not os.access(exe, os.X_OK):
        print(f"bench_report: {exe} not built, skipped", file=sys.stderr)
        return None
    cmd = [exe, "--benchmark_format=json", f"--benchmark_out={path}",
           "--benchmark_out_format=json", f"--benchmark_min_time={args.min_time}",
           f"--benchmark_repetitions={args.repetitions}"]
    if args.interleave:
        # Each repetition of every case runs at a random point of the whole run, so a slow
        # spell of a shared machine spreads over tessera and its peers instead of landing on
        # whichever case was running (the fastest repetition of each is kept).
        cmd.append("--benchmark_enable_random_interleaving=true")
    if bench_filter:
        cmd.append(f"--benchmark_filter={bench_filter}")
    t0 = time.time()
    print("bench_report: " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    print(f"bench_report: {name} took {time.time() - t0:.0f} s", file=sys.stderr)
    return path


def split_by_family(times):
    families = {}
    for (case, size), row in times.items():
        families.setdefault(case, {})[(case, size)] = row
    return families


def label_cases(family, table_text):
    """Replaces the case indices of an index family by what they mean."""
    names = CASES.get(family)
    if not names:
        return table_text
    out = []
    for line in table_text.split("\n"):
        cells = line.split(" | ")
        if len(cells) > 2 and cells[1].strip().isdigit() and int(cells[1]) < len(names):
            cells[1] = names[int(cells[1])]
        elif len(cells) > 2 and not cells[1].strip().replace(",", "").isdigit() \
                and cells[1].strip() not in ("size", "---"):
            cells[1] = names[0]  # a family without an argument: one case
        out.append(" | ".join(cells))
    return "\n".join(out).replace("| case | size |", "| family | case |", 1)


def plot(family, rows, img_dir):
    """Throughput (elements / s) vs size, one line per peer; returns the PNG path or None."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    peers = sorted({p for row in rows.values() for p in row}, key=lambda p: (p != "tessera", p))
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    for peer in peers:
        points = sorted((size, size / row[peer]) for (_, size), row in rows.items()
                        if peer in row and isinstance(size, int))
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                    linewidth=2.5 if peer == "tessera" else 1.2, label=peer)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("elements")
    ax.set_ylabel("elements / second")
    ax.set_title(family)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(img_dir, exist_ok=True)
    path = os.path.join(img_dir, f"{family}.png")
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def summary_rows(title, page, times, medians):
    """One row per peer: geometric mean and range of tessera / peer over the cases both ran, by
    the fastest repetitions (`times`) and by the medians (`medians`)."""
    peers = sorted({p for row in times.values() for p in row if p != "tessera"})
    rows = []

    def ratios_of(table, peer):
        return [row["tessera"] / row[peer] for row in table.values()
                if "tessera" in row and row.get(peer)]

    for peer in peers:
        fastest, middle = ratios_of(times, peer), ratios_of(medians, peer)
        if fastest:
            rows.append(f"| [{title}](#{anchor(title)}) | {peer} | {len(fastest)} | "
                        f"{geomean(fastest):.2f} | {min(fastest):.2f} – {max(fastest):.2f} | "
                        f"{geomean(middle):.2f} | {min(middle):.2f} – {max(middle):.2f} |")
    return rows


def anchor(title):
    keep = "".join(c for c in title.lower() if c.isalnum() or c in " -_")
    return keep.replace(" ", "-")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build tree with bench/ binaries")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    parser.add_argument("--img", default=os.path.join(ROOT, "docs", "img"))
    parser.add_argument("--json-dir", default=None,
                        help="where the runs' JSON goes (default: <build>/bench-report)")
    parser.add_argument("--from-json", action="store_true",
                        help="do not run anything; use the JSON files in --json-dir")
    parser.add_argument("--min-time", type=float, default=0.1)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--no-interleave", dest="interleave", action="store_false",
                        help="run each case's repetitions back to back instead of interleaving "
                        "the repetitions of all cases in random order")
    parser.add_argument("--only", default="", help="comma-separated binaries to run")
    args = parser.parse_args()
    json_dir = args.json_dir or os.path.join(args.build, "bench-report")
    os.makedirs(json_dir, exist_ok=True)
    only = set(filter(None, args.only.split(",")))

    meta_path = os.path.join(json_dir, "meta.json")
    meta = {"load_before": os.getloadavg(),
            "date": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
            "threads": os.environ.get("OMP_NUM_THREADS") or str(os.cpu_count()),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "unset"),
            "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "unset"),
            "min_time": args.min_time, "repetitions": args.repetitions,
            "interleave": args.interleave, "build_type": cmake_build_type(args.build)}
    runs = []
    for name, title, page, bench_filter, _ in BINARIES:
        if only and name not in only:
            continue
        path = os.path.join(json_dir, f"{name}.json")
        if not args.from_json:
            path = run_binary(args.build, name, bench_filter, args, json_dir)
        if path and os.path.exists(path):
            runs.append((name, title, page, path))
    meta["load_after"] = os.getloadavg()
    if args.from_json:
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
    else:
        with open(meta_path, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)
    if not runs:
        sys.exit("bench_report: no benchmark results")

    body, summary = [], []
    for name, title, page, path in runs:
        times = ratios.load_times([path])
        summary += summary_rows(title, page, times, ratios.load_times([path], stat="median"))
        body += ["", f"## {title}", "",
                 f"`build/bench/{name}`; semantics and design in [{page}]({page}).", ""]
        for family, rows in sorted(split_by_family(times).items()):
            body += [f"### {family}", "", label_cases(family, ratios.table(rows, "tessera")), ""]
            sizes = {size for (_, size) in rows if isinstance(size, int)}
            if family in SIZE_FAMILIES and len(sizes) >= 3:
                png = plot(family, rows, args.img)
                if png:
                    rel = os.path.relpath(png, os.path.dirname(args.out))
                    body += [f"![{family}: throughput vs size]({rel})", ""]

    with open(path, encoding="utf-8") as f:
        context = json.load(f).get("context", {})
    head = ["# Benchmarks", "",
            "Written by `tools/bench_report.py` (Google Benchmark JSON → this page and "
            "`docs/img/*.png`). A ratio is tessera's time / the peer's time: **below 1 tessera "
            "is faster**; bold marks cases where tessera is more than 10 % slower. Each time is "
            "the fastest repetition (the least disturbed on a shared machine). Plots show "
            "elements per second against size for the families that sweep sizes.", ""]
    head += machine_header(meta)
    head += [f"- Google Benchmark: {context.get('num_cpus', '?')} CPUs at "
             f"{context.get('mhz_per_cpu', '?')} MHz (the Google Benchmark library itself is "
             f"Debian's `{context.get('library_build_type', '?')}` build; it only keeps time)",
             ""]
    # Only binaries with a libtorch peer name its version; any of them will do.
    torch_version = None
    for _, _, _, run_path in runs:
        with open(run_path, encoding="utf-8") as f:
            torch_version = torch_version or json.load(f).get("context", {}).get("libtorch_version")
    notes = {k: (v.replace("libtorch", f"libtorch {torch_version}", 1) if torch_version and
                 k in ("torch", "libtorch") else v) for k, v in PEER_NOTES.items()}
    head += ["Peers: " + "; ".join(f"`{k}` = {v}" for k, v in notes.items()) + ".", ""]
    head += ["## Summary", "",
             "Geometric mean and range of tessera / peer over the cases both ran (below 1: "
             "tessera faster), by each case's fastest repetition (as in the tables below) and "
             "by its median repetition.", "",
             "| operation | peer | cases | geomean ratio | range | geomean of medians | "
             "range of medians |", "|---|---|---|---|---|---|---|"] + summary
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(head + body) + "\n")
    print(f"bench_report: wrote {os.path.relpath(args.out, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
