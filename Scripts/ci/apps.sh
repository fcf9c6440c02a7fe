#!/usr/bin/env bash
# `txkit migrate` on the three GRDB apps of Tests/Fixtures/Apps, written by
# people outside the team, with their own output and tests as the oracle
# (Scripts/check-app-migration.sh, once per app): the user's steps, `txkit
# init`, one `txkit migrate` per consumer, then the app builds without a new
# warning, prints its expected-output.txt byte for byte, its own tests and
# a MockDB test per migrated consumer pass, and no migrated consumer's file
# names a GRDB type or the app's database holder or transaction types.
#
# Each app is copied to .build-apps/<app> (git-ignored); the three share
# one SwiftPM scratch folder, .build-apps/.build, so GRDB and TransactionKit
# are built once for the three. The vendored copies are first compared with
# their origin, ../shared/apps/<app>, when that folder exists
# (TXKIT_APPS_ORIGIN names another one).
source "$(dirname "$0")/common.sh"
txkit=$(txkit_binary)
origin="${TXKIT_APPS_ORIGIN:-../shared/apps}"
summaries=$(mktemp)
trap 'rm -f "$summaries"' EXIT

for app in recipes ledger chatstore; do
    if [ -d "$origin/$app" ]; then
        diff -r --exclude=.build --exclude=.swiftpm --exclude=Package.resolved \
            "$origin/$app" "Tests/Fixtures/Apps/$app" ||
            { echo "error: Tests/Fixtures/Apps/$app differs from $origin/$app (above): copy it again" >&2; exit 1; }
        echo "== Tests/Fixtures/Apps/$app is identical to $origin/$app"
    else
        echo "== $origin/$app does not exist: the vendored copy is not compared"
    fi
done

for app in recipes ledger chatstore; do
    TXKIT="$txkit" SUMMARY="$summaries" Scripts/check-app-migration.sh "$app"
done
echo "== apps"
cat "$summaries"
