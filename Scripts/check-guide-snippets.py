#!/usr/bin/env python3
"""Keeps the Swift code shown in Guides/*.md and README.md identical to real,
compiled code.

Source side: any Swift file under Sources/ or Tests/ (and Package.swift), of
the root package or of Tools/, may
mark a region:

    // snippet:begin NAME
    ...code...
    // snippet:end NAME

Document side: a fenced Swift block right after a marker line

    <!-- snippet: NAME -->
    ```swift
    ...
    ```

must equal the region (markers removed, common indentation removed).

Rules (each violation fails):
  * every ```swift block in Guides/*.md and README.md has a snippet marker;
  * every marker names an existing region, and its block equals the region;
  * regions are well formed (begin/end pair up, names are unique).

Usage:
    Scripts/check-guide-snippets.py           # check; exit 1 on any difference
    Scripts/check-guide-snippets.py --write   # rewrite the documents' blocks from the sources
"""
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN = re.compile(r"^\s*// snippet:begin ([\w-]+)\s*$")
END = re.compile(r"^\s*// snippet:end ([\w-]+)\s*$")
MARKER = re.compile(r"^<!-- snippet: ([\w-]+) -->\s*$")
FENCE_OPEN = re.compile(r"^```(\w*)\s*$")


def dedent(lines):
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] if line.strip() else "" for line in lines]


def source_files():
    # The library package at the root, and the tools package (the example,
    # txkit, the benchmarks) under Tools/.
    for package in (ROOT, ROOT / "Tools"):
        yield package / "Package.swift"
        for folder in ("Sources", "Tests"):
            yield from sorted((package / folder).rglob("*.swift"))


def collect_regions(errors):
    regions = {}
    for path in source_files():
        if not path.exists():
            continue
        relative = path.relative_to(ROOT)
        open_name, open_line, body = None, 0, []
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            begin, end = BEGIN.match(line), END.match(line)
            if begin:
                if open_name:
                    errors.append(f"{relative}:{number}: snippet '{begin[1]}' begins inside '{open_name}'")
                open_name, open_line, body = begin[1], number, []
            elif end:
                if end[1] != open_name:
                    errors.append(f"{relative}:{number}: 'snippet:end {end[1]}' does not close '{open_name}'")
                elif open_name in regions:
                    errors.append(f"{relative}:{open_line}: snippet '{open_name}' is also defined in {regions[open_name][0]}")
                else:
                    regions[open_name] = (f"{relative}:{open_line}", dedent(body))
                open_name = None
            elif open_name:
                body.append(line.rstrip())
        if open_name:
            errors.append(f"{relative}:{open_line}: snippet '{open_name}' never ends")
    return regions


def documents():
    yield from sorted((ROOT / "Guides").glob("*.md"))
    if (ROOT / "README.md").exists():
        yield ROOT / "README.md"


def check_document(path, regions, errors, used, write):
    relative = path.relative_to(ROOT)
    lines = path.read_text().splitlines()
    output, index, changed = [], 0, False
    pending = None  # (name, line number) of a marker waiting for its block
    while index < len(lines):
        line = lines[index]
        marker = MARKER.match(line)
        fence = FENCE_OPEN.match(line)
        if marker:
            pending = (marker[1], index + 1)
            output.append(line)
            index += 1
            continue
        if fence:
            close = index + 1
            while close < len(lines) and lines[close].rstrip() != "```":
                close += 1
            if close == len(lines):
                errors.append(f"{relative}:{index + 1}: code block never closes")
                return
            block = lines[index + 1:close]
            if fence[1] == "swift":
                if pending is None:
                    errors.append(f"{relative}:{index + 1}: Swift block without a '<!-- snippet: NAME -->' marker")
                else:
                    name, marker_line = pending
                    if name not in regions:
                        errors.append(f"{relative}:{marker_line}: no source region named '{name}'")
                    else:
                        used.add(name)
                        origin, expected = regions[name]
                        if block != expected:
                            if write:
                                block, changed = expected, True
                            else:
                                diff = "\n".join(difflib.unified_diff(
                                    expected, block, fromfile=origin, tofile=f"{relative}:{index + 2}", lineterm=""))
                                errors.append(f"{relative}:{marker_line}: snippet '{name}' differs from {origin}\n{diff}")
            elif pending is not None:
                errors.append(f"{relative}:{pending[1]}: snippet marker is followed by a '{fence[1] or 'plain'}' block, not swift")
            output.extend([line, *block, lines[close]])
            pending = None
            index = close + 1
            continue
        if pending is not None and line.strip():
            errors.append(f"{relative}:{pending[1]}: snippet marker '{pending[0]}' is not followed by a code block")
            pending = None
        output.append(line)
        index += 1
    if write and changed:
        path.write_text("\n".join(output) + "\n")
        print(f"rewrote {relative}")


def main():
    write = "--write" in sys.argv[1:]
    errors, used = [], set()
    regions = collect_regions(errors)
    for path in documents():
        check_document(path, regions, errors, used, write)
    for message in errors:
        print(f"error: {message}", file=sys.stderr)
    if errors:
        print(f"{len(errors)} snippet problem(s). Edit the source region, then run "
              "Scripts/check-guide-snippets.py --write to copy it into the documents.", file=sys.stderr)
        return 1
    unused = sorted(set(regions) - used)
    print(f"snippets: {len(used)} region(s) shown in the documents match their sources"
          + (f"; not shown anywhere: {', '.join(unused)}" if unused else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
