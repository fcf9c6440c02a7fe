#!/usr/bin/env bash
# Controls the throwaway PostgreSQL servers of Scripts/with-postgres.sh, for
# the tests that kill a server. with-postgres.sh exports its path as
# TXKIT_POSTGRES_CONTROL and the cluster folder as TXKIT_POSTGRES_WORK.
#
#     stop | start | restart    the shared server (stop is immediate: the
#                               server exits without a checkpoint, as in a
#                               crash, and recovers from its log at start)
#     private-start NAME        creates (the first time) and starts a server
#                               of one test's own, and prints its URL
#     private-stop NAME         stops that server immediately
#
# A test that kills a private server never disturbs the tests that run
# beside it on the shared one.
set -euo pipefail

WORK=${TXKIT_POSTGRES_WORK:?"run through Scripts/with-postgres.sh"}
source "$WORK/settings"   # PG_BIN, PORT, PASSWORD, OWNER

as_owner() {
    if [[ -n "$OWNER" ]]; then runuser -u "$OWNER" -- "$@"; else "$@"; fi
}

start() { # DATA-FOLDER PORT
    as_owner "$PG_BIN/pg_ctl" -D "$1" -l "$1.log" -w -t 60 \
        -o "-p $2 -k $WORK -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
}

stop() { # DATA-FOLDER
    as_owner "$PG_BIN/pg_ctl" -D "$1" -m immediate -w stop >/dev/null
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case "${1:-}" in
    stop) stop "$WORK/data" ;;
    start) start "$WORK/data" "$PORT" ;;
    restart) stop "$WORK/data"; start "$WORK/data" "$PORT" ;;
    private-start)
        folder="$WORK/private-${2:?a name}"
        if [[ ! -d "$folder" ]]; then
            as_owner mkdir "$folder"
            as_owner "$PG_BIN/initdb" -D "$folder/data" -U txkit --pwfile="$WORK/password" \
                --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
            free_port | as_owner tee "$folder/port" >/dev/null
        fi
        port=$(cat "$folder/port")
        start "$folder/data" "$port"
        echo "postgresql://txkit:$PASSWORD@127.0.0.1:$port/postgres"
        ;;
    private-stop) stop "$WORK/private-${2:?a name}/data" ;;
    *)
        echo "usage: $0 stop|start|restart|private-start NAME|private-stop NAME" >&2
        exit 64
        ;;
esac
