#!/usr/bin/env bash
# Starts several `txkit-demo --path NEW` processes at once on the same new
# database file, round after round, and counts the processes that failed.
#
#   swift build -c release --package-path Tools --product txkit-demo
#   Scripts/concurrent-open.sh                  # 40 rounds of 2 processes
#   ROUNDS=100 PROCESSES=4 Scripts/concurrent-open.sh
#   TXKIT_DEMO=/path/to/txkit-demo Scripts/concurrent-open.sh
#
# Every round uses a fresh file in a fresh temporary directory; the
# processes of a round are started back to back and waited for together.
# The script prints each failed process's first error line, then counts the
# failures to open ("cannot open the demo database": migration failed, busy,
# other) apart from the failures after a successful open (the demo's own
# scenario, e.g. both processes registering the same user), and exits
# non-zero if any process failed to open.
set -uo pipefail
cd "$(dirname "$0")/.."

txkit="${TXKIT_DEMO:-Tools/.build/release/txkit-demo}"
rounds="${ROUNDS:-40}"
processes="${PROCESSES:-2}"

if [[ ! -x "$txkit" ]]; then
    echo "no txkit-demo at $txkit; build it with: swift build -c release --package-path Tools --product txkit-demo" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/concurrent-open.XXXXXX")
trap 'rm -rf "$work"' EXIT

failed_rounds=0
failed_processes=0
migration=0
busy=0
other=0
after_open=0
start=$SECONDS

for ((round = 1; round <= rounds; round++)); do
    directory="$work/$round"
    mkdir "$directory"
    pids=()
    for ((index = 1; index <= processes; index++)); do
        "$txkit" --path "$directory/NEW.sqlite" >"$directory/out.$index" 2>"$directory/err.$index" &
        pids+=($!)
    done
    round_failed=0
    for ((index = 1; index <= processes; index++)); do
        if ! wait "${pids[index - 1]}"; then
            failed_processes=$((failed_processes + 1))
            message=$(grep -m1 -i -E 'error|fail|busy' "$directory/err.$index" "$directory/out.$index" | head -n1)
            echo "round $round, process $index: ${message:-exit status non-zero, no message}"
            if ! grep -q 'cannot open the demo database' "$directory/err.$index" "$directory/out.$index"; then
                after_open=$((after_open + 1))
            elif grep -q -i 'migration' "$directory/err.$index" "$directory/out.$index"; then
                migration=$((migration + 1))
                round_failed=1
            elif grep -q -i 'busy' "$directory/err.$index" "$directory/out.$index"; then
                busy=$((busy + 1))
                round_failed=1
            else
                other=$((other + 1))
                round_failed=1
            fi
        fi
    done
    failed_rounds=$((failed_rounds + round_failed))
    rm -rf "$directory"
done

elapsed=$((SECONDS - start))
echo "concurrent open: $failed_rounds of $rounds rounds had an open failure ($processes processes each):" \
    "$migration migration failed, $busy busy, $other other open failure;" \
    "$after_open process(es) failed after opening (the demo scenario itself); ${elapsed} s"
[[ $failed_rounds -eq 0 ]]
