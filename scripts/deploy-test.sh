#!/usr/bin/env bash
# Runs integration/deploy: Debian's nginx, configured with deploy/nginx/*.conf as docs/deployment.md
# describes, in front of `sesame serve`, both on 127.0.0.1. Installs nginx when it is missing (without
# letting the package start its own service), keeps a Python virtualenv with pytest and requests in
# .build/deploy-venv, and builds the sesame binary.
#
# Environment: SESAME_BIN, SWIFT, SWIFT_BUILD_FLAGS, PYTHON as in interop-test.sh; NGINX_BIN (default
# /usr/sbin/nginx); DEPLOY_TEST_TIMEOUT (seconds for the whole run, default 180).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

venv="$root/.build/deploy-venv"
python="${PYTHON:-python3}"
swift="${SWIFT:-swift}"

# 1. nginx from Debian (scripts/ensure-nginx.sh keeps the package from starting its own service).
./scripts/ensure-nginx.sh
export NGINX_BIN="${NGINX_BIN:-/usr/sbin/nginx}"

# 2. The virtualenv.
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pytest, requests' >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest requests
fi

# 3. The sesame binary.
if [ -z "${SESAME_BIN:-}" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame
    SESAME_BIN="$("$swift" build "${build_flags[@]}" --show-bin-path)/sesame"
fi
export SESAME_BIN

exec timeout --kill-after=10 "${DEPLOY_TEST_TIMEOUT:-180}" \
    "$venv/bin/python" -m pytest -p no:cacheprovider -o addopts="" -q -rfE --rootdir integration/deploy integration/deploy
