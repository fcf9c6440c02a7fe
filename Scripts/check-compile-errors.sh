#!/usr/bin/env bash
# Checks the promises the type system makes, by type-checking small programs
# that must NOT compile against the built modules, and one that must:
#   - a read transaction is not accepted where a write transaction is expected;
#   - a transaction cannot be sent to another task (it is not Sendable);
#   - only a DB creates transactions (no public initializer);
#   - a write transaction is accepted where a read transaction is expected.
# Run after `swift build`. Uses -emit-sil: sendability is diagnosed on SIL.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

typecheck() { # file
    swiftc -emit-sil -o /dev/null -swift-version 6 -I "$bin/Modules" \
        -Xcc -fmodule-map-file="$bin/CTransactionKitMisuseHook.build/module.modulemap" "$1" > "$work/out.txt" 2>&1
}

expect_error() { # name, expected message fragment, program
    local name=$1 expected=$2
    printf '%s\n' "$3" > "$work/$name.swift"
    if typecheck "$work/$name.swift"; then
        echo "FAIL $name: compiled, but must not"
        failures=$((failures + 1))
    elif grep -qF "$expected" "$work/out.txt"; then
        echo "ok   $name: rejected ($expected)"
    else
        echo "FAIL $name: rejected for another reason:"
        sed 's/^/     /' "$work/out.txt"
        failures=$((failures + 1))
    fi
}

expect_success() { # name, program
    printf '%s\n' "$2" > "$work/$1.swift"
    if typecheck "$work/$1.swift"; then
        echo "ok   $1: compiles"
    else
        echo "FAIL $1: must compile:"
        sed 's/^/     /' "$work/out.txt"
        failures=$((failures + 1))
    fi
}

expect_error read-where-write-expected "cannot convert value of type 'DBReadTransaction' to expected argument type 'DBWriteTransaction'" '
import TransactionKit
func save(_ tx: DBWriteTransaction) {}
func f(db: any DB) throws { try db.read { tx in save(tx) } }'

expect_error transaction-sent-to-a-task "risks causing data races" '
import TransactionKit
func f(db: any DB) throws {
    _ = try db.write { tx in
        Task { tx.addSyncCompletion {} }
    }
}'

expect_error transaction-made-by-hand "inaccessible" '
import TransactionKit
let tx = DBReadTransaction(kind: .read, openedAt: CallSite(file: #fileID, line: #line), scope: DatabaseScope(), isMock: true)'

expect_success write-where-read-expected '
import TransactionKit
func count(_ tx: DBReadTransaction) -> Int { 0 }
func f(db: any DB) throws -> Int { try db.write { tx in count(tx) } }'

if [ "$failures" -ne 0 ]; then
    echo "compile checks: $failures failed" >&2
    exit 1
fi
echo "compile checks: all passed"
