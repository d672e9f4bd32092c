#!/usr/bin/env bash
# Boots a real Debian 12 userland with systemd as PID 1 on Debian's own kernel under qemu (TCG,
# no KVM; virtio-gpu, uinput, evdev), with kiosk installed into it by deploy/install.sh --root,
# as an integrator installs it: kiosk.service starts at boot as the `kiosk` user in its sandbox.
# Once the boot is finished, SCRIPT runs as root (a unit of its own) and the VM powers off.
#
#   Tests/vm/service-in-vm.sh [--config FILE] [--no-install] KIOSK SCRIPT [FILE...]
#
#   KIOSK          the kiosk executable to install (its Swift runtime libraries go to /usr/local/lib)
#   --config FILE  installed as /etc/kiosk/kiosk.conf before install.sh, which keeps it
#   --no-install   install.sh is not run: the VM boots without kiosk (SCRIPT installs it, e.g. from
#                  a .deb); KIOSK still decides the libraries in the root
#   FILEs          copied to /payload, SCRIPT's working directory
#
# SCRIPT runs with Tests/vm/helpers.sh sourced, its output on the console (ttyS0), which this
# command prints; its exit status is printed as "KIOSK-VM-EXIT <status>" and becomes this
# command's. `screendump [NAME]` and KIOSK_VM_SCREENDUMP work as in run-in-vm.sh, and
# KIOSK_VM_SERIAL2=FILE keeps what the VM wrote to its second serial port (/dev/ttyS1).
# KIOSK_VM_DISPLAY_SIZE=1: a script line "KIOSK-DISPLAY-SIZE WxH" resizes virtio-gpu's head from
# the host (QEMU's VNC server, Tests/vm/display-size.py), as in run-in-vm.sh: a real DRM hotplug.
# KIOSK_VM_TIMEOUT (default 240) bounds the boot and the script.
#
# Cached under $KIOSK_VM_DIR (default .build-vm/): the kernel (kernel.sh), a debootstrap of
# bookworm as a tarball (rootfs-*.tar.zst: the packages below and the ones kiosk's libraries come
# from), and the base root prepared from it as one cpio (base.cpio); each is rebuilt when what it
# is made of changes. The whole root is the initramfs: the base cpio, then a small cpio of this
# run's files, which the kernel unpacks over it.
# Needs root (debootstrap, chroot) and apt access; qemu-system-x86 debootstrap cpio kmod zstd
# python3 (installed by .ci/run).
set -euo pipefail
umask 022

config=
install=yes
while true; do
    case ${1:-} in
        --config) config=$(readlink -f "$2"); shift 2 ;;
        --no-install) install=no; shift ;;
        *) break ;;
    esac
done
kiosk=$(readlink -f "${1:?usage: service-in-vm.sh [--config FILE] [--no-install] KIOSK SCRIPT [FILE...]}")
script=$(readlink -f "${2:?usage: service-in-vm.sh [--config FILE] [--no-install] KIOSK SCRIPT [FILE...]}")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
work=${KIOSK_VM_DIR:-$PWD/.build-vm}
mkdir -p "$work"
work=$(cd "$work" && pwd)
log() { echo "service-in-vm: $*" >&2; }
t_start=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
[ "$(id -u)" = 0 ] || { log "needs root (debootstrap and chroot)"; exit 1; }

"$here/kernel.sh" "$work"
kver=$(cat "$work/kernel/version")
kdir=$work/kernel

# The libraries kiosk links: the Swift runtime's (outside /lib and /usr/lib) go into the root as
# files; the rest come from the Debian packages that hold them here, which debootstrap installs.
libs=$(ldd "$kiosk" | awk '$3 ~ /^\// { print $3 }')
swift_libs=$(echo "$libs" | grep -Ev '^/(usr/)?lib/' | sort || true)
# One query (dpkg -S is slow); by name, as a merged /usr makes /lib/x and /usr/lib/x one file.
lib_pkgs=$(echo "$libs" | grep -E '^/(usr/)?lib/' | sed -E 's|^/(usr/)?|*/|' | xargs dpkg -S 2>/dev/null | cut -d: -f1 | sort -u | paste -sd,)

# 1. Root file system: debootstrap once, kept as a tarball named by its package list.
pkgs=systemd,systemd-sysv,udev,kmod,procps,fonts-dejavu-core,evemu-tools,$lib_pkgs
tarball=$work/rootfs-bookworm-$(echo "$pkgs" | md5sum | cut -c1-8).tar.zst
exec 8>"$work/rootfs.lock"
flock 8
if [ ! -f "$tarball" ]; then
    log "debootstrap bookworm (minbase + $pkgs)"; t=$(date +%s.%N)
    # The mirror this machine's apt uses, else debootstrap's own default.
    mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 2>/dev/null | awk '$2 == "bookworm" { print $1; exit }')
    rm -rf "$work/debootstrap"
    debootstrap --variant=minbase --include="$pkgs" bookworm "$work/debootstrap" $mirror > "$work/debootstrap.log" 2>&1 \
        || { tail -20 "$work/debootstrap.log" >&2; log "debootstrap failed (all of it in $work/debootstrap.log)"; exit 1; }
    rm -f "$work"/debootstrap/var/cache/apt/archives/*.deb
    rm -f "$work"/rootfs-bookworm-*.tar.zst
    tar -C "$work/debootstrap" --zstd -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball" && rm -rf "$work/debootstrap"
    log "debootstrap and tarball: $(since "$t") s"
fi

# 2. The base root, prepared once from the tarball, and its cpio (newc, uncompressed: the kernel
#    unpacks it faster than it could decompress it under TCG). Rebuilt when the tarball, the
#    kernel, the Swift libraries or this step changes.
base=$work/base
stamp="$kver $(basename "$tarball") $(echo "$swift_libs" | xargs -r ls -lL | awk '{ print $5, $9 }' | md5sum | cut -c1-8) $(sed -n '/^# 2\. The base root/,/^# 3\. /p' "$0" | md5sum | cut -c1-8)"
if [ "$(cat "$base.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -s "$base.cpio" ]; then
    log "base root"; t=$(date +%s.%N)
    rm -rf "$base" "$base.cpio" "$base.stamp"; mkdir "$base"
    tar -C "$base" --zstd -xf "$tarball"
    (
        cd "$base"
        # Nothing that runs reads these; less to unpack at every boot.
        rm -rf usr/share/doc/* usr/share/man/* usr/share/info/* var/lib/apt/lists/* var/cache/apt/*.bin
        find usr/share/locale -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
        # Only the modules this machine needs (the whole tree is 390 MB); udev loads from these.
        for m in virtio_pci virtio_gpu uinput evdev; do
            /sbin/modprobe -d "$kdir" -S "$kver" --show-depends "$m"
        done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r ko; do
            rel=${ko#"$kdir"/}; mkdir -p "$(dirname "$rel")"; cp "$ko" "$rel"
        done
        cp "$kdir/lib/modules/$kver"/modules.{builtin,builtin.modinfo,order} "lib/modules/$kver/"
        /sbin/depmod -b "$base" "$kver"
        printf 'virtio_gpu\nuinput\nevdev\n' > etc/modules-load.d/kiosk-vm.conf
        ln -s /lib/systemd/systemd init   # the initramfs is the root: the kernel runs /init
        echo kiosk-vm > etc/hostname
        # The rest only slow the boot: timers, e2scrub, and getty-static (tty2-6 without dbus).
        # The serial getty on the console stays: install.sh masks it, as on a Pi.
        for u in getty-static.service e2scrub_reap.service apt-daily.timer apt-daily-upgrade.timer \
                 dpkg-db-backup.timer e2scrub_all.timer fstrim.timer; do
            ln -sf /dev/null "etc/systemd/system/$u"
        done
        # kiosk's Swift runtime libraries, where the linker finds them after ldconfig.
        for lib in $swift_libs; do cp -L "$lib" usr/local/lib/; done
    )
    chroot "$base" /sbin/ldconfig
    (cd "$base" && find . | cpio -o -H newc -R 0:0 --quiet) > "$base.cpio"
    rm -rf "$base"   # the cpio is all a boot needs
    echo "$stamp" > "$base.stamp"
    log "base root and cpio: $(since "$t") s ($(du -m "$base.cpio" | cut -f1) MB)"
fi
flock -u 8

# 3. This run's files, in a root of their own, archived after the base.
run=$(mktemp -d "$work/service-run.XXXXXX")
trap 'rm -rf "$run"' EXIT
layer=$run/layer
mkdir -p "$layer/payload" "$layer/usr/local/lib/kiosk-vm" "$layer/usr/local/bin" "$layer/etc/systemd/system/multi-user.target.wants"
chmod 755 "$run" "$layer"   # the archive's "." becomes the root's mode
if [ -n "$config" ]; then install -D -m 0644 "$config" "$layer/etc/kiosk/kiosk.conf"; fi
if [ "$install" = yes ]; then
    "$top/deploy/install.sh" --root "$layer" --binary "$kiosk" > "$run/install.log" 2>&1 \
        || { cat "$run/install.log" >&2; log "install.sh failed"; exit 1; }
else
    # install.sh masks the console's getty; without it the getty's vhangup() would cut the
    # script's output on ttyS0.
    ln -s /dev/null "$layer/etc/systemd/system/serial-getty@ttyS0.service"
fi
for file in "$@"; do cp "$file" "$layer/payload/"; done
cp "$script" "$layer/payload/script.sh"
install -m 0644 "$here/helpers.sh" "$layer/usr/local/lib/kiosk-vm/helpers.sh"
install -m 0755 "$here/screendump.sh" "$layer/usr/local/bin/screendump"
cat > "$layer/usr/local/lib/kiosk-vm/run" <<'RUN'
#!/bin/sh
exec > /dev/ttyS0 2>&1
# The host's word that a screendump was taken (screendump waits for it).
if stty -F /dev/ttyS2 raw -echo 2>/dev/null; then cat /dev/ttyS2 > /tmp/screendumps-taken & fi
state=$(systemctl is-system-running --wait)
echo "KIOSK-VM-READY state=$state uptime=$(cut -d' ' -f1 /proc/uptime)"
[ "$state" = running ] || systemctl --failed --no-pager
cd /payload && sh -c '. /usr/local/lib/kiosk-vm/helpers.sh && . /payload/script.sh'
echo "KIOSK-VM-EXIT $? uptime=$(cut -d' ' -f1 /proc/uptime)"
systemctl poweroff
RUN
chmod 755 "$layer/usr/local/lib/kiosk-vm/run"
# Type=simple: a oneshot still starting would keep the system "starting", and
# is-system-running --wait inside it would never return.
cat > "$layer/etc/systemd/system/kiosk-vm-test.service" <<'UNIT'
[Unit]
Description=the test script of Tests/vm/service-in-vm.sh
[Service]
Type=simple
ExecStart=/usr/local/lib/kiosk-vm/run
[Install]
WantedBy=multi-user.target
UNIT
ln -s ../kiosk-vm-test.service "$layer/etc/systemd/system/multi-user.target.wants/kiosk-vm-test.service"
(cd "$layer" && find . | cpio -o -H newc -R 0:0 --quiet) > "$run/layer.cpio"
cat "$base.cpio" "$run/layer.cpio" > "$run/initrd.cpio"
log "prepared in $(since "$t_start") s"

# 4. Boot. -nodefaults: no NIC, VGA, floppy or CD to probe; poweroff ends qemu (-no-reboot).
#    ttyS0: the console and the script's output; ttyS1: kiosk's serial log; ttyS2: screendumps taken.
serial=$run/serial.log
serial2=${KIOSK_VM_SERIAL2:-$run/serial2.log}
: > "$serial"; : > "$serial2"
limit=${KIOSK_VM_TIMEOUT:-240}
watcher=
if [ -n "${KIOSK_VM_SCREENDUMP:-}" ]; then
    python3 "$here/screendumps.py" "$serial" "$run/monitor.sock" "$KIOSK_VM_SCREENDUMP" "$limit" "$run/taken.sock" &
    watcher=$!
fi
vnc=()
sizer=
if [ -n "${KIOSK_VM_DISPLAY_SIZE:-}" ]; then
    vnc=(-vnc "unix:$run/vnc.sock")
    python3 "$here/display-size.py" "$serial" "$run/vnc.sock" "$limit" &
    sizer=$!
fi
t=$(date +%s.%N)
timeout "$limit" qemu-system-x86_64 -accel tcg -m 1536 -smp 2 -nodefaults -vga none -display none -no-reboot \
    -kernel "$kdir/vmlinux" -initrd "$run/initrd.cpio" \
    -append "console=ttyS0 quiet panic=-1 systemd.show_status=error" \
    -device virtio-gpu-pci,xres=800,yres=480 -serial "file:$serial" -serial "file:$serial2" \
    -chardev "socket,id=taken,path=$run/taken.sock,server=on,wait=off" -device isa-serial,chardev=taken,index=2 \
    -monitor "unix:$run/monitor.sock,server,nowait" "${vnc[@]}" || true
for helper in $sizer $watcher; do
    kill "$helper" 2>/dev/null || true
    wait "$helper" 2>/dev/null || true
done
cat "$serial"
echo "KIOSK-VM-TIMES qemu=$(since "$t") total=$(since "$t_start")"
status=$(sed -n 's/^KIOSK-VM-EXIT \([0-9]*\).*/\1/p' "$serial" | tail -1)
[ -n "$status" ] || { echo "service-in-vm: the VM did not finish its script (see the console above)" >&2; exit 1; }
exit "$status"
