#!/usr/bin/env bash
# Builds kiosk's libFuzzer targets and runs each for SECONDS (default 15), from the committed seeds
# in Fuzz/corpus/<target>/ plus what earlier runs found (Fuzz/.build/corpus/<target>/).
#   Fuzz/run.sh [SECONDS] [TARGET...]      targets: evemu decoder config scene mqtt control state (default: all)
# Fails (exit 1) when a target crashes, traps, hangs (no answer in 10 s for one input) or takes
# more than 2 GB; the input that did it is kept in Fuzz/crashes/ (git-ignored). Reproduce one with
#   Fuzz/.build/release/fuzz-<target> Fuzz/crashes/<file>
# Extra libFuzzer options in FUZZ_OPTIONS (e.g. FUZZ_OPTIONS="-runs=1000000"; then SECONDS is a cap).
# config leaks about 5 KB an input inside TOMLKit and reaches the 2 GB limit near 430000 inputs:
# run it in parts (FUZZ_OPTIONS="-runs=200000", again and again: the corpus carries over).
set -euo pipefail
fuzz=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-15}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(evemu decoder config scene mqtt control state)

# Every Swift module instrumented for coverage and libFuzzer linked in; release, as a kiosk runs.
mkdir -p "$fuzz/.build"
if ! swift build --package-path "$fuzz" -c release -Xswiftc -sanitize=fuzzer >"$fuzz/.build/build.log" 2>&1; then
    grep -E 'error|warning' "$fuzz/.build/build.log" >&2 || tail -n 30 "$fuzz/.build/build.log" >&2
    echo "fuzz: the build failed (log: $fuzz/.build/build.log)" >&2
    exit 2
fi
bin=$(swift build --package-path "$fuzz" -c release --show-bin-path)

mkdir -p "$fuzz/crashes"
# The Swift runtime's backtracer would take the crash signal before libFuzzer could save the input.
export SWIFT_BACKTRACE=enable=no
failed=()
for target in "${targets[@]}"; do
    [ -x "$bin/fuzz-$target" ] || { echo "fuzz: no target '$target' (evemu decoder config scene mqtt control state)" >&2; exit 2; }
    found="$fuzz/.build/corpus/$target"
    mkdir -p "$found"
    dict=()
    [ -f "$fuzz/$target.dict" ] && dict=(-dict="$fuzz/$target.dict")
    log="$fuzz/.build/fuzz-$target.log"
    echo "fuzz-$target: ${seconds} s"
    # shellcheck disable=SC2086
    if "$bin/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$fuzz/crashes/$target-" "${dict[@]}" ${FUZZ_OPTIONS:-} "$found" "$fuzz/corpus/$target" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
        echo "fuzz-$target: ok, $runs inputs ($rate a second), coverage $cov, $(ls "$found" | wc -l) inputs in its corpus"
    else
        grep -E '^(==[0-9]+== ERROR|SUMMARY|artifact_prefix|.*Fatal error|.*error: )' "$log" | tail -n 6 >&2 || tail -n 20 "$log" >&2
        echo "fuzz-$target: FAILED (log: $log)" >&2
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${failed[*]} failed; the inputs are in $fuzz/crashes/" >&2
    exit 1
fi
