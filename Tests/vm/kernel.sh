#!/usr/bin/env bash
# The kernel every VM test boots: the one Debian's linux-image-amd64 points at, unpacked into
# WORK/kernel with its modules indexed, and its uncompressed ELF (WORK/kernel/vmlinux, which boots
# through PVH in about half the time of the bzImage). WORK/kernel/version names it.
#
#   Tests/vm/kernel.sh WORK
#
# Several VMs may start at once (tests run in parallel): one fetches, the others wait.
set -euo pipefail
work=${1:?usage: kernel.sh WORK}
exec 9>"$work/kernel.lock"
flock 9
if [ ! -s "$work/kernel/version" ]; then
    pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
    [ -n "$pkg" ] || { echo "kernel.sh: apt-cache knows no linux-image-amd64; run apt-get update" >&2; exit 1; }
    rm -rf "$work/kernel" && mkdir -p "$work/kernel"
    (cd "$work" && rm -f linux-image-*.deb && apt-get download -qq "$pkg")
    dpkg -x "$work"/linux-image-*.deb "$work/kernel"
    rm -f "$work"/linux-image-*.deb
    version=${pkg#linux-image-}
    /sbin/depmod -b "$work/kernel" "$version"
    python3 - "$work/kernel/boot/vmlinuz-$version" "$work/kernel/vmlinux" <<'PY'
import lzma, sys
data = open(sys.argv[1], "rb").read()
start = data.find(b"\xfd7zXZ\x00")
if start < 0:
    sys.exit("kernel.sh: no xz stream in " + sys.argv[1])
out = lzma.LZMADecompressor().decompress(data[start:])
open(sys.argv[2], "wb").write(out)
PY
    echo "$version" > "$work/kernel/version"
fi
