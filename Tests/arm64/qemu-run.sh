#!/bin/sh
# Runs an aarch64 program (kiosk built by Tools/build-arm64.sh, or its test runner) on this x86_64
# machine under qemu-user: qemu-aarch64-static, with the arm64 side of the trixie build root
# (Tools/trixie-root.sh) as the root its dynamic loader and libraries come from, and the aarch64
# Swift runtime (libswiftlang:arm64) on the library path.
#
#   Tests/arm64/qemu-run.sh PROGRAM [ARG...]
#
# Paths the program opens are looked up in the root first (qemu-user's QEMU_LD_PREFIX), then on
# this machine: the root holds no fonts, so kiosk draws with this machine's font files, as the
# x86_64 build does. KIOSK_ARM64_ROOT names the root (default: `Tools/trixie-root.sh path`).
# Needs qemu-user-static.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
root=${KIOSK_ARM64_ROOT:-$("$top/Tools/trixie-root.sh" path)}
QEMU_LD_PREFIX=$root
LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu:/opt/arm64-swift/usr/lib/swift/linux:/opt/arm64-swift/usr/libexec/swift/lib/swift/linux
export QEMU_LD_PREFIX LD_LIBRARY_PATH
exec qemu-aarch64-static "$@"
