#!/usr/bin/env bash
# CI's aarch64 checks (issue 22), against the x86_64 release build X86_KIOSK:
#   1. kiosk builds with Debian trixie's Swift 6.0.3 (Tools/build-arm64.sh, in the trixie build
#      root of Tools/trixie-root.sh), release, Swift runtime linked in, no warnings in the
#      project's code: a construct 6.0.3's compiler crashes on fails here;
#   2. under qemu-user: `kiosk replay` of every trace in the repository gives byte-identical
#      events, state, decisions and screenshots to X86_KIOSK (Tests/replay-identity.sh), and
#      `kiosk check-config` of the shipped config says what the x86_64 build says;
#   3. the pure-logic test targets, built alone for aarch64 with 6.0.3 (Package.swift's
#      KIOSK_TEST_TARGETS), pass under qemu-user in one process; needs step 1's kiosk;
#   4. booted under Debian's arm64 kernel (Tests/arm64/boot.sh): the demo played through uinput
#      into `kiosk run`, and the screendump equals X86_KIOSK's `kiosk replay --screenshot`.
#
#   Tests/arm64/check.sh X86_KIOSK [STEP...]     # STEP: build replay tests boot (default: all)
#
# Each step prints its wall time in seconds. Needs root; see Tools/trixie-root.sh for the cache.
set -euo pipefail
cd "$(dirname "$0")/../.."
x86=$(readlink -f "${1:?usage: check.sh X86_KIOSK [build|replay|tests|boot...]}")
shift
steps=${*:-build replay tests boot}
top=$PWD
log() { echo "arm64: $*" >&2; }
timed() { local t=$SECONDS; "$@"; log "$1: $((SECONDS - t)) s"; }
qemu=Tests/arm64/qemu-run.sh
KIOSK_ARM64_ROOT=$(Tools/trixie-root.sh path)
export KIOSK_ARM64_ROOT
kiosk=.build-arm64-static/release/kiosk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() {
    Tools/build-arm64.sh --static-swift-stdlib > /dev/null
    log "kiosk for aarch64: $kiosk, $(stat -c %s "$kiosk") bytes"
}

replay() {
    # Through a wrapper, so that replay-identity.sh runs the aarch64 kiosk as it runs any other.
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$top/$qemu" "$top/$kiosk" > "$work/kiosk-arm64"
    chmod +x "$work/kiosk-arm64"
    Tests/replay-identity.sh record "$x86" "$work/x86_64" > /dev/null
    Tests/replay-identity.sh compare "$work/kiosk-arm64" "$work/x86_64"
    # The peak memory of one replay of the demo under qemu-user (the emulator's own included).
    /usr/bin/time -f '%M' -o "$work/rss" "$work/kiosk-arm64" replay traces/demo.evemu --screenshot "$work/demo.png" > /dev/null
    log "kiosk replay traces/demo.evemu under qemu-user: max RSS $(cat "$work/rss") KiB (qemu's own included)"
    local a=0 b=0
    "$x86" check-config config/kiosk.toml > "$work/check-x86" 2>&1 || a=$?
    "$qemu" "$kiosk" check-config config/kiosk.toml > "$work/check-arm64" 2>&1 || b=$?
    if [ "$a" != 0 ] || [ "$b" != 0 ] || ! cmp -s "$work/check-x86" "$work/check-arm64"; then
        log "kiosk check-config config/kiosk.toml: x86_64 status $a, aarch64 status $b"
        diff "$work/check-x86" "$work/check-arm64" >&2 || true
        return 1
    fi
    log "kiosk check-config config/kiosk.toml: status 0, output identical to x86_64's"
}

# The pure-logic test targets (the engine, the scene, the decoders, the config, the drawing): the
# only test targets built for aarch64 (Package.swift's KIOSK_TEST_TARGETS), with what they import.
pure_targets=GesturesTests,InputEventsTests,MultitouchATests,SceneTests,KioskConfigTests,RenderTests
# What of them runs: all of them but two of RenderTests' suites, slow emulated: DamageTests
# (random scenes, every frame redrawn whole and by damage: 500 s) and TransformFrameTests (70 s).
# Skipped: the one test that copies kiosk out of the checkout (the copy here is the script below,
# which still runs the checkout's kiosk).
pure_filter='GesturesTests\.|InputEventsTests\.|MultitouchATests\.|SceneTests\.|KioskConfigTests\.|RenderTests\.'
pure_skip='RenderTests\.DamageTests|RenderTests\.TransformFrameTests|fromAHomeDirectoryTheMessageNamesBothPlaces'

tests() {
    # The tests that run the built kiosk (KioskExecutable: check-config, show, calibrate) run the
    # aarch64 release build of the build step, found beside the runner: there kiosk is a script that
    # runs it under qemu-user (this machine has no binfmt_misc entry for aarch64, so a process
    # qemu-user starts is started by this machine's kernel). The test build makes no kiosk of its own.
    [ -x "$kiosk" ] || { log "tests: no $kiosk (the build step makes it)"; return 1; }
    local runner bin status=0
    runner=$(KIOSK_TEST_TARGETS=$pure_targets Tools/build-arm64.sh --tests | tail -n 1)
    bin=$(dirname "$runner")
    rm -f "$bin/kiosk"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$top/$qemu" "$top/$kiosk" > "$bin/kiosk"
    chmod +x "$bin/kiosk"
    local t=$SECONDS
    "$qemu" "$runner" --testing-library swift-testing --filter "$pure_filter" --skip "$pure_skip" \
        > "$work/tests.log" 2>&1 || status=$?
    tail -n 1 "$work/tests.log" >&2
    if [ "$status" -ne 0 ]; then
        grep -E '✘|failed|error' "$work/tests.log" | head -60 >&2
        log "the pure-logic tests failed under qemu-user (status $status)"
        return 1
    fi
    log "the pure-logic tests under qemu-user: $((SECONDS - t)) s of the step"
}

boot() {
    # The default scene, its font beside it (the same file on both sides), stats every second.
    cp "$(sed -n 's/^font *= *"\([^"]*\)".*/\1/p' config/kiosk.toml)" "$work/DejaVuSans.ttf"
    sed -e 's#^font *=.*#font = "DejaVuSans.ttf"#' -e 's#^serial *=.*#serial = "none"#' \
        -e 's#^stats_interval *=.*#stats_interval = 1#' config/kiosk.toml > "$work/kiosk.conf"
    cp traces/demo.evemu "$work/demo.evemu"
    (cd "$work" && "$x86" replay demo.evemu --config kiosk.conf --screenshot replay.png > /dev/null)
    local status=0
    KIOSK_VM_SCREENDUMP=$work/screen.ppm Tests/arm64/boot.sh Tests/arm64/boot-demo.sh \
        "$kiosk" "$work/kiosk.conf" "$work/demo.evemu" "$work/DejaVuSans.ttf" > "$work/console.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ] || ! grep -q '^KIOSK-RUN-STATUS 0' "$work/console.log"; then
        cat "$work/console.log" >&2
        log "the booted aarch64 kiosk failed (status $status)"
        return 1
    fi
    log "the aarch64 kiosk run on the arm64 kernel, settled after the demo: $(sed -n 's/^KIOSK-MEMORY //p' "$work/console.log" | tr -d '\r')"
    python3 Tests/arm64/compare-screen.py "$work/screen.ppm" "$work/replay.png" >&2 \
        || { cat "$work/console.log" >&2; log "the arm64 kernel's screen is not what kiosk replay draws"; return 1; }
}

for step in $steps; do
    case $step in
    build|replay|tests|boot) timed "$step" ;;
    *) log "no step $step"; exit 2 ;;
    esac
done
