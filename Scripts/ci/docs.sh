#!/usr/bin/env bash
# DocC: every library module, warning-free, every public symbol curated
# (Scripts/build-docs.sh). Run after the PostgreSQL stages in .ci/run: it
# recompiles the six library modules of the Postgres-trait build.
source "$(dirname "$0")/common.sh"
Scripts/build-docs.sh
