#!/usr/bin/env bash
# The package's promises that are not tests: an app's dependency graph, the
# type system's refusals, the generator benchmark's types, TransactionKitTesting's isolation from GRDB, and
# the guides' code and test commands.
source "$(dirname "$0")/common.sh"
swift build --build-tests "${root_build[@]}" >/dev/null

echo "== an app that depends on the library products resolves GRDB.swift and nothing else"
Scripts/check-consumer-graph.sh
echo "== the type system's promises (programs that must not compile)"
Scripts/check-compile-errors.sh
echo "== each of those probes fails when what it guards is allowed (planted in a copy of the core)"
Scripts/check-compile-errors.sh --self-test
echo "== TransactionKitTesting links neither GRDB nor SQLite"
Scripts/check-testing-isolation.sh
echo "== txkit-bench generator (built only with Tools' GeneratorBenchmark trait) type-checks against the generator"
Scripts/check-generator-benchmark.sh
echo "== the Swift code in README.md and Guides/ matches the compiled sources"
python3 Scripts/check-guide-snippets.py
echo "== every swift test --filter command in README.md and Guides/ selects at least one test of its package"
python3 Scripts/check-guide-test-filters.py
