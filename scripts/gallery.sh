#!/usr/bin/env bash
# Copies the screenshots that docs/hosted-pages.md shows ("Gallery") from the last browser run
# (.build/browser-artifacts/, written by `make test`) into docs/gallery/. Run it after a browser
# run whose pages you have looked at, then commit the pictures with the change they show.
set -euo pipefail
cd "$(dirname "$0")/.."
from=.build/browser-artifacts
to=docs/gallery
pictures=(
    "hosted/login-en.png:sign-in-desktop-en.png"
    "hosted/login-phone-ja-dark.png:sign-in-phone-ja-dark.png"
    "hosted/signup-password-rules-desktop-en-light.png:signup-password-rules-desktop-en.png"
    "hosted/login-phone-zh-Hans.png:sign-in-phone-zh-Hans.png"
    "hosted/login-desktop-de.png:sign-in-desktop-de.png"
    "hosted/language-menu-phone-de.png:language-menu-phone-de.png"
    "mfa/mfa-other-ways-en-desktop-light.png:second-factor-desktop-en.png"
    "mfa/mfa-recovery-code-ja-phone-dark.png:recovery-code-phone-ja-dark.png"
    "hosted/passkey-enroll-en.png:passkey-prompt-desktop-en.png"
    "hosted/account-en-desktop-light.png:account-desktop-en.png"
    "hosted/account-ja-phone-dark.png:account-phone-ja-dark.png"
    "hosted/account-fr-desktop-dark.png:account-desktop-fr-dark.png"
    "hosted/account-remove-passkey-en.png:remove-passkey-desktop-en.png"
    "hosted/account-delete-refused-en-phone-light.png:delete-account-phone-en.png"
    "hosted/error-phone-en-dark.png:error-phone-en-dark.png"
)
missing=0
for pair in "${pictures[@]}"; do
    [ -f "$from/${pair%%:*}" ] || { echo "gallery: missing $from/${pair%%:*} (run make test first)" >&2; missing=1; }
done
[ "$missing" = 0 ] || exit 1
mkdir -p "$to"
rm -f "$to"/*.png
for pair in "${pictures[@]}"; do
    cp "$from/${pair%%:*}" "$to/${pair##*:}"
done
echo "gallery: ${#pictures[@]} pictures in $to"
