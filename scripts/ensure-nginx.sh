#!/usr/bin/env bash
# Installs Debian's nginx when it is missing, without letting the package start its own service (a
# policy-rc.d that refuses every service start; one that is already there is left alone).
# Environment: NGINX_BIN (default /usr/sbin/nginx).
set -euo pipefail

if [ -x "${NGINX_BIN:-/usr/sbin/nginx}" ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "nginx is missing; install it (or set NGINX_BIN)" >&2
    exit 1
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "installing nginx" >&2
made_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee /usr/sbin/policy-rc.d >/dev/null
    "${sudo_cmd[@]}" chmod 755 /usr/sbin/policy-rc.d
    made_policy=yes
fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nginx-light
if [ -n "$made_policy" ]; then "${sudo_cmd[@]}" rm -f /usr/sbin/policy-rc.d; fi
