#!/usr/bin/env bash
# Runs integration/browser: Debian's headless Chromium makes real WebAuthn responses with a CDP virtual
# authenticator, and `sesame inspect` / `sesame verify` must accept them (and reject them when one
# input is wrong) (test_cli_browser.py); and the landing page of `sesame serve` signs up and logs in
# through the native passkey API with that authenticator (test_server_browser.py); and the hosted
# pages sign up, sign in (passkey autofill, the passkey button, a password with TOTP) and sign out
# for an off-the-shelf OIDC relying party, authlib (test_hosted_pages.py); the passkey prompt's button
# beside a pending conditional create, and the TOTP step's ways out: a recovery code, the new code to
# save, the account recovery that asks for the second factor (test_mfa_pages.py); a passkey the
# server refuses does not make autofill loop, and Enter in the signup page's password field takes the
# password path, and the email-verification link asks about what was added before (test_sign_in_pages.py).
# The hosted pages, second-factor and sign-in files run a second time with the server on PostgreSQL. Installs chromium and chromium-driver when missing, keeps a
# Python virtualenv with Selenium and pytest in .build/browser-venv (with authlib, requests, pyotp and
# cryptography), and builds the sesame binary.
#
# Environment:
#   SESAME_BIN   use this sesame binary instead of building .build/debug/sesame
#   SWIFT        the swift command (default: swift)
#   SWIFT_BUILD_FLAGS  flags for `swift build`; pass the Makefile's so the normal build is reused
#   PYTHON       the Python used to create the virtualenv (default: python3)
#   BROWSER_TEST_TIMEOUT  seconds each pytest run may take (default: 300)
#   BROWSER_TEST_POSTGRES 0 skips the second run on PostgreSQL (default: 1)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

venv="$root/.build/browser-venv"
python="${PYTHON:-python3}"
swift="${SWIFT:-swift}"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi

apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "browser-test: not a Debian/Ubuntu system; install: $*" >&2
        exit 1
    fi
    echo "browser-test: installing $*"
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

# 1. Chromium and its driver, from Debian (Selenium Manager must never download a browser).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
# Chinese, Japanese and Korean fonts, so the hosted pages' screenshots in those languages are legible.
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -gt 0 ]; then
    apt_install "${missing[@]}"
fi

# 2. The virtualenv with Selenium and pytest from PyPI.
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium, pytest, authlib, requests, pyotp, cryptography" >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        apt_install python3-venv
        "$python" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check selenium pytest authlib requests pyotp cryptography
fi

# 3. The sesame binary.
if [ -z "${SESAME_BIN:-}" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame
    SESAME_BIN="$("$swift" build "${build_flags[@]}" --show-bin-path)/sesame"
fi
if [ ! -x "$SESAME_BIN" ]; then
    echo "browser-test: $SESAME_BIN is not an executable" >&2
    exit 1
fi
export SESAME_BIN

# 4. The tests, on SQLite; then the hosted pages' walk again with the server's data in PostgreSQL
#    (a throwaway cluster from scripts/postgres.sh, stopped afterwards): the sign-in, signup,
#    second-factor, recovery and verification pages. Each pytest's summary line ends its output.
run_pytest() {
    timeout --kill-after=10 "${BROWSER_TEST_TIMEOUT:-300}" \
        "$venv/bin/python" -m pytest -p no:cacheprovider -o addopts="" -q -rfE "$@"
}
run_pytest \
    integration/browser/test_cli_browser.py integration/browser/test_server_browser.py integration/browser/test_hosted_pages.py \
    integration/browser/test_migration_pages.py integration/browser/test_upgrade_pages.py integration/browser/test_mfa_pages.py \
    integration/browser/test_sign_in_pages.py
if [ "${BROWSER_TEST_POSTGRES:-1}" = 1 ]; then
    SESAME_TEST_POSTGRES_DSN="$(scripts/postgres.sh start)"
    trap 'scripts/postgres.sh stop' EXIT
    echo "browser-test: again on PostgreSQL ($SESAME_TEST_POSTGRES_DSN)"
    SESAME_TEST_STORE=postgres SESAME_TEST_POSTGRES_DSN="$SESAME_TEST_POSTGRES_DSN" run_pytest \
        integration/browser/test_hosted_pages.py integration/browser/test_mfa_pages.py integration/browser/test_sign_in_pages.py
fi
