#!/usr/bin/env bash
# Every test of the repository: `swift test` in the library package (the
# root), then in the tools package (Tools/: the worked example and txkit).
# Both run even if the first fails; the exit status is non-zero if either
# failed. Extra arguments go to both runs (e.g. --filter, --parallel).
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
echo "== swift test (library package)"
swift test "$@" || status=1
echo "== swift test --package-path Tools (example and tools)"
swift test --package-path Tools "$@" || status=1
exit "$status"
