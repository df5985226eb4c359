#!/usr/bin/env bash
# Type-checks the Apple adapters (Sources/SesameClient/Apple) on Linux. It builds hand-written
# stand-ins for the Swift view of AuthenticationServices, Security and WebKit (Tests/AppleStandIns) as
# modules, then type-checks all of Sources/SesameClient as module SesameClient against them, with
# -D SESAME_APPLE_STANDINS (which turns the adapters on), Swift 6, complete concurrency checking and
# warnings as errors. It fails on any error or warning and prints one line when all is well.
#
# Limits (docs/sdk.md, "Apple adapters compile check"): the stand-ins are not Apple's SDK and can
# drift from it; Linux ignores Apple availability (`@available`, `#available`); toll-free bridging
# casts always pass. It compiles nothing into .build/debug and runs nothing.
#
# Environment: SWIFTC (default: the swiftc next to $SWIFT when that is a path, else swiftc);
# OUT_DIR (default .build/apple-standins), where the modules and the module cache go.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ -z "${SWIFTC:-}" ]; then
    case "${SWIFT:-swift}" in
        */*) SWIFTC="$(dirname "$SWIFT")/swiftc" ;;
        *) SWIFTC=swiftc ;;
    esac
fi
out="${OUT_DIR:-$root/.build/apple-standins}"
standins="$root/Tests/AppleStandIns"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
common=(-swift-version 6 -strict-concurrency=complete -parse-as-library -module-cache-path "$out/module-cache")

fail() {
    echo "apple-standins: $*" >&2
    exit 1
}
trap 'echo "apple-standins: FAILED (see the diagnostics above)" >&2' ERR

swift_files() {
    find "$1" -name '*.swift' -type f | LC_ALL=C sort
}

# The check only means something while every adapter is behind the condition it sets.
for file in Sources/SesameClient/Apple/*.swift; do
    grep -q '^#if .*SESAME_APPLE_STANDINS' "$file" || fail "$file: its #if no longer names SESAME_APPLE_STANDINS"
done

# 1. The stand-ins, with library evolution so that their enums are not frozen (as the SDK's are
#    not: a switch needs `@unknown default`). Security imports only the standard library.
#    AuthenticationServices needs Foundation, which is not built for library evolution; the
#    compiler's one warning about that is expected and is the only warning let through.
"$SWIFTC" -emit-module "${common[@]}" -warnings-as-errors -enable-library-evolution -module-name Security \
    -emit-module-path "$out/Security.swiftmodule" "$standins/Security/Security.swift"

log="$out/AuthenticationServices.log"
if ! "$SWIFTC" -emit-module "${common[@]}" -enable-library-evolution -module-name AuthenticationServices \
    -emit-module-path "$out/AuthenticationServices.swiftmodule" -Xfrontend -debug-diagnostic-names \
    "$standins/AuthenticationServices/AuthenticationServices.swift" >"$log" 2>&1; then
    cat "$log" >&2
    fail "the AuthenticationServices stand-in does not compile"
fi
if grep -E '(warning|error):' "$log" | grep -vq '\[module_not_compiled_with_library_evolution\]$'; then
    cat "$log" >&2
    fail "the AuthenticationServices stand-in has warnings"
fi

log="$out/WebKit.log"
if ! "$SWIFTC" -emit-module "${common[@]}" -enable-library-evolution -module-name WebKit \
    -emit-module-path "$out/WebKit.swiftmodule" -Xfrontend -debug-diagnostic-names \
    "$standins/WebKit/WebKit.swift" >"$log" 2>&1; then
    cat "$log" >&2
    fail "the WebKit stand-in does not compile"
fi
if grep -E '(warning|error):' "$log" | grep -vq '\[module_not_compiled_with_library_evolution\]$'; then
    cat "$log" >&2
    fail "the WebKit stand-in has warnings"
fi

# 2. The package targets SesameClient depends on, as Package.swift lists them.
dependencies="$(sed -n 's/.*\.target(name: "SesameClient", dependencies: \[\(.*\)\]).*/\1/p' Package.swift | tr -d '" ')"
[ -n "$dependencies" ] || fail "cannot read SesameClient's dependencies from Package.swift"
IFS=',' read -r -a dependencies <<<"$dependencies"
for dependency in "${dependencies[@]}"; do
    [ -d "Sources/$dependency" ] || fail "dependency $dependency has no Sources/$dependency"
    mapfile -t files < <(swift_files "Sources/$dependency")
    "$SWIFTC" -emit-module "${common[@]}" -warnings-as-errors -module-name "$dependency" -I "$out" \
        -emit-module-path "$out/$dependency.swiftmodule" "${files[@]}"
done

# 3. SesameClient with the adapters on.
mapfile -t files < <(swift_files Sources/SesameClient)
"$SWIFTC" -typecheck "${common[@]}" -warnings-as-errors -module-name SesameClient -package-name Sesame -D SESAME_APPLE_STANDINS \
    -I "$out" "${files[@]}"

echo "apple-standins: SesameClient (${#files[@]} files, Apple adapters on) type-checks against the" \
    "AuthenticationServices, Security and WebKit stand-ins: Swift 6, complete concurrency checking, no warnings"
