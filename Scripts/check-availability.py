#!/usr/bin/env python3
"""The availability audit: no API above the package's Apple floor, checked on Linux.

    python3 Scripts/check-availability.py [--build-path .build] [--modules A,B | --tests] [--list-foundation]
    python3 Scripts/check-availability.py --self-test
    python3 Scripts/check-availability.py --all   (the three above, each module type-checked once)

The floor is read from Package.swift (`platforms:`). For each audited module
(the library, the testing modules and the generator, whichever the build at
--build-path compiled; with --tests, every module the build compiled from
Tests/: the test targets, their shared support target and the fixtures
that `swift test` compiles) the audit asks the compiler for the type-checked AST
(`swiftc -dump-ast -dump-ast-format json`, with the module's own arguments
from the build's debug.yaml), and collects every declaration a module refers
to (by USR) and every type it spells (demangled). It looks each one up in:

* the symbol graphs of the toolchain's modules (Swift, _Concurrency,
  _StringProcessing, Synchronization, Observation, Testing) and of the
  built dependencies (GRDB, swift-syntax, swift-argument-parser, ...), from
  swift-symbolgraph-extract, which carry their Apple `@available`
  introductions even on Linux (a member inherits its type's);
* the package's own `@available` declarations;
* for Foundation and Dispatch, whose Linux modules carry no Apple
  availability, FOUNDATION_ABOVE_FLOOR below: the APIs newer than the
  floor that a library like this one is tempted to use. Any other
  Foundation or Dispatch API is taken to be at the floor: `--list-foundation`
  prints the ones the package uses, for a reviewer to check.

A use is fine when, on every Apple platform of the floor, the API was
introduced at or below the availability of the place that uses it: the
floor, raised by the enclosing declarations' `@available` and by an
enclosing `if #available` / `guard #available`. Anything else is reported
with its file and line, and the audit exits 1.

One use is the compiler's, not the code's, and is skipped: a `for await`
loop calls `next(isolation:)` (iOS 18) where the deployment target has it
and `next()` below, so on Linux its AST always names the newer one.

What it cannot see: code under `#if os(macOS)` / `#if canImport(Darwin)`
(Linux never compiles it), Apple-only frameworks, the real Apple SDK's
availability of Foundation and Dispatch beyond the list, C functions
(`c:` USRs), and what the optimizer or the runtime needs (a back-deployed
concurrency runtime). A test target is held to the same floor, since
`swift test` on a Mac compiles it against the package's platforms; Tools/
is not audited: its package declares macOS 15 and is never in an app's
graph.

--self-test type-checks TransactionKit with one more source file, the plant:
`Atomic` (iOS 18), then `withDiscardingTaskGroup` (iOS 17), then
`ContinuousClock` (iOS 16), then a class that conforms to `Observable`
(iOS 17) in its inheritance clause, and checks that the audit fails on each
at the planted line; then the same uses behind `@available`, `if #available` and
`guard #available`, and `AsyncStream.makeStream` (back-deployed to iOS 13),
and checks that it passes. Then the same in a test target (when the build
compiled the tests): `Mutex` (iOS 18), `Task.sleep(for:)` (iOS 16) and a
suite's `.timeLimit` (Swift Testing's, iOS 16) planted in
TransactionKitTestingTests fail the audit, and pass behind `@available`.
Nothing in the tree changes.

Python, not Swift: the audit is JSON plumbing around the compiler, and a
script runs in CI without a build of its own.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The modules an app links (the library and testing products) and the
# generator; a module the build did not compile is skipped (the generator
# needs the `Txkit` trait, PostgreSQL the `Postgres` trait).
AUDITED_MODULES = [
    "TransactionKit",
    "TransactionKitSQLite",
    "TransactionKitTesting",
    "TransactionKitSQLiteTesting",
    "TransactionKitPostgres",
    "TxkitGenerator",
    "TxkitCommands",
    "txkit",
]

PLATFORMS = ["macOS", "iOS", "tvOS", "watchOS"]

# Toolchain modules whose symbol graphs carry Apple availability.
TOOLCHAIN_MODULES = ["Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Observation", "Testing"]

# Foundation and Dispatch on Linux carry no Apple availability: these are
# the APIs above the floor (iOS 15, macOS 12) that the audit refuses, as
# patterns on the demangled declaration, each with the first Apple release
# that has it (Apple's documentation). Dispatch has none the package could
# reach for: everything in it predates iOS 13.
FOUNDATION_ABOVE_FLOOR = [
    (r"^Foundation\.URL\.appending\(path:|^Foundation\.URL\.appending\(component", "iOS 16, macOS 13"),
    (r"^Foundation\.URL\.init\(filePath:", "iOS 16, macOS 13"),
    (r"^Foundation\.URL\.path\(percentEncoded:", "iOS 16, macOS 13"),
    (r"^Foundation\.URL\.(homeDirectory|temporaryDirectory|currentDirectory|documentsDirectory|cachesDirectory)\b", "iOS 16, macOS 13"),
    (r"^Foundation\.URL\.DirectoryHint\b", "iOS 16, macOS 13"),
    (r"^Foundation\.Locale\.(Language|Region|Components)\b", "iOS 16, macOS 13"),
    (r"^Foundation\.(Predicate|Expression)\b|^Foundation\.PredicateExpressions\b", "iOS 17, macOS 14"),
    (r"^Foundation\.Calendar\.RecurrenceRule\b", "iOS 18, macOS 15"),
    (r"^Foundation\.NSLocking\.withLock\b", "iOS 16, macOS 13"),
    (r"^Foundation\.Duration\b|\.UnitsFormatStyle\b|\.TimeFormatStyle\b", "iOS 16, macOS 13"),
    (r"^Foundation\.Date\.(RelativeFormatStyle|AnchoredRelativeFormatStyle)\b", "iOS 18, macOS 15"),
    (r"^Foundation\.URL\.Template\b|^Foundation\.URLResource\b", "iOS 18, macOS 15"),
]


# MARK: - Versions and contexts

def parse_version(text):
    parts = [int(p) for p in re.findall(r"\d+", str(text))]
    return tuple((parts + [0, 0])[:3])


def read_floor(package_swift):
    text = open(package_swift).read()
    block = re.search(r"platforms:\s*\[(.*?)\]", text, re.S)
    if not block:
        sys.exit(f"{package_swift}: no platforms: list")
    floor = {}
    for name, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS)\(\.v(\d+(?:_\d+)*)\)", block.group(1)):
        floor[name] = parse_version(version.replace("_", "."))
    missing = [p for p in PLATFORMS if p not in floor]
    if missing:
        sys.exit(f"{package_swift}: platforms: does not name {', '.join(missing)}")
    return floor


def show(version):
    major, minor, patch = version
    return f"{major}.{minor}" + (f".{patch}" if patch else "")


def refine(context, attrs):
    """The availability inside a declaration with `attrs`."""
    refined = dict(context)
    for attr in attrs or []:
        if attr.get("_kind") != "available_attr":
            continue
        domain = attr.get("domain")
        if domain not in PLATFORMS:
            continue
        if attr.get("unavailable") or attr.get("kind") == "unavailable":
            refined[domain] = (999, 0, 0)   # never runs there: nothing to check
        elif attr.get("introduced"):
            refined[domain] = max(refined[domain], parse_version(attr["introduced"]))
    return refined


def refine_by_queries(context, conditions):
    refined = dict(context)
    for condition in conditions or []:
        if condition.get("_kind") != "#available":
            continue
        for spec in condition.get("queries", []):
            domain = spec.get("domain")
            if domain in PLATFORMS and spec.get("version"):
                refined[domain] = max(refined[domain], parse_version(spec["version"]))
    return refined


def has_available_query(conditions):
    return any(c.get("_kind") == "#available" for c in conditions or [])


# MARK: - Symbol graphs

def symbol_availability(symbol):
    result = {}
    for entry in symbol.get("availability") or []:
        domain = entry.get("domain")
        if domain in PLATFORMS and entry.get("introduced"):
            i = entry["introduced"]
            result[domain] = (i.get("major", 0), i.get("minor", 0), i.get("patch", 0))
    return result


def least(a, b):
    """What is available where either is: per platform, the older one."""
    return {d: min(v, b[d]) for d, v in a.items() if d in b}


def merge(a, b):
    out = dict(a)
    for domain, version in b.items():
        out[domain] = max(out.get(domain, (0, 0, 0)), version)
    return out


class Table:
    """USR -> Apple introductions, and qualified type name -> introductions."""

    def __init__(self):
        self.by_usr = {}
        self.by_name = {}

    def load_graph(self, path):
        graph = json.load(open(path))
        module = graph["module"]["name"]
        module = "Swift" if module in ("_Concurrency", "_StringProcessing") else module
        own = {}
        paths = {}
        defaults = {}
        for symbol in graph.get("symbols", []):
            usr = symbol["identifier"]["precise"]
            own[usr] = symbol_availability(symbol)
            paths[usr] = symbol.get("pathComponents", [])
        parent = {}
        for relation in graph.get("relationships", []):
            if relation.get("kind") in ("memberOf", "optionalRequirementOf", "requirementOf"):
                parent.setdefault(relation["source"], relation["target"])
            elif relation.get("kind") == "defaultImplementationOf":
                defaults.setdefault(relation["target"], []).append(relation["source"])
        def inherited(usr):
            effective, seen, current = dict(own.get(usr, {})), set(), parent.get(usr)
            while current and current not in seen:
                seen.add(current)
                effective = merge(effective, own.get(current, {}))
                current = parent.get(current)
            return effective

        for usr in own:
            effective = inherited(usr)
            # A requirement newer than its protocol's default implementation
            # (`FixedWidthInteger.&*`, a requirement from iOS 18 with a
            # default implementation from the start): where the requirement
            # is not available, the compiler picks the default
            # implementation, so the call needs only what that one needs.
            # On Linux the AST always names the requirement.
            for implementation in defaults.get(usr, []):
                effective = least(effective, inherited(implementation))
            if effective:
                self.by_usr[usr] = merge(self.by_usr.get(usr, {}), effective)
                name = module + "." + ".".join(paths[usr])
                self.by_name[name] = merge(self.by_name.get(name, {}), effective)


def extract_graphs(modules, work, extra_args):
    out = os.path.join(work, "symbolgraphs")
    os.makedirs(out, exist_ok=True)
    target = host_target()

    def extract(module):
        result = subprocess.run(
            ["swift-symbolgraph-extract", "-module-name", module, "-target", target,
             "-output-dir", out, "-minimum-access-level", "public"] + extra_args,
            capture_output=True, text=True)
        if result.returncode != 0 and module in ("Swift", "_Concurrency", "Synchronization"):
            sys.exit(f"swift-symbolgraph-extract -module-name {module} failed:\n{result.stderr}")
    on_every_core(extract, modules)
    return [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith(".symbols.json")]


def on_every_core(function, items):
    """`[function(item) for item in items]`, the calls (each a compiler
    process) spread over the machine's cores; a `sys.exit` in one is
    raised here."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(function, items))


_host = None


def host_target():
    global _host
    if _host is None:
        info = json.loads(subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True).stdout)
        _host = info["target"]["triple"]
    return _host


# MARK: - The build's compile commands

def module_commands(build_path):
    yaml = os.path.join(build_path, "debug.yaml")
    if not os.path.exists(yaml):
        sys.exit(f"{yaml}: no debug build (run swift build --traits Txkit first)")
    commands = {}
    lines = open(yaml).read().split("\n")
    for index, line in enumerate(lines):
        match = re.search(r"description: \"Compiling Swift Module '([^']+)'", line)
        if match and index + 1 < len(lines) and "args: " in lines[index + 1]:
            commands[match.group(1)] = json.loads(lines[index + 1].split("args: ", 1)[1])
    return commands


DROP_FLAG = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
             "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-g", "-enable-testing",
             "-whole-module-optimization", "-wmo"}
DROP_FLAG |= {"-emit-symbol-graph", "-emit-extension-block-symbols"}
DROP_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path",
                   "-emit-symbol-graph-dir", "-symbol-graph-minimum-access-level"}


def dump_arguments(args, sources=None):
    """The module's arguments for -dump-ast: no outputs, same inputs."""
    out, items = [], iter(args[1:])
    for arg in items:
        if arg in ("-Xcc", "-Xfrontend", "-Xlinker"):
            out += [arg, next(items)]
        elif arg in DROP_FLAG or re.fullmatch(r"-j\d+", arg):
            continue
        elif arg in DROP_WITH_VALUE:
            next(items)
        elif arg.startswith("@") and sources is not None:
            out.append("@" + sources)
        else:
            out.append(arg)
    return out


def clang_arguments(args):
    out, items = [], iter(args[1:])
    for arg in items:
        if arg == "-Xcc":
            out += [arg, next(items)]
        elif arg == "-I":
            out += [arg, next(items)]
    return out


# A module's dump, by its arguments: `--all` audits the library, then the
# test targets with the library as their context, then the self-test's
# test targets with theirs, and each library module is type-checked once.
_dumps = {}


def dump_ast(args, sources=None):
    """The module's source files, type-checked (a plant's, `sources`, is
    never kept)."""
    if sources is not None:
        return _dump_ast(args, sources)
    key = json.dumps(args)
    if key not in _dumps:
        _dumps[key] = _dump_ast(args)
    return _dumps[key]


def _dump_ast(args, sources=None):
    result = subprocess.run(["swiftc", "-dump-ast", "-dump-ast-format", "json"] + dump_arguments(args, sources),
                            capture_output=True, text=True)
    # One frontend job prints the AST on stdout, several on stderr (with
    # any diagnostics).
    text = result.stdout + "\n" + result.stderr
    decoder, files, position = json.JSONDecoder(), [], 0
    while True:
        start = text.find('{"_kind":"source_file"', position)
        if start < 0:
            break
        value, position = decoder.raw_decode(text, start)
        files.append(value)
    if result.returncode != 0 or not files:
        sys.exit("swiftc -dump-ast failed:\n" + re.sub(r'\{"_kind":"source_file".*', "", text)[:4000])
    return files


# MARK: - The walk

class Use:
    def __init__(self, file, offset, context, usr=None, mangled=None, label=None):
        self.file, self.offset, self.context, self.usr, self.mangled = file, offset, context, usr, mangled
        self.label = label


def walk_file(source_file, floor, uses, own_decls):
    filename = source_file["filename"]

    def visit(node, context, position):
        if isinstance(node, list):
            for child in node:
                visit(child, context, position)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("_kind", "")
        rng = node.get("range")
        if isinstance(rng, dict) and "start" in rng:
            position = rng["start"]
        if "attrs" in node:
            context = refine(context, node["attrs"])
            if node.get("usr"):
                own_decls[node["usr"]] = {d: v for d, v in context.items() if v > floor[d]}
        if kind == "decl_ref" and node.get("decl_usr"):
            uses.append(Use(filename, position, context, usr=node["decl_usr"]))
        # A protocol a declaration names in its inheritance clause
        # (`final class Model: Observable`, `extension X: P`): the compiler
        # refuses it above the deployment target as it refuses a call.
        inherits = node.get("inherits")
        if isinstance(inherits, dict):
            for conformance in inherits.get("conformances", []):
                if conformance.get("source_kind") == "explicit" and str(conformance.get("protocol", "")).startswith("s:"):
                    uses.append(Use(filename, position, context, usr=conformance["protocol"]))
        # A conformance the code relies on (a value converted to `any P`, a
        # generic argument): the extension that declares it may be gated
        # (`@available(macOS 15, …) extension SQLiteDB: AsyncDB`).
        conformance_context = node.get("context") if kind.endswith("_conformance") else None
        if isinstance(conformance_context, dict) and str(conformance_context.get("decl", "")).startswith("s:e:"):
            uses.append(Use(filename, position, context, usr=conformance_context["decl"],
                            label=(node.get("type"), node.get("protocol"))))
        for key in ("type", "type_usr", "interface_type", "result"):
            value = node.get(key)
            if isinstance(value, str) and value.startswith("$s"):
                uses.append(Use(filename, position, context, mangled=value))
        if kind in ("if_stmt", "while_stmt") and has_available_query(node.get("conditions")):
            for key, child in node.items():
                if key == "then_stmt" or key == "body":
                    visit(child, refine_by_queries(context, node["conditions"]), position)
                elif key not in ("conditions",):
                    visit(child, context, position)
            return
        if kind == "for_each_stmt":
            # The loop's `next` call is the compiler's: it calls
            # `next(isolation:)` (iOS 18) where the deployment target has
            # it and `next()` below, so on Linux it always names the newer.
            for key, child in node.items():
                if key != "next_call" and isinstance(child, (dict, list)):
                    visit(child, context, position)
            return
        if kind == "brace_stmt":
            inner = context
            for element in node.get("elements", []):
                if element.get("_kind") == "guard_stmt" and has_available_query(element.get("conditions")):
                    visit(element, inner, position)
                    inner = refine_by_queries(inner, element["conditions"])
                else:
                    visit(element, inner, position)
            return
        for key, child in node.items():
            if isinstance(child, (dict, list)):
                visit(child, context, position)

    visit(source_file.get("items", []), dict(floor), 0)


def line_of(filename, offset, cache={}):
    if filename not in cache:
        try:
            data = open(filename, "rb").read()
        except OSError:
            data = b""
        cache[filename] = data
    return cache[filename][:offset].count(b"\n") + 1


def demangle(symbols):
    if not symbols:
        return {}
    result = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(symbols) + "\n",
                            capture_output=True, text=True)
    return dict(zip(symbols, result.stdout.split("\n")))


# A declaration of Foundation (on Linux: FoundationEssentials and
# FoundationInternationalization too) or Dispatch, or of their extensions.
FOUNDATION_USR = re.compile(r"(?<![0-9])(10Foundation|20FoundationEssentials|31FoundationInternationalization|8Dispatch)(?=[A-Z0-9])")


def foundation_name(demangled):
    """`Foundation.URL.appending(path:)`, whichever Linux module declares it."""
    name = re.sub(r"^(static |class )", "", demangled)
    name = re.sub(r"Foundation(Essentials|Internationalization)\b", "Foundation", name)
    return re.sub(r"^\(extension in Foundation\):", "Foundation.", name)


QUALIFIED = re.compile(r"(?<![\w.])((?:[A-Za-z_][A-Za-z0-9_]*\.)+[A-Za-z_][A-Za-z0-9_]*)")


def audit(files, floor, table, list_foundation=False, context_files=()):
    """`context_files`: the package's modules that the audited ones import,
    read only for their own `@available` declarations (a gated extension's
    conformance, say); their uses are not audited."""
    uses, own = [], {}
    for source_file in context_files:
        walk_file(source_file, floor, [], own)
    for source_file in files:
        walk_file(source_file, floor, uses, own)
    introductions = dict(table.by_usr)
    for usr, availability in own.items():
        if availability:
            introductions[usr] = merge(introductions.get(usr, {}), availability)

    foundation_usrs = sorted({u.usr for u in uses if u.usr and FOUNDATION_USR.search(u.usr)})
    mangled = sorted({u.mangled for u in uses if u.mangled} | {"$s" + u[2:] for u in foundation_usrs})
    names = demangle(mangled)
    type_availability = {}
    for symbol in mangled:
        found = {}
        for name in QUALIFIED.findall(names.get(symbol, "")):
            parts = name.split(".")
            # The longest prefix the graphs know, and every shorter one.
            for length in range(len(parts), 1, -1):
                known = table.by_name.get(".".join(parts[:length]))
                if known:
                    found = merge(found, known)
        type_availability[symbol] = found
    foundation_rules = [(re.compile(p), why) for p, why in FOUNDATION_ABOVE_FLOOR]

    problems = set()
    for use in uses:
        if use.usr:
            needed = introductions.get(use.usr, {})
            what = use.usr
            if use.usr in foundation_usrs:
                what = foundation_name(names.get("$s" + use.usr[2:], use.usr))
                for rule, why in foundation_rules:
                    if rule.search(what):
                        problems.add((use.file, line_of(use.file, use.offset), 0, f"{what} needs {why} (Foundation, from the audit's list)"))
        else:
            needed = type_availability.get(use.mangled, {})
            what = names.get(use.mangled, use.mangled)
        above = [f"{d} {show(v)}" for d, v in sorted(needed.items()) if d in floor and v > use.context[d]]
        if above:
            if use.label:
                conforming, protocol = use.label
                parts = demangle([conforming, "$s" + str(protocol)[2:]])
                what = (f"the conformance of {parts.get(conforming, conforming)}"
                        f" to {parts.get('$s' + str(protocol)[2:], protocol)}")
            elif use.usr:
                what = names.get("$s" + use.usr[2:]) or demangle(["$s" + use.usr[2:]]).get("$s" + use.usr[2:], use.usr)
            problems.add((use.file, line_of(use.file, use.offset), 0 if use.usr else 1, f"{what} needs {', '.join(above)}"))
    # One report per line: a declaration's name rather than a type's.
    by_line = {}
    for file, line, rank, message in problems:
        key = (file, line)
        if key not in by_line or (rank, len(message)) < by_line[key]:
            by_line[key] = (rank, len(message), message)
    problems = {(file, line, value[2]) for (file, line), value in by_line.items()}
    if list_foundation:
        for usr in foundation_usrs:
            print("  uses", foundation_name(names.get("$s" + usr[2:], usr)))
    return sorted(problems), len(uses)


# MARK: - Driver

def load_table(commands, modules, work):
    extra = []
    for module in modules:
        extra += clang_arguments(commands[module])
    graph_modules = list(TOOLCHAIN_MODULES)
    imported = set()
    for module in modules:
        for source in sources_of(commands[module]):
            try:
                text = open(source).read()
            except OSError:
                continue
            imported |= set(re.findall(r"^\s*(?:@\w+\s+)*(?:public |package |internal )?import\s+(\w+)", text, re.M))
    built = set(commands)
    graph_modules += sorted(m for m in imported if m in built and m not in modules)
    include = []
    for module in modules:
        args = commands[module]
        for index, arg in enumerate(args):
            if arg == "-I" and args[index + 1] not in include:
                include += ["-I", args[index + 1]]
    table = Table()
    for path in extract_graphs(graph_modules, work, include + extra):
        table.load_graph(path)
    return table


def is_built(args):
    """Whether the build compiled the module from the sources in the tree."""
    if not all(os.path.exists(arg[1:]) for arg in args if arg.startswith("@")):
        return False
    return all(os.path.exists(source) for source in sources_of(args))


def sources_of(args):
    for arg in args:
        if arg.startswith("@"):
            return [line.strip() for line in open(arg[1:]) if line.strip()]
    return [a for a in args if a.endswith(".swift")]


def test_modules(commands):
    """The modules the build compiled from sources under Tests/: the test
    targets, their shared support target and the fixtures."""
    tests = os.path.join(ROOT, "Tests") + os.sep
    return sorted(module for module, args in commands.items()
                  if is_built(args) and sources_of(args)
                  and all(os.path.abspath(source).startswith(tests) for source in sources_of(args)))


def package_imports(commands, modules):
    """The package's modules (sources under Sources/) that `modules` import
    and that are not audited with them."""
    imported = set()
    for module in modules:
        for source in sources_of(commands[module]):
            try:
                text = open(source).read()
            except OSError:
                continue
            imported |= set(re.findall(r"^\s*(?:@\w+\s+)*(?:public |package |internal )?import\s+(\w+)", text, re.M))
    library = os.path.join(ROOT, "Sources") + os.sep
    return sorted(m for m in imported - set(modules)
                  if m in commands and is_built(commands[m]) and sources_of(commands[m])
                  and all(os.path.abspath(s).startswith(library) for s in sources_of(commands[m])))


def run(build_path, list_foundation, only, tests=False):
    floor = read_floor(os.path.join(ROOT, "Package.swift"))
    commands = module_commands(build_path)
    if tests:
        only = test_modules(commands)
        if not only:
            sys.exit(f"{build_path}: no test target built (run swift build --build-tests first)")
    wanted = only or AUDITED_MODULES
    modules = [m for m in wanted if m in commands and is_built(commands[m])]
    skipped = [m for m in wanted if m not in modules]
    if only and skipped:
        sys.exit(f"{build_path}: did not build {', '.join(skipped)}")
    print("floor: " + ", ".join(f"{p} {show(floor[p])}" for p in PLATFORMS))
    work = tempfile.mkdtemp(prefix="availability-")
    try:
        table = load_table(commands, modules, work)
        audited = [commands[module] for module in modules]
        imports = [commands[module] for module in package_imports(commands, modules)]
        dumps = on_every_core(dump_ast, audited + imports)
        files = [f for dump in dumps[:len(audited)] for f in dump]
        context_files = [f for dump in dumps[len(audited):] for f in dump]
        problems, count = audit(files, floor, table, list_foundation, context_files)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"audited {', '.join(modules)}: {len(files)} files, {count} uses, {len(table.by_usr)} symbols with Apple availability"
          + (f" (not built, skipped: {', '.join(skipped)})" if skipped else ""))
    for file, line, message in problems:
        print(f"{os.path.relpath(file, ROOT)}:{line}: above the floor: {message}")
    if problems:
        print(f"FAILED: {len(problems)} uses above the floor; gate them with @available / #available")
        return 1
    print("passed: nothing above the floor")
    return 0


# Each plant: the file's text, the line that must be reported, a word the
# report must name. Above the floor: `Atomic` (iOS 18), a discarding task
# group (iOS 17, the concurrency library), `ContinuousClock` (iOS 16) and a
# conformance to `Observable` (iOS 17) in an inheritance clause.
PLANTS = {
    "Atomic": ("import Synchronization\n\nfunc plantedAtomic() -> Int {\n"
               "    let counter = Atomic<Int>(0)\n    return counter.load(ordering: .relaxed)\n}\n", 4, "Atomic"),
    "DiscardingTaskGroup": ("func plantedGroup() async {\n"
                            "    await withDiscardingTaskGroup { group in group.addTask {} }\n}\n", 2, "DiscardingTaskGroup"),
    "ContinuousClock": ("func plantedClock() -> Bool {\n"
                        "    let clock = ContinuousClock()\n    return clock.now < clock.now\n}\n", 2, "ContinuousClock"),
    "Observable": ("import Observation\n\nfinal class PlantedModel: Observable {}\n", 3, "Observable"),
}

# Uses that must pass: the same APIs behind `@available`, `guard #available`
# and `if #available`; and `AsyncStream.makeStream`, which the issue counted
# as iOS 17 but which is `@backDeployed(before: iOS 17)` from iOS 13: the
# compiler copies its body into an app that runs on an older system.
GATED_PLANT = """import Observation
import Synchronization

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class GatedModel: Observable {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
func gatedAtomic() -> Int {
    let counter = Atomic<Int>(0)
    return counter.load(ordering: .relaxed)
}

func gatedClock() -> Bool {
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return false }
    let clock = ContinuousClock()
    return clock.now < clock.now
}

func gatedBoth() -> Int {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
        return gatedAtomic()
    }
    return 0
}

func backDeployedMakeStream() -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.finish()
    return stream
}
"""


# The same in a test target (TransactionKitTestingTests): `Mutex` (iOS 18),
# `Task.sleep(for:)` (iOS 16) and Swift Testing's `.timeLimit` (iOS 16) on
# a suite, each a use the test targets had before they were held to the
# floor; then the same uses behind `@available` and `if #available`.
TEST_MODULE = "TransactionKitTestingTests"
TEST_PLANTS = {
    "Mutex": ("import Synchronization\nimport Testing\n\n@Test func plantedMutex() {\n"
              "    let box = Mutex(0)\n    #expect(box.withLock { $0 } == 0)\n}\n", 5, "Mutex"),
    "SleepFor": ("import Testing\n\n@Test func plantedSleep() async throws {\n"
                 "    try await Task.sleep(for: .milliseconds(1))\n}\n", 4, "macOS 13"),
    "TimeLimit": ("import Testing\n\n@Suite(.timeLimit(.minutes(1)))\nstruct PlantedSuite {\n"
                  "    @Test func planted() {}\n}\n", 3, "macOS 13"),
}
GATED_TEST_PLANT = """import Synchronization
import Testing

struct PlantedGatedSuite {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test func gatedMutex() {
        let box = Mutex(0)
        #expect(box.withLock { $0 } == 0)
    }

    @Test func gatedSleep() async throws {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
"""


# A conversion that relies on a gated conformance declared in the package's
# library (`extension SQLiteDB: AsyncDB`, macOS 15 / iOS 18), from a test
# target that imports it; then the same behind `@available`. A line of 0:
# must pass.
CONFORMANCE_MODULE = "TransactionKitSQLiteTestingTests"
CONFORMANCE_PLANTS = {
    "a planted SQLiteDB as AsyncDB": ("import TransactionKit\nimport TransactionKitSQLite\n\n"
                                      "func plantedAsyncDB() throws -> any AsyncDB {\n"
                                      "    try SQLiteDB.inMemory()\n}\n", 5, "AsyncDB"),
    "the same behind @available": ("import TransactionKit\nimport TransactionKitSQLite\n\n"
                                   "@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)\n"
                                   "func gatedAsyncDB() throws -> any AsyncDB {\n"
                                   "    try SQLiteDB.inMemory()\n}\n", 0, ""),
}


def audit_plants(args, plants, floor, table, work, context_files=()):
    """Type-checks a module once with every plant of `plants` ({file name:
    text}) added to its sources. Returns the problems per plant ({file name:
    [(line, message)]}) and those in the module's own files (there must be
    none). One dump per module instead of one per plant: each dump
    type-checks the whole module, which is most of the self-test's time."""
    folder = tempfile.mkdtemp(dir=work)
    paths = {}
    for name, text in plants.items():
        path = os.path.join(folder, name)
        open(path, "w").write(text)
        paths[path] = name
    listing = os.path.join(folder, "sources")
    open(listing, "w").write("\n".join(sources_of(args) + list(paths)) + "\n")
    problems, _ = audit(dump_ast(args, listing), floor, table, context_files=context_files)
    found = {name: [] for name in plants}
    own = []
    for file, line, message in problems:
        if file in paths:
            found[paths[file]].append((line, message))
        else:
            own.append((file, line, message))
    return found, own


def check_plants(label, plants, gated, found, own, failures):
    """Reports each plant of `plants` ({name: (file name, text, line, word)}):
    a planted line must be reported naming `word`; a line of 0 (and every
    file of `gated`) must pass; so must the module's own files."""
    for name, (file_name, _, planted_line, word) in plants.items():
        hits = [m for line, m in found[file_name] if line == planted_line and word in m]
        if planted_line and hits:
            print(f"ok: {name}{label} fails the audit: line {planted_line}: {hits[0]}")
        elif planted_line:
            failures.append(f"{name}{label} passed the audit (found: {found[file_name]})")
        elif found[file_name]:
            failures.append(f"{name}{label} failed the audit: {found[file_name]}")
        else:
            print(f"ok: {name}{label} passes")
    for file_name, message in gated.items():
        if found[file_name]:
            failures.append(f"gated uses{label} failed the audit: {found[file_name]}")
        else:
            print(f"ok{label}: {message}")
    if own:
        failures.append(f"the module's own files{label} failed the audit beside the plants: {own}")


def self_test(build_path):
    floor = read_floor(os.path.join(ROOT, "Package.swift"))
    commands = module_commands(build_path)
    if "TransactionKit" not in commands:
        sys.exit("no TransactionKit in the build")
    work = tempfile.mkdtemp(prefix="availability-self-test-")
    failures = []
    try:
        plants = {f"a planted {name}": (f"Planted{name}.swift", text, line, word)
                  for name, (text, line, word) in PLANTS.items()}
        files = {file_name: text for file_name, text, _, _ in plants.values()}
        files["PlantedGated.swift"] = GATED_PLANT
        found, own = audit_plants(commands["TransactionKit"], files, floor,
                                  load_table(commands, ["TransactionKit"], work), work)
        check_plants("", plants, {"PlantedGated.swift": "the same uses behind @available, guard #available and "
                                  "if #available pass, and so does the back-deployed AsyncStream.makeStream"},
                     found, own, failures)

        for module, module_plants, gated in [
            (TEST_MODULE, {f"a planted {name}": (f"PlantedTest{name}.swift", text, line, word)
                           for name, (text, line, word) in TEST_PLANTS.items()},
             {"PlantedTestGated.swift": (GATED_TEST_PLANT, "the same uses behind @available and if #available pass")}),
            (CONFORMANCE_MODULE, {name: ("Planted" + re.sub(r"\W", "", name.title()) + ".swift", text, line, word)
                                  for name, (text, line, word) in CONFORMANCE_PLANTS.items()}, {}),
        ]:
            if module not in commands or not is_built(commands[module]):
                failures.append(f"no {module} in the build (run swift build --build-tests first)")
                continue
            imports = [commands[imported] for imported in package_imports(commands, [module])]
            context = [f for dump in on_every_core(dump_ast, imports) for f in dump]
            files = {file_name: text for file_name, text, _, _ in module_plants.values()}
            files.update({file_name: text for file_name, (text, _) in gated.items()})
            found, own = audit_plants(commands[module], files, floor,
                                      load_table(commands, [module], os.path.join(work, module)), work,
                                      context_files=context)
            check_plants(f" in {module}", module_plants,
                         {file_name: message for file_name, (_, message) in gated.items()}, found, own, failures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-path", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--modules", default="",
                        help="comma-separated modules to audit, each of which must be built (default: all built)")
    parser.add_argument("--tests", action="store_true",
                        help="audit every module built from Tests/ (test targets, test support, fixtures)")
    parser.add_argument("--list-foundation", action="store_true",
                        help="print every Foundation and Dispatch API the audited modules use")
    parser.add_argument("--all", action="store_true",
                        help="the library's audit, the test targets' (--tests) and --self-test, in one process: "
                             "each module is type-checked once")
    options = parser.parse_args()
    build_path = os.path.abspath(options.build_path)
    if options.all:
        if options.tests or options.modules or options.self_test:
            parser.error("--all runs --tests and --self-test itself, on every module")
        statuses = []
        for title, audit_part in [
            ("the library, the testing modules and the generator", lambda: run(build_path, options.list_foundation, [])),
            ("the test targets, their support target and the fixtures",
             lambda: run(build_path, options.list_foundation, [], tests=True)),
            ("the audit fails on planted uses above the floor, and passes them gated", lambda: self_test(build_path)),
        ]:
            print(f"== {title}", flush=True)
            statuses.append(audit_part())
        return max(statuses)
    if options.self_test:
        return self_test(build_path)
    if options.tests and options.modules:
        parser.error("--tests and --modules are exclusive")
    return run(build_path, options.list_foundation, [m for m in options.modules.split(",") if m], options.tests)


if __name__ == "__main__":
    sys.exit(main())
