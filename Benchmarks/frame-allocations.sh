#!/usr/bin/env bash
# Allocations per steady-state frame of the kiosk loop, and whose they are: runs the
# FrameAllocations probe under heaptrack (apt-get install heaptrack) and counts every allocation
# site that was hit at least once per frame, split into our Swift code and the C libraries.
# Usage: Benchmarks/frame-allocations.sh [FRAMES]     (from anywhere)
set -euo pipefail
cd "$(dirname "$0")"
frames=${1:-10000}
command -v heaptrack >/dev/null || { echo "frame-allocations: needs heaptrack (apt-get install heaptrack)" >&2; exit 2; }
swift build -c release --product FrameAllocations >/dev/null
probe=$(swift build -c release --show-bin-path)/FrameAllocations
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for mode in rest drag; do
    heaptrack -o "$out/$mode" "$probe" "$mode" "$frames" >/dev/null
    heaptrack_print -f "$out/$mode.zst" 2>/dev/null | python3 -c '
import re, sys
frames, mode = int(sys.argv[1]), sys.argv[2]
lines = sys.stdin.read().split("\n")
ours = theirs = 0
sites = []
for i, line in enumerate(lines):
    m = re.match(r"^(\d+) calls with .* from:$", line)
    if not m or int(m.group(1)) < frames:
        continue
    stack = [l.strip() for l in lines[i + 1:i + 12]]
    where = next((s for s in stack if s.startswith("in ")), "in ?")
    swift = stack[0].startswith("swift_") or "libswift" in where
    count = int(m.group(1))
    if swift: ours += count
    else: theirs += count
    sites.append(f"    {count / frames:.2f} per frame: {stack[0]} {where}")
print(f"{mode}: {frames} frames; allocations per frame: Swift {ours / frames:.2f}, C libraries {theirs / frames:.2f}")
print("\n".join(sites))
' "$frames" "$mode"
done
