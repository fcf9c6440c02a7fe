#!/usr/bin/env bash
# On a throwaway PostgreSQL server (Scripts/with-postgres.sh): PostgresDB's
# tests and the AsyncDB behaviour suite, in the Postgres-trait build (the
# same as `Scripts/with-postgres.sh swift test --traits Postgres --filter
# 'Postgres|AsyncDB'`); then the example's async slice and
# `txkit-demo --postgres`.
source "$(dirname "$0")/common.sh"
postgres_build

swift build --build-tests "${postgres_arguments[@]}" >/dev/null
Scripts/with-postgres.sh swift test --skip-build "${postgres_arguments[@]}" --filter 'Postgres|AsyncDB'
swift build --build-tests --package-path Tools >/dev/null
Scripts/with-postgres.sh swift test --skip-build --package-path Tools --filter 'Async|PostgresDemo'
Scripts/with-postgres.sh bash -c 'swift run --skip-build --package-path Tools txkit-demo --postgres "$TXKIT_POSTGRES_URL"'
