#!/usr/bin/env python3
"""Every `swift test … --filter F` command in README.md and Guides/ selects
at least one test of the package it runs in.

`swift test --filter MessagingTests` from the repository's root ran 0 tests
and passed (the example's tests are in Tools/): a command that selects
nothing looks like a passing one. This check reads the commands (in code
blocks and inline code), finds the package each runs in (`--package-path`,
the root otherwise), lists that package's tests from their sources
(`Module.Type/function()` for every `@Test` function and XCTest `test…`
method, over every type declared in the same file), and reports each
filter that matches none of them, with the document and the line.

It reads sources, not a build: it runs in a second, and it cannot tell a
test that is compiled out by a trait (the PostgreSQL suites) from one that
runs; those are listed like the others.

Usage: python3 Scripts/check-guide-test-filters.py
"""
import pathlib
import re
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "Guides").glob("*.md"))]

TYPE = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final)\s+)*"
                  r"(?:struct|class|enum|actor|extension)\s+(\w+)", re.M)
TEST_FUNCTION = re.compile(r"@Test\b[^\n]*?(?:\n\s*@[^\n]*)*\s*(?:(?:static|nonisolated|public|package|internal|private)\s+)*"
                           r"func\s+(\w+)\s*\(")
XCTEST_METHOD = re.compile(r"func\s+(test\w*)\s*\(\s*\)")
COMMAND = re.compile(r"swift test\b[^`\n#\"]*")


def test_identifiers(package: pathlib.Path) -> list[str]:
    identifiers = []
    for module in sorted((package / "Tests").iterdir()):
        if not module.is_dir():
            continue
        for source in module.rglob("*.swift"):
            text = source.read_text(encoding="utf-8")
            types = TYPE.findall(text) or [source.stem]
            functions = TEST_FUNCTION.findall(text) + XCTEST_METHOD.findall(text)
            for type_name in types:
                for function in functions:
                    identifiers.append(f"{module.name}.{type_name}/{function}()")
    return identifiers


def filters_of(command: str) -> tuple[str, list[str]]:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    package = "."
    filters = []
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if word == "--package-path" and following:
            package = following
        elif word == "--filter" and following:
            filters.append(following)
        elif word.startswith("--filter="):
            filters.append(word.split("=", 1)[1])
    return package, filters


def main() -> int:
    packages: dict[str, list[str]] = {}
    checked = 0
    failures = []
    for document in DOCUMENTS:
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), start=1):
            for match in COMMAND.finditer(line):
                package, filters = filters_of(match.group(0))
                if not filters:
                    continue
                directory = ROOT / package
                if not (directory / "Package.swift").exists():
                    failures.append(f"{document.relative_to(ROOT)}:{number}: --package-path {package} is not a package")
                    continue
                identifiers = packages.setdefault(package, test_identifiers(directory))
                checked += 1
                try:
                    for pattern in filters:
                        re.compile(pattern)
                except re.error as error:
                    failures.append(f"{document.relative_to(ROOT)}:{number}: `{match.group(0).strip()}`: "
                                    f"the filter is not a regular expression ({error})")
                    continue
                if not any(re.search(pattern, identifier) for pattern in filters for identifier in identifiers):
                    where = "the root package" if package == "." else package
                    failures.append(
                        f"{document.relative_to(ROOT)}:{number}: `{match.group(0).strip()}` selects no test of "
                        f"{where} (its filters: {', '.join(filters)})")
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    print(f"guide test filters: {checked} command(s) checked, {len(failures)} select nothing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
