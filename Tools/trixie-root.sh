#!/usr/bin/env bash
# A Debian trixie build root with trixie's own Swift (swiftlang 6.0.3, amd64), and beside it what
# an aarch64 kiosk is made and booted from: the arm64 -dev packages (Debian multiarch), the
# aarch64 Swift modules and runtime (swiftlang:arm64, libswiftlang:arm64, unpacked in
# /opt/arm64-swift), and, in /opt/arm64-vm, Debian's arm64 kernel, busybox and evemu for the
# booted test (Tests/arm64/boot.sh).
#
#   Tools/trixie-root.sh path                 # makes the root if needed; prints its folder
#   Tools/trixie-root.sh run [--] CMD [ARG…]  # runs CMD inside it, in the repository
#
# Cached outside the clone, so that every fresh clone on this machine reuses it:
# ${KIOSK_CACHE:-/var/cache/kiosk-ci}/trixie-root-KEY.tar.zst (the debootstrap, about 700 MB),
# unpacked beside it as trixie-root-KEY/. KEY is a hash of this file's recipe below: a change to the
# package lists makes a new root. Cold, the root takes a few minutes (debootstrap and apt over the
# network); warm, nothing.
#
# `run` works in a mount namespace of its own (nothing stays mounted afterwards): /proc (trixie's
# swift finds its libraries through $ORIGIN, which needs /proc/self/exe), /dev, the repository at
# the same path as outside (so paths compiled in, #filePath and resource bundles, hold outside too), this machine's Swift package mirrors read-only at the same path with a git config
# `url.<mirror>.insteadOf https://github.com/` (as this machine's own git config has), and a
# fresh /tmp and /root. Everything it builds lands in the repository (use a --scratch-path).
# Needs root (debootstrap, chroot, mount), debootstrap, zstd and network access to a Debian mirror.
set -euo pipefail
umask 022
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cache=${KIOSK_CACHE:-/var/cache/kiosk-ci}
log() { echo "trixie-root: $*" >&2; }

# The recipe. The amd64 packages: Swift and what kiosk's C modules link (Package.swift's
# systemLibrary targets), plus git for SwiftPM. The arm64 ones sit beside them (multiarch).
dev_pkgs="libevdev-dev libmtdev-dev libdrm-dev libcairo2-dev libfreetype-dev libmosquitto-dev linux-libc-dev"
amd64_pkgs="swiftlang libstdc++-14-dev libc6-dev pkg-config git ca-certificates $dev_pkgs"
arm64_pkgs="libc6-dev libstdc++-14-dev libgcc-14-dev $dev_pkgs"
# Unpacked, not installed: the aarch64 Swift (modules, swiftrt.o, the runtime's .so files), and
# for the booted test a static busybox, evemu and its library.
arm64_swift_pkgs="swiftlang libswiftlang"
arm64_vm_pkgs="busybox-static evemu-tools libevemu3t64"
recipe_version=2
key=$(printf '%s\n' "$recipe_version" "$amd64_pkgs" "$arm64_pkgs" "$arm64_swift_pkgs" "$arm64_vm_pkgs" | md5sum | cut -c1-10)
tarball=$cache/trixie-root-$key.tar.zst
root=$cache/trixie-root-$key
mirror=${KIOSK_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# Runs a command in ROOT with /proc, /dev and resolv.conf, in a private mount namespace.
in_root() {
    local r=$1; shift
    unshare --mount --propagation private -- bash -c '
        r=$1; shift
        mount -t proc proc "$r/proc"
        mount --rbind /dev "$r/dev"
        cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
        exec chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"' in_root "$r" "$@"
}

make_tarball() {
    local work=$cache/trixie-root-$key.work
    rm -rf "$work"
    log "debootstrap trixie (minbase + $amd64_pkgs) into $work"
    local t=$SECONDS
    debootstrap --variant=minbase --include="${amd64_pkgs// /,}" trixie "$work" "$mirror" > "$cache/debootstrap.log" 2>&1 \
        || { tail -20 "$cache/debootstrap.log" >&2; log "debootstrap failed (all of it in $cache/debootstrap.log)"; exit 1; }
    log "debootstrap: $((SECONDS - t)) s; now the arm64 side"
    in_root "$work" sh -euc '
        dpkg --add-architecture arm64
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends $(for p in $1; do echo "$p:arm64"; done) > /dev/null
        mkdir -p /opt/arm64-swift /opt/arm64-vm /tmp/debs
        cd /tmp/debs
        apt-get -o APT::Sandbox::User=root download -qq $(for p in $2; do echo "$p:arm64"; done)
        for d in *.deb; do dpkg-deb -x "$d" /opt/arm64-swift; done
        rm -f *.deb
        kernel=$(apt-cache depends linux-image-arm64:arm64 | awk "/Depends: linux-image-/{print \$2; exit}")
        apt-get -o APT::Sandbox::User=root download -qq $(for p in $3; do echo "$p:arm64"; done) "$kernel"
        for d in *.deb; do dpkg-deb -x "$d" /opt/arm64-vm; done
        echo "${kernel#linux-image-}" | sed "s/:arm64\$//" > /opt/arm64-vm/kernel-version
        cd / && rm -rf /tmp/debs
        apt-get clean
        rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man /usr/share/locale
        # What neither build uses: the programs and tool libraries of the aarch64 toolchain (only
        # its lib/swift and lib/swift_static are for targets), and Embedded Swift on both sides.
        a=/opt/arm64-swift/usr/libexec/swift
        rm -rf "$a/bin" "$a/libexec" "$a"/lib/*.so* "$a/lib/swift/host" "$a/lib/swift/embedded" \
            "$a/lib/swift/FrameworkABIBaseline" "$a/lib/swift/migrator" /usr/libexec/swift/lib/swift/embedded
    ' trixie-root "$arm64_pkgs" "$arm64_swift_pkgs" "$arm64_vm_pkgs"
    # No fonts: under qemu-user (QEMU_LD_PREFIX=this root) a file the root has shadows this
    # machine's, and the aarch64 kiosk must draw with the same font file as the x86_64 one.
    rm -rf "$work/usr/share/fonts"
    rm -f "$cache"/trixie-root-*.tar.zst
    tar -C "$work" --zstd -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$work"
    log "root made and cached as $tarball: $((SECONDS - t)) s"
}

ensure_root() {
    mkdir -p "$cache"
    exec 8>"$cache/trixie-root.lock"
    flock 8
    [ -f "$tarball" ] || make_tarball
    if [ ! -f "$root/.unpacked" ]; then
        local t=$SECONDS
        for old in "$cache"/trixie-root-*/; do [ "${old%/}" = "$root" ] || rm -rf "${old%/}"; done
        rm -rf "$root" && mkdir -p "$root"
        tar -C "$root" --zstd -xf "$tarball"
        touch "$root/.unpacked"
        log "unpacked $tarball: $((SECONDS - t)) s"
    fi
    flock -u 8
}

[ "$(id -u)" = 0 ] || { log "needs root (debootstrap, chroot, mount)"; exit 1; }
case "${1:-}" in
path)
    ensure_root
    echo "$root" ;;
run)
    shift
    [ "${1:-}" = -- ] && shift
    [ $# -gt 0 ] || { echo "usage: $0 run [--] CMD [ARG...]" >&2; exit 2; }
    ensure_root
    # The Swift package mirrors this machine's git resolves github.com to (its insteadOf rules).
    mirrors=$(git config --get-regexp '^url\..*\.insteadof$' 'https://github.com/' 2>/dev/null \
        | sed -E 's/^url\.(.*)\.insteadof .*/\1/' | grep '^/' || true)
    unshare --mount --propagation private -- bash -c '
        set -e
        r=$1 top=$2 mirrors=$3; shift 3
        mount -t proc proc "$r/proc"
        mount --rbind /dev "$r/dev"
        mount -t tmpfs tmpfs "$r/tmp"
        mount -t tmpfs tmpfs "$r/root"
        cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true   # no mirror: SwiftPM fetches from GitHub
        mkdir -p "$r$top"
        mount --bind "$top" "$r$top"
        for m in $mirrors; do
            mkdir -p "$r$m"
            mount --bind -o ro "$m" "$r$m"
            chroot "$r" git config --global "url.$m.insteadOf" https://github.com/
        done
        chroot "$r" git config --global --add safe.directory "*"
        exec chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root LANG=C.UTF-8 ${PKG_CONFIG_PATH:+PKG_CONFIG_PATH=$PKG_CONFIG_PATH} \
            sh -c "cd \"\$0\" && exec \"\$@\"" "$top" "$@"' run "$root" "$top" "$mirrors" "$@" ;;
*)
    echo "usage: $0 path | run [--] CMD [ARG...]" >&2; exit 2 ;;
esac
