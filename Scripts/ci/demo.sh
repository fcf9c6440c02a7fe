#!/usr/bin/env bash
# The README's main job, `swift run --package-path Tools txkit-demo`, on a
# file and in memory; then the benchmarks' smoke run (debug: it checks that
# they run, not what they measure; figures come from release builds,
# Benchmarks/README.md).
source "$(dirname "$0")/common.sh"

swift run --package-path Tools txkit-demo
swift run --skip-build --package-path Tools txkit-demo --in-memory >/dev/null
swift run --package-path Tools txkit-bench --quick --only empty_read_tx,empty_write_tx >/dev/null
echo "demo: the demo ran on a file and in memory; the benchmarks ran"
