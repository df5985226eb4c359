#!/usr/bin/env bash
# Installs the Debian packages Sesame needs, and nothing when all are present.
# On a system without dpkg/apt it prints what to install and fails.
set -euo pipefail

packages=(pkg-config libssl-dev libsqlite3-dev libpq-dev libmicrohttpd-dev libargon2-dev libcrypt-dev libqrencode-dev)

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: not a Debian/Ubuntu system. Install these (or your system's equivalents) and run again:" >&2
    echo "  pkg-config, OpenSSL 3 libcrypto headers, SQLite 3, libpq, libmicrohttpd, libargon2, libxcrypt, libqrencode" >&2
    echo "  Debian names: ${packages[*]}" >&2
    exit 1
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
