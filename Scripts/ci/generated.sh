#!/usr/bin/env bash
# The generated shims, wrappers and mocks are current (`txkit shim|mock
# --check`) in the example and the generator's fixtures, and the example's
# inventory runs.
source "$(dirname "$0")/common.sh"
txkit=$(txkit_binary)

"$txkit" shim --root Tools --all --check
"$txkit" mock --root Tools --all --check
"$txkit" shim --root Tests/Fixtures/Generator --all --check
"$txkit" shim --root Tests/Fixtures/Apply --all --check
"$txkit" inventory --root Tools
echo "generated: every generated file is current"
