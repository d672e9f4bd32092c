#!/usr/bin/env bash
# Input-to-flip latency of traces on a paced display (docs/performance.md, "Latency on a paced display"; issue 14):
#   Benchmarks/latency.sh [-r HZ] [-- KIOSK-REPLAY-OPTIONS] TRACE...
# replays each trace with `kiosk replay --refresh HZ` (default 60) at 17 phases of the vblank
# (0, 1, ... 16 ms: the panel's reports are unsynchronised with it) and prints, per trace, the
# p50 range, the worst p99 and the worst max over the phases, against the goal: p99 within one
# refresh plus 2 ms. Exits 1 when a trace misses it. Uses the release kiosk when built
# (`swift build -c release --product kiosk --scratch-path .build-release`), else the debug one.
set -euo pipefail
cd "$(dirname "$0")/.."
hz=60
if [ "${1:-}" = "-r" ]; then hz=$2; shift 2; fi
extra=()
if [ "${1:-}" = "--" ]; then
    shift
    while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do extra+=("$1" "$2"); shift 2; done
fi
[ $# -gt 0 ] || set -- traces/*.evemu
kiosk=.build-release/release/kiosk
[ -x "$kiosk" ] || kiosk=.build/debug/kiosk
[ -x "$kiosk" ] || { echo "latency.sh: build kiosk first (swift build)" >&2; exit 2; }
refresh_ms=$(awk -v hz="$hz" 'BEGIN { printf "%.2f", 1000 / hz }')
missed=0
for trace in "$@"; do
    lines=$(for phase in $(seq 0 "$(awk -v hz="$hz" 'BEGIN { print int(1000 / hz) }')"); do
        "$kiosk" replay "$trace" "${extra[@]}" --refresh "$hz" --vblank-phase "$phase" --events /dev/null 2>&1 >/dev/null
    done)
    summary=$(awk -v refresh="$refresh_ms" '
        /input to flip/ {
            for (i = 1; i <= NF; i++) {
                if ($i == "inputs,") inputs = $(i - 1)
                if ($i == "p50") { v = $(i + 1) + 0; if (n == 0 || v < lo) lo = v; if (v > hi) hi = v }
                if ($i == "p99") { v = $(i + 1) + 0; if (v > p99) p99 = v }
                if ($i == "max") { v = $(i + 1) + 0; if (v > worst) worst = v }
            }
            n++
        }
        END {
            goal = refresh + 2
            printf "%d inputs, %d phases: p50 %.2f to %.2f ms, worst p99 %.2f ms, worst max %.2f ms (goal: p99 <= %.2f ms) %s\n",
                inputs, n, lo, hi, p99, worst, goal, (n > 0 && p99 <= goal) ? "met" : "NOT MET"
        }' <<<"$lines")
    echo "$trace: $summary"
    case "$summary" in *"NOT MET"*) missed=1 ;; esac
done
exit $missed
