#!/usr/bin/env bash
# `txkit convert --apply --verify` on every legacy type of the real-world
# corpus (Tests/Fixtures/RealWorld, the legacy types of oracle.json's pairs),
# each followed by the corpus's tests.
#
# One copy of the corpus package, at the same path every time (so each
# build is incremental), is put back to its pristine state between types.
# For each type it prints one of:
#   converted+tested  convert rewrote the finder and its callers, the package
#                     builds with its tests (--verify -- --build-tests) and
#                     the tests pass
#   refused           convert wrote nothing: places for a person (the first
#                     follow)
#   restored          convert wrote, the build failed, --verify put every
#                     file back (the compiler's first errors follow)
#   TESTS FAIL        converted and built, but a test fails
# with the lines the conversion changed. It exits with status 1 when a type
# leaves the copy changed after a failed build, or its tests fail.
#
# Usage: Scripts/check-corpus-convert.sh [TYPE-FILTER] [-- convert flags]
#   TYPE-FILTER  a grep -E pattern on "App Legacy" (all types if none)
# Environment:
#   TXKIT        the txkit binary (default: built here with the Txkit trait, debug)
#   CORPUS_WORK  the scratch folder (default: /tmp/txkit-corpus-convert)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
corpus="$repo/Tests/Fixtures/RealWorld"
work=${CORPUS_WORK:-/tmp/txkit-corpus-convert}
filter=${1:-}
shift || true
[ "${1:-}" = "--" ] && shift
extra=("$@")
started=$SECONDS

if [ -z "${TXKIT:-}" ]; then
    echo "== building txkit (Txkit trait, debug)"
    swift build --traits Txkit --product txkit >/dev/null
    TXKIT="$(swift build --traits Txkit --show-bin-path)/txkit"
fi

package="$work/RealWorld"
mkdir -p "$package"
find "$package" -mindepth 1 -maxdepth 1 ! -name .build ! -name .git -exec rm -rf {} +
tar -C "$corpus" --exclude=.build --exclude=.swiftpm -cf - . | tar -C "$package" -xf -
sed -i "s|path: \"../../..\"|path: \"$repo\"|" "$package/Package.swift"
cd "$package"
if [ ! -d .git ]; then
    git init -q
    printf '.build/\n.swiftpm/\nPackage.resolved\n' >.git/info/exclude
fi
git add -A
git -c user.name=corpus -c user.email=corpus@localhost commit -qm pristine --allow-empty
pristine=$(git rev-parse HEAD)

restore() {
    git reset -q --hard "$pristine"
    git clean -qfd
}

echo "== building the pristine corpus copy ($package)"
if ! swift build --build-tests >"$work/pristine-build.log" 2>&1; then
    grep -E 'error:' "$work/pristine-build.log" | head -20
    echo "error: the pristine corpus does not build (log: $work/pristine-build.log)" >&2
    exit 1
fi

converted=0
refused=0
restored=0
failing=0
count=0
lines_total=0
while IFS=$'\t' read -r app root legacy; do
    if [ -n "$filter" ] && ! echo "$app $legacy" | grep -Eq "$filter"; then
        continue
    fi
    count=$((count + 1))
    restore
    type_started=$SECONDS
    log="$work/$app-$legacy.log"
    lines=""
    status=0
    "$TXKIT" convert --legacy "$legacy" --root "$package/$root" "${extra[@]}" --apply --verify -- --build-tests \
        >"$log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        lines=$(grep -oE '[0-9]+ lines changed' "$log" | tail -1 | cut -d' ' -f1)
        if swift test --skip-build >"$log.test" 2>&1; then
            outcome="converted+tested"
            converted=$((converted + 1))
            lines_total=$((lines_total + lines))
        else
            outcome="TESTS FAIL"
            failing=$((failing + 1))
        fi
    elif grep -q 'restored [0-9]* file' "$log"; then
        outcome="restored"
        restored=$((restored + 1))
        if [ -n "$(git status --porcelain)" ]; then
            outcome="restored, COPY CHANGED"
            failing=$((failing + 1))
        fi
    elif [ "$status" -ge 128 ] || [ -n "$(git status --porcelain)" ]; then
        # A crash, or a refusal that left a file changed: never "refused".
        outcome="CRASHED OR WROTE (status $status)"
        failing=$((failing + 1))
    else
        outcome="refused"
        refused=$((refused + 1))
    fi
    printf '%-8s %-22s %-24s %6s lines %4ss\n' "$app" "$legacy" "$outcome" "${lines:--}" "$((SECONDS - type_started))"
    case "$outcome" in
        refused) { grep -E '^  .*:[0-9]+: ' "$log" | head -3 | sed 's/^  /      | /'; } || { tail -2 "$log" | sed 's/^/      | /'; } || true ;;
        restored*) { grep -E 'error:' "$log" | awk '!seen[$0]++' | head -4 | sed "s|$package/||; s/^ */      | /"; } || true ;;
        "TESTS FAIL") { grep -E 'error|failed' "$log.test" | head -5 | sed 's/^/      | /'; } || true ;;
        CRASHED*) { tail -5 "$log" | sed 's/^/      | /'; git status --short | head -5 | sed 's/^/      | /'; } || true ;;
    esac
done < <(jq -r '.apps as $apps | [.pairs[] | [.app, .legacy]] | unique[] | . as $p
    | [$p[0], ($apps[] | select(.name == $p[0]) | .root), $p[1]] | @tsv' "$corpus/oracle.json")
restore

echo "corpus convert: $count legacy types: $converted converted, built and tested" \
    "($lines_total lines changed in all), $refused refused with the place," \
    "$restored restored by --verify, $failing failing; $((SECONDS - started)) s"
if [ "$failing" -gt 0 ]; then
    exit 1
fi
