#!/usr/bin/env bash
# Differential testing: MockDB against SQLiteDB in memory and on a file,
# and MockDB against PostgresDB, on random transaction programs. The seed is
# the commit's: a run of the same commit replays the same programs (a red
# build is never luck) and each new commit explores new ones. A mismatch
# prints its seed, its shrunk program and the traces' difference; longer
# runs with new seeds: Guides/Testing.md.
#   TXKIT_DIFF_PROGRAMS  programs per pair (default 4000: CI time; longer
#                        runs with new seeds: Guides/Testing.md)
source "$(dirname "$0")/common.sh"
seed="0x$(git rev-parse --short=16 HEAD 2>/dev/null || echo 7478696b74646966)"
programs=${TXKIT_DIFF_PROGRAMS:-4000}

echo "== MockDB against SQLiteDB in memory and on a file, $programs programs per pair, seed $seed"
swift build --build-tests "${root_build[@]}" >/dev/null
TXKIT_DIFF_SEED=$seed TXKIT_DIFF_PROGRAMS=$programs swift test --skip-build "${root_build[@]}" --filter DBDifferentialTests

echo "== MockDB against PostgresDB (AsyncDB), $programs programs, seed $seed"
postgres_build
swift build --build-tests "${postgres_arguments[@]}" >/dev/null
Scripts/with-postgres.sh env TXKIT_DIFF_SEED="$seed" TXKIT_DIFF_PROGRAMS="$programs" \
    swift test --skip-build "${postgres_arguments[@]}" --filter AsyncDBDifferentialTests
