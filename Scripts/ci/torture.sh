#!/usr/bin/env bash
# The crash torture: SIGKILL a writer at random moments, no acknowledged
# write lost; the same on an adopted GRDB pool with migrated and bridged
# legacy writes alternating; three writer processes and a reader at once,
# no loss and no partial snapshot. It runs the debug build the build stage
# made: what it checks, durability across kills, does not depend on the
# optimizer, and a release build of the tools package (postgres-nio and
# BoringSSL included) would take minutes. `swift run -c release
# --package-path Tools txkit-torture` runs the same rounds optimized.
source "$(dirname "$0")/common.sh"

swift run --package-path Tools txkit-torture --rounds 12
swift run --skip-build --package-path Tools txkit-torture --adopt --rounds 12
swift run --skip-build --package-path Tools txkit-torture --writers 3 --reader --rounds 10
