#!/usr/bin/env bash
# Proves that an app depending on the four library products resolves
# GRDB.swift and nothing else: a throwaway consumer package, outside the
# repository, depends on this checkout and lists its resolved dependencies.
# It also prints the list, so a reader of the CI log sees it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/App" "$work/Tests/AppTests"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ConsumerApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TransactionKit", path: "$root"),
    ],
    targets: [
        .target(name: "App", dependencies: [
            .product(name: "TransactionKit", package: "TransactionKit"),
            .product(name: "TransactionKitSQLite", package: "TransactionKit"),
        ]),
        .testTarget(name: "AppTests", dependencies: [
            "App",
            .product(name: "TransactionKitTesting", package: "TransactionKit"),
            .product(name: "TransactionKitSQLiteTesting", package: "TransactionKit"),
        ]),
    ]
)
SWIFT
echo 'import TransactionKit' > "$work/Sources/App/App.swift"
echo 'import TransactionKitTesting' > "$work/Tests/AppTests/AppTests.swift"

cd "$work"
swift package show-dependencies --format json > dependencies.json 2> resolve.log || {
    cat resolve.log >&2
    exit 1
}
swift package show-dependencies --format text 2>/dev/null
python3 - dependencies.json <<'PY'
import json, sys

def walk(node, seen):
    for child in node.get("dependencies", []):
        seen.add(child["identity"])
        walk(child, seen)
    return seen

resolved = walk(json.load(open(sys.argv[1])), set())
# The library package itself (named after this checkout's folder) is the one
# path dependency; the only package it may bring is GRDB.swift.
library = resolved - {"grdb.swift"}
if "grdb.swift" not in resolved or len(library) != 1:
    sys.exit(f"error: the consumer resolves {sorted(resolved)}; expected TransactionKit and grdb.swift only")
print(f"consumer graph: {sorted(resolved)} (TransactionKit and GRDB.swift only)")
PY
