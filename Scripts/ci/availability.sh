#!/usr/bin/env bash
# The Apple floor (iOS 15, macOS 12, tvOS 15, watchOS 8), proven on Linux:
# nothing the library, its testing modules or the generator use is newer
# than the floor unless an @available / #available around the use says so
# (Scripts/check-availability.py: the compiler's typed AST against the
# toolchain's symbol graphs), PostgresDB included, which needs macOS 13 /
# iOS 16 as postgres-nio's client does. The test targets, their support
# target and the fixtures are held to the same floor (`swift test` on a Mac
# compiles them against it), as the Txkit-trait build compiles them (their
# PostgreSQL parts, under the Postgres trait, are not audited yet). Then
# the audit's self-test: planted uses above the floor, in the core and in a
# test target, fail it; the same uses gated pass. Several minutes with the
# builds up to date (the test targets are most of the code).
source "$(dirname "$0")/common.sh"

# The Txkit trait build's three audits run in one process (`--all`), so
# that the library modules the test targets import are type-checked once.
echo "== the Txkit trait build: the library, the test targets, the self-test"
swift build --build-tests "${root_build[@]}" >/dev/null
python3 Scripts/check-availability.py --build-path .build --all
echo "== PostgresDB (Postgres trait build, as the build and docs stages make it)"
postgres_build
swift build "${postgres_arguments[@]}" >/dev/null
python3 Scripts/check-availability.py --build-path .build-docs --modules TransactionKitPostgres,TransactionKitPostgresTesting
