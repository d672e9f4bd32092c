#!/usr/bin/env bash
# Checks an arm64 kiosk package on this (x86_64) machine, as far as qemu-user reaches: the
# package unpacked; an arm64 Debian root made from nothing but its Depends (debootstrap --foreign
# --include=<Depends>, every package unpacked: what apt would pull onto a Pi); every library the
# binary needs, and every library those need, found in that root and built for aarch64 (ldd's
# work, done with readelf, since ldd cannot run an aarch64 loader here); then `kiosk replay` of
# traces/demo.evemu with the package's own config under qemu-aarch64-static, against the root's
# libraries and font, whose events, state and screenshot must equal this machine's kiosk's for
# the same trace, config and font.
#
#   Tests/package/arm64-package.sh DEB [KIOSK]
#
#   DEB     kiosk_<version>_arm64.deb (deploy/make-deb.sh --arch arm64)
#   KIOSK   this machine's kiosk to compare with (default .build/debug/kiosk)
#
# Prints "KIOSK-ARM64 <fact>" lines; exits non-zero on the first failed check. The root is cached
# under $KIOSK_VM_DIR (default .build-vm/) as a tarball named by the Depends it was made from.
# Needs root (debootstrap), debootstrap, zstd, qemu-user-static (qemu-aarch64-static) and a
# Debian mirror.
set -euo pipefail
umask 022
deb=$(readlink -f "${1:?usage: arm64-package.sh DEB [KIOSK]}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
host_kiosk=$(readlink -f "${2:-$top/.build/debug/kiosk}")
work=${KIOSK_VM_DIR:-$top/.build-vm}
mkdir -p "$work"
work=$(cd "$work" && pwd)
say() { echo "KIOSK-ARM64 $*"; }
fail() { say "FAILED $*"; exit 1; }

[ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ] || fail "$deb is not an arm64 package"
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
dpkg-deb -x "$deb" "$run/package"
kiosk=$run/package/usr/bin/kiosk
say "package $(basename "$deb") version $(dpkg-deb -f "$deb" Version) binary $(stat -c %s "$kiosk") bytes"

# 1. The root: the package's Depends (the first of each alternative: trixie's names), unpacked.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/ //g' | grep . | sort -u | paste -sd,)
say "depends $depends"
# Named by the Depends and by this step's recipe: either changed makes a new root.
key=$(printf '%s\n' "trixie arm64 $depends" "$(sed -n '/^# 1\. The root/,/^# 2\. /p' "$0")" | md5sum | cut -c1-8)
tarball=$work/arm64-root-trixie-$key.tar.zst
root=$work/arm64-root-trixie-$key
exec 9>"$work/arm64-root.lock"
flock 9
if [ ! -f "$tarball" ]; then
    t=$SECONDS
    rm -rf "$root.work"
    # --foreign: unpacked, nothing run (an arm64 maintainer script would need emulation).
    debootstrap --arch=arm64 --foreign --variant=minbase --include="$depends" trixie "$root.work" \
        "${KIOSK_DEBIAN_MIRROR:-http://deb.debian.org/debian}" > "$work/arm64-root.log" 2>&1 \
        || { tail -20 "$work/arm64-root.log"; fail "debootstrap (all of it in $work/arm64-root.log)"; }
    # The first stage unpacks only what the second would run with; the rest is downloaded. Every
    # package is unpacked, none configured: the files are all this check reads.
    for d in "$root.work"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$d" "$root.work"; done
    rm -rf "$root.work"/var/cache/apt/archives/*.deb "$root.work"/debootstrap "$root.work"/usr/share/{doc,man,locale}
    rm -f "$work"/arm64-root-trixie-*.tar.zst
    tar -C "$root.work" --zstd -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$root.work"
    say "root made in $((SECONDS - t)) s"
fi
if [ ! -d "$root" ]; then
    rm -rf "$work"/arm64-root-trixie-*/ "$root.tmp"
    mkdir "$root.tmp" && tar -C "$root.tmp" --zstd -xf "$tarball" && mv "$root.tmp" "$root"
fi
flock -u 9

# 2. ldd's work: each NEEDED name, breadth first, in the loader's default folders of the root.
find_lib() {
    local d
    for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib; do
        [ -e "$root/$d/$1" ] && { readlink -f "$root/$d/$1" | sed "s|^$(readlink -f "$root")||"; return 0; }
    done
    return 1
}
needed_of() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
queue=$(needed_of "$kiosk")
say "needs $(echo "$queue" | paste -sd' ')"
seen=" "
missing=0
while [ -n "$queue" ]; do
    next=
    for lib in $queue; do
        case $seen in *" $lib "*) continue ;; esac
        seen="$seen$lib "
        if path=$(find_lib "$lib"); then
            readelf -h "$root$path" | grep -q 'Machine:.*AArch64' || { say "NOT-AARCH64 $lib $path"; missing=$((missing + 1)); continue; }
            say "resolved $lib $path"
            next="$next $(needed_of "$root$path" | tr '\n' ' ')"
        else
            say "MISSING $lib"; missing=$((missing + 1))
        fi
    done
    queue=$(echo "$next" | tr ' ' '\n' | grep . | sort -u || true)
done
[ "$missing" = 0 ] || fail "$missing libraries do not resolve in the root made from the package's Depends"
say "libraries all $(echo "$seen" | wc -w) resolve"

# 3. The package's kiosk replays the demo under qemu-user with the package's config; the font is
#    the root's (trixie's DejaVu differs from bookworm's), for both sides.
font=$(grep -m 1 '^font *=' "$run/package/etc/kiosk/kiosk.conf" | sed 's/^font *= *"\([^"]*\)".*/\1/')
[ -f "$root$font" ] || fail "the config's font $font is not in the root (fonts-dejavu-core in Depends?)"
sed "s|^font *= *\"$font\"|font = \"$root$font\"|" "$run/package/etc/kiosk/kiosk.conf" > "$run/kiosk.conf"
cp "$top/traces/demo.evemu" "$run/demo.evemu"
# replay SIDE [RUNNER...] KIOSK: its events, state and screenshot as $run/SIDE.*
replay() {
    local side=$1; shift
    (cd "$run" && "$@" replay demo.evemu --config kiosk.conf --events "$side.events" --state "$side.state" --screenshot "$side.png")
}
command -v qemu-aarch64-static >/dev/null || fail "no qemu-aarch64-static (apt-get install qemu-user-static)"
qemu-aarch64-static -L "$root" "$kiosk" --version > "$run/version" \
    || fail "kiosk --version under qemu-aarch64-static"
say "version $(cat "$run/version")"
# The peak RSS is qemu's: the emulated kiosk's memory plus the translator's.
t=$(date +%s.%N)
replay arm64 /usr/bin/time -f '%M' -o "$run/rss" qemu-aarch64-static -L "$root" "$kiosk" \
    || fail "kiosk replay under qemu-aarch64-static"
say "replay seconds $(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') max-rss-kb $(cat "$run/rss")"
replay amd64 /usr/bin/time -f '%M' -o "$run/rss-host" "$host_kiosk" || fail "kiosk replay on this machine"
say "replay on $(uname -m) max-rss-kb $(cat "$run/rss-host")"
for output in events state png; do
    cmp -s "$run/arm64.$output" "$run/amd64.$output" || fail "the replay's $output differs between aarch64 and $(uname -m)"
done
say "replay identical events $(wc -l < "$run/arm64.events") lines, state, screenshot $(stat -c %s "$run/arm64.png") bytes"
say "OK"
