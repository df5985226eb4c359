#!/usr/bin/env bash
# `swift test` with every store: starts a throwaway PostgreSQL cluster (scripts/postgres.sh, which
# installs Debian's postgresql when it is missing), points the store and API suites at it with
# SESAME_TEST_POSTGRES_DSN, and stops it afterwards, whatever happened.
#
# Environment: SWIFT (default swift), SWIFT_BUILD_FLAGS (passed to swift test).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift="${SWIFT:-swift}"
read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"

dsn="$(scripts/postgres.sh start)"
trap 'scripts/postgres.sh stop' EXIT
echo "swift-test: PostgreSQL at $dsn"
SESAME_TEST_POSTGRES_DSN="$dsn" "$swift" test "${flags[@]}"
