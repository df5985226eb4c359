#!/usr/bin/env bash
# `swift test` with every store: starts a throwaway PostgreSQL cluster (scripts/postgres.sh, which
# installs Debian's postgresql when it is missing), points the store and API suites at it with
# SESAME_TEST_POSTGRES_DSN, and stops it afterwards, whatever happened.
#
# The whole output is also kept in .build/swift-test.log. When the run fails, a digest comes last
# (CI shows only the end of a long output): the failed tests, and any crash report's first lines
# with the crashed thread's frames.
#
# Environment: SWIFT (default swift), SWIFT_BUILD_FLAGS (passed to swift test).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift="${SWIFT:-swift}"
read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
log="$root/.build/swift-test.log"
mkdir -p "$root/.build"

dsn="$(scripts/postgres.sh start)"
trap 'scripts/postgres.sh stop' EXIT
echo "swift-test: PostgreSQL at $dsn"
status=0
SESAME_TEST_POSTGRES_DSN="$dsn" "$swift" test "${flags[@]}" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
    echo
    echo "swift-test: failed ($status); digest of $log:"
    grep -a -E '^[[:space:]]*✘|Fatal error|Program crashed|Simultaneous accesses|exited with unexpected signal' "$log" |
        head -40 || true
    # The crashed thread's frames, from the Swift backtracer's report.
    awk '/^Thread [0-9]+ (".*" )?crashed:/ {on = 1; n = 0} on { print; if (++n >= 40 || /^$/ && n > 2) on = 0 }' "$log" |
        head -45 || true
    exit "$status"
fi
