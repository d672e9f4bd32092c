#!/usr/bin/env bash
# Allocations per steady-state frame of the kiosk loop, and whose they are. Runs the
# FrameAllocations probe (Sources/FrameAllocations) under heaptrack (apt-get install heaptrack) for N frames and for 2N:
# everything but the frames is the same in both runs, so the difference, site by site, is what
# N frames allocate, wherever and however often it happens. Sites are split into our Swift code
# (the runtime's allocator at the top of the stack) and the C libraries (cairo, pixman).
# Usage: Benchmarks/frame-allocations.sh [N]     (from anywhere; N defaults to 5000)
set -euo pipefail
cd "$(dirname "$0")"
frames=${1:-5000}
command -v heaptrack >/dev/null || { echo "frame-allocations: needs heaptrack (apt-get install heaptrack)" >&2; exit 2; }
# A build folder of its own: SwiftPM loses the system libraries' module maps when one folder
# builds this package's products one at a time (`swift package benchmark` builds them together).
scratch=.build-allocations
swift build -c release --scratch-path "$scratch" --product FrameAllocations >/dev/null
probe=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/FrameAllocations
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for mode in rest drag transform; do
    for n in "$frames" $((frames * 2)); do
        heaptrack -o "$out/$mode-$n" "$probe" "$mode" "$n" >/dev/null
        # Only the sites by number of calls, every one of them (not the top 10).
        heaptrack_print -f "$out/$mode-$n.zst" --print-peaks 0 --print-temporary 0 --print-leaks 0 --print-allocators 1 \
            --peak-limit 100000 --sub-peak-limit 100000 > "$out/$mode-$n.txt" 2>/dev/null
    done
    python3 - "$frames" "$mode" "$out/$mode-$frames.txt" "$out/$mode-$((frames * 2)).txt" <<'PY'
import re, sys
frames, mode, one, two = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

def sites(path):
    """Every allocation site heaptrack lists, by its backtrace, with its count of calls."""
    text = open(path).read()
    total = re.search(r"^calls to allocation functions: (\d+)", text, re.M)
    if not total:
        sys.exit(f"frame-allocations: no totals in heaptrack's report {path}")
    lines = text.split("\n")
    found = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\d+) calls with .* from:$", line)
        if not m:
            continue
        stack = []
        for l in lines[i + 1:]:
            if not l.startswith("  "):
                break
            stack.append(l.strip())
        # Frames without symbols carry their address, which differs from run to run (ASLR).
        key = re.sub(r"0x[0-9a-f]+", "0x…", "\n".join(stack))
        found[key] = found.get(key, 0) + int(m.group(1))
    if not found:
        sys.exit(f"frame-allocations: no allocation sites parsed from {path}")
    return int(total.group(1)), found

total1, a = sites(one)
total2, b = sites(two)
ours = theirs = net = 0
rows = []
for key in set(a) | set(b):
    extra = b.get(key, 0) - a.get(key, 0)
    net += extra
    if extra <= 0:
        continue
    stack = key.split("\n")
    where = next((s for s in stack if s.startswith("in ")), "in ?")
    swift = stack[0].startswith("swift_") or "libswift" in where
    if swift: ours += extra
    else: theirs += extra
    rows.append((extra, f"    {extra / frames:.2f} per frame: {stack[0]} {where}"))
if net != total2 - total1:
    sys.exit(f"frame-allocations: the sites ({net}) do not add up to the total ({total2 - total1})")
print(f"{mode}: {frames} more frames made {total2 - total1} more allocations: "
      f"{(total2 - total1) / frames:.2f} per frame; Swift {ours / frames:.2f}, C libraries {theirs / frames:.2f}")
for _, row in sorted(rows, reverse=True)[:8]:
    print(row)
PY
done
