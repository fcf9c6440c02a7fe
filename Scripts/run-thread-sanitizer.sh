#!/usr/bin/env bash
# Runs the concurrency stress tests under the thread sanitizer.
#
# The sanitized build lives in its own scratch path (.build-tsan, ignored by
# git) so that it never invalidates the normal debug build. ThreadSanitizer
# makes the test process exit non-zero when it reported anything, so any data
# race fails this script.
#
#   Scripts/run-thread-sanitizer.sh                 # the stress suites
#   TSAN_FILTER='SQLiteStressTests' Scripts/run-thread-sanitizer.sh
set -euo pipefail
cd "$(dirname "$0")/.."

filter="${TSAN_FILTER:-DBDifferentialConcurrencyTests|SQLiteStressTests|SQLiteReaderPoolTests|ConcurrentHooksTests|TransactionStateAcrossThreadsTests|concurrentWritesAreSerialized|concurrentWritersAndReaders|concurrentWritersThroughTheStore|aReadSeesOneSnapshotWhileAnotherThreadWrites|aReadOpenedBeforeACommitKeepsItsSnapshotOfALargeCollection|CommitObservationTests|seedingWaitsForARunningWrite|AsyncDBBehaviourTests|MockDBAsyncDBTests|AdoptionBehaviourTests|ValueObservationTests}"
start=$(date +%s)

swift build --build-tests --sanitize=thread --scratch-path .build-tsan
built=$(date +%s)

# second_deadlock_stack: clearer lock-order reports; history_size: longer
# stacks for the previous access of a race; suppressions: the Swift
# runtime's continuation hand-over (see the file for why).
TSAN_OPTIONS="second_deadlock_stack=1 history_size=4 suppressions=$PWD/Scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$filter"
done=$(date +%s)

echo "thread sanitizer: no race reported in '$filter' (build $((built - start)) s, run $((done - built)) s)"
