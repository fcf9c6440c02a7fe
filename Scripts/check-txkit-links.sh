#!/usr/bin/env bash
# The shipped tool links neither the toolchain's Testing nor XCTest: `ldd`
# on the built `txkit` (Tools/ package) must show neither library.
# Usage: Scripts/check-txkit-links.sh [debug|release]   (default debug)
set -euo pipefail
cd "$(dirname "$0")/../Tools"
configuration="${1:-debug}"
swift build -c "$configuration" --product txkit >/dev/null
binary="$(swift build -c "$configuration" --show-bin-path)/txkit"
if ldd "$binary" | grep -E 'Testing|XCTest'; then
    echo "error: $binary links a test library (above)" >&2
    exit 1
fi
echo "txkit ($configuration): $(ldd "$binary" | wc -l) shared libraries, none of them Testing or XCTest"
