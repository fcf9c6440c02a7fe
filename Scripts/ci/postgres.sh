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
Scripts/with-postgres.sh swift test --skip-build "${postgres_arguments[@]}" --filter 'Postgres|AsyncDB' --skip PostgresFaultTests
# The fault tests time each failure against the connect timeout: alone, so
# that the suites above (whose KeyValueStore calls block threads of the
# cooperative pool for a round trip each) do not delay their timers.
Scripts/with-postgres.sh swift test --skip-build "${postgres_arguments[@]}" --filter PostgresFaultTests
swift build --build-tests --package-path Tools >/dev/null
Scripts/with-postgres.sh swift test --skip-build --package-path Tools --filter 'Async|PostgresDemo'
Scripts/with-postgres.sh bash -c 'swift run --skip-build --package-path Tools txkit-demo --postgres "$TXKIT_POSTGRES_URL"'
Scripts/with-postgres.sh swift run --skip-build --package-path Tools txkit-torture postgres --kills 10
