#!/usr/bin/env bash
# Checks the promises the type system makes, against the built modules, with
# programs that name public API only (what an app can write):
#   - a read transaction is not accepted where a write transaction is
#     expected, and `read` blocks (DB and AsyncDB) hand out read transactions;
#   - a read transaction has no savepoints (`inSavepoint` is a write's);
#   - transactions are not Sendable: they cannot be sent to another task;
#   - only a DB creates transactions: no public initializer (any spelling),
#     no subclass outside the module, and no public declaration that returns
#     or stores a transaction except the audited bridges (the public surface,
#     read from the modules' symbol graphs);
#   - a write transaction is accepted where a read transaction is expected,
#     and databases are Sendable.
# Run after `swift build`. Uses -emit-sil: sendability is diagnosed on SIL.
#
#   Scripts/check-compile-errors.sh              the checks
#   Scripts/check-compile-errors.sh --self-test  shows that each check fails
#       when what it guards is allowed: for each violation below it copies
#       Sources/TransactionKit, plants the violation (a public initializer,
#       an @unchecked Sendable conformance, ...), compiles that module alone
#       with swiftc, and runs the checks against it; each planted violation
#       must fail the checks named for it, and the unplanted copy must pass
#       them all. Nothing in the tree changes. About a minute. (The two
#       programs that must compile have no plant: a TransactionKit whose
#       databases are not Sendable, or whose write transaction is not a read
#       transaction, does not compile itself.)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=check
case "${1:-}" in
    "") ;;
    --self-test) mode=self-test ;;
    *) echo "usage: $0 [--self-test]" >&2; exit 2 ;;
esac

bin=$(swift build --show-bin-path)
hook_map="$bin/CTransactionKitMisuseHook.build/module.modulemap"
# TransactionKitSQLite's interface imports GRDB, which imports this C module.
grdb_sqlite_map=$(find "$bin/../../checkouts" -path '*/Sources/GRDBSQLite/module.modulemap' -print -quit 2>/dev/null || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The modules the checks read: $modules first (a planted TransactionKit in
# the self-test), then the build's.
modules="$bin/Modules"
failed=()   # the names of the checks that failed in the last run_checks
verbose=1

say() { if [ "$verbose" -eq 1 ]; then echo "$@"; fi; }

typecheck() { # file
    swiftc -emit-sil -o /dev/null -swift-version 6 -I "$modules" -I "$bin/Modules" \
        -Xcc -fmodule-map-file="$hook_map" "$1" > "$work/out.txt" 2>&1
}

expect_error() { # name, expected message fragment, program
    local name=$1 expected=$2
    printf '%s\n' "$3" > "$work/$name.swift"
    if typecheck "$work/$name.swift"; then
        say "FAIL $name: compiled, but must not"
        failed+=("$name")
    elif grep -qF "$expected" "$work/out.txt"; then
        say "ok   $name: rejected ($expected)"
    else
        say "FAIL $name: rejected for another reason:"
        if [ "$verbose" -eq 1 ]; then grep 'error:' "$work/out.txt" | sort -u | sed 's/^/     /'; fi
        failed+=("$name")
    fi
}

expect_success() { # name, program
    printf '%s\n' "$2" > "$work/$1.swift"
    if typecheck "$work/$1.swift"; then
        say "ok   $1: compiles"
    else
        say "FAIL $1: must compile:"
        if [ "$verbose" -eq 1 ]; then grep 'error:' "$work/out.txt" | sort -u | sed 's/^/     /'; fi
        failed+=("$1")
    fi
}

# The public declarations that return or store a transaction, or initialize
# one, in the symbol graphs of the given modules. Only the bridges of an
# application's own transaction may hand one out outside a block.
check_public_surface() { # module...
    local graphs="$work/graphs"
    rm -rf "$graphs"
    mkdir -p "$graphs"
    local extra=()
    if [ -n "$grdb_sqlite_map" ]; then extra=(-Xcc -fmodule-map-file="$grdb_sqlite_map"); fi
    local module
    for module in "$@"; do
        if ! swift symbolgraph-extract -module-name "$module" -I "$modules" -I "$bin/Modules" \
            -Xcc -fmodule-map-file="$hook_map" "${extra[@]}" -target "$(uname -m)-unknown-linux-gnu" \
            -minimum-access-level public -output-dir "$graphs" > "$work/out.txt" 2>&1; then
            say "FAIL public-surface: no symbol graph for $module:"
            if [ "$verbose" -eq 1 ]; then sed 's/^/     /' "$work/out.txt"; fi
            failed+=(public-surface)
            return
        fi
    done
    if python3 - "$graphs" > "$work/out.txt" <<'PY'; then
import glob, json, os, sys

TRANSACTIONS = {"DBReadTransaction", "DBWriteTransaction"}
# Module: symbol path. The bridges of an application's own GRDB transaction.
ALLOWED = {
    "TransactionKitSQLite: SQLiteDB.writeTransaction(bridging:file:line:)",
    "TransactionKitSQLite: SQLiteDB.readTransaction(bridging:file:line:)",
}

def outside_parentheses(fragments, after_colon=False):
    """The type names in `fragments` outside any parentheses (a closure's
    parameters, `(DBReadTransaction) -> T`, hand nothing out); with
    `after_colon`, only those after the first colon (a property's type)."""
    depth, names, started = 0, [], not after_colon
    for fragment in fragments:
        spelling = fragment["spelling"]
        if not started:
            if fragment["kind"] != "text" or ":" not in spelling:
                continue
            started, spelling = True, spelling.split(":", 1)[1]
        if fragment["kind"] == "typeIdentifier":
            if depth == 0:
                names.append(spelling)
        else:
            depth += spelling.count("(") - spelling.count(")")
    return names

found = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.symbols.json"))):
    module = os.path.basename(path).split(".")[0].split("@")[0]
    for symbol in json.load(open(path))["symbols"]:
        kind = symbol["kind"]["identifier"]
        name = ".".join(symbol["pathComponents"])
        declaration = symbol.get("declarationFragments", [])
        if kind == "swift.init" and symbol["pathComponents"][0] in TRANSACTIONS:
            why = "initializes a transaction"
        elif TRANSACTIONS & set(outside_parentheses(symbol.get("functionSignature", {}).get("returns", []))):
            why = "returns a transaction"
        elif kind in {"swift.property", "swift.type.property", "swift.var"} and TRANSACTIONS & set(
            outside_parentheses(declaration, after_colon=True)
        ):
            why = "stores a transaction"
        else:
            continue
        entry = f"{module}: {name}"
        if entry not in ALLOWED:
            found.append(f"{entry} ({why}): {''.join(f['spelling'] for f in declaration)}")
for line in found:
    print(line)
sys.exit(1 if found else 0)
PY
        say "ok   public-surface: no public declaration makes a transaction but the bridges ($*)"
    else
        say "FAIL public-surface: public API hands out transactions outside a block:"
        if [ "$verbose" -eq 1 ]; then sed 's/^/     /' "$work/out.txt"; fi
        failed+=(public-surface)
    fi
}

run_checks() { # surface module...
    failed=()

    # A read transaction is not a write transaction.
    expect_error read-transaction-where-write-expected \
        "cannot convert value of type 'DBReadTransaction' to expected argument type 'DBWriteTransaction'" '
import TransactionKit
func save(_ tx: DBWriteTransaction) {}
func pass(_ tx: DBReadTransaction) { save(tx) }'

    expect_error read-block-where-write-expected \
        "cannot convert value of type 'DBReadTransaction' to expected argument type 'DBWriteTransaction'" '
import TransactionKit
func save(_ tx: DBWriteTransaction) {}
func f(db: any DB) throws { try db.read { tx in save(tx) } }
func g(db: any DB) async throws { try await db.read { tx in save(tx) } }'

    expect_error async-read-block-where-write-expected \
        "cannot convert value of type 'DBReadTransaction' to expected argument type 'DBWriteTransaction'" '
import TransactionKit
func save(_ tx: DBWriteTransaction) {}
func f(db: any AsyncDB) async throws { try await db.read { tx in save(tx) } }'

    # Savepoints belong to writes: a read has nothing to roll back.
    expect_error savepoint-in-a-read "value of type 'DBReadTransaction' has no member 'inSavepoint'" '
import TransactionKit
func f(db: any DB) throws { try db.read { tx in try tx.inSavepoint { .commit } } }'

    expect_error async-savepoint-in-a-read "value of type 'DBReadTransaction' has no member 'inSavepoint'" '
import TransactionKit
func g(db: any AsyncDB) async throws { try await db.read { tx in try await tx.inSavepoint { await Task.yield(); return .rollback } } }'

    # Transactions stay on their thread, or their task.
    expect_error read-transaction-not-sendable "conformance of 'DBReadTransaction' to 'Sendable' is unavailable" '
import TransactionKit
func needsSendable<T: Sendable>(_: T.Type) {}
func f() { needsSendable(DBReadTransaction.self) }'

    expect_error write-transaction-not-sendable "to 'Sendable' is unavailable" '
import TransactionKit
func needsSendable<T: Sendable>(_: T.Type) {}
func f() { needsSendable(DBWriteTransaction.self) }'

    expect_error transaction-sent-to-a-task "risks causing data races" '
import TransactionKit
func f(db: any DB) throws {
    _ = try db.write { tx in
        Task { tx.addSyncCompletion {} }
    }
}'

    expect_error async-transaction-sent-to-a-child-task "risks causing data races" '
import TransactionKit
func f(db: any AsyncDB) async throws {
    try await db.write { tx in
        await withTaskGroup(of: Void.self) { group in
            group.addTask { tx.addSyncCompletion {} }
        }
    }
}'

    # Only a DB creates transactions.
    expect_error read-transaction-made-by-hand "'DBReadTransaction' initializer is inaccessible" '
import TransactionKit
let tx = DBReadTransaction()'

    expect_error write-transaction-made-by-hand "'DBWriteTransaction' initializer is inaccessible" '
import TransactionKit
let tx = DBWriteTransaction()'

    expect_error read-transaction-subclassed "cannot inherit from non-open class 'DBReadTransaction'" '
import TransactionKit
final class ForgedTransaction: DBReadTransaction {}'

    expect_error write-transaction-subclassed "inheritance from a final class 'DBWriteTransaction'" '
import TransactionKit
final class ForgedTransaction: DBWriteTransaction {}'

    check_public_surface "$@"

    # What must compile.
    expect_success write-transaction-where-read-expected '
import TransactionKit
func count(_ tx: DBReadTransaction) -> Int { 0 }
func pass(_ tx: DBWriteTransaction) -> Int { count(tx) }
func f(db: any DB) throws -> Int { try db.write { tx in count(tx) } }
func g(db: any AsyncDB) async throws -> Int { try await db.write { tx in count(tx) } }'

    expect_success databases-sendable '
import TransactionKit
func needsSendable<T: Sendable>(_: T) {}
func f(db: any DB, asyncDB: any AsyncDB) { needsSendable(db); needsSendable(asyncDB) }'
}

if [ "$mode" = check ]; then
    run_checks TransactionKit TransactionKitTesting TransactionKitSQLite TransactionKitSQLiteTesting TransactionKitPostgres
    if [ "${#failed[@]}" -ne 0 ]; then
        echo "compile checks: ${#failed[@]} failed (${failed[*]})" >&2
        exit 1
    fi
    echo "compile checks: all passed"
    exit 0
fi

# --self-test ----------------------------------------------------------------

self_test_failures=0

# Compiles $work/plant/TransactionKit (a planted copy) into $work/plant/Modules.
emit_planted_module() {
    rm -rf "$work/plant/Modules"
    mkdir -p "$work/plant/Modules"
    swiftc -emit-module -parse-as-library -swift-version 6 -module-name TransactionKit -package-name TransactionKit \
        -Xcc -fmodule-map-file="$hook_map" \
        -emit-module-path "$work/plant/Modules/TransactionKit.swiftmodule" \
        "$work"/plant/TransactionKit/*.swift > "$work/emit.txt" 2>&1
}

# Replaces, in one file of the planted copy, what the Python regular
# expression matches; the plant must match at least once.
plant_replace() { # file, pattern, replacement
    python3 - "$work/plant/TransactionKit/$1" "$2" "$3" <<'PY'
import re, sys
path, pattern, replacement = sys.argv[1:]
text = open(path).read()
new, count = re.subn(pattern, replacement, text)
if count == 0:
    sys.exit(f"the plant no longer applies: no match for {pattern!r} in {path}")
open(path, "w").write(new)
PY
}

plant_file() { # file name, contents
    printf '%s\n' "$2" > "$work/plant/TransactionKit/$1"
}

# plant name, the checks it must fail (space-separated), then the planting
# commands as one string.
self_test() {
    local name=$1 expected=$2 planting=$3
    rm -rf "$work/plant"
    mkdir -p "$work/plant"
    # The module's sources, flat (its folders group them by concern; the
    # plants name files).
    mkdir -p "$work/plant/TransactionKit"
    find Sources/TransactionKit -name '*.swift' -exec cp {} "$work/plant/TransactionKit/" \;
    if ! eval "$planting"; then
        echo "FAIL plant $name: could not be planted"
        self_test_failures=$((self_test_failures + 1))
        return
    fi
    if ! emit_planted_module; then
        echo "FAIL plant $name: the planted module does not compile:"
        grep 'error:' "$work/emit.txt" | sort -u | sed 's/^/     /'
        self_test_failures=$((self_test_failures + 1))
        return
    fi
    modules="$work/plant/Modules"
    verbose=0
    run_checks TransactionKit
    verbose=1
    modules="$bin/Modules"
    local got=" ${failed[*]:-} " missing=() check
    for check in $expected; do
        case "$got" in *" $check "*) ;; *) missing+=("$check") ;; esac
    done
    if [ -z "$expected" ] && [ "${#failed[@]}" -eq 0 ]; then
        echo "ok   $name: every check passes"
    elif [ -z "$expected" ]; then
        echo "FAIL $name: the unplanted copy fails ${failed[*]}"
        self_test_failures=$((self_test_failures + 1))
    elif [ "${#missing[@]}" -eq 0 ]; then
        echo "ok   plant $name: fails ${failed[*]}"
    else
        echo "FAIL plant $name: does not fail ${missing[*]} (fails: ${failed[*]:-nothing})"
        self_test_failures=$((self_test_failures + 1))
    fi
}

# A scope needs the storage side of savepoints: the forged one does nothing.
forged_savepoints='struct ForgedSavepoints: SavepointStorage { func perform(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) {} }'
forge='DBReadTransaction(kind: .read, openedAt: CallSite(file: #fileID, line: #line), scope: DatabaseScope(databaseName: "Forged", connectionType: nil, savepoints: ForgedSavepoints()))'

self_test unplanted-copy "" ":"

self_test public-init \
    "read-transaction-made-by-hand write-transaction-made-by-hand public-surface" \
    'plant_file Forged.swift "extension DBReadTransaction { public convenience init() { self.init(kind: .read, openedAt: CallSite(file: #fileID, line: #line), scope: DatabaseScope(databaseName: \"Forged\", connectionType: nil, savepoints: ForgedSavepoints())) } }; $forged_savepoints"'

self_test public-init-with-arguments \
    "read-transaction-made-by-hand write-transaction-made-by-hand public-surface" \
    'plant_file Forged.swift "extension DBReadTransaction { public convenience init(forgedFor name: String) { self.init(kind: .read, openedAt: CallSite(file: #fileID, line: #line), scope: DatabaseScope(databaseName: name, connectionType: nil, savepoints: ForgedSavepoints())) } }; $forged_savepoints"'

self_test public-factory \
    "public-surface" \
    'plant_file Forged.swift "extension DBReadTransaction { public static func forged() -> DBReadTransaction { $forge } }; $forged_savepoints"'

self_test public-stored-transaction \
    "public-surface" \
    'plant_file Forged.swift "public enum Forged { public static var transaction: DBReadTransaction? { nil } }"'

self_test open-class \
    "read-transaction-subclassed" \
    'plant_replace DBReadTransaction.swift "public class DBReadTransaction" "open class DBReadTransaction"'

self_test write-transaction-not-final \
    "write-transaction-subclassed" \
    'plant_replace DBWriteTransaction.swift "public final class DBWriteTransaction" "public class DBWriteTransaction"'

self_test unchecked-sendable \
    "read-transaction-not-sendable write-transaction-not-sendable transaction-sent-to-a-task async-transaction-sent-to-a-child-task" \
    'plant_replace DBReadTransaction.swift "@available\(\*, unavailable[^\n]*\)\nextension DBReadTransaction: Sendable \{\}" "extension DBReadTransaction: @unchecked Sendable {}"'

self_test read-is-write \
    "read-transaction-where-write-expected read-block-where-write-expected async-read-block-where-write-expected savepoint-in-a-read async-savepoint-in-a-read" \
    'plant_replace DBWriteTransaction.swift "public final class DBWriteTransaction: DBReadTransaction \{\}" "public typealias DBWriteTransaction = DBReadTransaction"'

self_test read-blocks-get-write-transactions \
    "read-block-where-write-expected async-read-block-where-write-expected" \
    'plant_replace DB.swift "\(DBReadTransaction\) throws -> T" "(DBWriteTransaction) throws -> T" && plant_replace AsyncDB.swift "\(DBReadTransaction\) async throws -> T" "(DBWriteTransaction) async throws -> T"'

if [ "$self_test_failures" -ne 0 ]; then
    echo "self-test: $self_test_failures failed" >&2
    exit 1
fi
echo "self-test: every planted violation fails its checks"
