#!/usr/bin/env bash
# Proves that TransactionKitTesting depends on nothing but TransactionKit:
# 1. in the package graph (no GRDB product, no TransactionKitSQLite target,
#    directly or transitively);
# 2. at link time: a program that uses MockDB is linked from the object files
#    of TransactionKit and TransactionKitTesting alone, with no GRDB object and
#    no -lsqlite3, then run, and its dynamic dependencies are checked.
set -euo pipefail
cd "$(dirname "$0")/.."

swift package describe --type json > .build/describe.json
python3 - .build/describe.json <<'PY'
import json, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
seen, todo = set(), ["TransactionKitTesting"]
while todo:
    name = todo.pop()
    if name in seen:
        continue
    seen.add(name)
    target = targets[name]
    products = target.get("product_dependencies") or []
    if products:
        sys.exit(f"TransactionKitTesting reaches {name}, which depends on products {products}")
    todo.extend(target.get("target_dependencies") or [])
# CTransactionKitMisuseHook is the core's own C helper (a header), part of
# TransactionKit.
if seen != {"TransactionKitTesting", "TransactionKit", "CTransactionKitMisuseHook"}:
    sys.exit(f"TransactionKitTesting depends on more than TransactionKit: {sorted(seen)}")
print(f"graph: TransactionKitTesting depends on {sorted(seen - {'TransactionKitTesting'})} and no product")
PY

swift build --target TransactionKitTesting >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'SWIFT'
import TransactionKit
import TransactionKitTesting

let db = MockDB()
let value = try db.write { tx in
    tx.addSyncCompletion { print("completion ran") }
    return 42
}
precondition(value == 42 && db.commitCount == 1)
print("MockDB works without SQLite")
SWIFT
# The objects of the two modules' current sources only: a build folder can
# still hold the object of a source file that was renamed or removed.
objects=()
for module in TransactionKit TransactionKitTesting; do
    while IFS= read -r source; do
        objects+=("$bin/$module.build/$(basename "$source").o")
    done < <(find Sources/"$module" -name '*.swift' | sort)
done
objects+=("$bin/CTransactionKitMisuseHook.build/MisuseHook.c.o")
swiftc -I "$bin/Modules" -Xcc -fmodule-map-file="$bin/CTransactionKitMisuseHook.build/module.modulemap" "$work/main.swift" -o "$work/uses-mockdb" "${objects[@]}"
"$work/uses-mockdb"
if ldd "$work/uses-mockdb" | grep -i sqlite; then
    echo "error: a program using TransactionKitTesting links SQLite" >&2
    exit 1
fi
nm "$work/uses-mockdb" > "$work/symbols.txt"
grep -E ' [UTtD] sqlite3_|GRDB' "$work/symbols.txt" > "$work/forbidden.txt" || true
if [ -s "$work/forbidden.txt" ]; then
    head -5 "$work/forbidden.txt" >&2
    echo "error: a program using TransactionKitTesting contains SQLite or GRDB symbols" >&2
    exit 1
fi
echo "link: a MockDB program links and runs from TransactionKit + TransactionKitTesting objects alone, without SQLite or GRDB"
