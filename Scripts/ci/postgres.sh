#!/usr/bin/env bash
# On a throwaway PostgreSQL server (Scripts/with-postgres.sh): PostgresDB's
# tests and the AsyncDB behaviour suite, in the Postgres-trait build (the
# same as `Scripts/with-postgres.sh swift test --traits Postgres --filter
# 'Postgres|AsyncDB'`: faults, template copies, the key-value store); then
# the example's async slice (on PostgresDB and SQLiteDB), `txkit-demo
# --postgres`, and the PostgreSQL torture (50 server kills; a lost
# acknowledged write or a hang fails the stage).
source "$(dirname "$0")/common.sh"
postgres_build

swift build --build-tests "${postgres_arguments[@]}" >/dev/null
Scripts/with-postgres.sh swift test --skip-build "${postgres_arguments[@]}" --filter 'Postgres|AsyncDB|AsyncTimeGatedBatch|AsyncTransactionLog'
swift build --build-tests --package-path Tools >/dev/null
# How long PostgresDB.open takes to fail (refused connection, refused
# password) against connectTimeout + 1 s: printed, never a pass/fail time
# (a debug build; Benchmarks/README.md has release figures).
Scripts/with-postgres.sh swift run --skip-build --package-path Tools txkit-bench pg-faults --rounds 5
Scripts/with-postgres.sh swift test --skip-build --package-path Tools --filter 'Async|PostgresDemo'
Scripts/with-postgres.sh bash -c 'swift run --skip-build --package-path Tools txkit-demo --postgres "$TXKIT_POSTGRES_URL"'
# 50 server kills (about 30 s here); a run that stops making progress is a
# hang, which fails the stage.
status=0
timeout -k 30 240 Scripts/with-postgres.sh swift run --skip-build --package-path Tools txkit-torture postgres --kills 50 || status=$?
if [ "$status" -eq 124 ]; then
    echo "error: txkit-torture postgres did not finish in 240 s: writers hang after a server kill" >&2
fi
exit "$status"
