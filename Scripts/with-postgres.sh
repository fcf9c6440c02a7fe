#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server.
#
#     Scripts/with-postgres.sh swift test --traits Postgres --filter 'Postgres|AsyncDB'
#
# Installs PostgreSQL from Debian's packages when it is missing, creates a
# cluster in a temporary folder (initdb), starts it on 127.0.0.1 at a free
# port with its socket in that folder, creates the database `txkit`, and runs
# the command with:
#   TXKIT_POSTGRES_URL      postgresql://txkit:<password>@127.0.0.1:<port>/txkit
#   TXKIT_POSTGRES_CONTROL  Scripts/postgres-control.sh, which stops and
#                           restarts the server, or starts a private one,
#                           for the tests that kill a server
# The server is stopped and the folder removed however the command ends; the
# script exits with the command's status.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}
if [[ $# -eq 0 ]]; then
    echo "usage: $0 COMMAND [ARGUMENT...]  (--help for more)" >&2
    exit 64
fi
case $1 in
    -h | --help)
        usage
        exit 0
        ;;
esac

find_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then
        echo "$dir"
    fi
}

PG_BIN=$(find_bin)
if [[ -z "$PG_BIN" ]]; then
    echo "with-postgres: installing PostgreSQL from Debian's packages" >&2
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
    PG_BIN=$(find_bin)
    if [[ -z "$PG_BIN" ]]; then
        echo "with-postgres: PostgreSQL's initdb is still missing after installing the package" >&2
        exit 69
    fi
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# `postgres` user the Debian package creates.
AS_OWNER=()
if [[ $(id -u) -eq 0 ]]; then
    if ! id postgres >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    fi
    AS_OWNER=(runuser -u postgres --)
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/txkit-postgres.XXXXXX")
chmod 755 "$WORK"
PASSWORD="txkit-$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '%s\n' "$PASSWORD" > "$WORK/password"
if [[ ${#AS_OWNER[@]} -gt 0 ]]; then chown -R postgres "$WORK"; fi

cleanup() {
    local status=$?
    local data
    for data in "$WORK"/data "$WORK"/private-*/data; do
        if [[ -d "$data" ]]; then
            "${AS_OWNER[@]}" "$PG_BIN/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${AS_OWNER[@]}" "$PG_BIN/initdb" -D "$WORK/data" -U txkit --pwfile="$WORK/password" \
    --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1 || {
    cat "$WORK/initdb.log" >&2
    exit 70
}

OWNER=""
if [[ ${#AS_OWNER[@]} -gt 0 ]]; then OWNER=postgres; fi
printf 'PG_BIN=%q\nPORT=%q\nPASSWORD=%q\nOWNER=%q\n' "$PG_BIN" "$PORT" "$PASSWORD" "$OWNER" >"$WORK/settings"
export TXKIT_POSTGRES_WORK="$WORK"
CONTROL="$(cd "$(dirname "$0")" && pwd)/postgres-control.sh"

"$CONTROL" start || {
    cat "$WORK/data.log" >&2
    exit 70
}
PGPASSWORD="$PASSWORD" psql -q -h 127.0.0.1 -p "$PORT" -U txkit -d postgres \
    -c "CREATE DATABASE txkit" >/dev/null

export TXKIT_POSTGRES_URL="postgresql://txkit:$PASSWORD@127.0.0.1:$PORT/txkit"
export TXKIT_POSTGRES_CONTROL="$CONTROL"
echo "with-postgres: PostgreSQL $("$PG_BIN/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$PORT (cluster in $WORK)" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
