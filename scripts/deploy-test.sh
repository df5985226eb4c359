#!/usr/bin/env bash
# Runs tests/deploy: Debian's nginx, configured with deploy/nginx/*.conf as docs/deployment.md
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

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi

# 1. nginx from Debian. A package install would start nginx on port 80; a policy-rc.d that
#    refuses every service start prevents that (one that is already there is left alone).
if [ ! -x "${NGINX_BIN:-/usr/sbin/nginx}" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "deploy-test: nginx is missing; install it (or set NGINX_BIN)" >&2
        exit 1
    fi
    echo "deploy-test: installing nginx"
    made_policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee /usr/sbin/policy-rc.d >/dev/null
        "${sudo_cmd[@]}" chmod 755 /usr/sbin/policy-rc.d
        made_policy=yes
    fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nginx-light
    if [ -n "$made_policy" ]; then "${sudo_cmd[@]}" rm -f /usr/sbin/policy-rc.d; fi
fi
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
    "$venv/bin/python" -m pytest -p no:cacheprovider -o addopts="" -q -rfE --rootdir tests/deploy tests/deploy
