#!/usr/bin/env bash
# txkit on the real-world corpus (Tests/Fixtures/RealWorld): `shim --apply`
# on every pair, each followed by a build, none may break it
# (Scripts/check-corpus-apply.sh); then `convert --apply --verify` on every
# legacy type, each followed by its tests, on the same scratch copy (already
# built, so each build is incremental, put back to its pristine state before
# each type; Scripts/check-corpus-convert.sh).
source "$(dirname "$0")/common.sh"
txkit=$(txkit_binary)
work="${TMPDIR:-/tmp}/txkit-corpus-apply"

TXKIT="$txkit" CORPUS_WORK="$work" Scripts/check-corpus-apply.sh
TXKIT="$txkit" CORPUS_WORK="$work" Scripts/check-corpus-convert.sh
