#!/usr/bin/env bash
# Runs integration/cluster: two `sesame serve` processes on one PostgreSQL (a throwaway cluster from
# scripts/postgres.sh), with Debian's nginx in front round-robin, everything on 127.0.0.1. Shows
# that challenges, refresh tokens and Management API changes work across processes and that a
# process killed with SIGKILL during a signup load loses no answered signup.
#
# `make cluster` runs the same cluster for people (scripts/cluster-test.sh --serve) and prints
# where it listens. Environment: SESAME_BIN, SWIFT, SWIFT_BUILD_FLAGS as in interop-test.sh;
# CLUSTER_TEST_TIMEOUT (seconds, default 240).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift="${SWIFT:-swift}"
venv="$root/.build/interop-venv"

./scripts/ensure-nginx.sh
export NGINX_BIN="${NGINX_BIN:-/usr/sbin/nginx}"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pytest, cryptography, cbor2, requests' >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest cryptography cbor2 requests pyjwt
fi

if [ -z "${SESAME_BIN:-}" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame
    SESAME_BIN="$("$swift" build "${build_flags[@]}" --show-bin-path)/sesame"
fi
export SESAME_BIN

SESAME_CLUSTER_DSN="$(scripts/postgres.sh start)"
export SESAME_CLUSTER_DSN
trap 'scripts/postgres.sh stop' EXIT

if [ "${1:-}" = "--serve" ]; then
    exec "$venv/bin/python" integration/cluster/cluster.py
fi
timeout --kill-after=10 "${CLUSTER_TEST_TIMEOUT:-240}" \
    "$venv/bin/python" -m pytest -p no:cacheprovider -o addopts="" -q -rfE --rootdir integration/cluster integration/cluster
