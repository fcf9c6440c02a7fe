#!/usr/bin/env bash
# The generator fuzzer (Tests/TxkitFuzzTests): random legacy GRDB apps, each
# compiled, inventoried against the ground truth it wrote, then every pair
# `txkit shim --apply`ed, compiled again and run for the same results; a
# MockDB test per consumer method; every finder `convert --apply`ed; and,
# from the program as written, `txkit migrate` of every consumer and
# service: it builds, prints the same, names no GRDB type, and a MockDB
# test per method runs it on its generated mocks. The
# seed is the commit's, so the same commit replays the same programs and
# each new commit explores new ones; a failure prints its seed and a shrunk
# program. Longer runs: Guides/Contributing.md, "How txkit is tested".
#   TXKIT_FUZZ_PROGRAMS  programs (default 16: with the migrate oracle, about
#                        the time 24 programs took without it)
#   TXKIT_FUZZ_ORACLES   oracles to run, comma-separated: shim,mocks,convert,migrate (default all four here)
source "$(dirname "$0")/common.sh"
hash=$(git rev-parse HEAD 2>/dev/null || echo 7478696b74666a7a7a)
seed=$((16#${hash:0:15}))
programs=${TXKIT_FUZZ_PROGRAMS:-16}
oracles=${TXKIT_FUZZ_ORACLES:-shim,mocks,convert,migrate}

swift build --build-tests "${root_build[@]}" >/dev/null
echo "== $programs programs, seed $seed, oracles $oracles"
TXKIT_FUZZ_SEED=$seed TXKIT_FUZZ_PROGRAMS=$programs TXKIT_FUZZ_ORACLES=$oracles \
    swift test --skip-build "${root_build[@]}" --filter 'generatorFuzz\(\)'
