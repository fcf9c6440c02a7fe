#!/usr/bin/env bash
# Builds the three configurations the other stages use (see common.sh),
# the tools package's beside the root package's two,
# tests included, and fails on any warning in a file of this repository:
# the library, the generator, their tests and fixtures, the tools package
# and its example. Warnings inside dependencies' checkouts do not count.
source "$(dirname "$0")/common.sh"

build_without_warnings() { # label, swift build arguments…
    local label=$1 log
    shift
    log=$(mktemp)
    echo "== swift build --build-tests $* ($label)"
    swift build --build-tests "$@" 2>&1 | tee "$log"
    # A diagnostic names its file by absolute path; ours are the ones in
    # this checkout outside any build folder.
    if grep -E "^$PWD/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | grep -vE "^$PWD/([^:]*/)?\.build[^/]*/"; then
        rm -f "$log"
        echo "error: the $label build printed warnings (above)" >&2
        exit 1
    fi
    rm -f "$log"
}

# The tools package builds beside the two root builds, which run one after
# the other (they share the root's Package.resolved): a build leaves a core
# idle for long stretches (planning, module-at-a-time compiles, links).
tools_log=$(mktemp)
trap 'rm -f "$tools_log"' EXIT
build_without_warnings "tools package" --package-path Tools >"$tools_log" 2>&1 &
tools_pid=$!
build_without_warnings "root package, Txkit trait" "${root_build[@]}"
postgres_build
build_without_warnings "root package, Postgres trait, DocC flags" "${postgres_arguments[@]}"
tools_status=0
wait "$tools_pid" || tools_status=$?
cat "$tools_log"
[ "$tools_status" -eq 0 ] || { echo "error: the tools package's build failed (above)" >&2; exit 1; }
echo "build: three configurations built, no warning"
