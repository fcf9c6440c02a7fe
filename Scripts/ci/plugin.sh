#!/usr/bin/env bash
# The command plugin on an app: a copy of Tests/Fixtures/PluginConsumer,
# outside the repository, depends on this checkout with the Txkit trait and
# runs `swift package txkit inventory`, `init --dry-run`, `shim --apply`,
# then builds and passes its tests (Scripts/check-plugin-consumer.sh). The
# `txkit` its build holds, the one the plugin runs, links swift-syntax and
# swift-argument-parser and none of GRDB, SQLite, postgres-nio, Testing or
# XCTest (Scripts/check-generator-links.sh).
source "$(dirname "$0")/common.sh"
work="${TMPDIR:-/tmp}/txkit-plugin-consumer"

Scripts/check-plugin-consumer.sh "$work"
Scripts/check-generator-links.sh "$work/PluginConsumer/.build/debug"
