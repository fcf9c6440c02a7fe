#!/usr/bin/env python3
"""Checks that migrated consumers name no GRDB type and none of the app's own
database holder or transaction types (Scripts/check-app-migration.sh).

For each consumer it reads the file of `SOURCES` that declares it (at top
level: `class`, `struct`, `actor` or `enum`) and, outside comments and
string literals, in the consumer's declaration and its extensions in that
file, looks for:

* a type GRDB declares at top level (read from its checkout, `--grdb`),
  unless the app declares a type of that name itself;
* a type of `--forbid` (the app's holder and transaction types);
* `import GRDB` (in a consumer `txkit migrate` rewrote: one it found
  consuming the abstractions already, `--already`, is the user's file as
  written).

A member type (`Shims.Database`) is not the top-level type of that name.

A name in a default argument of an initializer or a function (`db: any DB =
AppDatabase.shared.sqlite`) is allowed: that is production passing its
database, and callers may still pass anything. So are the names of another
declaration of the same file (a legacy finder kept beside its consumer, as
the user wrote it). Both are listed; anything else fails the check, with
the file and the line.

Usage: check-app-consumer-names.py --sources DIR --grdb DIR
       [--forbid "TypeA TypeB"] [--already "ConsumerA ConsumerB"] CONSUMER...
"""
import argparse
import pathlib
import re
import sys

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open|package|internal|fileprivate|private|final|nonisolated)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)",
    re.MULTILINE,
)
TOKEN = re.compile(r"[A-Za-z_]\w*|==|!=|<=|>=|->|\S")


def top_level_types(folder):
    """The names declared at the start of a line (top level) in the Swift files under folder."""
    names = set()
    for path in pathlib.Path(folder).rglob("*.swift"):
        names.update(DECLARATION.findall(path.read_text(encoding="utf-8")))
    return names


def strip_comments_and_strings(text):
    """The text with comments and string literals blanked out (newlines kept, so lines still count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j - 1]) + '"')
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('"' + " " * (j - i - 1) + '"')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tokens_with_lines(text):
    line = 1
    position = 0
    for match in TOKEN.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        yield match.group(0), line


def opens_parameter_clause(previous):
    """Whether a `(` after these tokens opens a declaration's parameter clause."""
    k = len(previous) - 1
    if k >= 0 and previous[k] in ("?", "!") and k >= 1 and previous[k - 1] == "init":
        return True
    if k >= 0 and previous[k] == ">":  # a generic clause: back to its `<`
        depth = 0
        while k >= 0:
            if previous[k] == ">":
                depth += 1
            elif previous[k] == "<":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        k -= 1
    if k >= 0 and previous[k] in ("init", "subscript"):
        return True
    return k >= 1 and previous[k - 1] == "func"


def violations(path, consumer, forbidden, check_import):
    """(line, name, where) for every forbidden name in path; where is "consumer"
    (in the consumer's declaration or an extension of it), "default" (there,
    in a default argument) or "elsewhere" (another declaration of the file)."""
    text = strip_comments_and_strings(path.read_text(encoding="utf-8"))
    found = []
    previous = []
    # One entry per open bracket: [closer, is a parameter clause, in a
    # default argument, opens the consumer's body].
    stack = []
    signature = False  # between `class Consumer` (or `extension Consumer`) and its `{`
    for token, line in tokens_with_lines(text):
        if token == consumer and previous[-1:] and previous[-1] in ("class", "struct", "actor", "enum", "extension"):
            signature = True
        if token in ("(", "[", "{"):
            clause = token == "(" and opens_parameter_clause(previous)
            body = token == "{" and signature
            signature = signature and not body
            stack.append([{"(": ")", "[": "]", "{": "}"}[token], clause, False, body])
        elif token in (")", "]", "}"):
            if stack:
                stack.pop()
        elif stack and stack[-1][1] and token == "=":
            stack[-1][2] = True
        elif stack and stack[-1][1] and token == ",":
            stack[-1][2] = False
        elif token in forbidden and not (previous[-1:] == ["."] and previous[-2:-1] != ["GRDB"]):
            if not (signature or any(entry[3] for entry in stack)):
                where = "elsewhere"
            elif any(entry[1] and entry[2] for entry in stack):
                where = "default"
            else:
                where = "consumer"
            found.append((line, token, where))
        previous.append(token)
    for number, source_line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if check_import and re.match(r"\s*(@\w+\s+)*import\s+GRDB\b", source_line):
            found.append((number, "import GRDB", "consumer"))
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", required=True)
    parser.add_argument("--grdb", required=True)
    parser.add_argument("--forbid", default="")
    parser.add_argument("--already", default="", help="consumers txkit found consuming only the abstractions already")
    parser.add_argument("consumers", nargs="+")
    arguments = parser.parse_args()

    grdb = top_level_types(arguments.grdb)
    if len(grdb) < 100:
        sys.exit(f"error: only {len(grdb)} GRDB types read from {arguments.grdb}: is it GRDB's source folder?")
    app_types = top_level_types(arguments.sources)
    forbidden = (grdb - app_types) | set(arguments.forbid.split())
    sources = sorted(pathlib.Path(arguments.sources).rglob("*.swift"))

    failures = 0
    already = arguments.already.split()
    for consumer in arguments.consumers + already:
        declaration = re.compile(
            r"^(?:@\w+\s+)*(?:(?:public|open|package|internal|final)\s+)*(?:class|struct|actor|enum)\s+"
            + re.escape(consumer) + r"\b",
            re.MULTILINE,
        )
        files = [p for p in sources if declaration.search(p.read_text(encoding="utf-8"))]
        if len(files) != 1:
            print(f"error: {consumer}: declared in {len(files)} files of {arguments.sources}", file=sys.stderr)
            failures += 1
            continue
        path = files[0]
        found = violations(path, consumer, forbidden, check_import=consumer not in already)
        bad = [(line, name) for line, name, where in found if where == "consumer"]
        notes = []
        for where, label in (("default", "in default arguments"), ("elsewhere", "in the file's other declarations")):
            names = sorted({name for _, name, w in found if w == where})
            if names:
                notes.append(f"{label}: {', '.join(names)}")
        note = f" ({'; '.join(notes)})" if notes else ""
        if bad:
            failures += 1
            for line, name in bad:
                what = "imports GRDB" if name == "import GRDB" else f"names {name}"
                print(f"{path}:{line}: error: {consumer} {what}", file=sys.stderr)
        else:
            print(f"   {consumer} ({path}): no GRDB type, no holder{note}")
    if failures:
        sys.exit(f"error: {failures} consumers name GRDB or the app's holder (above)")


if __name__ == "__main__":
    main()
