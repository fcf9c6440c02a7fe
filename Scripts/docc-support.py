#!/usr/bin/env python3
"""Helpers for Scripts/build-docs.sh; not meant to be run by hand.

  docc-support.py import-guides GUIDES_DIR CATALOG_DIR
      Copies Guides/*.md into a (temporary) documentation catalog as DocC
      articles: GitHub-style links between guides and to their own headings
      become <doc:Guide#Heading> links, which DocC checks; the first
      paragraph stays the abstract, and the sections move down one level
      under an "Overview" heading (unless the guide has one), the layout
      DocC expects of an article; snippet markers are dropped. The guides in
      the repository are not changed.

  docc-support.py diagnostics FILE
      Prints "WARNINGS NOTES" counted in a `docc convert --diagnostics-file`
      file (errors count as warnings: --warnings-as-errors turns one into
      the other).

  docc-support.py check-curation MODULE SYMBOL_GRAPH_DIR ARCHIVE
      Fails unless every public symbol declared in MODULE's sources (its own
      symbol graph and its extensions of other modules' types) is linked
      from a `## Topics` group written in the module's catalog or doc
      comments. DocC's automatic curation ("Instance Methods", ...) does not
      count. Symbols the compiler synthesizes (Equatable's `!=`, `hashValue`,
      a raw-value `init`) and members inherited from another module are not
      checked. Prints "SYMBOLS CURATED" on the last line.
"""

import json
import pathlib
import re
import sys
import unicodedata


# -- import-guides -----------------------------------------------------------

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def github_slug(title):
    """The anchor GitHub gives a Markdown heading."""
    slug = title.strip().lower()
    slug = re.sub(r"[^\w\- ]", "", slug)
    return slug.replace(" ", "-")


def docc_fragment(title):
    """The anchor DocC gives a heading: words joined by dashes, punctuation
    (and backticks) removed, case kept."""
    words = [w for w in re.split(r"[\s\-\u2013\u2014]+", title.strip()) if w]
    joined = "-".join(words)
    return "".join(
        c for c in joined
        if c == "-" or not (unicodedata.category(c).startswith("P") or c == "`"))


def split_fenced(lines):
    """Yields (line, in_code) pairs, fences included as code."""
    fence = None
    for line in lines:
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            yield line, True
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            yield line, True
        else:
            yield line, False


def as_article(lines, rewrite_link):
    """A guide's lines as a DocC article: title, abstract (the first
    paragraph), "## Overview", then the sections one level down."""
    has_overview = any(
        not in_code and re.match(r"^##\s+Overview\s*$", line)
        for line, in_code in split_fenced(lines))
    out = []
    state = "before title"  # then "before abstract", "in abstract", "body"
    for line, in_code in split_fenced(lines):
        if in_code:
            out.append(line)
            continue
        match = HEADING.match(line)
        level = len(match.group(1)) if match else 0
        if state == "before title":
            if level == 1:
                state = "before abstract"
            out.append(line)
            continue
        if state == "before abstract" and line.strip():
            state = "in abstract"
        elif state == "in abstract" and not line.strip():
            state = "body"
            if not has_overview:
                out.extend(["", "## Overview"])
        if level >= 2 and not (level == 2 and match.group(2) == "Overview"):
            line = "#" * min(level + 1, 6) + " " + match.group(2)
        elif not match and line.lstrip().startswith("<!--") and line.rstrip().endswith("-->"):
            continue  # snippet markers: for Scripts/check-guide-snippets.py only
        out.append(line)
    if state != "body":
        return None
    # Links, also those whose text wraps onto the next line; not in code.
    article, prose = [], []

    def flush():
        if prose:
            article.extend(LINK.sub(rewrite_link, "\n".join(prose)).split("\n"))
            prose.clear()

    for line, in_code in split_fenced(out):
        if in_code:
            flush()
            article.append(line)
        else:
            prose.append(line)
    flush()
    return article


def import_guides(guides_dir, catalog_dir):
    guides = sorted(pathlib.Path(guides_dir).glob("*.md"))
    stems = {g.name: g.stem for g in guides}
    fragments = {}  # guide stem -> {GitHub anchor: DocC anchor}
    for guide in guides:
        fragments[guide.stem] = {
            github_slug(match.group(2)): docc_fragment(match.group(2))
            for line, in_code in split_fenced(guide.read_text().splitlines())
            if not in_code and (match := HEADING.match(line)) and len(match.group(1)) > 1
        }

    errors = []
    for guide in guides:
        def rewrite_link(match, guide=guide):
            text, target = match.group(1), match.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                return match.group(0)  # https:, mailto:, doc:
            path, _, anchor = target.partition("#")
            name = pathlib.PurePosixPath(path).name
            stem = stems.get(name) if path else guide.stem
            if stem is None:
                errors.append(f"{guide.name}: link to {target}, which is not a guide: DocC cannot "
                              "follow it (link to the file on the forge, or name the path in code voice)")
                return match.group(0)
            if not anchor:
                # "[Testing.md](Testing.md)" shows the article's title instead.
                return f"<doc:{stem}>" if text == name else f"[{text}](<doc:{stem}>)"
            fragment = fragments[stem].get(anchor)
            if fragment is None:
                errors.append(f"{guide.name}: link to {target}: no such heading in {stem}.md")
                return match.group(0)
            return f"[{text}](<doc:{stem}#{fragment}>)"

        article = as_article(guide.read_text().splitlines(), rewrite_link)
        if article is None:
            errors.append(f"{guide.name}: a title, then an abstract paragraph, then the body")
            continue
        (pathlib.Path(catalog_dir) / guide.name).write_text("\n".join(article) + "\n")
    for error in errors:
        print(f"error: Guides/{error}", file=sys.stderr)
    return 1 if errors else 0


# -- diagnostics -------------------------------------------------------------

def diagnostics(path):
    data = json.loads(pathlib.Path(path).read_text())
    severities = [d.get("severity") for d in data.get("diagnostics", [])]
    warnings = sum(s in ("warning", "error") for s in severities)
    notes = len(severities) - warnings
    print(warnings, notes)
    return 0


# -- check-curation ----------------------------------------------------------

def symbols_to_check(module, graph_dir):
    """USR -> display path of each public symbol declared in the module's
    own sources, from <module>.symbols.json and <module>@Other.symbols.json."""
    found = {}
    sources = f"/Sources/{module}/"
    files = [graph_dir / f"{module}.symbols.json", *sorted(graph_dir.glob(f"{module}@*.symbols.json"))]
    for path in files:
        if not path.exists():
            continue
        for symbol in json.loads(path.read_text())["symbols"]:
            usr = symbol["identifier"]["precise"]
            components = symbol["pathComponents"]
            if symbol["accessLevel"] not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in usr or symbol["kind"]["identifier"] == "swift.extension":
                continue
            if any(c.startswith("_") for c in components):
                continue
            # No location: made by the compiler (a raw-value init, hashValue).
            # A location outside the module: inherited from another module.
            if sources not in symbol.get("location", {}).get("uri", ""):
                continue
            extended = "" if path.name == f"{module}.symbols.json" else path.name.split("@")[1].split(".")[0] + "/"
            found[usr] = extended + "/".join(components)
    return found


def check_curation(module, graph_dir, archive):
    graph_dir, archive = pathlib.Path(graph_dir), pathlib.Path(archive)
    wanted = symbols_to_check(module, graph_dir)
    entities = json.loads((archive / "linkable-entities.json").read_text())
    reference_of = {e["usr"]: e["referenceURL"] for e in entities if "usr" in e}

    curated = set()
    for page in (archive / "data" / "documentation").rglob("*.json"):
        for section in json.loads(page.read_text()).get("topicSections", []):
            if not section.get("generated", False):
                curated.update(section.get("identifiers", []))

    missing = []
    for usr, path in sorted(wanted.items(), key=lambda item: item[1]):
        reference = reference_of.get(usr)
        if reference is None:
            missing.append(f"{path} (no page in the archive)")
        elif reference not in curated:
            missing.append(f"{path}  <{reference.split('/documentation/', 1)[-1]}>")
    for entry in missing:
        print(f"error: {module}: public symbol not curated in any ## Topics group: {entry}", file=sys.stderr)
    print(len(wanted), len(wanted) - len(missing))
    return 1 if missing else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "import-guides":
        return import_guides(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "diagnostics":
        return diagnostics(argv[2])
    if len(argv) == 5 and argv[1] == "check-curation":
        return check_curation(argv[2], argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
