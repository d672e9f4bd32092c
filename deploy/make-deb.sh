#!/bin/sh
# Makes kiosk_<version>-<revision>_<arch>.deb with dpkg-deb: a package a Raspberry Pi (arm64) or
# a PC (amd64) installs with apt, no Swift toolchain needed there.
#
#   deploy/make-deb.sh [--arch amd64|arm64] [--binary PATH] [--revision N] [--out DIR] [--compression C]
#
#   --arch ARCH     the package's architecture (default: this machine's, dpkg --print-architecture)
#   --binary PATH   the kiosk executable, built with --static-swift-stdlib (the Swift runtime in
#                   the binary, so the package needs only Debian's libraries). Default for this
#                   machine's architecture: a release build made here (swift build -c release
#                   --static-swift-stdlib, in .build-static); another architecture's must be
#                   given (docs/deploying.md says where the arm64 one is made).
#   --revision N    the Debian revision (default 1): a package of the same kiosk made again
#   --out DIR       where the .deb goes (default: the current folder)
#   --maintainer M  "Name <address>" for the control file and changelog (default: Debian's
#                   DEBFULLNAME and DEBEMAIL, else git's user.name and user.email, else the
#                   author of the checkout's last commit)
#   --compression C dpkg-deb's: xz (the default, the smallest), gzip (ten times faster, a third
#                   bigger: what the tests use), zstd or none
#
# The version is read out of the binary (Tools/version.sh stamped it at build time), so a
# package cannot say one version and hold another. It installs what deploy/install.sh installs,
# in Debian's places (/usr/bin, /usr/lib/systemd/system, /usr/lib/sysusers.d, /etc/kiosk as a
# conffile), and its maintainer scripts are the ones debhelper writes (dh_installsysusers,
# dh_installsystemd), plus install.sh's MQTT drop-in and serial getty masking (deploy/debian/).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
arch=
binary=
revision=1
out=.
compression=xz
maintainer=
while [ $# -gt 0 ]; do
    case $1 in
        --arch) arch=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --revision) revision=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --compression) compression=$2; shift 2 ;;
        --maintainer) maintainer=$2; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) echo "make-deb.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
say() { echo "make-deb.sh: $*" >&2; }
fail() { say "$*"; exit 1; }
host=$(dpkg --print-architecture)
[ -n "$arch" ] || arch=$host
case $arch in
    amd64) machine="X86-64" ;;
    arm64) machine="AArch64" ;;
    *) fail "--arch: amd64 or arm64, not '$arch'" ;;
esac
case $revision in [0-9]*) ;; *) fail "--revision: a number, not '$revision'" ;; esac
if [ -z "$maintainer" ]; then
    if [ -n "${DEBEMAIL:-}" ]; then
        maintainer="${DEBFULLNAME:-kiosk} <$DEBEMAIL>"
    elif email=$(git -C "$top" config user.email 2>/dev/null); then
        maintainer="$(git -C "$top" config user.name 2>/dev/null || echo kiosk) <$email>"
    else
        maintainer=$(git -C "$top" log -1 --format='%an <%ae>' 2>/dev/null || true)
    fi
fi
case $maintainer in *?' <'?*@?*'>') ;; *) fail "--maintainer: 'Name <address>', not '$maintainer' (or set DEBFULLNAME and DEBEMAIL)" ;; esac

if [ -z "$binary" ]; then
    if [ "$arch" = "$host" ]; then
        say "building kiosk (release, Swift runtime linked statically) in $top/.build-static"
        (cd "$top" && swift build -c release --product kiosk --static-swift-stdlib --scratch-path .build-static >&2)
        binary=$top/.build-static/release/kiosk
    else
        fail "--binary PATH: the $arch kiosk, built with --static-swift-stdlib (docs/deploying.md)"
    fi
fi
[ -f "$binary" ] || fail "no kiosk executable at $binary (pass --binary PATH)"

# The binary: the architecture asked for, and no Swift runtime library to find on the Pi.
readelf -h "$binary" | grep -q "Machine:.*$machine" || fail "$binary is not built for $arch: $(readelf -h "$binary" | grep Machine:)"
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if echo "$needed" | grep -q '^libswift\|^libFoundation\|^libdispatch\|^libBlocksRuntime'; then
    fail "$binary links the Swift runtime dynamically ($(echo "$needed" | grep '^libswift\|^libFoundation\|^libdispatch' | head -3 | paste -sd' ')...); build it with --static-swift-stdlib"
fi
version=$(grep -a -o 'kiosk-version [0-9][0-9A-Za-z.+~]*' "$binary" | head -n 1 | cut -d' ' -f2)
[ -n "$version" ] || fail "$binary holds no version stamp (Tools/version.sh): not a kiosk built from this tree?"

# Depends: every library the binary needs, by the Debian package that holds it (bookworm's and
# trixie's names), and the font. A library missing from this list stops the build: say where it
# comes from before shipping it.
depends=
for lib in $needed; do
    case $lib in
        libc.so.6|libm.so.6|libdl.so.2|libpthread.so.0|librt.so.1|libutil.so.1|ld-linux-*) dep=libc6 ;;
        libstdc++.so.6) dep=libstdc++6 ;;
        libgcc_s.so.1) dep=libgcc-s1 ;;
        libz.so.1) dep=zlib1g ;;
        libevdev.so.2) dep=libevdev2 ;;
        libmtdev.so.1) dep="libmtdev1t64 | libmtdev1" ;;
        libdrm.so.2) dep=libdrm2 ;;
        libcairo.so.2) dep=libcairo2 ;;
        libfreetype.so.6) dep=libfreetype6 ;;
        libmosquitto.so.1) dep=libmosquitto1 ;;
        *) fail "$binary needs $lib, which has no Debian package in make-deb.sh's list" ;;
    esac
    case ", $depends, " in *", $dep, "*) ;; *) depends="${depends:+$depends, }$dep" ;; esac
done
# The newest glibc symbol version the binary uses is the oldest libc6 it runs on.
glibc=$(readelf --dyn-syms -W "$binary" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
[ -z "$glibc" ] || depends=$(echo "$depends" | sed "s/\(^\|, \)libc6\(,\|$\)/\1libc6 (>= $glibc)\2/")
depends="$depends, fonts-dejavu-core"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
debian=$root/DEBIAN
mkdir -p "$debian"
install -D -m 0755 "$binary" "$root/usr/bin/kiosk"
# The debug information is most of the file (dh_strip does the same); the toolchain's objcopy
# reads either architecture, the system's strip only its own.
objcopy=$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /nonexistent)")")/llvm-objcopy
if [ -x "$objcopy" ]; then
    "$objcopy" --strip-all --remove-section=.comment "$root/usr/bin/kiosk"
elif command -v llvm-strip >/dev/null 2>&1; then
    llvm-strip --strip-all --remove-section=.comment "$root/usr/bin/kiosk"
elif [ "$arch" = "$host" ]; then
    strip --strip-all --remove-section=.comment "$root/usr/bin/kiosk"
else
    fail "no llvm-objcopy (Swift's toolchain) or llvm-strip to strip a $arch binary"
fi
# The unit and the package's documentation point at the package's paths, not install.sh's.
sed -e 's|/usr/local/bin/kiosk|/usr/bin/kiosk|g' \
    -e 's|/usr/local/share/doc/kiosk/README.md|/usr/share/doc/kiosk/README.md.gz|' \
    -e 's|Installed by deploy/install.sh.|Installed by the kiosk package (deploy/make-deb.sh).|' \
    "$here/kiosk.service" > "$stage/kiosk.service"
install -D -m 0644 "$stage/kiosk.service" "$root/usr/lib/systemd/system/kiosk.service"
install -D -m 0644 "$here/kiosk.sysusers" "$root/usr/lib/sysusers.d/kiosk.conf"
install -D -m 0644 "$here/kiosk-backlight.rules" "$root/usr/lib/udev/rules.d/90-kiosk-backlight.rules"
install -D -m 0644 "$top/config/kiosk.toml" "$root/etc/kiosk/kiosk.conf"
doc=$root/usr/share/doc/kiosk
install -D -m 0644 "$here/kiosk-mqtt.conf" "$root/usr/share/kiosk/kiosk-mqtt.conf"
install -D -m 0644 "$here/kiosk-gpio.conf" "$doc/kiosk-gpio.conf"
install -D -m 0644 "$here/raspberry-pi/config.txt" "$doc/raspberry-pi/config.txt"
install -D -m 0644 "$here/raspberry-pi/cmdline.txt" "$doc/raspberry-pi/cmdline.txt"
install -D -m 0644 "$here/debian/copyright" "$doc/copyright"
gzip -9n < "$top/README.md" > "$doc/README.md.gz"
# The reference the README links to, one file per topic (compressed, as Debian wants its docs).
mkdir -p "$doc/docs"
for page in "$top"/docs/*.md; do gzip -9n < "$page" > "$doc/docs/${page##*/}.gz"; chmod 0644 "$doc/docs/${page##*/}.gz"; done
date=$(git -C "$top" log -1 --format=%aD 2>/dev/null || date -R)
printf 'kiosk (%s) unstable; urgency=medium\n\n  * kiosk %s, packaged by deploy/make-deb.sh.\n\n -- %s  %s\n' \
    "$version-$revision" "$version" "$maintainer" "$date" | gzip -9n > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz" "$doc/README.md.gz"

for script in postinst prerm postrm; do install -m 0755 "$here/debian/$script" "$debian/$script"; done
echo /etc/kiosk/kiosk.conf > "$debian/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs md5sum) > "$debian/md5sums"
cat > "$debian/control" <<EOF
Package: kiosk
Version: $version-$revision
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends, systemd
Section: misc
Priority: optional
Description: touch kiosk for a Raspberry Pi touchscreen, drawn straight to DRM
 kiosk turns a touchscreen into a touch kiosk: evdev input, a gesture engine
 with UIKit's semantics, a scene drawn with cairo into DRM dumb buffers, one
 poll loop; a control socket, hooks and MQTT with Home Assistant discovery.
 It runs as the systemd service kiosk.service, configured by
 /etc/kiosk/kiosk.conf.
EOF
mkdir -p "$out"
deb=$out/kiosk_${version}-${revision}_$arch.deb
dpkg-deb --root-owner-group "-Z$compression" --build "$root" "$deb" >/dev/null
say "made $deb ($(du -k "$deb" | cut -f1) kB; kiosk $version, Depends: $depends, systemd)"
echo "$deb"
