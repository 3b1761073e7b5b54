#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The layer rules of the source tree, checked from its #include lines, and the layer picture in
docs/architecture.md generated from them.

Layers, top to bottom: src/ops, src/linalg, src/random (the ops compiled in the library) use
src/core and src/backend; src/core uses src/backend/host (the host block cache) only;
src/backend/{host,device,cuda,emulated,none} use src/backend's shared headers and nothing above
them; include/tessera (what users include, and the templates that fuse expressions) uses
nothing under src/. Every layer may include the public headers.

    python3 tools/check_layers.py            # print the include graph between layers
    python3 tools/check_layers.py --check    # exit 1 on a broken rule or a stale picture (CI)
    python3 tools/check_layers.py --update   # rewrite the picture in docs/architecture.md
"""
import argparse
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "architecture.md")
BEGIN = "<!-- layers:begin (tools/check_layers.py --update) -->"
END = "<!-- layers:end -->"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".cpp", ".hpp", ".cuh", ".cu", ".inl", ".in")

# What each layer may include besides itself and the public headers (include/tessera/...).
ALLOWED = {
    "src/ops": {"src/core", "src/backend"},
    "src/linalg": {"src/core", "src/backend", "src/backend/host"},
    "src/random": {"src/core", "src/backend"},
    "src/core": {"src/backend/host"},
    "src/backend": set(),
    "src/backend/host": {"src/backend"},
    "src/backend/device": {"src/backend"},
    "src/backend/cuda": {"src/backend"},
    "src/backend/emulated": {"src/backend", "src/backend/host"},
    "src/backend/none": {"src/backend"},
}
ORDER = ["include/tessera", "src/ops", "src/linalg", "src/random", "src/core", "src/backend",
         "src/backend/host", "src/backend/device", "src/backend/cuda", "src/backend/emulated",
         "src/backend/none"]


def layer_of(path):
    """The layer of a repository path: include/tessera, src/<dir> or src/backend/<dir>."""
    parts = path.split("/")
    if parts[0] == "include":
        return "include/tessera"
    if parts[0] == "src" and len(parts) > 2:
        if parts[1] == "backend" and len(parts) > 3:
            return "src/backend/" + parts[2]
        return "src/" + parts[1]
    return None


def resolve(including, name):
    """The repository path an #include "name" in file `including` reads, or None."""
    if name.startswith("tessera/"):
        return "include/" + name
    for base in (os.path.dirname(including), "src"):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
    return None


def graph():
    """{layer: {included layer: [example 'file -> include']}} over src/ and include/."""
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for top in ("include", "src"):
        for dirpath, _, filenames in os.walk(os.path.join(ROOT, top)):
            for name in sorted(filenames):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), ROOT)
                src_layer = layer_of(path)
                with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    target = resolve(path, m.group(1))
                    if target is None:  # a generated header (config.hpp) or a system one
                        continue
                    dst_layer = layer_of(target)
                    if dst_layer and dst_layer != src_layer:
                        edges[src_layer][dst_layer].append(f"{path} -> {m.group(1)}")
    return edges


def violations(edges):
    out = []
    for src, targets in sorted(edges.items()):
        for dst, examples in sorted(targets.items()):
            if dst == "include/tessera":
                continue
            if src == "include/tessera" or dst not in ALLOWED.get(src, set()):
                out.append(f"{src} may not include {dst}: {examples[0]}")
    return out


def picture(edges):
    lines = ["layer                  includes (besides include/tessera)"]
    for layer in ORDER:
        deps = [d for d in ORDER if d != "include/tessera" and d in edges.get(layer, {})]
        lines.append(f"{layer:<22} {', '.join(deps) if deps else '-'}")
    return "\n".join(lines)


def block(edges):
    return f"{BEGIN}\n```text\n{picture(edges)}\n```\n{END}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    edges = graph()
    broken = violations(edges)
    for line in broken:
        print(f"check_layers: {line}", file=sys.stderr)
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    match = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), doc, re.S)
    if args.update:
        if not match:
            sys.exit(f"check_layers: {DOC} has no {BEGIN} block")
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(doc[: match.start()] + block(edges) + doc[match.end():])
    elif args.check:
        if not match or match.group(0) != block(edges):
            print("check_layers: the layer picture in docs/architecture.md is stale; run "
                  "tools/check_layers.py --update", file=sys.stderr)
            sys.exit(1)
    else:
        print(picture(edges))
    if broken:
        sys.exit(1)
    if args.check:
        print(f"check_layers: {len(ORDER)} layers, every include follows the rules, "
              "docs/architecture.md is current")


if __name__ == "__main__":
    main()
