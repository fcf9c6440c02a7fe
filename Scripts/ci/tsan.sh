#!/usr/bin/env bash
# The concurrency stress tests under the thread sanitizer, in their own
# scratch path (Scripts/run-thread-sanitizer.sh).
source "$(dirname "$0")/common.sh"
Scripts/run-thread-sanitizer.sh
