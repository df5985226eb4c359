#!/usr/bin/env bash
# Runs integration/interop: independent Python clients (PyPI `cryptography`, `cbor2`, `pyotp`, nothing from
# Sesame) enables an Android app through the Management API, then signs up and logs in as that app
# would (android:apk-key-hash origin, synced passkey, none attestation) against `sesame serve` on
# 127.0.0.1 (its data in SQLite, then in PostgreSQL), and checks the tokens against the server's
# JWKS. Keeps a Python virtualenv with pytest, cryptography, cbor2, requests and PyJWT (the backend-example and DPoP tests) in
# .build/interop-venv, and builds the sesame binary.
#
# Environment:
#   SESAME_BIN   use this sesame binary instead of building .build/debug/sesame
#   SWIFT        the swift command (default: swift)
#   SWIFT_BUILD_FLAGS  flags for `swift build`; pass the Makefile's so the normal build is reused
#   PYTHON       the Python used to create the virtualenv (default: python3)
#   INTEROP_TEST_TIMEOUT  seconds each pytest run may take (default: 180)
#   INTEROP_TEST_POSTGRES 0 skips the second run, on PostgreSQL (default: 1)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

venv="$root/.build/interop-venv"
python="${PYTHON:-python3}"
swift="${SWIFT:-swift}"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi

# 1. The virtualenv with the client's libraries from PyPI.
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pytest, cryptography, cbor2, requests, jwt, pyotp' >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        if ! command -v apt-get >/dev/null 2>&1; then
            echo "interop-test: '$python -m venv' failed; install Python's venv module" >&2
            exit 1
        fi
        echo "interop-test: installing python3-venv"
        "${sudo_cmd[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends python3-venv
        "$python" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest cryptography cbor2 requests pyjwt pyotp
fi

# 2. The sesame binary.
if [ -z "${SESAME_BIN:-}" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame
    SESAME_BIN="$("$swift" build "${build_flags[@]}" --show-bin-path)/sesame"
fi
if [ ! -x "$SESAME_BIN" ]; then
    echo "interop-test: $SESAME_BIN is not an executable" >&2
    exit 1
fi
export SESAME_BIN

# 3. The tests against a server on SQLite, then again with its data in PostgreSQL (a throwaway
#    cluster from scripts/postgres.sh, stopped afterwards). Each pytest's summary line ends its output.
run_pytest() {
    timeout --kill-after=10 "${INTEROP_TEST_TIMEOUT:-180}" \
        "$venv/bin/python" -m pytest -p no:cacheprovider -o addopts="" -q -rfE --rootdir integration/interop integration/interop
}
run_pytest
if [ "${INTEROP_TEST_POSTGRES:-1}" = 1 ]; then
    SESAME_TEST_POSTGRES_DSN="$(scripts/postgres.sh start)"
    trap 'scripts/postgres.sh stop' EXIT
    echo "interop-test: again on PostgreSQL ($SESAME_TEST_POSTGRES_DSN)"
    SESAME_TEST_STORE=postgres SESAME_TEST_POSTGRES_DSN="$SESAME_TEST_POSTGRES_DSN" run_pytest
fi
