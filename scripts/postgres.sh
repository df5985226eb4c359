#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, under .build/postgres, listening only on a Unix
# socket there (no TCP port). Installs Debian's postgresql when initdb is missing.
#
#   scripts/postgres.sh start   initialise and start a fresh cluster; prints the DSN
#   scripts/postgres.sh stop    stop it (and keep nothing)
#   scripts/postgres.sh dsn     print the DSN of the running cluster
#   scripts/postgres.sh pause   stop the server, keeping its data (the restart tests)
#   scripts/postgres.sh resume  start it again
#
# As root (CI), the server runs as the `postgres` system user, since PostgreSQL refuses root.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/.build/postgres"
data="$dir/data"
socket="$dir/socket"
database=sesame_test
user=sesame

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

bin_dir() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

ensure_installed() {
    if [ -z "$(bin_dir)" ] || [ ! -x "$(bin_dir)/initdb" ]; then
        echo "postgres: installing postgresql" >&2
        "${sudo_cmd[@]}" apt-get update -qq
        # No cluster of the package's own: only the binaries are needed.
        echo "create_main_cluster = false" | "${sudo_cmd[@]}" tee /etc/postgresql-common/createcluster.d/sesame.conf \
            >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends postgresql \
            >/dev/null
    fi
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A libpq URI (what `sesame --store` takes); the socket directory goes in `host`, percent-encoded.
dsn() { echo "postgresql://$user@/$database?host=$(printf '%s' "$socket" | sed 's|/|%2F|g')"; }

case "${1:-}" in
start)
    ensure_installed
    bin="$(bin_dir)"
    if [ -f "$data/postmaster.pid" ]; then as_owner "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    mkdir -p "$data" "$socket"
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres "$dir"; fi
    as_owner "$bin/initdb" -D "$data" --auth=trust --username="$user" --encoding=UTF8 --no-instructions \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # fsync off: a test cluster is thrown away; it only makes the suite faster.
    as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
        -o "-c listen_addresses='' -c unix_socket_directories='$socket' -c fsync=off -c max_connections=300" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h "$socket" -U "$user" "$database"
    dsn
    ;;
stop)
    bin="$(bin_dir)"
    if [ -n "$bin" ] && [ -f "$data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    rm -rf "$dir"
    ;;
dsn)
    dsn
    ;;
pause)
    as_owner "$(bin_dir)/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    ;;
resume)
    as_owner "$(bin_dir)/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
        -o "-c listen_addresses='' -c unix_socket_directories='$socket' -c fsync=off -c max_connections=300" \
        start >/dev/null
    ;;
*)
    echo "usage: scripts/postgres.sh start|stop|dsn|pause|resume" >&2
    exit 2
    ;;
esac
