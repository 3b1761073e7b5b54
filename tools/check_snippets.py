#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that every code block in README.md and docs/ is cut from compiled code, so the docs
cannot drift from it. Python 3 standard library only.

Sources mark regions with comment lines (C++ `//` or CMake/shell `#`):

    // [snippet:scatter-seed]
    ...code...
    // [end-snippet]

Markdown takes a region, or a whole file (e.g. an example's expected output), with an HTML
comment on the line before the fence:

    <!-- snippet:scatter-seed -->
    ```cpp
    ...must equal the region, dedented...
    ```

    <!-- snippet-file:examples/expected/nonzero.txt -->
    ```text
    ...must equal the file (less snippet markers and clang-format off/on lines)...
    ```

Rules: a fence tagged cpp, c++, cxx, cu, cuda or cmake must carry a snippet marker; a fence
without a language tag is an error (say `text` for output, `sh` for commands); fences in any
other language (sh, text, console, python, ...) are exempt: they are commands or output that
no compiler checks. Unknown snippet names, duplicate or unterminated regions are errors.

    python3 tools/check_snippets.py            # check; exit 1 with file:line messages
    python3 tools/check_snippets.py --update   # rewrite the marked blocks from the sources
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_DIRS = ("examples", "tests", "include", "bench", "cmake")
SOURCE_EXTS = (".cpp", ".hpp", ".cu", ".cuh", ".txt", ".cmake", ".in")
CHECKED_LANGS = {"cpp", "c++", "cxx", "cu", "cuda", "cmake"}

BEGIN = re.compile(r"^\s*(?://|#)\s*\[snippet:([A-Za-z0-9_.-]+)\]\s*$")
END = re.compile(r"^\s*(?://|#)\s*\[end-snippet\]\s*$")
# Tool directives and licence lines left out of whole-file snippets, like the markers themselves.
DIRECTIVE = re.compile(r"^\s*(?://|#)\s*(?:clang-format (?:off|on)|SPDX-License-Identifier: \S+)\s*$")
MARKER = re.compile(r"^\s*<!--\s*snippet(-file)?:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")


def dedent(lines):
    width = min((len(l) - len(l.lstrip(" ")) for l in lines if l.strip()), default=0)
    return [l[width:] if l.strip() else "" for l in lines]


def source_files():
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXTS):
                    yield os.path.join(dirpath, name)
    yield os.path.join(ROOT, "CMakeLists.txt")


def collect_snippets(errors):
    """{name: (lines, 'path:line')} of every marked region."""
    snippets = {}
    for path in source_files():
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        name, start, body = None, 0, []
        for number, line in enumerate(lines, 1):
            begin, end = BEGIN.match(line), END.match(line)
            if begin:
                if name:
                    errors.append(f"{rel}:{number}: snippet '{begin[1]}' opens inside '{name}'")
                name, start, body = begin[1], number, []
            elif end:
                if not name:
                    errors.append(f"{rel}:{number}: [end-snippet] without [snippet:...]")
                    continue
                if name in snippets:
                    errors.append(f"{rel}:{start}: snippet '{name}' also defined at "
                                  f"{snippets[name][1]}")
                snippets[name] = (dedent(body), f"{rel}:{start}")
                name = None
            elif name:
                body.append(line.rstrip())
        if name:
            errors.append(f"{rel}:{start}: snippet '{name}' has no [end-snippet]")
    return snippets


def markdown_files():
    yield os.path.join(ROOT, "README.md")
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, "docs")):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                yield os.path.join(dirpath, name)


def check_markdown(path, snippets, used, errors, update):
    """Checks (or rewrites) the fenced blocks of one markdown file; returns #blocks checked."""
    rel = os.path.relpath(path, ROOT)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i, checked, changed = [], 0, 0, False
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            out.append(lines[i])
            i += 1
            continue
        indent, ticks, lang = fence[1], fence[2], fence[3].lower()
        close = next((j for j in range(i + 1, len(lines))
                      if lines[j].strip().startswith(ticks[0] * len(ticks))
                      and not lines[j].strip().strip(ticks[0])), None)
        if close is None:
            errors.append(f"{rel}:{i + 1}: unterminated code fence")
            out.extend(lines[i:])
            break
        body = [l[len(indent):] if l.startswith(indent) else l for l in lines[i + 1:close]]
        previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = MARKER.match(previous)
        want = None
        if marker and marker[1]:  # snippet-file:PATH
            file_path = os.path.join(ROOT, marker[2])
            if os.path.isfile(file_path):
                with open(file_path, encoding="utf-8") as f:
                    # The file without its snippet markers (they are for other pages) and
                    # clang-format directives.
                    want = [l for l in f.read().rstrip("\n").split("\n")
                            if not (BEGIN.match(l) or END.match(l) or DIRECTIVE.match(l))]
            else:
                errors.append(f"{rel}:{i + 1}: snippet-file '{marker[2]}' does not exist")
        elif marker:
            if marker[2] in snippets:
                want = snippets[marker[2]][0]
                used.add(marker[2])
            else:
                errors.append(f"{rel}:{i + 1}: no source region [snippet:{marker[2]}]")
        elif not lang:
            errors.append(f"{rel}:{i + 1}: code fence without a language (use text, sh, cpp ...)")
        elif lang in CHECKED_LANGS:
            errors.append(f"{rel}:{i + 1}: {lang} block without <!-- snippet:NAME --> "
                          "(cut it from a compiled example or test)")
        if want is not None:
            checked += 1
            if body != want:
                if update:
                    body, changed = want, True
                else:
                    first = next((k for k, (a, b) in enumerate(zip(body, want)) if a != b),
                                 min(len(body), len(want)))
                    errors.append(f"{rel}:{i + 2 + first}: block differs from "
                                  f"{marker[2]} (line {first + 1}: doc {body[first:first + 1]} "
                                  f"vs source {want[first:first + 1]}); run "
                                  "tools/check_snippets.py --update")
        out.append(lines[i])
        out.extend(indent + l if l else l for l in body)
        out.append(lines[close])
        i = close + 1
    if changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        print(f"updated {rel}")
    return checked


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true",
                        help="rewrite marked blocks from their sources instead of failing")
    args = parser.parse_args()
    errors, used = [], set()
    snippets = collect_snippets(errors)
    checked = sum(check_markdown(p, snippets, used, errors, args.update)
                  for p in markdown_files())
    for name in sorted(set(snippets) - used):
        print(f"note: {snippets[name][1]}: snippet '{name}' is not used by any page")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"check_snippets: {checked} blocks checked against {len(snippets)} source regions, "
          f"{len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
