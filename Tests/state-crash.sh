#!/usr/bin/env bash
# The power-cut test at length: kills `kiosk run` (headless) with SIGKILL N times (default 2000) at
# random moments while control-socket sets arrive, and checks after each restart that the state file
# parses, that what was restored was acknowledged, and that no set acknowledged longer ago than the
# write interval (plus the write's time) was lost (Tests/CommandTests/PowerCutTests.swift).
#   Tests/state-crash.sh [N]
# Needs a test build: swift build --build-tests. CI runs the same test with 200 kills.
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-2000}
KIOSK_STATE_CRASH_KILLS=$kills swift test --skip-build --filter PowerCutTests 2>&1 | grep -E 'power cuts:|✘|Test run'
