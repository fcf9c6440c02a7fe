#!/usr/bin/env bash
# `txkit shim --apply` on every pair of the real-world corpus
# (Tests/Fixtures/RealWorld, oracle.json), each followed by a build of the
# package it rewrote.
#
# One copy of the corpus package, at the same path every time (so each
# build is incremental), is put back to its pristine state between pairs.
# For each pair it prints one of:
#   applied+built    --apply rewrote the consumer, the package builds and
#                    its tests pass
#   applied+built, still direct
#                    the package builds, but the consumer still names the
#                    legacy type other than as a nested type or through its
#                    Shims/Wrappers/Mocks (a singleton call left in place, a
#                    shim that holds `shared()`): its unit tests would still
#                    reach SQL
#   refused          --apply wrote nothing and said why (its message follows)
#   applied, BROKEN  --apply rewrote the consumer and the package no longer
#                    builds, or its tests fail (the first errors follow)
# and whether that is what the oracle expects. It exits with status 1 when
# any pair leaves a broken build, when any outcome is not the oracle's (a
# pair it expects applied is refused, say), or when the pristine copy does
# not build.
#
# Usage: Scripts/check-corpus-apply.sh [PAIR-FILTER]
#   PAIR-FILTER  a grep -E pattern on "App Consumer Legacy" (all pairs if none)
# Environment:
#   TXKIT        the txkit binary (default: built here with the Txkit trait, debug)
#   CORPUS_WORK  the scratch folder (default: /tmp/txkit-corpus-apply)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
corpus="$repo/Tests/Fixtures/RealWorld"
work=${CORPUS_WORK:-/tmp/txkit-corpus-apply}
filter=${1:-}
started=$SECONDS

if [ -z "${TXKIT:-}" ]; then
    echo "== building txkit (Txkit trait, debug)"
    swift build --traits Txkit --product txkit >/dev/null
    TXKIT="$(swift build --traits Txkit --show-bin-path)/txkit"
fi

# The copy: the corpus package with its dependency on the library package
# made absolute, under git so that a pair's edits are undone with
# `git reset --hard` + `git clean` (which leave untouched files and the
# build folder alone).
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

# How many times the consumer's file still uses LEGACY directly: names it
# other than as `LEGACY.Nested`, `Shims.LEGACY`, `Mocks.LEGACY` or inside
# the wrapper it builds (`Wrappers.LEGACY(LEGACY(…))`); and, when LEGACY
# is the only legacy type the oracle lists for the consumer, still calls
# the bridge or names a legacy transaction type (the shim handed out the
# legacy object, as a `shared()` member does, or the manager still takes
# the legacy transaction).
still_direct() { # root consumer legacy pairs-of-consumer
    local file names bridges=0
    file=$(grep -rlE "(class|struct|actor|enum) $2\b" "$package/$1" | head -1)
    names=$({ grep -v '^ *///' "$file" | grep -v "Wrappers\.$3(" \
        | grep -oE "(Shims\.|Wrappers\.|Mocks\.)?\b$3\b(\.[A-Za-z_]+)?" \
        | grep -vE "^(Shims|Wrappers|Mocks)\.|^$3\.[A-Z]" || true; } | wc -l)
    if [ "$4" -eq 1 ]; then
        local words
        words=$(jq -r '[.legacyTransactions[].type] + ["shimOnlyBridge"] | join("|")' "$package/$1/txkit.json")
        bridges=$({ grep -v '^ *///' "$file" | grep -cwE "$words" || true; })
    fi
    echo $((names + bridges))
}

built=0
direct=0
refused=0
broken=0
unexpected=0
count=0
while IFS=$'\t' read -r app root consumer legacy expected pairs_of_consumer; do
    if [ -n "$filter" ] && ! echo "$app $consumer $legacy" | grep -Eq "$filter"; then
        continue
    fi
    count=$((count + 1))
    restore
    pair_started=$SECONDS
    log="$work/$app-$consumer-$legacy.log"
    if "$TXKIT" shim --consumer "$consumer" --legacy "$legacy" --root "$package/$root" --apply >"$log" 2>&1; then
        if swift build --build-tests >"$log.build" 2>&1 && swift test --skip-build >>"$log.build" 2>&1; then
            outcome="applied+built"
            built=$((built + 1))
            if [ "$(still_direct "$root" "$consumer" "$legacy" "$pairs_of_consumer")" -gt 0 ]; then
                outcome="applied+built, still direct"
                direct=$((direct + 1))
            fi
        else
            outcome="applied, BROKEN"
            broken=$((broken + 1))
        fi
    else
        outcome="refused"
        refused=$((refused + 1))
    fi
    verdict="as the oracle says"
    case "$expected:$outcome" in
        succeed:applied+built | refuse:refused | either:applied+built | either:refused) ;;
        *) verdict="oracle: $expected"; unexpected=$((unexpected + 1)) ;;
    esac
    printf '%-8s %-20s %-20s %-28s %4ss  %s\n' "$app" "$consumer" "$legacy" "$outcome" \
        "$((SECONDS - pair_started))" "$verdict"
    case "$outcome" in
        # (|| true: head closing the pipe early is not a failure.)
        refused) { grep -v '^$' "$log" | tail -3 | sed 's/^/      | /'; } || true ;;
        "applied, BROKEN") { grep -E '^/.*error:' "$log.build" | awk '!seen[$0]++' | head -5 | sed "s|$package/||; s/^/      | /"; } || true ;;
    esac
done < <(jq -r '.apps as $apps | .pairs as $pairs | .pairs[] | . as $p
    | [$p.app, ($apps[] | select(.name == $p.app) | .root), $p.consumer, $p.legacy, $p.apply,
       ([$pairs[] | select(.app == $p.app and .consumer == $p.consumer)] | length)] | @tsv' "$corpus/oracle.json")
restore

echo "corpus apply: $count pairs: $built applied+built ($direct of them still direct), $refused refused," \
    "$broken applied but BROKEN;" \
    "$unexpected not as the oracle says; $((SECONDS - started)) s"
if [ "$broken" -gt 0 ] || [ "$unexpected" -gt 0 ]; then
    exit 1
fi
