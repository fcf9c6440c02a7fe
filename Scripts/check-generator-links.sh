#!/usr/bin/env bash
# The generator (`txkit`, the executable the command plugin runs and a
# user installs) links swift-syntax, swift-argument-parser and the generator's own
# modules, and neither GRDB, SQLite, postgres-nio, swift-nio, swift-log,
# TransactionKit, the example, Testing nor XCTest: SwiftPM's list of the
# objects it linked, its symbols and `ldd` are checked.
# Usage: Scripts/check-generator-links.sh [BIN_DIR]
#   BIN_DIR  a debug folder that already holds txkit, or the txkit-tool
#            SwiftPM builds for a plugin (an app's .build/debug, say); by
#            default it is built here with the Txkit trait.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${1:-}" ]; then
    bin="$1"
else
    swift build --traits Txkit --product txkit >/dev/null
    bin="$(swift build --traits Txkit --show-bin-path)"
fi
name=txkit
if [ -x "$bin/txkit-tool" ]; then name=txkit-tool; fi
binary="$bin/$name"
objects="$bin/$name.product/Objects.LinkFileList"
test -x "$binary" || { echo "error: no $binary" >&2; exit 1; }
test -f "$objects" || { echo "error: no $objects (SwiftPM's list of linked objects)" >&2; exit 1; }

# The modules whose objects were linked, from their build folders.
# (a plugin's tools are built in folders named MODULE-tool.build).
modules=$(sed -E 's#.*/([^/]+)\.build/.*#\1#; s#-tool$##' "$objects" | sort -u)
forbidden='^(GRDB|GRDBSQLite|CSQLite|TransactionKit.*|CTransactionKit.*|Messaging|PostgresNIO|_ConnectionPoolModule|NIO.*|_NIO.*|CNIO.*|Logging|Crypto|_Crypto.*|Testing|XCTest)$'
if echo "$modules" | grep -E "$forbidden"; then
    echo "error: $name links the modules above" >&2
    exit 1
fi
for required in SwiftSyntax SwiftParser ArgumentParser TxkitGenerator TxkitCommands; do
    echo "$modules" | grep -qx "$required" || { echo "error: $required is not linked: is this the generator?" >&2; exit 1; }
done
# Swift symbols of those modules (mangled with the module's name).
# (Collected first: `grep | head` under pipefail fails when head closes the
# pipe, exactly when there are many symbols.)
symbols=$(nm "$binary" | grep -E '\$s(4GRDB|11PostgresNIO|7NIOCore|7Logging|14TransactionKit)' || true)
if [ -n "$symbols" ]; then
    echo "$symbols" | head -3
    echo "error: $name holds symbols of GRDB, postgres-nio, swift-nio, swift-log or TransactionKit" >&2
    exit 1
fi
if ldd "$binary" | grep -Ei 'sqlite|Testing|XCTest'; then
    echo "error: $name loads the shared libraries above" >&2
    exit 1
fi
echo "$name links $(echo "$modules" | wc -l) modules: $(echo "$modules" | tr '\n' ' ')"
echo "none of them GRDB, SQLite, postgres-nio, swift-nio, swift-log, TransactionKit, the example, Testing or XCTest"
