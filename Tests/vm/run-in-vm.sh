#!/usr/bin/env bash
# Boots Debian's own kernel under qemu (TCG, no KVM) with virtio-gpu and uinput, runs one shell
# script inside as init's only job, and prints the serial console. The real kernel interfaces
# (/dev/uinput, /dev/input/event*, /dev/dri/card0) that this machine lacks are there inside.
#
#   Tests/vm/run-in-vm.sh SCRIPT [FILE...]
#
# FILEs are copied to /payload in the VM, executables with the shared libraries ldd lists;
# evemu-device, evemu-play, evemu-record and evemu-describe are always there, and the script
# runs with Tests/vm/helpers.sh sourced (section, wait_for, opened, still, quiet, settled). The script's exit status is
# printed as "KIOSK-VM-EXIT <status>" and becomes this command's. Everything the VM needs (the
# kernel package, its modules, busybox) is cached under $KIOSK_VM_DIR (default .build-vm/).
# Needs: qemu-system-x86 busybox-static cpio kmod evemu-tools (installed by .ci/run).
#
# With KIOSK_VM_SCREENDUMP=FILE.ppm, the QEMU monitor listens on a socket, and when the script
# prints a line "KIOSK-SCREENDUMP" the screen (virtio-gpu's scanout) is saved to FILE.ppm with
# the monitor's screendump ("KIOSK-SCREENDUMP:NAME" saves FILE-NAME.ppm). A script that prints
# the line itself goes on at once, so it must hold the frame a few seconds; `screendump [NAME]`
# prints it and returns only once the host has saved the screen (the host says so on a third
# serial port, /dev/ttyS2 inside), so the script need not guess how long to hold it.
#
# With KIOSK_VM_SERIAL2=FILE, a second serial port (/dev/ttyS1 inside) is written to FILE: a
# kiosk's serial console log, kept apart from the script's output on the first.
#
# With KIOSK_VM_NETWORK=1, the VM has a virtio-net card on QEMU's user-mode network, set up
# before the script runs: the guest is 10.0.2.15, and 10.0.2.2 is this machine's 127.0.0.1 (a
# broker the test starts there is reached from inside at 10.0.2.2).
set -euo pipefail
. "$(dirname "$0")/initramfs.sh"

script=${1:?usage: run-in-vm.sh SCRIPT [FILE...]}
shift
work=${KIOSK_VM_DIR:-$PWD/.build-vm}
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The kernel (Tests/vm/kernel.sh fetches it once into the cache).
"$(dirname "$0")/kernel.sh" "$work"
version=$(cat "$work/kernel/version")

# The initramfs: busybox, the modules in load order, evemu, the payload, and an init.
run=$(mktemp -d "$work/run.XXXXXX")
trap 'rm -rf "$run"' EXIT
root=$run/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,payload,modules}
cp /bin/busybox "$root/bin/busybox"
copy_binary() {  # an executable and its shared libraries, at the same paths
    local bin=$1 dest=$2
    cp "$bin" "$dest"
    ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
        mkdir -p "$root$(dirname "$lib")"
        [ -e "$root$lib" ] || cp -L "$lib" "$root$lib"
    done
}
for tool in evemu-device evemu-play evemu-record evemu-describe; do copy_binary "$(command -v $tool)" "$root/bin/$tool"; done
is_elf() { [ "$(head -c4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }
for file in "$@"; do
    if is_elf "$file"; then
        copy_binary "$file" "$root/payload/$(basename "$file")"
    else
        cp "$file" "$root/payload/"
    fi
done
cp "$script" "$root/payload/script.sh"
vm_modules "$root" "$work/kernel" "$version" virtio_gpu uinput evdev virtio_pci virtio_net
# QEMU's user-mode network (KIOSK_VM_NETWORK=1): the first card, with the addresses slirp gives.
vm_init "$root" /dev/ttyS2 '
ip link set lo up 2>/dev/null
for nic in /sys/class/net/*; do
    nic=${nic##*/}
    [ "$nic" = lo ] && continue
    ip link set "$nic" up && ip addr add 10.0.2.15/24 dev "$nic" && ip route add default via 10.0.2.2
    break
done'
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$run/initrd.cpio.gz"

serial="$run/serial.log"
: > "$serial"
monitor=(-monitor none)
watcher=
if [ -n "${KIOSK_VM_SCREENDUMP:-}" ]; then
    monitor=(-monitor "unix:$run/monitor.sock,server,nowait")
    monitor+=(-chardev "socket,id=taken,path=$run/taken.sock,server=on,wait=off" -device isa-serial,chardev=taken,index=2)
    python3 "$(dirname "$0")/screendumps.py" "$serial" "$run/monitor.sock" "$KIOSK_VM_SCREENDUMP" "${KIOSK_VM_TIMEOUT:-180}" "$run/taken.sock" &
    watcher=$!
fi
# With KIOSK_VM_DISPLAY_SIZE=1, QEMU's VNC server listens on a socket, and a script line
# "KIOSK-DISPLAY-SIZE WxH" resizes virtio-gpu's head through it (Tests/vm/display-size.py): the
# guest kernel then sends a real DRM hotplug uevent.
vnc=()
sizer=
if [ -n "${KIOSK_VM_DISPLAY_SIZE:-}" ]; then
    vnc=(-vnc "unix:$run/vnc.sock")
    python3 "$(dirname "$0")/display-size.py" "$serial" "$run/vnc.sock" "${KIOSK_VM_TIMEOUT:-180}" &
    sizer=$!
fi
second=()
if [ -n "${KIOSK_VM_SERIAL2:-}" ]; then
    : > "$KIOSK_VM_SERIAL2"
    second=(-serial "file:$KIOSK_VM_SERIAL2")
fi
network=()
if [ -n "${KIOSK_VM_NETWORK:-}" ]; then
    network=(-netdev user,id=net0 -device virtio-net-pci,netdev=net0)
fi
timeout "${KIOSK_VM_TIMEOUT:-180}" qemu-system-x86_64 -accel tcg -m 512 -smp 1 -vga none -display none -no-reboot \
    -kernel "$work/kernel/vmlinux" -initrd "$run/initrd.cpio.gz" \
    -append "console=ttyS0 quiet panic=-1" \
    -device virtio-gpu-pci,xres=800,yres=480 -serial "file:$serial" "${second[@]}" "${monitor[@]}" "${vnc[@]}" "${network[@]}" || true
vm_stop "$sizer"
vm_stop "$watcher"
vm_exit "$serial" run-in-vm
