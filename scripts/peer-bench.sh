#!/usr/bin/env bash
# Peers in the same run (`make bench-peers`, docs/BENCHMARKS.md "Peers"):
#  1. py_webauthn's verify_authentication_response against Sesame's WebAuthn core on the same
#     assertions (sesame-bench with Benchmarks/py_webauthn_bench.py, as `make bench` runs it),
#     pinned to the server core;
#  2. full passkey logins against django-allauth's headless passkey login (Benchmarks/peers/allauth:
#     SQLite, gunicorn with one worker) and against Sesame, each server pinned to the same core and
#     driven by the same load generator (sesame-loadgen --peers) from the other core.
# Python packages come from Benchmarks/peers/allauth/requirements.txt into .build/bench-venv.
#
# Variables: SWIFT, LOADBENCH_SCRATCH (build directory, default .build), LOADBENCH_SERVER_CORE (0),
# LOADBENCH_CLIENT_CORE (1), LOADBENCH_LOGINS (measured logins per pass, default 3000),
# LOADBENCH_USERS (200), LOADBENCH_CONNECTIONS (4), LOADBENCH_WARMUP (300),
# LOADBENCH_PEER_WORKER (gthread or sync). Exits non-zero only when something fails.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
swift="${SWIFT:-swift}"
scratch="${LOADBENCH_SCRATCH:-$root/.build}"
server_core="${LOADBENCH_SERVER_CORE:-0}"
client_core="${LOADBENCH_CLIENT_CORE:-1}"
export LOADBENCH_LOGINS="${LOADBENCH_LOGINS:-3000}"
venv="$root/.build/bench-venv"
requirements="$root/Benchmarks/peers/allauth/requirements.txt"

cd "$root"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
# The pins are installed once; the copy beside the venv says which ones it holds.
if ! cmp -s "$requirements" "$venv/peer-requirements.txt"; then
    echo "peer-bench: installing $(grep -vc '^#' "$requirements") pinned packages into $venv"
    "$venv/bin/pip" install -q -r "$requirements"
    cp "$requirements" "$venv/peer-requirements.txt"
fi

echo "peer-bench: building sesame, sesame-loadgen and sesame-bench (release)"
for product in sesame sesame-loadgen sesame-bench; do
    "$swift" build -c release --scratch-path "$scratch" --product "$product"
done
bin="$("$swift" build -c release --scratch-path "$scratch" --show-bin-path)"

server_pin=()
client_pin=()
if command -v taskset > /dev/null && [ "$(nproc)" -gt "$client_core" ] && [ "$(nproc)" -gt "$server_core" ]; then
    server_pin=(taskset -c "$server_core")
    client_pin=(taskset -c "$client_core")
else
    echo "peer-bench: taskset missing or fewer than 2 cores: nothing is pinned" >&2
    server_core=-1
fi

echo "peer-bench: before: $(uptime)"
echo "peer-bench: $("$venv/bin/python" --version); $("$venv/bin/pip" freeze | grep -Ei '^(django|django-allauth|fido2|gunicorn|webauthn|cryptography)==' | tr '\n' ' ')"
echo
echo "== 1. py_webauthn vs Sesame's WebAuthn core (sesame-bench on core $server_core) =="
SESAME_BENCH_PYTHON="$venv/bin/python" SESAME_BENCH_PY_SCRIPT="$root/Benchmarks/py_webauthn_bench.py" \
    "${server_pin[@]}" "$bin/sesame-bench"
echo
echo "== 2. full passkey logins: django-allauth headless vs Sesame (sesame-loadgen --peers on core $client_core) =="
"${client_pin[@]}" "$bin/sesame-loadgen" --peers --sesame "$bin/sesame" --server-core "$server_core" \
    --python "$venv/bin/python" --allauth-project "$root/Benchmarks/peers/allauth"
echo
echo "peer-bench: after: $(uptime)"
