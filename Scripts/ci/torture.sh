#!/usr/bin/env bash
# The crash torture (release): SIGKILL a writer at random moments, no
# acknowledged write lost; the same on an adopted GRDB pool with migrated
# and bridged legacy writes alternating; three writer processes and a reader
# at once, no loss and no partial snapshot.
source "$(dirname "$0")/common.sh"

swift run -c release --package-path Tools txkit-torture --rounds 12
swift run -c release --skip-build --package-path Tools txkit-torture --adopt --rounds 12
swift run -c release --skip-build --package-path Tools txkit-torture --writers 3 --reader --rounds 10
