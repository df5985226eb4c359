#!/usr/bin/env bash
# Crash and overload suites against `sesame serve` (integration/reliability, docs/reliability.md):
#   1. kill -9 under mixed load, on SQLite and on PostgreSQL (a throwaway cluster, scripts/postgres.sh);
#   2. overload at 5x the measured maximum rate of password logins;
#   3. 10,000 idle connections and a slowloris beside legitimate requests;
#   4. disk full while signing up: SQLite on a 4 MiB tmpfs, PostgreSQL with its database in a tablespace
#      on a 24 MiB tmpfs (each skipped loudly when mount is refused).
# The short run (make test) takes a few minutes; RELIABILITY_LONG=1 (make reliability) runs 20 kills
# per store, a longer overload with a comparison run without shedding, and a distributed attacker.
#
# Environment:
#   SESAME_BIN         use this sesame binary instead of building .build/debug/sesame
#   SWIFT, SWIFT_BUILD_FLAGS  as for the other scripts
#   RELIABILITY_LONG   1 for the long run
#   RELIABILITY_KILLS  kills per store (default 3, long 20)
#   RELIABILITY_ONLY   a space-separated subset of: crash-sqlite crash-postgres overload connections disk-full
#                      disk-full-postgres
#   RELIABILITY_SEED   the crash suite's random seed (printed on every run)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.build/reliability-venv"
python="${PYTHON:-python3}"
swift="${SWIFT:-swift}"
long="${RELIABILITY_LONG:-0}"
if [ "$long" = 1 ]; then kills="${RELIABILITY_KILLS:-20}"; else kills="${RELIABILITY_KILLS:-3}"; fi
only="${RELIABILITY_ONLY:-crash-sqlite crash-postgres overload connections disk-full disk-full-postgres}"
wanted() { [[ " $only " == *" $1 "* ]]; }

# 1. The virtualenv (the interop client's libraries).
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import cryptography, cbor2, requests' >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        echo "reliability-test: installing python3-venv"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv
        "$python" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check cryptography cbor2 requests
fi
for tool in sqlite3 psql; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "reliability-test: installing $tool"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sqlite3 postgresql-client >/dev/null
    fi
done

# 2. The sesame binary.
if [ -z "${SESAME_BIN:-}" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame
    SESAME_BIN="$("$swift" build "${build_flags[@]}" --show-bin-path)/sesame"
fi
export SESAME_BIN

# 3. The suites. The PostgreSQL cluster is stopped on every exit.
postgres_started=0
cleanup() {
    if [ "$postgres_started" = 1 ]; then bash "$root/scripts/postgres.sh" stop || true; fi
}
trap cleanup EXIT
run() { (cd "$root/integration/reliability" && timeout --kill-after=10 "$1" "$venv/bin/python" "${@:2}"); }

started=$(date +%s)
if wanted crash-sqlite; then run 900 crash_test.py --cycles "$kills"; fi
if wanted crash-postgres; then
    bash "$root/scripts/postgres.sh" start >/dev/null
    postgres_started=1
    run 900 crash_test.py --cycles "$kills" --store "$(bash "$root/scripts/postgres.sh" dsn)"
    bash "$root/scripts/postgres.sh" stop
    postgres_started=0
fi
if wanted overload; then
    if [ "$long" = 1 ]; then run 600 overload_test.py --seconds 10 --compare-unshed; else run 300 overload_test.py; fi
fi
if wanted connections; then
    if [ "$long" = 1 ]; then
        run 300 connections_test.py --seconds 30
        run 300 connections_test.py --seconds 30 --addresses 10000
    else
        run 300 connections_test.py --seconds 10
    fi
fi
disk_full() {
    local status=0
    run 300 disk_full_test.py "$@" || status=$?
    if [ "$status" = 77 ]; then
        echo "reliability-test: ************ the disk-full suite was SKIPPED (no tmpfs could be mounted) ************"
    elif [ "$status" != 0 ]; then
        exit "$status"
    fi
}
if wanted disk-full; then disk_full; fi
if wanted disk-full-postgres; then
    bash "$root/scripts/postgres.sh" start >/dev/null
    postgres_started=1
    disk_full --store "$(bash "$root/scripts/postgres.sh" dsn)"
    bash "$root/scripts/postgres.sh" stop
    postgres_started=0
fi
echo "reliability-test: all suites passed in $(( $(date +%s) - started )) s (kills per store: $kills, long: $long)"
