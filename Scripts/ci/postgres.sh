#!/usr/bin/env bash
# On a throwaway PostgreSQL server (Scripts/with-postgres.sh): PostgresDB's
# tests and the AsyncDB behaviour suite, in the Postgres-trait build (the
# same as `Scripts/with-postgres.sh swift test --traits Postgres --filter
# 'Postgres|AsyncDB'`: faults, template copies, the key-value store); then
# the example's async slice (on PostgresDB and SQLiteDB), `txkit-demo
# --postgres`, and a short PostgreSQL torture (10 server kills; the full one
# is `txkit-torture postgres --kills 50`).
source "$(dirname "$0")/common.sh"
postgres_build

swift build --build-tests "${postgres_arguments[@]}" >/dev/null
Scripts/with-postgres.sh swift test --skip-build "${postgres_arguments[@]}" --filter 'Postgres|AsyncDB|AsyncTimeGatedBatch|AsyncTransactionLog' --skip PostgresFaultTests
# The fault tests time each failure against the connect timeout: alone, so
# that the suites above (whose KeyValueStore calls block threads of the
# cooperative pool for a round trip each) do not delay their timers.
Scripts/with-postgres.sh swift test --skip-build "${postgres_arguments[@]}" --filter PostgresFaultTests
swift build --build-tests --package-path Tools >/dev/null
Scripts/with-postgres.sh swift test --skip-build --package-path Tools --filter 'Async|PostgresDemo'
Scripts/with-postgres.sh bash -c 'swift run --skip-build --package-path Tools txkit-demo --postgres "$TXKIT_POSTGRES_URL"'
# A run that stops making progress is a known open bug (issue 42: writers
# can wait forever after a server kill): after 120 s (a healthy run of 10
# kills takes about 25 s) it is reported and the stage goes on; a lost
# acknowledged write fails it.
status=0
timeout -k 30 120 Scripts/with-postgres.sh swift run --skip-build --package-path Tools txkit-torture postgres --kills 10 || status=$?
if [ "$status" -eq 124 ]; then
    echo "WARNING: txkit-torture postgres made no progress for 120 s (the known hang of issue 42); not counted as a loss"
elif [ "$status" -ne 0 ]; then
    exit "$status"
fi
