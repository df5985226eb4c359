#!/usr/bin/env bash
# Load benchmark: builds `sesame` and `sesame-loadgen` in release mode, then runs full passkey
# logins (challenge + token) and refresh grants over loopback keep-alive against `sesame serve`
# pinned to one core (--threads 1), the load generator pinned to another. Prints a table with
# each figure beside the raw libcrypto cost of the same work measured in the same run.
# See docs/BENCHMARKS.md ("Server: full passkey logins").
#
# Variables: SWIFT, LOADBENCH_SCRATCH (build directory, default .build), LOADBENCH_SERVER_CORE
# (default 0), LOADBENCH_CLIENT_CORE (default 1), LOADBENCH_LOGINS (default 100000),
# LOADBENCH_REFRESHES (default 100000), LOADBENCH_USERS (200), LOADBENCH_CONNECTIONS (4),
# LOADBENCH_PASSWORD_LOGINS (default 300 each of right, wrong and unknown-user password logins; 0 skips),
# LOADBENCH_SERVER_WRAPPER and LOADBENCH_PHASE_HOOK (profiling; see sesame-loadgen --help),
# LOADBENCH_SERVER_CONFIG (tuned: --threads 1 --log-level error, the default; default: sesame serve's
# own thread pool and info log level), LOADBENCH_PACED (logins and refreshes sent at half the
# measured rate for the latency rows, default 4000; 0 skips them), LOADBENCH_FLOOR (logins and refreshes
# sent to sesame-floor-server, the ideal server measured on the same core, default 10000; 0 skips it).
# Exits non-zero only when something fails, never because a target is missed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
swift="${SWIFT:-swift}"
scratch="${LOADBENCH_SCRATCH:-$root/.build}"
server_core="${LOADBENCH_SERVER_CORE:-0}"
client_core="${LOADBENCH_CLIENT_CORE:-1}"

cd "$root"
echo "load-bench: building sesame, sesame-loadgen and sesame-floor-server (release)"
"$swift" build -c release --scratch-path "$scratch" --product sesame
"$swift" build -c release --scratch-path "$scratch" --product sesame-loadgen
"$swift" build -c release --scratch-path "$scratch" --product sesame-floor-server
bin="$("$swift" build -c release --scratch-path "$scratch" --show-bin-path)"

cores="$(nproc)"
pin=()
if command -v taskset > /dev/null && [ "$cores" -gt "$client_core" ] && [ "$cores" -gt "$server_core" ]; then
    pin=(taskset -c "$client_core")
else
    echo "load-bench: taskset missing or fewer than 2 cores: the load generator is not pinned" >&2
    server_core=-1
fi

pidfile="$(mktemp "${TMPDIR:-/tmp}/sesame-loadbench-pid.XXXXXX")"
cleanup() {
    # The load generator stops the server itself; this catches an interrupted or crashed run.
    if [ -s "$pidfile" ]; then
        pid="$(cat "$pidfile")"
        if kill -0 "$pid" 2> /dev/null; then
            kill -TERM "$pid" 2> /dev/null || true
            for _ in $(seq 1 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
            kill -KILL "$pid" 2> /dev/null || true
        fi
    fi
    rm -f "$pidfile"
}
trap cleanup EXIT INT TERM

# LOADBENCH_POSTGRES=1: serve from a throwaway PostgreSQL (scripts/postgres.sh) instead of SQLite,
# and report the database's own CPU beside the server's.
postgres_cpu() {
    local total=0 pid ticks
    for pid in $(pgrep -x postgres || true); do
        ticks="$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)"
        total=$((total + ticks))
    done
    echo "$total"
}
if [ "${LOADBENCH_POSTGRES:-0}" = 1 ]; then
    LOADBENCH_STORE="$(scripts/postgres.sh start)"
    export LOADBENCH_STORE
    trap 'cleanup; scripts/postgres.sh stop' EXIT INT TERM
    before="$(postgres_cpu)"
fi

echo "load-bench: server on core $server_core, load generator on core $client_core" \
    "(load average: $(cut -d' ' -f1-3 /proc/loadavg))${LOADBENCH_STORE:+, store: PostgreSQL}"
"${pin[@]}" "$bin/sesame-loadgen" --sesame "$bin/sesame" --server-core "$server_core" --pid-file "$pidfile"
if [ "${LOADBENCH_POSTGRES:-0}" = 1 ]; then
    ticks=$(($(postgres_cpu) - before))
    echo "PostgreSQL's own CPU over the run (all its processes, unpinned): $((ticks * 1000 / $(getconf CLK_TCK))) ms"
fi
