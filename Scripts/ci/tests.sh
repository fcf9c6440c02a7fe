#!/usr/bin/env bash
# The README's test command: the library and the generator (Txkit trait),
# then the example and the tools.
source "$(dirname "$0")/common.sh"
swift test --traits Txkit && swift test --package-path Tools
