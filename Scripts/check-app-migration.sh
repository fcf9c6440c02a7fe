#!/usr/bin/env bash
# One app of Tests/Fixtures/Apps taken through `txkit migrate` as its user
# would, and checked:
#   1. a scratch copy, .build-apps/<app> (a git repository of its own), is
#      built untouched: the warnings in the app's files then are the app's
#      own, reported and not held against txkit;
#   2. the user's steps (<app>.user-steps.patch: TransactionKit as a
#      dependency, the database adopted in the app's holder), `txkit init`;
#   3. `txkit migrate C` for each consumer of <app>.consumers, whose outcome
#      (migrated, already) must be the one written there;
#   4. each consumer's file names no GRDB type and none of the app's holder
#      or transaction types, but in a default argument
#      (Scripts/check-app-consumer-names.py); each migrated consumer has its
#      mocks in the test target;
#   5. the mocks of <app>.mock-protocols (the app's own protocols the
#      tests need) are written by `txkit mock`, and the MockDB tests of
#      <app>.MockDBTests are copied into the app's test target (a user
#      writes them after migrating); the app builds with its tests, and no
#      warning is new (in the app's files, generated ones included);
#   6. its runner prints expected-output.txt byte for byte; `swift test`
#      passes (the app's own tests and the MockDB tests).
# Usage: TXKIT=path/to/txkit Scripts/check-app-migration.sh APP
#   SUMMARY  a file the app's one-line summary is appended to (optional)
set -euo pipefail
export LC_ALL=C   # one sort order for the warning lists `comm` compares
root="$(cd "$(dirname "$0")/.." && pwd)"
app=$1
txkit=${TXKIT:?the txkit executable}
fixtures="$root/Tests/Fixtures/Apps"
work="$root/.build-apps"
scratch="$work/.build"   # shared by the three apps: one GRDB, one TransactionKit
copy="$work/$app"

# The types a migrated consumer no longer names: the app's database holder
# and its own transaction types (GRDB's are read from its checkout).
case "$app" in
    recipes) holder_types="DatabaseManager" ;;
    ledger) holder_types="LedgerDatabase" ;;
    chatstore) holder_types="DatabaseStorage ReadTx WriteTx" ;;
    *) echo "error: unknown app $app" >&2; exit 1 ;;
esac

logs="$work/$app.logs"
rm -rf "$copy" "$logs"
mkdir -p "$copy" "$logs/tmp"
# The apps' runners and tests keep their databases in the temporary folder
# (chatstore's runner deletes and re-creates a fixed path there): one of
# their own, away from any other run.
export TMPDIR="$logs/tmp"
(cd "$fixtures/$app" && tar cf - --exclude=.build --exclude=.swiftpm --exclude=Package.resolved .) | (cd "$copy" && tar xf -)
cd "$copy"
git init -q .
started=$SECONDS
phase() { echo "== $app: $1 (at $((SECONDS - started)) s)"; }
commit() { git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm "$1"; }
commit untouched

swift_build() { # log: builds the app with its tests in the shared scratch folder
    if ! swift build --build-tests --scratch-path "$scratch" >"$1" 2>&1; then
        grep -E 'error:' "$1" | sort -u | head -20 >&2
        echo "error: $app does not build (log: $1)" >&2
        exit 1
    fi
}
# The warnings printed for the app's own files (generated ones included),
# without line and column, which migration moves: `file: warning: message`.
app_warnings() {
    grep -E "^$copy/[^:]+:[0-9]+:[0-9]+: warning:" "$1" |
        grep -vE "^$copy/([^:]*/)?\.build[^/]*/" |
        sed -E "s#^$copy/([^:]+):[0-9]+:[0-9]+: #\1: #" | sort -u || true
}

phase "the untouched copy builds"
swift_build "$logs/build-untouched.log"
app_warnings "$logs/build-untouched.log" >"$logs/warnings-untouched.txt"

phase "the user's steps, txkit init"
git apply "$fixtures/$app.user-steps.patch"
"$txkit" init --root . >"$logs/init.log"
commit "the user's steps"

phase "txkit migrate, one consumer at a time"
migrated=0 already=0 refused=0 unexpected=""
migrated_consumers=()
while read -r consumer expected; do
    case "$consumer" in ''|'#'*) continue ;; esac
    status=0
    "$txkit" migrate "$consumer" --root . >"$logs/migrate-$consumer.log" 2>&1 || status=$?
    if [ "$status" -eq 0 ] && grep -q "^migrated $consumer" "$logs/migrate-$consumer.log"; then
        outcome=migrated migrated=$((migrated + 1)) migrated_consumers+=("$consumer")
    elif [ "$status" -eq 0 ] && grep -q "^$consumer consumes only the abstractions already" "$logs/migrate-$consumer.log"; then
        outcome=already already=$((already + 1))
    else
        outcome=refused refused=$((refused + 1))
    fi
    echo "   $consumer: $outcome"
    if [ "$outcome" != "$expected" ]; then
        sed 's/^/      | /' "$logs/migrate-$consumer.log"
        unexpected="$unexpected $consumer ($outcome, expected $expected)"
    fi
done <"$fixtures/$app.consumers"
commit "txkit migrate"
if [ -n "$unexpected" ]; then
    echo "error: $app: txkit migrate did not do what $app.consumers says:$unexpected" >&2
    exit 1
fi

phase "the consumers name no GRDB type and none of $holder_types"
already_consumers=$(awk '$2 == "already" { print $1 }' "$fixtures/$app.consumers")
python3 "$root/Scripts/check-app-consumer-names.py" \
    --sources Sources --grdb "$scratch/checkouts/GRDB.swift/GRDB" \
    --forbid "$holder_types" --already "$already_consumers" "${migrated_consumers[@]}"
mocks=$(jq -r .mocksFolder txkit.json)
for consumer in "${migrated_consumers[@]}"; do
    grep -rqE "^extension $consumer \{" "$mocks" ||
        { echo "error: $app: no mocks of $consumer in $mocks" >&2; exit 1; }
done

phase "the MockDB tests, the build"
# Mocks of the app's own protocols the tests also need, as a user gets
# them: `txkit mock --protocol P [--name N]` for each line of <app>.mock-protocols.
if [ -f "$fixtures/$app.mock-protocols" ]; then
    while read -r protocol name; do
        case "$protocol" in ''|'#'*) continue ;; esac
        "$txkit" mock --protocol "$protocol" ${name:+--name "$name"} --root . >>"$logs/mock.log" 2>&1 ||
            { cat "$logs/mock.log" >&2; echo "error: $app: txkit mock --protocol $protocol failed" >&2; exit 1; }
        echo "   txkit mock --protocol $protocol${name:+ --name $name}"
    done <"$fixtures/$app.mock-protocols"
fi
test_target=$(dirname "$mocks")
mkdir -p "$test_target/MockDB"
cp "$fixtures/$app.MockDBTests/"*.swift "$test_target/MockDB/"
swift_build "$logs/build.log"
app_warnings "$logs/build.log" >"$logs/warnings.txt"
if [ -s "$logs/warnings-untouched.txt" ]; then
    echo "   warnings the untouched app has already (not txkit's):"
    sed 's/^/      | /' "$logs/warnings-untouched.txt"
fi
new_warnings=$(comm -13 "$logs/warnings-untouched.txt" "$logs/warnings.txt")
if [ -n "$new_warnings" ]; then
    echo "$new_warnings" | sed 's/^/      | /' >&2
    echo "error: $app: the migrated app has warnings its untouched copy has not (above)" >&2
    exit 1
fi

phase "the runner's output"
runner=$(grep -oE '\.executable\(name: "[^"]+"' Package.swift | head -1 | cut -d'"' -f2)
swift run --skip-build --scratch-path "$scratch" "$runner" >"$logs/output.txt" 2>"$logs/run-stderr.txt" ||
    { cat "$logs/run-stderr.txt" >&2; echo "error: $app: $runner failed" >&2; exit 1; }
if ! diff "$logs/output.txt" expected-output.txt; then
    echo "error: $app: $runner prints other than expected-output.txt (diff above: <, what it printed)" >&2
    exit 1
fi

phase "swift test (the app's own tests, then the MockDB tests)"
# Counts: XCTest's `Executed N tests`, Swift Testing's `Test run with N tests`.
run_tests() { # log, swift test arguments…: runs them, prints how many ran
    local log=$1 xctest swift_testing
    shift
    if ! swift test --skip-build --scratch-path "$scratch" "$@" >"$log" 2>&1; then
        grep -E 'error|fail|✘' "$log" | head -40 >&2
        echo "error: $app: tests failed (log: $log)" >&2
        exit 1
    fi
    xctest=$(grep -oE 'Executed [0-9]+ tests?' "$log" | tail -1 | grep -oE '[0-9]+' || true)
    swift_testing=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -oE '[0-9]+' || true)
    echo $((${xctest:-0} + ${swift_testing:-0}))
}
own_tests=$(run_tests "$logs/test-own.log" --skip MockDBTests)
mockdb_tests=$(run_tests "$logs/test-mockdb.log" --filter MockDBTests)
written=$(cat "$fixtures/$app.MockDBTests/"*.swift | grep -cE '^\s*@Test\b' || true)
if [ "$mockdb_tests" -ne "$written" ]; then
    echo "error: $app: $mockdb_tests MockDB tests ran, $written are written" >&2
    exit 1
fi
summary="$app: $migrated migrated, $already already, $refused refused; output same; tests passed: $own_tests of the app's, $mockdb_tests MockDB ($((SECONDS - started)) s)"
echo "$summary"
if [ -n "${SUMMARY:-}" ]; then echo "$summary" >>"$SUMMARY"; fi
