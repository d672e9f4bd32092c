#!/usr/bin/env bash
# Cross-compiles kiosk for aarch64 (aarch64-unknown-linux-gnu, a Raspberry Pi 3/4/5 on a 64-bit
# OS) on this x86_64 machine, with Debian trixie's own Swift (swiftlang 6.0.3, amd64) in the
# trixie build root of Tools/trixie-root.sh: against the arm64 -dev packages beside it (Debian
# multiarch) and the aarch64 Swift modules and runtime of swiftlang:arm64 and libswiftlang:arm64.
#
#   Tools/build-arm64.sh [--static-swift-stdlib] [--tests]
#
#   (default)              release build of kiosk, Swift runtime linked dynamically:
#                          .build-arm64/release/kiosk (needs libswiftlang's .so files on the Pi,
#                          in /usr/lib/swift/linux as trixie's libswiftlang package puts them)
#   --static-swift-stdlib  release build of kiosk with the Swift runtime (stdlib, Foundation,
#                          Dispatch) linked in: .build-arm64-static/release/kiosk, which needs only
#                          Debian's C libraries (libc6, libstdc++6, libgcc-s1, libevdev2, libmtdev1,
#                          libdrm2, libcairo2, libfreetype6, libmosquitto1): what a .deb ships
#   --tests                release build with testing enabled of kiosk and every test target, for
#                          running the pure-logic tests under qemu-user: .build-arm64-tests/release/kioskPackageTests.xctest;
#                          with KIOSK_TEST_TARGETS=A,B,... only those test targets and what they
#                          import (Package.swift's end), without kiosk itself
#
# The last line printed on standard output is the built file's path. Compiler warnings in the
# project's own code are printed and make the build fail (status 3), as in .ci/run.
# Run the result on this machine with Tests/arm64/qemu-run.sh (qemu-user), or boot it with
# Tests/arm64/boot.sh. Needs root (the build root's chroot): see Tools/trixie-root.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
static= tests=
for arg in "$@"; do
    case $arg in
    --static-swift-stdlib) static=1 ;;
    --tests) tests=1 ;;
    *) echo "usage: $0 [--static-swift-stdlib] [--tests]" >&2; exit 2 ;;
    esac
done

# Inside the root (Tools/trixie-root.sh): the aarch64 Swift unpacked in /opt/arm64-swift.
# Its lib/swift_static is a whole resource folder too (modules, swiftrt.o, the static libraries
# and static-stdlib-args.lnk, which the driver looks for in the resource folder it is given).
resource=/opt/arm64-swift/usr/libexec/swift/lib/swift
if [ -n "$tests" ]; then
    scratch=.build-arm64-tests
    # Optimised, testing enabled for @testable: emulated, the pure-logic tests run in 18 s instead
    # of 326 s unoptimised. Release (whole-module) rather than debug with -O: 232 s to build the
    # pure targets from nothing instead of 263 s (395 CPU seconds instead of 478), and 18 s to
    # run instead of 24.
    flags=(-c release --build-tests -Xswiftc -enable-testing)
    out=$scratch/release/kioskPackageTests.xctest
elif [ -n "$static" ]; then
    scratch=.build-arm64-static
    resource=/opt/arm64-swift/usr/libexec/swift/lib/swift_static
    flags=(-c release --product kiosk --static-swift-stdlib)
    out=$scratch/release/kiosk
else
    scratch=.build-arm64
    flags=(-c release --product kiosk)
    out=$scratch/release/kiosk
fi
flags+=(--triple aarch64-unknown-linux-gnu --sdk /
        -Xswiftc -resource-dir -Xswiftc "$resource" -Xswiftc -use-ld=lld -Xlinker "-L$resource/linux")

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# SwiftPM reads the .pc files itself and honours PKG_CONFIG_PATH (not PKG_CONFIG_LIBDIR): without
# it the amd64 ones win and the link fails ("incompatible with elf64-x86-64").
status=0
PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
    "$here/trixie-root.sh" run env ${KIOSK_TEST_TARGETS:+"KIOSK_TEST_TARGETS=$KIOSK_TEST_TARGETS"} swift build --scratch-path "$scratch" "${flags[@]}" > "$log" 2>&1 || status=$?
tail -n 5 "$log" >&2
if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    echo "build-arm64: swift build failed (status $status)" >&2
    exit 1
fi
if grep -E "^$top/(Sources|Tests)/.*: warning:" "$log" >&2; then
    echo "build-arm64: the project's own code has compiler warnings with Swift 6.0.3 (above)" >&2
    exit 3
fi
echo "$top/$out"
