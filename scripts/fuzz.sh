#!/usr/bin/env bash
# Builds the five libFuzzer harnesses in Fuzz/ (debug, with ASan) and runs each for FUZZ_SECONDS
# (default 30) on a throwaway copy of its committed seed corpus, so new corpus entries never land
# in the repository. Runs are seeded (FUZZ_SEED, default 1). Exits non-zero if any harness crashes;
# crashing inputs are kept under FUZZ_ARTIFACTS (default .build/fuzz-artifacts/<target>/).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${FUZZ_SECONDS:-30}"
seed="${FUZZ_SEED:-1}"
scratch="${FUZZ_SCRATCH:-$root/Fuzz/.build}"
artifacts="${FUZZ_ARTIFACTS:-$root/.build/fuzz-artifacts}"
read -r -a targets <<< "${FUZZ_TARGETS:-FuzzCBOR FuzzAttestationObject FuzzAuthenticatorData FuzzClientData FuzzBase64URL FuzzCredentialJSON}"
flags=(-c debug --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)

cd "$root/Fuzz"
for target in "${targets[@]}"; do
    echo "fuzz: building $target"
    swift build "${flags[@]}" --product "$target"
done
bin="$(swift build "${flags[@]}" --show-bin-path)"

work="$(mktemp -d "${TMPDIR:-/tmp}/sesame-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT

failed=()
for target in "${targets[@]}"; do
    corpus="$work/$target/corpus"
    crashes="$work/$target/artifacts"
    mkdir -p "$corpus" "$crashes"
    cp "$root/Fuzz/Corpus/$target/"* "$corpus/"
    echo "fuzz: running $target for ${seconds}s (seed $seed)"
    if ! "$bin/$target" -max_total_time="$seconds" -seed="$seed" -print_final_stats=1 \
        -artifact_prefix="$crashes/" "$corpus" >"$work/$target.log" 2>&1; then
        failed+=("$target")
        mkdir -p "$artifacts/$target"
        cp "$crashes/"* "$artifacts/$target/" 2>/dev/null || true
        tail -n 40 "$work/$target.log"
        echo "fuzz: $target CRASHED; inputs saved in $artifacts/$target/"
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$work/$target.log" | sed "s/^/fuzz: $target /" || true
    fi
done

if ((${#failed[@]})); then
    echo "fuzz: crashes in ${failed[*]}"
    exit 1
fi
echo "fuzz: all ${#targets[@]} harnesses ran ${seconds}s without a crash"
